"""When does a frame handed to the sound card reach the ear? The output clock.

PortAudio tells each audio callback when the first frame of its buffer will
reach the DAC (``outputBufferDacTime``): the moment it is *heard*, the
stream's output latency after the callback. :class:`OutputClock` turns
those reports into one line, ``heard(p) = base + p / rate`` for output frame
``p`` (frames counted from the stream's start), on ``time.monotonic()``:

* PortAudio's times are on its own clock (``CLOCK_REALTIME`` with ALSA), so
  :func:`clock_offset` measures the offset to the monotonic clock once, from
  the closest of a few paired readings, outside the callback.
  (``time.monotonic()`` read inside the callback would add the time it took
  to get into Python — the GIL, cffi — up to 18 ms under load.)
* Each callback gives one estimate of ``base``; the clock keeps the median
  of the last :data:`CLOCK_WINDOW`. One noisy estimate moves nothing, while a
  real shift — silence inserted downstream, which PortAudio does not always
  flag — wins within a few callbacks and is counted as a *jump*. The first
  callbacks of a stream may report ``outputBufferDacTime == currentTime``
  (ALSA's ``pulse`` plugin, before the server's own latency shows): the
  median outvotes them once the stream runs. (Keeping the largest estimate,
  as a first version did, ratcheted the clock up to 4 ms late with noise.)
* A stream is not yet playing while PortAudio fills its buffer: the first
  callbacks come at once, one after another, and their DAC times assume the
  device plays from the first of them. PulseAudio (through ALSA's ``pulse``
  plugin) may then wait before it starts the stream — 0.5–0.9 s measured on
  a desktop's idle sink — and every frame is heard that much later than those
  first reports said: a late start, not a gap (a recording of the sink's
  monitor has every stroke on the grid). So the clock is *running* only from
  the first callback that comes paced (half a block or more after the one
  before) or that finds the buffer already taken (*buffer* seconds and a
  block handed over): the estimates made before it are dropped, and moves
  count as jumps only :attr:`OutputClock.settle` seconds after it. (The
  announcer does not wait for it: where the stream starts on time — a sound
  card, a sink already running — the first paced callback comes a block
  after the first frame is heard, and the first stroke would be said 50 ms
  late; on an idle desktop sink the first lines may come early instead.)
* A host API without DAC times (the times are zero, or absurd) falls back on
  the callback's own arrival time.

Only the audio callback writes to the clock; readers (the thread that
announces strokes) read :attr:`OutputClock.base`, one float, atomically.
"""

from __future__ import annotations

import collections
import time

#: Callbacks whose estimates of the clock are pooled (their median).
CLOCK_WINDOW = 9

#: A move of the clock by more than this (seconds), once the stream has
#: settled, is a gap downstream (counted in :attr:`OutputClock.jumps`).
#: Above the clock's own noise: through ALSA's ``pulse`` plugin on a loaded
#: machine the median moves by up to 9 ms at a time (and drifts 25 ms over
#: 8 s) while a recording of the sink's monitor has every stroke on the grid
#: within its 0.5-ms hop; at 5 ms guji said "gaps downstream" nobody heard.
#: The gaps heard under load (server-side underruns) were 30–500 ms.
JUMP = 0.015


def clock_offset(stream_time, tries: int = 7) -> float:
    """``time.monotonic() − stream_time()`` from the closest of *tries* paired readings."""
    best: tuple[float, float] | None = None
    for _ in range(tries):
        m1 = time.monotonic()
        pa = stream_time()
        m2 = time.monotonic()
        if best is None or m2 - m1 < best[0]:
            best = (m2 - m1, (m1 + m2) / 2 - pa)
    assert best is not None
    return best[1]


class OutputClock:
    """The monotonic time at which each output frame is heard.

    Parameters
    ----------
    rate:
        Frames a second.
    offset:
        ``time.monotonic() − PortAudio's time`` (:func:`clock_offset`).
    settle:
        Seconds after the clock starts running (see above) before moves of
        the clock count as jumps (the stream's start-up is not a gap).
    buffer:
        Seconds of the device's buffer (the stream's latency).
    """

    def __init__(self, rate: int, offset: float = 0.0, settle: float = 0.5,
                 buffer: float = 0.0):
        self.rate = rate
        self.offset = offset
        self.settle = settle
        self.buffer = buffer
        self.running = False       #: the stream plays: the clock is the device's
        self._last_now: float | None = None
        self.base = 0.0            #: monotonic time at which output frame 0 is (was) heard
        self.jumps = 0             #: moves of the clock by more than JUMP, after settling
        self.jumped = 0.0          #: seconds the clock moved by in those jumps
        self._estimates: collections.deque[float] = collections.deque(maxlen=CLOCK_WINDOW)
        self._settled: float | None = None
        self._started = False

    def update(self, dac_time: float, current_time: float, frames_before: int,
               now: float, frames: int = 0) -> None:
        """One callback's report: its buffer of *frames* frames (0: not said),
        which starts at output frame *frames_before*, is heard at PortAudio time
        *dac_time*; *now* is the monotonic time (for host APIs without DAC times)."""
        self._note_running(frames_before, now, frames)
        if self._settled is None and self.running:
            self._settled = now + self.settle
        if 0.0 <= dac_time - current_time < 10.0 and dac_time > 0.0:
            estimate = dac_time + self.offset - frames_before / self.rate
        else:
            estimate = now - frames_before / self.rate
        window = self._estimates
        window.append(estimate)
        base = sorted(window)[len(window) // 2]
        if self._started and self.running and now > self._settled \
                and base - self.base > JUMP:
            self.jumps += 1
            self.jumped += base - self.base
        self.base = base
        self._started = True

    def _note_running(self, frames_before: int, now: float, frames: int) -> None:
        """Whether this callback shows the stream playing (the first that does
        drops the estimates of the buffer's filling)."""
        last, self._last_now = self._last_now, now
        if self.running:
            return
        if frames <= 0:                       # blocks unknown: trusted from the first
            self.running = True
        elif last is not None and (now - last >= frames / self.rate / 2
                                   or frames_before > (self.buffer * self.rate + frames)):
            self.running = True
            self._estimates.clear()

    def heard(self, frame: int) -> float:
        """The monotonic time at which output frame *frame* is heard."""
        return self.base + frame / self.rate

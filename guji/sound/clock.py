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
JUMP = 0.005


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
        Seconds after the first callback before moves of the clock count as
        jumps (the stream's start-up is not a gap).
    """

    def __init__(self, rate: int, offset: float = 0.0, settle: float = 0.5):
        self.rate = rate
        self.offset = offset
        self.settle = settle
        self.base = 0.0            #: monotonic time at which output frame 0 is (was) heard
        self.jumps = 0             #: moves of the clock by more than JUMP, after settling
        self.jumped = 0.0          #: seconds the clock moved by in those jumps
        self._estimates: collections.deque[float] = collections.deque(maxlen=CLOCK_WINDOW)
        self._settled: float | None = None
        self._started = False

    def update(self, dac_time: float, current_time: float, frames_before: int,
               now: float) -> None:
        """One callback's report: its buffer (which starts at output frame
        *frames_before*) is heard at PortAudio time *dac_time*; *now* is the
        monotonic time (for host APIs without DAC times)."""
        if self._settled is None:
            self._settled = now + self.settle
        if 0.0 <= dac_time - current_time < 10.0 and dac_time > 0.0:
            estimate = dac_time + self.offset - frames_before / self.rate
        else:
            estimate = now - frames_before / self.rate
        window = self._estimates
        window.append(estimate)
        base = sorted(window)[len(window) // 2]
        if self._started and now > self._settled and base - self.base > JUMP:
            self.jumps += 1
            self.jumped += base - self.base
        self.base = base
        self._started = True

    def heard(self, frame: int) -> float:
        """The monotonic time at which output frame *frame* is heard."""
        return self.base + frame / self.rate

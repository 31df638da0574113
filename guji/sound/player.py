"""The live player: a callback stream fed from a ring, each event announced when heard.

    player = Player(blocks, events, rate=48000, channels=2, on_heard=show)
    report = player.play()          # until the end, a quit(), or Ctrl-C

Three threads
-------------
the feeder (:class:`~guji.sound.ring.BlockRing`)
    renders ahead: it pulls blocks from the renderer and keeps up to
    *ahead* seconds queued, each with the events that fall in it.
PortAudio's callback
    copies queued frames into the device's buffer, and nothing more: no
    lock, no allocation beyond a slice, no print. It updates the output
    clock (:class:`~guji.sound.clock.OutputClock`: output frame ``p`` is
    heard at ``base + p / rate``), and puts each event it sends out, with
    its output frame, on a queue for the announcer. It counts underruns
    (``status.output_underflow``) and callbacks that found no block ready.
the announcer
    takes ``(output frame, payload)`` from that queue, sleeps until the
    frame is heard by the latest clock (looking again every 10 ms, so a gap
    downstream delays it too) and calls ``on_heard(payload, heard)``: the
    stroke display draws, the JSON line is printed, the MIDI note is sent
    when the stroke *sounds*, not when its block was queued (the output
    latency, 0.2 s by default, earlier).

Where allowed the callback and the announcer run with real-time priority
(:mod:`guji.realtime`; :attr:`PlayReport.realtime` says if it was granted).

Transport
---------
:meth:`Player.pause` / :meth:`Player.resume`: the callback plays silence
and holds its place in the blocks (what is already in the device's buffer,
up to one latency, still plays, and is still announced). :meth:`Player.quit`:
the stream is aborted (its buffer dropped) and pending announcements are
dropped. Looping is the renderer's business (:mod:`guji.sound.feed`): the
player plays blocks as long as they come.

The end
-------
After the last block the callback plays silence until the last frame has
been *heard*, plus :data:`TAIL`, and only then stops the stream: stopping
earlier loses the end (PortAudio's stop through ALSA's ``pulse`` plugin cut
the last ~90 ms, about one latency, of a stream).

Latency: :data:`DEFAULT_LATENCY`, 0.2 s, measured (:mod:`guji.defaults`).
The output stopping mid-play (a server killed, a device gone) is noticed and
said, and no call into PortAudio can hang the player: :mod:`guji.sound.stream`.
Waiting for the end, closing and the report are :mod:`guji.sound.player_end`.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable, Iterable

import numpy as np

from ..i18n import _
from ..defaults import LATENCY, RATE, check_latency
from ..library_messages import AlsaMessages
from ..realtime import ANNOUNCER_PRIORITY, AUDIO_PRIORITY, make_realtime
from .clock import OutputClock, clock_offset
from .devices import (AudioDeviceError, check_output, output_device,
                      sounddevice_module)
from .player_end import TAIL, PlayerEnd
from .ring import END, BlockRing, Scheduled

#: Seconds of output buffer asked of PortAudio (see "Latency" above; :mod:`guji.defaults`).
DEFAULT_LATENCY = LATENCY

#: Seconds of rendered audio the feeder keeps ahead (at least twice the latency).
AHEAD = 0.5

#: Seconds of the fade-out when paused (a cut would click).
FADE = 0.005

class Player(PlayerEnd):
    """Play blocks on an audio output; announce each event when it is heard.

    Parameters
    ----------
    blocks:
        float32 arrays, frames × *channels* (any lengths; may be endless).
    events:
        :class:`~guji.sound.ring.Scheduled` items in frame order; each
        payload is given to *on_heard* when its frame is heard.
    rate, channels:
        Sample rate and channels of the blocks and of the stream.
    device:
        Output device: index or (part of) a name; default the system's.
    latency:
        Seconds of output buffer (:data:`DEFAULT_LATENCY`).
    on_heard:
        ``on_heard(payload, heard)`` on the announcer thread, at the
        monotonic time *heard* the event sounds.
    realtime:
        Ask for real-time scheduling of the callback and the announcer.

    Raises
    ------
    AudioDeviceError
        (from :meth:`start`) No PortAudio, no such device, a device that
        cannot take the rate and channels, a stream that cannot be opened.
    """

    def __init__(self, blocks: Iterable[np.ndarray], events: Iterable[Scheduled] = (), *,
                 rate: int = RATE, channels: int = 2, device: int | str | None = None,
                 latency: float = DEFAULT_LATENCY,
                 on_heard: Callable[[Any, float], None] | None = None, realtime: bool = True):
        self.rate, self.channels, self.device = rate, channels, device
        self.latency = check_latency(latency)
        self.on_heard = on_heard
        self.realtime = realtime
        ahead = max(AHEAD, 2 * self.latency) * rate
        self._ring = BlockRing(blocks, events, channels=channels, ahead=int(ahead))
        self._clock = OutputClock(rate, settle=2 * self.latency + 0.05)
        self._heard: queue.SimpleQueue = queue.SimpleQueue()
        self._paused = False
        self._fading = False        # paused, the fade-out not yet played
        self._resuming = False      # to skip to the next event when playing again
        self._stopping = False      # stop() asked: fade out, then end
        self._fade = np.linspace(1.0, 0.0, max(1, round(FADE * rate)), dtype=np.float32)
        self._quit = threading.Event()
        self._finished = threading.Event()
        self._announcer = threading.Thread(target=self._announce, name="guji-announcer",
                                           daemon=True)
        self._alsa = AlsaMessages()
        self._stream = None
        self._sd = None
        # the callback's own state and counters (written by the callback only)
        self._out = 0                          # output frames handed to the device
        self._end_heard: float | None = None
        self._stats = {"callbacks": 0, "underflows": 0, "starved": 0, "starved_frames": 0,
                       "frames": 0, "announced": 0, "dropped": 0}
        self._rt = False
        self._first_frame: int | None = None   # the output frame of the blocks' frame 0
        self._error: BaseException | None = None
        self._stream_latency = self.latency
        self._first_callback = self._last_callback = 0.0
        self._started_at: float | None = None   # monotonic, once the stream started
        self._completed = False                 # the callback played the end out
        self._failure: str | None = None        # why the output stopped, if it did
        self.abandoned = False                  # a PortAudio call never returned

    # -- the audio callback ------------------------------------------------------------

    def _callback(self, outdata, frames, time_info, status) -> None:
        now = time.monotonic()
        stats = self._stats
        stats["callbacks"] += 1
        if stats["callbacks"] == 1:
            self._first_callback = now
            if self.realtime:
                self._rt = make_realtime(AUDIO_PRIORITY)
        self._last_callback = now
        if status.output_underflow:
            stats["underflows"] += 1
        self._clock.update(time_info.outputBufferDacTime, time_info.currentTime,
                           self._out, now, frames)
        at = self._out
        self._out += frames
        if self._end_heard is not None:          # after the last block: silence until heard
            outdata.fill(0)
            if now >= self._end_heard + TAIL:
                self._completed = True
                raise self._sd.CallbackStop
            return
        if self._paused or self._fading or self._stopping:
            self._quiet_output(outdata, frames, at)
            return
        if self._resuming:                       # resume on a stroke, not mid-ring
            reached, ended = self._ring.skip_to_event()
            if ended:
                self._end(outdata, at)
                return
            if not reached:                      # nothing rendered yet: again next time
                outdata.fill(0)
                return
            self._resuming = False
        filled, ended = self._ring.read(outdata, frames, at, self._heard_at)
        self._played(filled, frames, at, ended)
        if filled < frames:
            outdata[filled:].fill(0)
        if ended:
            self._end_heard = self._clock.heard(at + filled)

    def _heard_at(self, frame: int, payload: Any) -> None:
        """An event went out on output frame *frame*: the announcer's."""
        self._heard.put((frame, payload))

    def _played(self, filled: int, frames: int, at: int, ended: bool) -> None:
        stats = self._stats
        stats["frames"] += filled
        if filled < frames and not ended:
            stats["starved"] += 1
            stats["starved_frames"] += frames - filled
        if self._first_frame is None and filled:
            self._first_frame = at

    def _quiet_output(self, outdata, frames: int, at: int) -> None:
        """Paused or stopping: fade out over :data:`FADE` if still sounding (a
        cut would click), then silence; stopping, the end is where the fade ends."""
        filled, ended = 0, False
        if self._fading or (self._stopping and not self._paused):
            n = min(frames, len(self._fade))
            filled, ended = self._ring.read(outdata, n, at, self._heard_at)
            outdata[:filled] *= self._fade[:filled, None]
            self._stats["frames"] += filled
            self._fading = False
            self._resuming = True
        outdata[filled:].fill(0)
        if ended or self._stopping:
            self._end_heard = self._clock.heard(at + filled)

    def _end(self, outdata, at: int) -> None:
        outdata.fill(0); self._end_heard = self._clock.heard(at)  # noqa: E702

    # -- the announcer -------------------------------------------------------------------

    def _announce(self) -> None:
        """Announce each event when its output frame is heard, by the latest clock."""
        if self.realtime:
            make_realtime(ANNOUNCER_PRIORITY)     # on time under load, below the audio
        while True:
            item = self._heard.get()
            if item is END:
                return
            frame, payload = item
            while not self._quit.is_set():
                heard = self._clock.heard(frame)
                delay = heard - time.monotonic()
                if delay <= 0:
                    break
                self._quit.wait(min(delay, 0.01))
            if self._quit.is_set():
                self._stats["dropped"] += 1
                continue
            self._stats["announced"] += 1
            if self.on_heard is not None:
                try:
                    self.on_heard(payload, heard)
                except BaseException as e:     # a closed pipe, a failed port: stop, say it
                    self._error = self._error or e
                    self.quit()

    # -- the transport ---------------------------------------------------------------------

    def start(self) -> None:
        """Open the device and start playing; returns once sound is on its way.

        Raises :class:`~guji.sound.devices.AudioDeviceError` when it cannot."""
        sd = self._sd = sounddevice_module()
        index = output_device(sd, self.device)
        check_output(sd, index, self.rate, self.channels)
        self._ring.start()
        self._announcer.start()
        self._alsa.__enter__()
        try:
            self._stream = sd.OutputStream(
                samplerate=self.rate, channels=self.channels, dtype="float32", device=index,
                latency=self.latency, callback=self._callback,
                finished_callback=self._stream_finished)
            self._stream_latency = float(self._stream.latency)
            self._clock.offset = clock_offset(lambda: self._stream.time)
            self._clock.buffer = self._stream_latency
            # the first device buffer ready before the stream starts: no late start
            self._ring.wait_for(int(self._stream_latency * self.rate) + 1)
            self._started_at = time.monotonic()
            self._stream.start()
        except BaseException as e:         # leave nothing running
            self.quit()
            self.close()
            if isinstance(e, sd.PortAudioError):
                raise AudioDeviceError(_('cannot open the sound output'), detail=str(e)) from None
            raise

    paused = property(lambda self: self._paused)

    def pause(self) -> None:
        """Fade out and play silence from the next callback on, holding the place."""
        if not self._paused:
            self._fading = True
            self._paused = True

    def resume(self) -> None:
        """Play on, from the next stroke (the rest of the ring cut short by the
        pause is not played: the sound resumes on the grid)."""
        self._paused = False

    def toggle_pause(self) -> bool:
        """Pause if playing, resume if paused; whether it is paused now."""
        if self._paused:
            self.resume()
        else:
            self.pause()
        return self._paused

    def stop(self) -> None:
        """Stop soon, cleanly: fade out where the callback is (one latency
        ahead of the ear), and end once that is heard (``q``)."""
        self._stopping = True

    def quit(self) -> None:
        """Stop now: the device's buffer and pending announcements are dropped
        (Ctrl-C; an abrupt stop may click)."""
        self._quit.set()
        self._finished.set()

    @property
    def stopped(self) -> bool:
        """:meth:`quit` was called (by a key, Ctrl-C, or a failure)."""
        return self._quit.is_set()

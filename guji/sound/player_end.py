"""The end of a live :class:`~guji.sound.player.Player`: waiting, closing, the report.

:class:`PlayerEnd` holds what a player does once its stream runs: wait for
the end (the blocks played out, a quit, or the output no longer answering),
close the stream with every PortAudio call bounded (a server gone may never
return), and the figures (:class:`~guji.sound.report.PlayReport`). It is
the second half of :class:`~guji.sound.player.Player`, moved here so that
neither file is over the house's size; it has no state of its own and reads
the player's (see :meth:`Player.__init__ <guji.sound.player.Player>`).
"""

from __future__ import annotations

import time

from ..i18n import _
from .report import PlayReport
from .stream import PORTAUDIO_WAIT, STALL, STARTING, OutputStopped, bounded
from .ring import END

#: Seconds of silence played after the last frame is heard, before the stream stops.
TAIL = 0.05


class PlayerEnd:
    """Waiting for, closing and reporting a player's stream (mixed into
    :class:`~guji.sound.player.Player`)."""

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the end (blocks, quit, or no callback for STALL/STARTING s past the latency)."""
        if self._finished.wait(timeout):
            return True
        started = self._started_at
        if started is not None and not self._quit.is_set():
            last = max(self._last_callback, started)
            running = self._last_callback - self._first_callback >= self._stream_latency
            if time.monotonic() - last > (STALL if running else STARTING) + self._stream_latency:
                self._failure = self._failure or "stopped answering"
                self.quit()
        return self._finished.is_set()

    def _stream_finished(self) -> None:
        """PortAudio's finished callback: the end, a quit, or the stream dying."""
        if not self._completed and not self._quit.is_set():
            self._failure = self._failure or "stopped"
        self._finished.set()

    def close(self) -> PlayReport:
        """Stop and close the stream, let the announcer finish; the report.

        An error of the renderer or of *on_heard* is raised here."""
        stream, self._stream = self._stream, None
        if stream is not None:
            # every call bounded: with the server gone, PortAudio may never return
            if self._quit.is_set() or self._failure:
                ended = bounded(stream.abort, PORTAUDIO_WAIT)     # drop what is buffered
            else:   # the callback has played the tail out
                ended = bounded(stream.stop, PORTAUDIO_WAIT + TAIL + self._stream_latency)
            self.abandoned = not (ended and bounded(stream.close, PORTAUDIO_WAIT))
            if self.abandoned:
                self._no_portaudio_exit()
        self._ring.stop()
        if self._announcer.is_alive():
            self._heard.put(END)            # what is pending is announced (or dropped on quit)
            self._announcer.join(PORTAUDIO_WAIT)
        self._alsa.__exit__(None, None, None)
        error = self._ring.error or self._error
        if error is not None:
            raise error
        if self._failure:
            raise OutputStopped(_('the sound output {failure} after {value} event(s)').format(failure=self._failure, value=self._stats['announced']))
        return self.report()

    def _no_portaudio_exit(self) -> None:
        """A call never returned: keep sounddevice's exit handler (stop, close,
        Pa_Terminate) from hanging the interpreter's exit on the same stream."""
        import atexit
        handler = getattr(self._sd, "_exit_handler", None)
        if handler is not None:
            atexit.unregister(handler)

    def report(self) -> PlayReport:
        """The figures so far (:class:`~guji.sound.report.PlayReport`)."""
        return PlayReport(latency=self._stream_latency, jumps=self._clock.jumps,
                          jumped=self._clock.jumped, clockless=self._clockless(),
                          quit=self._quit.is_set() or self._stopping,
                          realtime=self._rt, alsa_messages=tuple(self._alsa.messages),
                          first_heard=self._first_heard(), **self._stats)

    def _first_heard(self) -> float | None:
        """When the blocks' first frame was heard, by the clock as it stands now
        (settled: after PulseAudio's late start, not the first callback's guess)."""
        return None if self._first_frame is None else self._clock.heard(self._first_frame)

    def _clockless(self) -> bool:
        """The device took frames much faster than real time (ALSA's null
        device): it has no clock, and timing figures mean nothing."""
        played = self._out / self.rate
        elapsed = self._last_callback - self._first_callback
        return played > 2 * elapsed + 2 * self._stream_latency + 0.1

    def play(self) -> PlayReport:
        """Start, wait for the end, close; the report (Ctrl-C: aborted, closed, raised on)."""
        self.start()
        try:
            while not self.wait(0.1):
                pass
        except BaseException:
            self.quit()
            self.close()
            raise
        return self.close()

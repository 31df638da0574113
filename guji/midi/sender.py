"""Notes sent on their times from a clock: the transport of ``--no-audio``.

:class:`MidiPlayer` sends timed messages (:mod:`guji.midi.events`) to an
open port on a thread of its own, each at ``t0 + its time`` on
``time.monotonic()``: it sleeps until that absolute moment (busy-waiting
the last :data:`SPIN`: ``time.sleep`` wakes about 0.1 ms late), so a late
wake-up delays one message and never the rest — no drift, however long it
plays. A message due while the thread was held up goes at once.

It has the live player's transport (:class:`guji.sound.player.Player`):
:meth:`~MidiPlayer.pause` holds the place (the notes sounding are
silenced) and :meth:`~MidiPlayer.resume` plays on from the next message at
once (the clock's zero moves on: as the sound resumes on its next stroke); :meth:`~MidiPlayer.quit` stops; :meth:`~MidiPlayer.close`
silences what still sounds and closes the port.

Where allowed (root, or an ``rtprio`` limit) the sending thread runs with
real-time priority ``SCHED_FIFO`` (:attr:`MidiReport.realtime`): with both
cores of a 2-core machine busy, a normal thread woke up to 107 ms late, a
real-time one within 0.2 ms. JACK itself then quantises to its period
(5.3 ms of 256 frames at 48 kHz).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from ..errors import GujiError
from ..realtime import MIDI_PRIORITY, make_realtime
from .events import TimedMessage
from .ports import Outlet

#: Seconds before a message is due that are busy-waited instead of slept.
SPIN = 0.0005

#: Seconds between the start and the first message's time zero.
LEAD = 0.05

#: A message sent later than this after its time is reported (JACK's own
#: period is 5.3 ms; a drummer hears 20 ms).
LATE = 0.020


class MidiServerGone(GujiError):
    """The JACK server of the MIDI port shut down mid-play (exit status 1; said by
    the transport in words: ``the MIDI port stopped after stroke 3 of 12``)."""

    exit_status = 1
    end_now = True      # rtmidi's clean-up of a client whose server is gone is not waited for

    def __init__(self):
        self.detail = "the JACK server shut down"
        super().__init__(self.detail)


@dataclass(frozen=True)
class MidiReport:
    """What :class:`MidiPlayer` did: messages *sent*, the latest (seconds after
    its time, *max_late*), whether it was *quit*, and got *realtime* priority."""

    sent: int = 0
    max_late: float = 0.0
    quit: bool = False
    realtime: bool = False

    @property
    def troubled(self) -> bool:
        """A message left more than :data:`LATE` after its time."""
        return self.max_late > LATE

    def summary(self) -> str:
        return (f"{self.sent} MIDI messages, the latest {self.max_late * 1000:.1f} ms after "
                f"its time" + ("" if self.realtime else " (not real-time)"))


class MidiPlayer:
    """Send *messages* (:class:`~guji.midi.events.TimedMessage`, by time; may
    be endless) to *outlet* on their times.

    Parameters
    ----------
    outlet:
        The open port (:func:`guji.midi.ports.open_port`).
    messages:
        What to send; each item may also be something else with a ``time``
        (a stroke to show): it goes to *on_time* instead of the port.
    setup:
        Messages sent at once, before the first (program changes).
    on_time:
        ``on_time(item, due)``: called for items that are not messages, at
        their time (the stroke display).
    realtime:
        Ask for real-time scheduling of the sending thread (:mod:`guji.realtime`).
    """

    def __init__(self, outlet: Outlet, messages: Iterable[Any], *, setup: Iterable = (),
                 on_time: Callable[[Any, float], None] | None = None, realtime: bool = True):
        self.outlet = outlet
        self.on_time = on_time
        self.realtime = realtime
        self._items: Iterator[Any] = iter(messages)
        self._setup = list(setup)
        self._t0 = 0.0
        self._paused_at: float | None = None
        self._waiting_for: float | None = None     # the time of the next item to go
        self._lock = threading.Lock()
        self._quit = threading.Event()
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, name="guji-midi", daemon=True)
        self._sent = 0
        self._late = 0.0
        self._rt = False
        self._error: BaseException | None = None
        self._watch = None      # a JACK port's server, watched (guji.midi.jackwatch)

    def start(self, t0: float | None = None) -> None:
        """Start sending; time zero is *t0* (monotonic; default: in :data:`LEAD` s)."""
        if getattr(getattr(self.outlet, "info", None), "system", None) == "JACK":
            from .jackwatch import watch
            self._watch = watch()
        self._t0 = time.monotonic() + LEAD if t0 is None else t0
        for message in self._setup:
            self.outlet.send(message)
        self._thread.start()

    # -- the sending thread ----------------------------------------------------------

    def _run(self) -> None:
        if self.realtime:
            self._rt = make_realtime(MIDI_PRIORITY)
        try:
            for item in self._items:
                due = self._wait_for(item.time)
                if due is None:
                    return
                if isinstance(item, TimedMessage):
                    self.outlet.send(item.message)
                    self._sent += 1
                    self._late = max(self._late, time.monotonic() - due)
                elif self.on_time is not None:
                    self.on_time(item, due)
        except BaseException as e:          # a failed port, a closed pipe: stop, say it
            self._error = e
        finally:
            self._finished.set()

    def _due(self, at: float) -> float | None:
        """The monotonic time *at* seconds from the start is due; None while paused."""
        with self._lock:
            self._waiting_for = at
            return None if self._paused_at is not None else self._t0 + at

    def _wait_for(self, at: float) -> float | None:
        """Sleep until *at* seconds from the start (held while paused); the
        monotonic due time, or None on quit."""
        while not self._quit.is_set():
            if self._watch is not None and self._watch.gone.is_set():
                self._error = self._error or MidiServerGone()
                return None
            due = self._due(at)
            if due is None:
                self._quit.wait(0.01)
                continue
            left = due - time.monotonic()
            if left <= SPIN:
                while time.monotonic() < due:
                    pass
                return due
            self._quit.wait(min(left - SPIN, 0.05))
        return None

    # -- the transport -----------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def pause(self) -> None:
        with self._lock:
            if self._paused_at is None:
                self._paused_at = time.monotonic()
        self.outlet.silence()

    def resume(self) -> None:
        """Play on from the next message, now (as the sound resumes on a stroke)."""
        with self._lock:
            if self._paused_at is not None:
                now = time.monotonic()
                nxt = self._waiting_for
                self._t0 = now - nxt if nxt is not None else self._t0 + now - self._paused_at
                self._paused_at = None

    def toggle_pause(self) -> bool:
        if self.paused:
            self.resume()
        else:
            self.pause()
        return self.paused

    def quit(self) -> None:
        """Stop now (the notes sounding are silenced when it closes)."""
        self._quit.set()
        self._finished.set()

    stop = quit

    @property
    def stopped(self) -> bool:
        return self._quit.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def close(self) -> MidiReport:
        """Stop sending, silence what sounds; the report (the thread's error raised)."""
        quit_early = self._quit.is_set()
        self._quit.set()
        if self._thread.is_alive():
            self._thread.join(5)
        if self._watch is not None:
            self._watch.close()
        if self._error is not None:
            raise self._error
        self.outlet.silence()
        return MidiReport(self._sent, self._late, quit_early, self._rt)

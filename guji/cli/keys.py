"""Keys while playing: space pauses and resumes, ``q`` quits.

Only when standard input is a terminal: it is put in *cbreak* mode (keys
arrive one at a time, unechoed; Ctrl-C still interrupts) for the time of
playback, and put back as it was on the way out, whatever happens. When
standard input is a pipe or a file, keys are not read at all: what comes on
it is left alone.
"""

from __future__ import annotations

import os
import select
import sys
import threading
from typing import Callable, Protocol, TextIO


class Transport(Protocol):
    """What the keys drive (:class:`guji.sound.player.Player`,
    :class:`guji.midi.sender.MidiPlayer`)."""

    def toggle_pause(self) -> bool: ...

    def stop(self) -> None: ...


#: Keys that quit.
QUIT_KEYS = (b"q", b"Q")
#: Keys that pause or resume.
PAUSE_KEYS = (b" ",)


class Keys:
    """Read keys on a thread while playing (a context manager).

    Parameters
    ----------
    transport:
        Paused and resumed with space, stopped with ``q`` (cleanly: its
        ``stop``, not the abrupt ``quit`` of Ctrl-C).
    on_pause:
        Called with the new state (True: paused) after each pause or resume.
    stdin:
        The input (default ``sys.stdin``); keys are read only if it is a terminal.
    """

    def __init__(self, transport: Transport, on_pause: Callable[[bool], None] | None = None,
                 stdin: TextIO | None = None):
        self.transport = transport
        self.on_pause = on_pause
        self.stdin = sys.stdin if stdin is None else stdin
        self.quit_by_key = False
        self._fd: int | None = None
        self._saved = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def active(self) -> bool:
        """Keys are being read (standard input is a terminal)."""
        return self._thread is not None

    def __enter__(self) -> "Keys":
        try:
            if not self.stdin.isatty():
                return self
            fd = self.stdin.fileno()
            import termios
            import tty
        except (AttributeError, ValueError, OSError, ImportError):   # no terminal (or Windows)
            return self
        self._fd = fd
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        self._thread = threading.Thread(target=self._read, name="guji-keys", daemon=True)
        self._thread.start()
        return self

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.1)
            if not ready:
                continue
            key = os.read(self._fd, 1)
            if not key:                     # the terminal went away
                return
            if key in PAUSE_KEYS:
                paused = self.transport.toggle_pause()
                if self.on_pause is not None:
                    self.on_pause(paused)
            elif key in QUIT_KEYS:
                self.quit_by_key = True
                self.transport.stop()
                return

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1)
        if self._saved is not None:
            import termios
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

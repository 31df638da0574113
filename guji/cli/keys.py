"""Keys while playing: space pauses and resumes, ``q`` quits.

Only when standard input is a terminal. On POSIX systems (Linux, macOS) it
is put in *cbreak* mode with ``termios`` (keys arrive one at a time,
unechoed; Ctrl-C still interrupts) for the time of playback, and put back as
it was on the way out, whatever happens. On Windows the console's keys are
read with ``msvcrt`` (``kbhit``/``getwch``: unechoed already, nothing to put
back). When standard input is a pipe or a file, keys are not read at all:
what comes on it is left alone.
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
        except (AttributeError, ValueError, OSError):   # no terminal
            return self
        read = self._posix_reader(fd)
        if read is None:
            read = _console_reader(self._stop)
        if read is None:                    # neither termios nor msvcrt
            return self
        self._thread = threading.Thread(target=self._read, args=(read,), name="guji-keys",
                                        daemon=True)
        self._thread.start()
        return self

    def _posix_reader(self, fd: int) -> Callable[[], bytes | None] | None:
        """Keys from terminal *fd* in cbreak mode (``None`` without termios)."""
        try:
            import termios
            import tty
        except ImportError:                  # Windows
            return None
        try:
            self._saved = termios.tcgetattr(fd)
        except (termios.error, OSError):     # not a real terminal
            return None
        self._fd = fd
        tty.setcbreak(fd)

        def read() -> bytes | None:
            ready, _, _ = select.select([fd], [], [], 0.1)
            return os.read(fd, 1) if ready else None
        return read

    def _read(self, read: Callable[[], bytes | None]) -> None:
        while not self._stop.is_set():
            key = read()
            if key is None:
                continue
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


def _console_reader(stop: threading.Event, msvcrt=None) -> Callable[[], bytes | None] | None:
    """Keys from the Windows console through ``msvcrt`` (``None`` elsewhere):
    a key as bytes, or ``None`` when none is waiting (polled every 20 ms)."""
    if msvcrt is None:
        try:
            import msvcrt
        except ImportError:
            return None

    def read() -> bytes | None:
        if stop.wait(0) or not msvcrt.kbhit():
            stop.wait(0.02)
            return None
        key = msvcrt.getwch()
        if key in ("\x00", "\xe0"):          # an arrow or function key: two codes
            msvcrt.getwch()
            return None
        return key.encode("utf-8", "replace")
    return read

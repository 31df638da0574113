"""Stopping: SIGTERM and SIGHUP clean up as Ctrl-C does.

Ctrl-C (SIGINT) raises :class:`KeyboardInterrupt` anywhere in Python, and
everything guji writes cleans up on it (a temporary file removed, the old
file intact: :mod:`guji.files`). :func:`stopping` makes SIGTERM (``kill``, a
service manager, ``timeout``) and SIGHUP (the terminal closed) raise
:class:`Stopped`, a :class:`KeyboardInterrupt` too, so the same clean-up
runs; the command line then exits with 128 + the signal's number (143, 129),
as a shell reports a process those signals ended, after one line saying why.
Only the signals the system has are used: Windows has no SIGHUP (its
console's Ctrl-Break, SIGBREAK, stops guji as Ctrl-C does).
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

#: The signals that stop guji cleanly, and the word for each.
SIGNALS = {getattr(signal, name): word for name, word in
           (("SIGINT", "interrupted"), ("SIGTERM", "terminated"), ("SIGHUP", "hung up"),
            ("SIGBREAK", "interrupted")) if hasattr(signal, name)}

#: The signals :func:`stopping` turns into :class:`Stopped` (those the system has).
CAUGHT = tuple(s for s in SIGNALS if s != signal.SIGINT)


class Stopped(KeyboardInterrupt):
    """Raised by SIGTERM or SIGHUP while :func:`stopping` is in force."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise(signum: int, frame) -> None:
    raise Stopped(signum)


@contextmanager
def stopping() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` in the ``with`` block
    (main thread only; the previous handlers come back after it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _raise) for s in CAUGHT}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def exit_status(stop: KeyboardInterrupt) -> tuple[int, str]:
    """The exit status and the one line for a stop: 130 ``interrupted`` for
    Ctrl-C, 143 ``terminated (SIGTERM)``, 129 ``hung up (SIGHUP)``."""
    signum = getattr(stop, "signum", signal.SIGINT)
    word = SIGNALS.get(signum, "stopped")
    name = signal.Signals(signum).name
    return 128 + int(signum), word if signum == signal.SIGINT else f"{word} ({name})"

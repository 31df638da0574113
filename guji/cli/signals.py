"""Stopping: Ctrl-C, SIGTERM and SIGHUP stop any command cleanly, at any moment.

:func:`stopping` gives SIGINT (Ctrl-C), SIGTERM (``kill``, a service
manager, ``timeout``) and SIGHUP (the terminal closed) guji's handler
(:func:`guji.stops.handler`): each raises :class:`~guji.stops.Stopped`, a
:class:`KeyboardInterrupt`, so the same clean-up runs for all three (a
temporary file removed, the old file intact: :mod:`guji.files`) — or, while
a C library is calling back into guji (libsndfile writing FLAC or OGG),
notes the signal, makes the library give up, and raises as soon as it
returns (:func:`guji.stops.held`). The command line then exits with 128 +
the signal's number (130, 143, 129), as a shell reports a process those
signals ended, after one line saying why.

:func:`install` (:func:`guji.stops.install`) gives the signals guji's
handler at the very start of the console script, before the command line's
modules load, and :func:`settle` keeps a signal that comes once the command
is over, while guji exits, a stop like any other: its line and status.

Only the signals the system has are used: Windows has no SIGHUP (its
console's Ctrl-Break, SIGBREAK, stops guji as Ctrl-C does).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

from ..i18n import N_, _
from ..stops import SIGNALS as _STOP_SIGNALS, Stopped, check, handler, install, reset, taken

#: The signals that stop guji cleanly, and the word for each.
SIGNALS = {getattr(signal, name): word for name, word in
           (("SIGINT", N_("interrupted")), ("SIGTERM", N_("terminated")), ("SIGHUP", N_("hung up")),
            ("SIGBREAK", N_("interrupted"))) if hasattr(signal, name)}

__all__ = ["SIGNALS", "Stopped", "exit_status", "ignoring", "install", "settle", "stopping"]


def settle() -> None:
    """Once a command has run to its end and guji exits: SIGINT, SIGTERM and
    SIGHUP end the process at once, with the signal's line and 128 + its
    number, as a stop anywhere else (the files written are whole and stay):
    never by the signal's default action, nor a traceback, however far
    guji's exit has gone."""
    if threading.current_thread() is not threading.main_thread():
        return
    exits = {}
    for s in taken():
        code, word = exit_status(Stopped(s))
        exits[s] = (code, (_("guji: {word}").format(word=word) + "\n").encode(
            getattr(sys.stderr, "encoding", None) or "utf-8", "replace"))

    def exit_now(signum: int, frame) -> None:
        code, line = exits[signum]
        try:
            os.write(2, line)       # not sys.stderr: the handler may have interrupted a write to it
        except OSError:
            pass
        os._exit(code)

    for s in taken():
        signal.signal(s, exit_now)


@contextmanager
def stopping() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP stop the ``with`` block (main thread only;
    the previous handlers come back after it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # a stop signalled since install() whose Stopped was swallowed while guji's
    # modules loaded (a destructor, a library's bare except): raised now, not
    # forgotten (a SIGTERM 20 ms after start was lost 1 run in 15, the render
    # then went on to the end and exited 0)
    check()
    reset()
    previous = {s: signal.signal(s, handler) for s in taken()}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)
        reset()


@contextmanager
def ignoring() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP ignored in the ``with`` block (guji saying
    why it stopped); the previous handlers come back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in _STOP_SIGNALS}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


def exit_status(stop: KeyboardInterrupt) -> tuple[int, str]:
    """The exit status and the one line for a stop: 130 ``interrupted`` for
    Ctrl-C, 143 ``terminated (SIGTERM)``, 129 ``hung up (SIGHUP)``."""
    signum = getattr(stop, "signum", signal.SIGINT)
    word = _(SIGNALS.get(signum, N_("stopped")))
    name = signal.Signals(signum).name
    return 128 + int(signum), (word if signum == signal.SIGINT
                               else _("{word} ({signal})").format(word=word, signal=name))

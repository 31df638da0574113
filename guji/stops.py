"""Stops that are never lost: a signal noted while a C library calls back into guji.

A signal handler in Python runs between two steps of Python code, wherever
the main thread is. When that is inside a callback from a C library —
libsndfile writing a FLAC or OGG file through guji's file object
(:class:`guji.sound.vio.SinkIO`) — an exception raised there cannot reach
guji: cffi prints "Exception ignored from cffi callback", returns a default
value to the library, and the library goes on (a whole 1.4 GB FLAC written
after Ctrl-C, exit 0).

So guji's handlers (:func:`handler`, installed by the command line for
SIGINT, SIGTERM and SIGHUP: :mod:`guji.cli.signals`) look first whether a
C call is under way (:func:`held`): if so the signal is only *noted*
(:func:`requested` turns true), the callbacks return an error to the
library, which gives up at once, and :class:`Stopped` is raised as soon as
the C call returns — when the ``with held():`` block ends. Outside such a
block the handler raises :class:`Stopped` at once, as Ctrl-C does.

:class:`Stopped` is a :class:`KeyboardInterrupt`, so every clean-up that runs
on Ctrl-C (a temporary file removed, the old file kept: :mod:`guji.files`)
runs on SIGTERM and SIGHUP too.

This module is the first of guji's that the command line loads
(:func:`install`, from :func:`guji.cli.main`), before any other: it imports
nothing that takes time to load.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

#: The signals that stop guji cleanly.
SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK")
                if hasattr(signal, name))    # Windows: no SIGHUP; its Ctrl-Break is SIGBREAK


class Stopped(KeyboardInterrupt):
    """A stop by the signal *signum* (SIGINT, SIGTERM or SIGHUP)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def install() -> None:
    """Give :data:`SIGNALS` guji's :func:`handler` (main thread only: in
    another, nothing changes): the command line's first step, before its
    modules load (no :mod:`threading` asked: it alone takes longer to load
    than the rest of the way here).

    A signal ignored when guji starts stays ignored, as CPython leaves an
    ignored SIGINT: ``nohup guji render …`` goes on when the terminal hangs
    up, and a job a shell started in the background without job control
    (SIGINT ignored) is not stopped by the terminal's Ctrl-C. :func:`taken`
    names the signals guji took."""
    try:
        _taken[:] = [s for s in SIGNALS if signal.getsignal(s) is not signal.SIG_IGN]
        for s in _taken:
            signal.signal(s, handler)
    except ValueError:             # not the main thread: signals are not its to take
        pass


_taken: list[int] = list(SIGNALS)     # the signals install() took


def taken() -> tuple[int, ...]:
    """The stop signals guji handles: :data:`SIGNALS` but those ignored when
    :func:`install` ran (the command line gives the others a handler, and
    leaves these ignored)."""
    return tuple(_taken)


_depth = 0                 # how many held() blocks the main thread is in
_noted: list[int] = []     # the signal noted inside them, if any


_stopping = False          # a stop is under way: further signals change nothing
_signalled: list[int] = []  # the signal of the stop under way, until the command ends


def handler(signum: int, frame) -> None:
    """guji's handler for :data:`SIGNALS`: raise :class:`Stopped`, or, inside
    :func:`held`, note the signal. The first signal counts: once a stop is
    under way, others are ignored (a second Ctrl-C cannot interrupt the
    clean-up of the first)."""
    global _stopping
    if _stopping:
        return
    if _depth:
        if not _noted:
            _noted.append(signum)
        return
    _stopping = True
    _signalled[:] = [signum]
    if _swallowed_here(frame):     # Python would print it and drop it: check() raises it
        return
    raise Stopped(signum)


def _swallowed_here(frame) -> bool:
    """Whether *frame* is one where a raised exception is printed as
    "Exception ignored in" and lost: the import system's weak-reference
    callback (``_get_module_lock.<locals>.cb``), which a signal can land in
    while a module loads."""
    code = getattr(frame, "f_code", None)
    return (code is not None and code.co_name == "cb"
            and code.co_filename.startswith("<frozen importlib"))


def check() -> None:
    """Raise :class:`Stopped` again if a stop was signalled but is not on its
    way: Python swallows an exception raised where it cannot propagate (a
    weak reference's callback — the import system has some —, a destructor),
    and a signal whose handler ran there would otherwise be lost. Called
    where work goes on (each block of a render) and before a result is
    moved into place."""
    if _signalled and signal.getsignal(_signalled[0]) is handler:   # guji's stop, not a past one
        raise Stopped(_signalled[0])


def pending() -> Stopped | None:
    """The stop signalled for this command, if any: an error that arrives with it
    is its doing (a signal inside a C extension's import — numpy's — comes out
    as an ImportError), and guji reports the stop, not the error."""
    return Stopped(_signalled[0]) if _signalled else None


def reset() -> None:
    """Forget any stop (a new command begins: :func:`guji.cli.signals.stopping`)."""
    global _stopping
    _stopping = False
    _noted.clear()
    _signalled.clear()


def requested() -> bool:
    """Whether a signal was noted inside :func:`held` and not raised yet:
    a callback seeing it returns an error to its library."""
    return bool(_noted)


@contextmanager
def held() -> Iterator[None]:
    """Note signals instead of raising them in this block (a C library's
    call, whose callbacks would lose the exception); raise :class:`Stopped`
    for the one noted when the block ends, whatever else happened in it.

    In the main thread, Ctrl-C is given :func:`handler` for the block when
    it has Python's default handler (guji used as a library); in other
    threads signals never arrive and the block changes nothing.
    """
    global _depth, _stopping
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    swapped = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if swapped:               # guji as a library: a fresh stop each time
        reset()
        signal.signal(signal.SIGINT, handler)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if swapped:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if not _depth and _noted:
            _stopping = True
            _signalled[:] = _noted[:1]
            raise Stopped(_noted.pop())


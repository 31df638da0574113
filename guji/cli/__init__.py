"""The command line: ``guji COMMAND …`` (see :mod:`guji.cli.main`).

:func:`main` is the console script's entry point (``python -m guji`` comes
here too), and this module stays tiny: its first step gives SIGINT, SIGTERM
and SIGHUP guji's handler (:func:`guji.stops.install`: that module loads
nothing slow), and only then are the command line's modules imported, so
Ctrl-C, SIGTERM or SIGHUP at any moment, even while they load, exits with
status 130, 143 or 129 and one line, never a traceback. Before that first
step the interpreter is starting, no code of guji's has run, and a signal
does what it does to any program (``docs/stopping.md``).
"""

import os
import sys

#: The exit statuses of a stop: SIGHUP, SIGINT, SIGTERM.
STOPPED = (129, 130, 143)
#: numpy's OpenBLAS starts a thread for each core when numpy loads, and they
#: spin a while: 0.09 s of CPU each command, about half of numpy's start-up on
#: two cores. guji does no linear algebra, so its command line asks for one
#: (unless the user's environment says otherwise; children inherit it).
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1"}


def main(argv=None) -> int:
    """Run ``guji`` with *argv* (default ``sys.argv[1:]``); return the exit status."""
    try:
        from .. import stops
        stops.install()                 # first: before anything slow loads
        for name, value in ONE_BLAS_THREAD.items():      # before numpy loads
            os.environ.setdefault(name, value)
        from .main import main as run
        status = run(argv)
    except KeyboardInterrupt as stop:     # before the command line's own handling
        status, line = _stopped(stop, argv)
        print(line, file=sys.stderr)
    if argv is None:                      # the console script: guji is exiting
        _exit(status, argv)
    return status


def _stopped(stop: KeyboardInterrupt, argv) -> tuple[int, str]:
    """The exit status and line of a stop before the command line handles it
    (while its modules load): in the language the command line asks for
    (``--lang``, else the environment's), English if even that cannot load."""
    signum = int(getattr(stop, "signum", 2))     # 2: SIGINT (Python's own Ctrl-C)
    english = {2: "guji: interrupted", 15: "guji: terminated (SIGTERM)", 1: "guji: hung up (SIGHUP)"}
    if "guji.i18n" not in sys.modules and _english_surely(argv):
        return 128 + signum, english.get(signum, "guji: stopped")     # no catalog to load: quick
    try:
        from .. import i18n
        from . import signals
        i18n.language_of(list(sys.argv[1:] if argv is None else argv))
        status, word = signals.exit_status(stop)
        return status, i18n._("guji: {word}").format(word=word)
    except Exception:               # a catalog that cannot load: the stop still has its line
        return 128 + signum, english.get(signum, "guji: stopped")


#: What chooses guji's language, besides ``--lang`` (see :func:`guji.i18n.choose`).
_LANGUAGE_VARIABLES = ("GUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def _english_surely(argv) -> bool:
    """Whether guji speaks English, seen without loading :mod:`guji.i18n` (and
    what it loads: a tenth of a second of CPU on a loaded machine, in a stop
    that should be quick): nothing on the command line or in the environment
    mentions Chinese, on a system whose language is its environment's (not
    macOS's or Windows's own settings)."""
    if sys.platform in ("darwin", "win32"):
        return False
    said = [*(sys.argv[1:] if argv is None else argv), *(os.environ.get(v, "") for v in _LANGUAGE_VARIABLES)]
    return not any("zh" in str(word).lower() for word in said)


def _exit(status: int, argv) -> None:
    """End the console script's process with *status*. After a stop, at once
    (its files cleaned up, its line said; further signals ignored). Else a
    signal from now on ends it with its own status and line
    (:func:`guji.cli.signals.settle`), the exit functions run (threads
    joined, ``atexit``), and the process ends without the interpreter's
    finalisation, where Python gives the signals back their default action
    (a Ctrl-C there once ended guji by SIGINT, status -2, after ``wrote x.ogg``)."""
    if status not in STOPPED:
        try:
            _flush()
            from . import signals
            signals.settle()
        except KeyboardInterrupt as stop:     # before settle(): a stop like any other
            status, line = _stopped(stop, argv)
            print(line, file=sys.stderr)
    if status in STOPPED:
        _ignore_stops()
    else:
        try:
            _run_exit_functions()
        except Exception:       # (atexit reports its functions' errors itself)
            pass
    _flush()
    os._exit(status)


def _ignore_stops() -> None:
    import signal
    from ..stops import SIGNALS
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)


def _run_exit_functions() -> None:
    """What the interpreter runs first when it exits: threads that are not
    daemons joined (``threading._shutdown``), then the ``atexit`` functions."""
    import atexit
    import threading
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        shutdown()
    atexit._run_exitfuncs()


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


__all__ = ["main"]

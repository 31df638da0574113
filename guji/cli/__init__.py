"""The command line: ``guji COMMAND …`` (see :mod:`guji.cli.main`).

:func:`main` is the console script's entry point, and this module stays
tiny: guji's signal handlers are installed first (:mod:`guji.cli.signals`),
then the command line's modules are imported, so Ctrl-C, SIGTERM or SIGHUP
at any moment, even while they load, exits with status 130, 143 or 129 and
one line, never a traceback.
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
    signals = None
    for name, value in ONE_BLAS_THREAD.items():      # before numpy loads
        os.environ.setdefault(name, value)
    try:
        from . import signals
        signals.install()
        from .main import main as run
        status = run(argv)
    except KeyboardInterrupt as stop:     # before the command line's own handling
        status, line = _stopped(stop, signals, argv)
        print(line, file=sys.stderr)
    if signals is not None and argv is None:     # the console script: guji is exiting
        _flush()
        signals.settle()
        if status in STOPPED:     # stopped: its files cleaned up, its line said; go now
            os._exit(status)
    return status


def _stopped(stop: KeyboardInterrupt, signals, argv) -> tuple[int, str]:
    """The exit status and line of a stop before the command line handles it
    (while its modules load): in the language the command line asks for
    (``--lang``, else the environment's), English if even that cannot load."""
    if signals is None:             # stopped before guji's handlers were in place
        return 130, "guji: interrupted"
    try:
        from .. import i18n
        i18n.language_of(list(sys.argv[1:] if argv is None else argv))
        status, word = signals.exit_status(stop)
        return status, i18n._("guji: {word}").format(word=word)
    except Exception:               # a catalog that cannot load: the stop still has its line
        return 128 + int(getattr(stop, "signum", 2)), "guji: stopped"     # 2: SIGINT


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


__all__ = ["main"]

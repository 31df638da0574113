"""The command line: ``guji COMMAND …`` (see :mod:`guji.cli.main`).

:func:`main` is the console script's entry point, and this module stays
tiny: the command line's modules are imported inside it, so Ctrl-C at any
moment, even while they load, exits with status 130 and one line, never a
traceback.
"""

import sys


def main(argv=None) -> int:
    """Run ``guji`` with *argv* (default ``sys.argv[1:]``); return the exit status."""
    try:
        from .main import main as run
    except KeyboardInterrupt:
        print("guji: interrupted", file=sys.stderr)
        return 130
    return run(argv)


__all__ = ["main"]

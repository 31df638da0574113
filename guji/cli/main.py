"""The ``guji`` command line.

Each subcommand lives in its own module under :mod:`guji.cli.commands` and
provides ``register(subparsers)``, which adds its parser and sets
``func(args) -> int``. Errors a user can cause are :class:`GujiError`: printed
as one line (a notation error adds the source line and a caret), exit status
2, never a traceback. Ctrl-C exits with 130, SIGTERM with 143, SIGHUP with
129, each after one line and with no half-written file left
(:mod:`guji.cli.signals`). ``--force`` lifts guji's limits on the work asked
for (:mod:`guji.limits`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from contextlib import nullcontext

from .. import __version__, limits
from ..errors import GujiError, NotationError
from ..limits import LimitError
from .signals import exit_status, stopping
from .terminal import SafeStream

#: Subcommands, in the order ``guji --help`` lists them.
COMMANDS = ("demo", "list", "show", "scan", "collate", "claims", "glyphs", "midi", "sheet", "render",
            "play", "check", "devices", "ports", "diff", "compare", "draw", "page")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _wanted(argv: list[str] | None) -> tuple[str, ...]:
    """The command modules to load: only the one named on the command line
    (start-up stays quick: no other command's imports), or all of them for
    ``guji --help``, no command, or an unknown one."""
    args = sys.argv[1:] if argv is None else argv
    first = next((a for a in args if not a.startswith("-")), None)
    return (first,) if first in COMMANDS else COMMANDS


def build_parser(argv: list[str] | None = None) -> ArgumentParser:
    parser = ArgumentParser(
        prog="guji",
        description="Hear, export and compare the 投壺 drum scores (魯鼓, 薛鼓) of the 禮記.",
        epilog="Pattern ids: SCORE[:DIAGRAM][@EDITION], e.g. lu, xue:2, lu:1@wuli-tongkao, "
               "lu:2@mynotes.txt. Run 'guji COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"guji {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in _wanted(argv):
        module_name = f"guji.cli.commands.{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:
                continue
            raise
        module.register(sub)
    return parser


def report(error: GujiError, args: argparse.Namespace | None = None) -> None:
    """Print a user error: one line, plus the caret display for notation errors.
    A limit ``--force`` lifts says so, where the command has ``--force``."""
    line = f"guji: {error}"
    if (isinstance(error, LimitError) and error.forcible
            and getattr(args, "force", None) is not None):
        line += " (--force lifts the limit)"
    print(line, file=sys.stderr)
    if isinstance(error, NotationError):
        caret = error.caret()
        if caret:
            print(caret, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run one command; return its exit status: 0, 1 (``diff``: the readings
    differ), 2 (a user error, one line), 130 (Ctrl-C), 128 + n (stopped by
    signal n: SIGTERM 143, SIGHUP 129)."""
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(stdout), SafeStream(stderr)
    try:
        with stopping():
            return _run(argv)
    except KeyboardInterrupt as stop:          # Ctrl-C, SIGTERM, SIGHUP: anywhere, imports too
        status, word = exit_status(stop)
        print(f"guji: {word}", file=sys.stderr)
        return status
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _run(argv: list[str] | None) -> int:
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, or a bad option (one line, status 2)
        return e.code if isinstance(e.code, int) else 2
    # the command as typed, for advice that repeats it (guji compare … -o FILE)
    args.command_line = list(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "func", None):
        parser.print_usage(sys.stderr)
        print("guji: give a command (see 'guji --help')", file=sys.stderr)
        return 2
    try:
        with limits.lifted() if getattr(args, "force", False) else nullcontext():
            return int(args.func(args) or 0)
    except GujiError as e:
        report(e, args)
        return e.exit_status
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

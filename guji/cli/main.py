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

from .. import __version__, i18n, limits
from ..errors import GujiError, NotationError
from ..i18n import _, without_lang
from ..limits import LimitError
from ..stops import check, pending
from .columns import HelpFormatter
from .signals import exit_status, ignoring, stopping
from .stdout import CheckedOutput
from .terminal import SafeStream, encoded

#: Subcommands, in the order ``guji --help`` lists them.
COMMANDS = ("demo", "list", "show", "scan", "collate", "edition", "claims", "glyphs", "midi", "sheet", "render",
            "play", "check", "devices", "ports", "diff", "compare", "draw", "page", "studio", "completion", "man")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr and exit status 2,
    pointing to the help of the command it belongs to (``guji sheet --help``), its
    usage laid out by display width (:class:`guji.cli.columns.HelpFormatter`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, _("{prog}: error: {message} (see '{prog} --help')").format(
            prog=self.prog, message=message) + "\n")

    def _check_value(self, action, value):  # type: ignore[override]
        """argparse's check of a choice, with the choices *value* may have been
        meant as (``guji shw``: did you mean show?), on every Python."""
        choices = action.choices
        if choices is None or value in choices or not isinstance(value, str):
            return super()._check_value(action, value)
        from ..text.reading.typing_ids import close_names
        close = close_names(value, [str(c) for c in choices])
        if not close:
            return super()._check_value(action, value)
        raise argparse.ArgumentError(action, _("invalid choice: {value} (did you mean {names}?)").format(
            value=repr(value), names=_(" or ").join(close)))


class CommandParser(ArgumentParser):
    """A subcommand's parser: options anywhere on the line, among the pattern
    ids too (``guji sheet lu:1 --gap 5 xue:1 -o x.musicxml``: argparse's
    intermixed parsing), and whatever it cannot place is its own error, so
    the message points to its own ``--help``."""

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._intermixing:            # Python < 3.12.7: the intermixed parse calls back here
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        saved = self.usage
        if saved is None:        # argparse would cut 7 characters, len('usage: '), off any language's
            self.usage = self.format_usage()[len(i18n.translator("argparse").gettext("usage: ")):].rstrip("\n")
        try:
            namespace, extras = self.parse_known_intermixed_args(args, namespace)
        except Exception:
            check()     # a stop mid-parse breaks argparse's own clean-up: the stop is what happened
            raise
        finally:
            self._intermixing = False
            self.usage = saved
        if extras:
            self.error(_("unrecognized arguments: {arguments}").format(arguments=" ".join(extras)))
        return namespace, extras


def _wanted(argv: list[str] | None) -> tuple[str, ...]:
    """The command modules to load: only the one named on the command line
    (start-up stays quick: no other command's imports), or all of them for
    ``guji --help``, no command, or an unknown one."""
    args = sys.argv[1:] if argv is None else argv
    first = next((a for a in args if not a.startswith("-")), None)
    if first is None and _asks_version(args):
        return ()                    # guji --version: no command's parser at all
    return (first,) if first in COMMANDS else COMMANDS


def _asks_version(args: list[str]) -> bool:
    """``--version`` comes before any ``-h``/``--help`` (argparse acts on the first)."""
    for arg in args:
        if arg == "--version":
            return True
        if arg in ("-h", "--help"):
            return False
    return False


def build_parser(argv: list[str] | None = None) -> ArgumentParser:
    parser = ArgumentParser(
        prog="guji",
        description=_("Hear, export and compare the 投壺 drum scores (魯鼓, 薛鼓) of the 禮記."),
        epilog=_("Pattern ids: SCORE[:DIAGRAM][@EDITION], e.g. lu, xue:2, lu:1@wuli-tongkao, "
                 "lu:2@mynotes.txt, 魯鼓後圖@五禮通考; or a pattern typed out "
                 "('○□○○□□○□○○□半…', --score lu|xue). Run 'guji COMMAND --help' for a "
                 "command's options."))
    parser.add_argument("--version", action="version", version=f"guji {__version__}",
                        help=_("show guji's version and exit"))
    parser.add_argument("--lang", metavar="LANGUAGE",
                        help=_("the language guji speaks: zh-Hant (繁體), zh-Hans (简体) or en; "
                               "default: GUJI_LANG, else the system's"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
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
    line = _("guji: {message}").format(message=error)
    if (isinstance(error, LimitError) and error.forcible
            and getattr(args, "force", None) is not None):
        line += _(" (--force lifts the limit)")
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
    sys.stdout = SafeStream(CheckedOutput(stdout))
    sys.stderr = SafeStream(_Unfailing(stderr) if stderr else _Nowhere())
    try:
        with stopping(), encoded(stdout, stderr):
            try:
                return _stop_over_error(argv)
            except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP: anywhere, imports too
                with ignoring():               # a second signal: no second line, no traceback
                    _end_workers()
                    status, word = exit_status(stop)
                    print(_('guji: {word}').format(word=word), file=sys.stderr)
                    return status
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _end_workers() -> None:
    """Kill the workers a stopped command left running (a library scan's:
    :func:`guji.processes.end_all`), never waiting for them."""
    processes = sys.modules.get("guji.processes")     # not loaded: none was started
    if processes is not None:
        processes.end_all()


def _stop_over_error(argv: list[str] | None) -> int:
    """:func:`_run`; an error raised while a stop is pending is the stop
    (:func:`guji.stops.pending`): one line and 128 + n, not a traceback."""
    try:
        return _run(argv)
    except Exception:
        stop = pending()
        if stop is None:
            raise
        raise stop from None


def choose_language(asked: str | None) -> str | None:
    """Speak *asked* (``--lang``), else ``GUJI_LANG``'s language, else the
    system's (:func:`guji.i18n.choose`); return the error line for a language
    guji does not know, else ``None``."""
    try:
        i18n.use(i18n.choose(asked))
    except i18n.LanguageError:
        i18n.use(i18n.choose())
        return _("guji: unknown language '{language}' for --lang (choose from en, zh-Hant, zh-Hans)"
                 ).format(language=asked)
    return None


def _run(argv: list[str] | None) -> int:
    typed = list(sys.argv[1:] if argv is None else argv)
    argv, asked = without_lang(typed)
    unknown = choose_language(asked)
    if unknown:
        print(unknown, file=sys.stderr)
        return 2
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, or a bad option (one line, status 2)
        return e.code if isinstance(e.code, int) else 2
    except GujiError as e:           # --help or --version to a standard output that cannot be written
        report(e)
        return e.exit_status
    # the command as typed, for advice that repeats it (guji compare … -o FILE)
    args.command_line = typed
    if not getattr(args, "func", None):
        parser.print_usage(sys.stderr)
        print(_("guji: give a command (see 'guji --help')"), file=sys.stderr)
        return 2
    try:
        check()                      # a stop while the modules loaded, swallowed by Python
        with limits.lifted(_said) if getattr(args, "force", False) else nullcontext():
            status = int(args.func(args) or 0)
        sys.stdout.flush()           # a full disk says so now, as a one-line error
        return status
    except GujiError as e:
        report(e, args)
        if getattr(e, "end_now", False):     # a sound server gone: no PortAudio clean-up
            _end_now(e.exit_status)
        return e.exit_status
    except BrokenPipeError:
        return 0


def _said(message: str) -> None:
    """One line on stderr: work begun past a limit --force lifted."""
    print(_("guji: {message}").format(message=message), file=sys.stderr, flush=True)


def _end_now(status: int) -> None:
    """Flush what was said and end the process at once, skipping the interpreter's
    clean-up (see :attr:`guji.sound.stream.OutputStopped.end_now`)."""
    import os
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(status)


class _Unfailing:
    """Standard error that cannot fail: what cannot be written there (a full
    disk, ``2>/dev/full``, a closed pipe) is lost, quietly, and the exit status
    stays the command's. Everything but writing is the stream's own."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            self.stream.write(text)
        except (OSError, ValueError):
            pass
        return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


class _Nowhere:
    """Standard error when it is closed: what guji would say is lost, quietly."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Options and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from typing import Callable

from ...i18n import N_, _
from ...errors import GujiError, UsageError
from ...text.reading.encoding import check_encoding
from ...text.reading.notation import Pattern, Rite
from ...text.reading.labels import LABEL_MODES
from ...timing.performance import Timing
from ...timing.score import (DEFAULT_INTERVAL, check_count_in, check_interval, check_repeat,
                             interval_from_bpm)


def add_force_option(parser: argparse.ArgumentParser) -> None:
    """--force: lift guji's limits on the work asked for (once per parser)."""
    if "--force" in parser._option_string_actions:
        return
    parser.add_argument("--force", action="store_true",
                        help=_("go past guji's limits on the work asked for: pieces over 24 hours, "
                             "over 100,000 parts and cues, MIDI files over 1,000,000 notes, input "
                             "texts over 64 MiB, texts whose reading would take over 1 GB (their "
                             "strokes and labels counted first), alignments over 1,000,000 pairs "
                             "of strokes (limits that keep results exact stay)"))


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """--encoding and --labels, for commands that may read a user's text file."""
    parser.add_argument("--encoding", type=checked(check_encoding, str, N_("an encoding")),
                        metavar="NAME",
                        help=_("encoding of input text files (default: detect UTF-8, UTF-16 or "
                             "UTF-32 with BOM, GB18030, Big5)"))
    parser.add_argument("--labels", choices=LABEL_MODES, default="auto",
                        help=_("where score labels stand relative to their patterns in text "
                             "files: 'after' (first diagram), 'before' (second), or 'auto' "
                             "(decided from each diagram's structure; default)"))
    parser.add_argument("--score", choices=("lu", "xue"),
                        help=_("the score (lu: 魯鼓, xue: 薛鼓) of a pattern typed as the id "
                               "('○□○○□□○□○○□半…') or of a file given as the id that is one "
                               "pattern with no score name beside it (default: its label, "
                               "else 魯鼓, said)"))
    add_force_option(parser)


def add_scale_option(parser: argparse.ArgumentParser) -> None:
    """--scale, for the commands that draw a picture that may be PNG (check, draw);
    :func:`check_scale` checks it before any work."""
    parser.add_argument("--scale", type=float, default=2.0, metavar="N",
                        help=_("PNG pixels per drawing pixel (default 2)"))


def check_scale(scale: float) -> float:
    """*scale* if a PNG can be drawn at it (0.25 to 8), else :class:`UsageError`."""
    if not 0.25 <= scale <= 8:
        raise UsageError(_("--scale must be between 0.25 and 8, not {scale:g}").format(scale=scale))
    return scale


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print JSON instead of text"))


def print_json(data) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def load_patterns(ids: list[str], args: argparse.Namespace) -> list[Pattern]:
    """Load each id (see ``guji.text.reading.editions``) with the input options of *args*;
    the warnings of scanning a user's text file go to stderr, once each."""
    said: set[str] = set()

    def warn(notice) -> None:
        line = f"guji: {notice}"
        if line not in said:
            said.add(line)
            print(line, file=sys.stderr)

    return [_load_one(i, args, warn) for i in ids]


def _load_one(pattern_id: str, args: argparse.Namespace, warn) -> Pattern:
    """One id: a pattern typed out or a file of one pattern given alone (named
    by ``--score``: :mod:`guji.text.reading.typed`), a reading of an MEI
    edition (``lu:1@edition.mei~SOURCE``: :mod:`guji.edition.read`), else a
    pattern of an edition or a text file (``-``: standard input)."""
    from ...text.reading.editions import PatternId, load     # here: guji --help reads no catalog
    from ...text.reading import typed
    score = getattr(args, "score", None)
    if typed.is_typed(pattern_id):
        return typed.read_typed(pattern_id, score, _said)
    if _one_file(pattern_id):
        return typed.read_file(pattern_id, score, _said, getattr(args, "encoding", None))
    pid = PatternId.parse(pattern_id)
    if pid.is_file:          # the MEI reader (XML, the collation) only for a file's id
        from ...edition.read import is_mei, load_mei
        if is_mei(pid.source):
            return load_mei(pattern_id)
    return load(pattern_id, encoding=getattr(args, "encoding", None),
                labels=getattr(args, "labels", "auto"), warn=warn)


def _one_file(pattern_id: str) -> bool:
    """Whether *pattern_id* is a file given alone (``nolabel.txt``, ``-``), read
    as one pattern: not an id, and there."""
    from ...text.reading.editions import PatternId
    if pattern_id != "-" and not os.path.isfile(pattern_id):
        return False
    try:
        PatternId.parse(pattern_id)
    except UsageError:
        return True
    return False


def _said(line: str) -> None:
    """One line on stderr, from guji."""
    print(_("guji: {message}").format(message=line), file=sys.stderr)


def checked(check: Callable, convert: Callable = float, what: str = N_("a number")) -> Callable:
    """An argparse ``type=`` from a library check: the text is converted with
    *convert*, then checked by *check* (which raises :class:`UsageError`), so
    an option is validated by the very function the library uses, and its
    error is argparse's one line, naming the option."""
    def parse(text: str):
        try:
            value = convert(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(_('{text} is not {what}').format(text=repr(text), what=_(what))) from None
        try:
            return check(value)
        except GujiError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = getattr(check, "__name__", "value")
    return parse


def add_timing_options(parser: argparse.ArgumentParser, rite: Rite = Rite.TOUHU) -> None:
    """--rite (default *rite*), --interval/--bpm, --repeat, --count-in."""
    g = parser.add_argument_group(_("timing (間若一: one even grid)"))
    g.add_argument("--rite", choices=[r.value for r in Rite], default=rite.value,
                   help=_('touhu (投壺): from 半 to the end; she (射禮): the whole pattern (default: {value})').format(value=rite.value))
    speed = g.add_mutually_exclusive_group()
    speed.add_argument("--interval", type=checked(check_interval), metavar="SECONDS",
                       help=_('seconds between strokes (default {default_interval:g}; the sources give no speed, see README)').format(default_interval=DEFAULT_INTERVAL))
    speed.add_argument("--bpm", type=checked(interval_from_bpm), dest="bpm_interval", metavar="N",
                       help=_('strokes per minute (default {value:g})').format(value=60 / DEFAULT_INTERVAL))
    g.add_argument("--repeat", type=checked(check_repeat, int, N_("a whole number")), default=1,
                   metavar="N",
                   help=_("passes of the pattern (default 1)"))
    g.add_argument("--count-in", type=checked(check_count_in, int, N_("a whole number")), default=0,
                   metavar="N",
                   help=_("neutral clicks before the first stroke (default 0)"))
    add_force_option(parser)


def interval_from_args(args: argparse.Namespace) -> float:
    """The interval of ``--interval`` or ``--bpm`` (both checked when parsed), or the default."""
    for name in ("bpm_interval", "interval"):
        if getattr(args, name, None) is not None:
            return getattr(args, name)
    return DEFAULT_INTERVAL


def timing_from_args(args: argparse.Namespace) -> Timing:
    """The :class:`~guji.timing.performance.Timing` of the timing options."""
    return Timing(Rite(args.rite), interval_from_args(args), args.repeat, args.count_in)


def command_name() -> str:
    """How to run guji again, for advice that names a command: ``guji`` when
    that is the program running, else the path it was started by
    (``.venv/bin/guji`` before the virtualenv is activated)."""
    started = sys.argv[0] if sys.argv else ""
    if os.path.basename(started) != "guji":
        return "guji"                   # python -m guji, or guji.cli.main() in a program
    found = shutil.which("guji")
    try:
        if found and os.path.samefile(found, started):
            return "guji"
    except OSError:
        pass
    return started

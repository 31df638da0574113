"""Options and helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import sys

from ...text.editions import load
from ...text.notation import Pattern, Rite
from ...text.labels import LABEL_MODES
from ...timing.performance import Timing
from ...timing.score import DEFAULT_INTERVAL, check_interval, interval_from_bpm


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """--encoding and --labels, for commands that may read a user's text file."""
    parser.add_argument("--encoding", metavar="NAME",
                        help="encoding of input text files (default: detect UTF-8, UTF-16 "
                             "with BOM, GB18030, Big5)")
    parser.add_argument("--labels", choices=LABEL_MODES, default="auto",
                        help="where score labels stand relative to their patterns in text "
                             "files: 'after' (first diagram), 'before' (second), or 'auto' "
                             "(decided from each diagram's structure; default)")


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def print_json(data) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def load_patterns(ids: list[str], args: argparse.Namespace) -> list[Pattern]:
    """Load each id (see ``guji.text.editions``) with the input options of *args*;
    the warnings of scanning a user's text file go to stderr, once each."""
    said: set[str] = set()

    def warn(notice) -> None:
        line = f"guji: {notice}"
        if line not in said:
            said.add(line)
            print(line, file=sys.stderr)

    return [load(i, encoding=getattr(args, "encoding", None),
                 labels=getattr(args, "labels", "auto"), warn=warn) for i in ids]


def add_timing_options(parser: argparse.ArgumentParser) -> None:
    """--rite, --interval/--bpm, --repeat, --count-in."""
    g = parser.add_argument_group("timing (間若一: one even grid)")
    g.add_argument("--rite", choices=[r.value for r in Rite], default=Rite.TOUHU.value,
                   help="touhu (投壺): from 半 to the end; she (射禮): the whole pattern "
                        "(default: touhu)")
    speed = g.add_mutually_exclusive_group()
    speed.add_argument("--interval", type=float, metavar="SECONDS",
                       help=f"seconds between strokes (default {DEFAULT_INTERVAL:g}; the sources "
                            "give no speed, see README)")
    speed.add_argument("--bpm", type=float, metavar="N",
                       help=f"strokes per minute (default {60 / DEFAULT_INTERVAL:g})")
    g.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="passes of the pattern (default 1)")
    g.add_argument("--count-in", type=int, default=0, metavar="N",
                   help="neutral clicks before the first stroke (default 0)")


def interval_from_args(args: argparse.Namespace) -> float:
    if getattr(args, "bpm", None) is not None:
        return interval_from_bpm(args.bpm)
    if getattr(args, "interval", None) is not None:
        return check_interval(args.interval)
    return DEFAULT_INTERVAL


def timing_from_args(args: argparse.Namespace) -> Timing:
    """The :class:`~guji.timing.performance.Timing` of the timing options."""
    return Timing(Rite(args.rite), interval_from_args(args), args.repeat, args.count_in)

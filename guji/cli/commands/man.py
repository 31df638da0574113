"""``guji man``: the man page, made from the command line's own parsers."""

from __future__ import annotations

import argparse
import sys
from ...i18n import _


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "man", help=_("print the man page (roff)"),
        description=_("Print guji's man page, every command and option, in roff: "
                    "'guji man | man -l -' shows it; 'guji man > ~/.local/share/man/man1/guji.1' "
                    "installs it for 'man guji'."))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..main import build_parser
    from ..shell import man_page
    sys.stdout.write(man_page(build_parser([])))
    return 0

"""``guji scan FILE``: find the drum diagrams in any text."""

from __future__ import annotations

import sys

from ...text.scan import scan
from ...text.encoding import read_text
from ._common import add_input_options, add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("scan", help="find the drum patterns in any text file",
                       description="Find the drum diagrams in a text file (a chapter, a web "
                                   "page's text, notes), skipping the prose around them. "
                                   "Warnings go to stderr.")
    p.add_argument("file", metavar="FILE", help="a text file, or - for standard input")
    add_input_options(p)
    p.add_argument("--read-bracketed", action="store_true",
                   help="read a pattern standing inside a note's brackets ( ) （ ） 【 】 (a quoted "
                        "diagram, or a stray bracket) as a pattern; without it such a pattern "
                        "is named in a warning and not read")
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    text, encoding = read_text(args.file, args.encoding)
    name = "<stdin>" if args.file == "-" else args.file
    result = scan(text, filename=name, labels=args.labels,
                  read_bracketed=args.read_bracketed)
    for notice in result.notices:
        print(f"guji: {notice}", file=sys.stderr)
    if args.json:
        print_json([p.to_json() for p in result.patterns])
        return 0
    if not result.patterns:
        print(f"{name}: no drum patterns found ({encoding})")
        return 0
    n = len(result.patterns)
    print(f"{name}: {n} pattern{'' if n == 1 else 's'} ({encoding})")
    for p in result.patterns:
        print(f"  {p.tradition.slug}:{p.diagram}  {p.tradition.label}  "
              f"{p.location.line}:{p.location.column}  {p.notation()}")
        for v in p.variants:
            cited = "; ".join(f"{n.text.replace(chr(10), '⏎')} at {n.location}" for n in v.notes)
            print(f"    ~{v.witness}  {v.notation()}  "
                  f"({'note' if len(v.notes) == 1 else 'notes'} {cited})")
        for n in p.unread:
            print(f"    note {n.text.replace(chr(10), '⏎')} at {n.location}: not read")
    return 0

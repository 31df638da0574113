"""``guji draw ID … -o FILE.svg``: pictures of the patterns.

The SVG is written by guji (:mod:`guji.views.draw`); ``.png`` goes through a
headless Chromium (see :func:`guji.views.png.svg_to_png`). ``-o -`` writes the SVG
to standard output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...views.draw import VIEWS, drawing, write_svg
from ...views.png import svg_to_png
from ...errors import UsageError
from ._common import add_input_options, load_patterns


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "draw", help="draw patterns as the source writes them, and as an aligned timeline",
        description="Draw one or more patterns: as the sources write them (vertical columns "
                    "read right to left, labels where the edition puts them) and as a piano "
                    "roll on one aligned grid with the differences from the first pattern "
                    "highlighted. Writes SVG, or PNG through a headless Chromium.")
    p.add_argument("ids", nargs="+", metavar="ID", help="pattern ids, e.g. lu:1 lu:1@wuli-tongkao")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.svg or FILE.png ('-' writes SVG to standard output)")
    p.add_argument("--view", choices=VIEWS, default="both",
                   help="source: the columns as written; timeline: the aligned piano roll; "
                        "both (default): the columns above the timeline")
    p.add_argument("--scale", type=float, default=2.0, metavar="N",
                   help="PNG pixels per drawing pixel (default 2)")
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = args.output
    suffix = Path(out).suffix.lower() if out != "-" else ".svg"
    if suffix not in (".svg", ".png"):
        raise UsageError(f"cannot draw to {out!r}: the file name must end in .svg or .png")
    if not 0.25 <= args.scale <= 8:
        raise UsageError(f"--scale must be between 0.25 and 8, not {args.scale:g}")
    patterns = load_patterns(args.ids, args)
    picture = drawing(patterns, args.view)
    if out == "-":
        sys.stdout.write(picture.svg(xml_declaration=True))
        return 0
    if suffix == ".svg":
        path = write_svg(out, picture.svg(xml_declaration=True))
    else:
        path = svg_to_png(picture, out, scale=args.scale)
    print(f"wrote {path} ({args.view}: {', '.join(p.id for p in patterns)})", file=sys.stderr)
    return 0

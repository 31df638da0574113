"""``guji draw ID … -o FILE.svg``: pictures of the patterns.

The SVG is written by guji (:mod:`guji.views.draw`); ``.png`` goes through a
headless Chromium (see :func:`guji.views.png.svg_to_png`). ``-o -`` writes the SVG
to standard output.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ...i18n import _, ngettext
from ...views.draw import VIEWS, drawing, write_svg
from ...errors import UsageError
from ...files import destination
from ..reports import wrote
from ._common import add_input_options, add_scale_option, check_scale, load_patterns


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "draw", help=_("draw patterns as the source writes them, and as an aligned timeline"),
        description=_("Draw one or more patterns: as the sources write them (vertical columns "
                    "read right to left, labels where the edition puts them) and as a piano "
                    "roll on one aligned grid with the differences from the first pattern "
                    "highlighted. Writes SVG, or PNG through a headless Chromium."))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, e.g. lu:1 lu:1@wuli-tongkao"))
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help=_("FILE.svg or FILE.png ('-' writes to standard output; a device or "
                        "pipe is written directly)"))
    p.add_argument("--format", choices=("svg", "png"),
                   help=_("picture format (default: from the extension; svg without one)"))
    p.add_argument("--view", choices=VIEWS, default="both",
                   help=_("source: the columns as written; timeline: the aligned piano roll; "
                        "both (default): the columns above the timeline"))
    add_scale_option(p)
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = args.output
    kind = _kind(out, args.format)
    check_scale(args.scale)
    where = destination(out, binary=kind == "png")          # checked before any work
    patterns = load_patterns(args.ids, args)
    picture = drawing(patterns, args.view)
    if kind == "svg":
        path = write_svg(out, picture.svg(xml_declaration=True))
    else:
        from ...views.png import svg_to_png
        path = svg_to_png(picture, out, scale=args.scale)
    wrote(path, _("a picture ({view} view) of {ids}").format(view=args.view, ids=", ".join(p.id for p in patterns)))
    return 0


def _kind(out: str, format: str | None) -> str:
    """``svg`` or ``png``: --format, else the extension; a name without one
    (a device, a pipe, ``-``) gets SVG."""
    suffix = Path(out).suffix.lower() if out != "-" else ""
    if suffix and suffix not in (".svg", ".png"):
        raise UsageError(_('cannot draw to {out}: the file name must end in .svg or .png').format(out=repr(out)))
    if format and suffix and suffix != f".{format}":
        raise UsageError(_('{out}: the extension says {value} but --format says {format}').format(out=out, value=suffix[1:], format=format))
    return format or (suffix[1:] if suffix else "svg")

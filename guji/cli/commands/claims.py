"""``guji claims FILE``: the stroke counts a text states, held against its own reading."""

from __future__ import annotations

import os
import sys

from ...i18n import _, ngettext
from ..columns import pad, table
from ._common import add_input_options, add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("claims", help=_("the stroke counts a text's commentary states, checked "
                                      "against its own diagrams"),
                       description=_("Read the count claims a text states near its diagrams "
                                   "(徐伯鲁: 前图鼙声七鼔声五此鲁鼓之半也…; or 魯則圜十三方十…: "
                                   "圜 round = 鼙, 方 square = 鼓; 上/前 the first diagram, 此/後 "
                                   "the second; 半 the half, 全 the whole) and hold each against "
                                   "the text's own reading of that pattern. Counts no score "
                                   "names are warned about on stderr."),
                       epilog=_("Examples: guji claims chapter.txt; guji claims lijing-benyi --json"))
    p.add_argument("file", metavar="FILE",
                   help=_("a text file (or a shipped edition's slug, e.g. lijing-benyi)"))
    add_input_options(p)
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ...text.collation.corpus import file_text, shipped_text     # not for guji --help
    from ...text.reading.editions import editions
    slugs = {e.slug for e in editions()}
    if args.file in slugs and not os.path.exists(args.file):
        text = shipped_text(args.file)
    else:
        text = file_text(args.file, args.encoding, args.labels)
    for notice in text.notices:
        print(_('guji: {notice}').format(notice=notice), file=sys.stderr)
    if args.json:
        print_json([c.to_json() for c in text.claims])
        return 0
    agree = sum(1 for c in text.claims if c.agrees)
    differ = sum(1 for c in text.claims if c.agrees is False)
    uncounted = len(text.claims) - agree - differ
    said = _("{agree} agree with its reading, {differ} do not").format(agree=agree, differ=differ)
    if uncounted:
        said += _("; {uncounted} not counted: no pattern of theirs in the text").format(uncounted=uncounted)
    n = len(text.claims)
    print(ngettext("{file}: {n} count claim", "{file}: {n} count claims", n).format(file=args.file, n=n)
          + (_(" ({said})").format(said=said) if text.claims else ""))
    for line in _rows(text.claims):
        print(line)
    if any(not c.diagram_stated and c.diagram is not None for c in text.claims):
        print(_('  * the text names no diagram: the one the claim follows'))
    return 0


def _rows(claims) -> list[str]:
    """One line a claim, its columns padded by display width (半, 相符 are 2 columns
    a character), and the doubt of a doubted count on a line of its own below it."""
    from ...text.collation.checked import part_word
    rows, doubts = [], []
    for c in claims:
        cl = c.claim
        diagram = "?" if c.diagram is None else str(c.diagram) + ("" if c.diagram_stated else "*")
        verdict = {True: _("agrees"), False: _("DIFFERS"), None: _("(no pattern)")}[c.agrees]
        counted = "-" if c.counted is None else str(c.counted)
        rows.append((cl.tradition.label, diagram, part_word(cl.part), cl.drum.value, str(cl.count),
                     _("counted {counted}").format(counted=pad(counted, 2, right=True)), verdict,
                     str(c.location), cl.text.replace("\n", "⏎")))
        doubts.append(c.doubt)
    lines = []
    for line, doubt in zip(table(rows, right=(4,), indent="  "), doubts):
        lines.append(line)
        if doubt is not None:
            lines.append(f"      {doubt.said()}")
    return lines

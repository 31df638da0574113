"""``guji glyphs``: the table of accepted glyphs and markers."""

from __future__ import annotations

from ...i18n import _
from ...text.reading.notation import HEADINGS, LABELS, LOOKALIKES, ROUND_GLYPHS, SQUARE_GLYPHS
from ._common import add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("glyphs", help=_("the glyphs guji accepts for ○ 鼙 and □ 鼓"),
                       description=_("The one table of accepted glyphs: any other symbol inside "
                                   "a pattern is an error."))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if args.json:
        print_json({
            "round": {f"U+{ord(g):04X}": {"glyph": g, "note": n} for g, n in ROUND_GLYPHS.items()},
            "square": {f"U+{ord(g):04X}": {"glyph": g, "note": n} for g, n in SQUARE_GLYPHS.items()},
            "half": "半",
            "labels": {k: v.value for k, v in LABELS.items()},
            "headings": list(HEADINGS),
            "refused": {k: v for k, v in LOOKALIKES.items()},
        })
        return 0
    print(_('round ○ = one stroke on the 鼙 (small drum):'))
    for g, note in ROUND_GLYPHS.items():
        print(f"  {g}  U+{ord(g):04X}  {_(note)}")
    print(_('square □ = one stroke on the 鼓 (big drum):'))
    for g, note in SQUARE_GLYPHS.items():
        print(f"  {g}  U+{ord(g):04X}  {_(note)}")
    print(_('半 = the half marker: from 半 to the end is played for 投壺, the whole for 射禮'))
    print(_("labels: {labels}").format(labels=" ".join(LABELS)))
    print(_("headings: {headings}").format(headings=" ".join(HEADINGS)))
    print(_('ignored: white space (incl. U+3000), punctuation, ¶, <pb:…> tags, list markers (1. a) 一、 ①) and quote marks (>) at the start of a line; notes in ( ) （ ） 【 】 are commentary'))
    for glyph in ("\u25cb", "\u25a1"):
        shown = " ".join(k for k, v in LOOKALIKES.items() if v == glyph)
        print(_('refused inside a pattern, with a suggestion of {glyph}: {shown}').format(glyph=glyph, shown=shown))
    return 0

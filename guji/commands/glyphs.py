"""``guji glyphs``: the table of accepted glyphs and markers."""

from __future__ import annotations

from ..notation import HEADINGS, LABELS, ROUND_GLYPHS, SQUARE_GLYPHS
from ._common import add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("glyphs", help="the glyphs guji accepts for ○ 鼙 and □ 鼓",
                       description="The one table of accepted glyphs: any other symbol inside "
                                   "a pattern is an error.")
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
        })
        return 0
    print("round ○ = one stroke on the 鼙 (small drum):")
    for g, note in ROUND_GLYPHS.items():
        print(f"  {g}  U+{ord(g):04X}  {note}")
    print("square □ = one stroke on the 鼓 (big drum):")
    for g, note in SQUARE_GLYPHS.items():
        print(f"  {g}  U+{ord(g):04X}  {note}")
    print("半 = the half marker: from 半 to the end is played for 投壺, the whole for 射禮")
    print("labels: " + " ".join(LABELS))
    print("headings: " + " ".join(HEADINGS))
    print("ignored: white space (incl. U+3000), punctuation, ¶, <pb:…> tags; "
          "notes in ( ) （ ） 【 】 are commentary")
    return 0

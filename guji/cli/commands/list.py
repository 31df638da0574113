"""``guji list``: every shipped pattern."""

from __future__ import annotations

from ...i18n import _
from ...text.reading.notation import Drum, Rite
from ..columns import table
from ._common import add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("list", help=_("list every shipped pattern"),
                       description=_("List every shipped pattern: id, score, diagram, edition, "
                                   "and the strokes of 鼙 (○) and 鼓 (□) in the whole and the half."))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ...text.reading.editions import editions, scan_edition     # not for guji --help
    rows_of = []
    for ed in editions():
        for pat in scan_edition(ed.slug).patterns:
            rows_of.append((ed, pat))
    if args.json:
        print_json([dict(pat.to_json(), title=ed.title, volume=ed.volume,
                         digitised=ed.digitised()) for ed, pat in rows_of])
        return 0
    rows = [(_("id"), _("score"), _("diagram"), _("edition"), _("whole 鼙/鼓"), _("half 鼙/鼓"), "")]
    for ed, pat in rows_of:
        w, h = pat.counts(Rite.SHE), pat.counts(Rite.TOUHU)
        rows.append((pat.id, pat.tradition.label, str(pat.diagram), ed.slug,
                     f"{w[Drum.SMALL]:>3} / {w[Drum.BIG]}", f"{h[Drum.SMALL]:>3} / {h[Drum.BIG]}",
                     ed.title))
    for line in table(rows):         # padded by display width: 魯鼓 is 4 columns
        print(line)
    return 0

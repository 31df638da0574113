"""``guji list``: every shipped pattern."""

from __future__ import annotations

from ...i18n import _
from ...text.reading.notation import Drum, Rite
from ._common import add_json_option, print_json


def register(sub) -> None:
    p = sub.add_parser("list", help=_("list every shipped pattern"),
                       description=_("List every shipped pattern: id, score, diagram, edition, "
                                   "and the strokes of 鼙 (○) and 鼓 (□) in the whole and the half."))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ...text.reading.editions import editions, scan_edition     # not for guji --help
    rows = []
    for ed in editions():
        for pat in scan_edition(ed.slug).patterns:
            rows.append((ed, pat))
    if args.json:
        print_json([dict(pat.to_json(), title=ed.title) for ed, pat in rows])
        return 0
    print(_('{value:<22} {value2:<5} {value3:<7} {value4:<14} {value5:<11} half 鼙/鼓').format(value=_('id'), value2=_('score'), value3=_('diagram'), value4=_('edition'), value5=_('whole 鼙/鼓')))
    for ed, pat in rows:
        w, h = pat.counts(Rite.SHE), pat.counts(Rite.TOUHU)
        print(f"{pat.id:<22} {pat.tradition.label:<4} {pat.diagram:<7} {ed.slug:<14} "
              f"{w[Drum.SMALL]:>3} / {w[Drum.BIG]:<3}    {h[Drum.SMALL]:>3} / {h[Drum.BIG]:<3}  "
              f"{ed.title}")
    return 0

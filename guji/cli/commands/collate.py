"""``guji collate``: every edition's reading of each pattern, aligned and checked."""

from __future__ import annotations

from ...text.collate import collate
from ...text.notation import HALF
from ._common import add_json_option, print_json

GAP = "·"        # same (ambiguous) width class as ○ and □, so columns line up
DIFF = "↑"
HALF_GAP = "\u3000"   # as wide as 半


def register(sub) -> None:
    p = sub.add_parser("collate", help="align every edition's reading of each pattern",
                       description="Align every shipped edition's reading of each of the four "
                                   "patterns stroke by stroke, mark the differences, and hold "
                                   "each reading's counts of 鼙 and 鼓 against the commentators' "
                                   "claims (徐伯鲁, in 礼经本义), flagging mismatches.")
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    results = collate()
    if args.json:
        print_json([c.to_json() for c in results])
        return 0
    n_variants = sum(len(c.variants) for c in results)
    n_mismatch = sum(len(c.mismatches) for c in results)
    for c in results:
        width = max(len(ed) for ed in c.readings)
        half_cols = _half_cols(c)
        print(f"{c.tradition.label}, diagram {c.diagram}  (base: {c.base})")
        for ed, row in c.columns.items():
            cells = [cell or (HALF_GAP if i in half_cols else GAP) for i, cell in enumerate(row)]
            print(f"  {ed:<{width}}  {''.join(cells)}")
        if c.variants:
            diff_cols = {v.column for v in c.variants}
            marks = [(DIFF if i in diff_cols else (HALF_GAP if i in half_cols else " "))
                     for i in range(len(next(iter(c.columns.values()))))]
            print(f"  {'':<{width}}  {''.join(marks).rstrip()}")
            for v in c.variants:
                print(f"  variant: {v.describe(c.base)}")
        else:
            print("  no variant readings")
        if c.claim is not None:
            cl = c.claim.counts
            print(f"  {c.claim.commentator} counts: half 鼙 {cl['half']['鼙']} 鼓 {cl['half']['鼓']}, "
                  f"whole 鼙 {cl['whole']['鼙']} 鼓 {cl['whole']['鼓']}"
                  + (f"  ({c.claim.note})" if c.claim.note else ""))
            for m in c.mismatches:
                print(f"  MISMATCH {m.describe()}")
        print()
    print(f"{n_variants} variant readings, {n_mismatch} count mismatches")
    return 0


def _half_cols(c) -> set[int]:
    cols = set()
    for row in c.columns.values():
        cols.update(i for i, cell in enumerate(row) if cell == HALF)
    return cols

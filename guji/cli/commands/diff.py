"""``guji diff A B``: two readings aligned stroke by stroke.

The whole patterns (before and after 半) are aligned with the edit distance
(:mod:`guji.text.collation.align`), so one missing ○ shows as one gap, not as a shifted
tail. The terminal shows two rows, A above B, column for column::

    A ○□○○○○□○□○□―○○○□○□○○□○半○□○□○○○○□○
    B ○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○
                 ↑

A gap is ``―`` (U+2015); a ``↑`` stands under each column that differs, and
the differences are then listed one per line. Columns follow
:func:`guji.errors.display_width` (○, □ and ― one column each, 半 two), as
the rest of guji's displays do; on a terminal that shows ○ wide (some CJK
settings) the ``↑`` row can drift, so on a colour terminal the differing
glyphs are also shown in reverse video.

``--json`` prints the alignment (``substitutions``,
``insertions``, ``deletions``, ``ops``) plus ``distance``, the two patterns
(``a``, ``b``: id, name, notation, half_start) and per op the glyphs
(``a_glyph``, ``b_glyph``) and whether each stroke lies before 半
(``a_before_half``, ``b_before_half``; ``null`` for a gap).

The exit status is that of ``diff``: 0 when the readings are the same, 1
when they differ (text or JSON alike), 2 for an error.
"""

from __future__ import annotations

import argparse
import os
import sys

from ...i18n import N_, _, ngettext
from ...text.collation.align import DEL, INS, MATCH, SUB, Alignment, align_patterns
from ...text.collation.grid import Grid, HalfColumn, align_many
from ...text.reading.notation import HALF, Pattern
from ...text.reading.names import part_name
from ._common import add_input_options, add_json_option, load_patterns, print_json

#: What stands in a row where the other row has a stroke and this one none.
GAP = "\u2015"        # ― HORIZONTAL BAR: East Asian width "ambiguous", like ○ and □
#: Under a column that differs.
MARK = "\u2191"       # ↑ also "ambiguous"
#: Where one row has 半 and the other not (both two columns wide).
HALF_FILLER = "\u3000"

_KIND_WORDS = {SUB: N_("substitution"), INS: N_("insertion"), DEL: N_("deletion")}


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "diff", help=_("align two readings stroke by stroke and show the differences"),
        description=_("Align two patterns (the whole pattern, before and after 半) with the "
                    "edit distance and show them one above the other, differences marked. "
                    "Insertions and deletions count from A to B. Exit status: 0 the same, "
                    "1 different (as diff), 2 an error."))
    p.add_argument("a", metavar="A", help=_("pattern id, e.g. lu:1"))
    p.add_argument("b", metavar="B", help=_("pattern id, e.g. lu:1@wuli-tongkao"))
    add_input_options(p)
    add_json_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    a, b = load_patterns([args.a, args.b], args)
    alignment = align_patterns(a, b)
    status = 0 if alignment.identical else 1      # as diff(1): a script can tell
    if args.json:
        print_json(diff_json(a, b, alignment))
        return status
    colour = sys.stdout.isatty() and os.environ.get("NO_COLOR") is None \
        and os.environ.get("TERM") != "dumb"
    sys.stdout.write(diff_text(a, b, alignment, colour=colour))
    return status


def diff_json(a: Pattern, b: Pattern, alignment: Alignment) -> dict:
    """The JSON of ``guji diff --json`` (see the module docstring)."""
    data = alignment.to_json()
    for op, out in zip(alignment.ops, data["ops"]):
        out["a_glyph"] = None if op.a is None else a.strokes[op.a].glyph
        out["b_glyph"] = None if op.b is None else b.strokes[op.b].glyph
        out["a_before_half"] = None if op.a is None else op.a < a.half_start
        out["b_before_half"] = None if op.b is None else op.b < b.half_start
    for key, p in (("a", a), ("b", b)):
        data[key] = {"id": p.id, "name": part_name(p), "notation": p.notation(),
                     "half_start": p.half_start, "strokes": len(p.strokes)}
    return data


def rows(grid: Grid, colour: bool = False) -> list[str]:
    """The text rows of a two-row :class:`~guji.text.collation.grid.Grid`: A, B and the
    mark row (without the leading ``A ``/``B `` labels), from
    :meth:`~guji.text.collation.grid.Grid.walk_with_halves`."""
    out_a, out_b, marks = [], [], []
    rev, off = ("\x1b[7m", "\x1b[0m") if colour else ("", "")
    for column in grid.walk_with_halves():
        if isinstance(column, HalfColumn):
            out_a.append(HALF if column.rows[0] else HALF_FILLER)
            out_b.append(HALF if column.rows[1] else HALF_FILLER)
            marks.append("  ")     # 半 and its filler are both two columns wide
            continue
        a, b = column.cells[:2]
        cells = [GAP if cell.drum is None else cell.drum.glyph for cell in (a, b)]
        if b.differs:
            cells = [rev + cell + off for cell in cells]
        out_a.append(cells[0])
        out_b.append(cells[1])
        marks.append(MARK if b.differs else " ")
    return ["".join(out_a), "".join(out_b), "".join(marks).rstrip()]


def diff_text(a: Pattern, b: Pattern, alignment: Alignment, colour: bool = False) -> str:
    """The terminal display of ``guji diff`` (see the module docstring)."""
    grid = align_many([a, b], [alignment])
    row_a, row_b, mark_row = rows(grid, colour)
    lines = [f"A  {a.id}  ({part_name(a)})",
             f"B  {b.id}  ({part_name(b)})",
             "",
             f"A {row_a}",
             f"B {row_b}"]
    if mark_row.strip():
        lines.append(f"  {mark_row}")
    lines.append("")
    if alignment.identical:
        lines.append(ngettext("identical: {n} stroke, 半 after stroke {half}",
                              "identical: {n} strokes, 半 after stroke {half}",
                              len(a.strokes)).format(n=len(a.strokes), half=a.half_start))
    else:
        lines.append(_("{counts} (edit distance {distance}, from A to B)").format(
            counts=_counts(alignment), distance=alignment.distance))
        for op in alignment.differences:
            lines.append("  " + describe(op, a, b))
    return "\n".join(lines) + "\n"


def _counts(alignment: Alignment) -> str:
    """``1 substitution, 0 insertions, 2 deletions`` in the user's language."""
    n_sub, n_ins, n_del = alignment.substitutions, alignment.insertions, alignment.deletions
    return _(", ").join((
        ngettext("{n} substitution", "{n} substitutions", n_sub).format(n=n_sub),
        ngettext("{n} insertion", "{n} insertions", n_ins).format(n=n_ins),
        ngettext("{n} deletion", "{n} deletions", n_del).format(n=n_del)))


def _stroke(p: Pattern, i: int) -> str:
    s = p.strokes[i]
    side = _("before 半") if i < p.half_start else _("after 半")
    return _("stroke {n} {glyph} {drum} ({side}, {place})").format(
        n=i + 1, glyph=s.glyph, drum=s.drum.value, side=side, place=s.location)


def describe(op, a: Pattern, b: Pattern) -> str:
    """One line for a difference: ``substitution: A stroke 4 ○ 鼙 … → B stroke 4 □ 鼓 …``."""
    word = _(_KIND_WORDS[op.op]) if op.op in _KIND_WORDS else op.op
    if op.op == SUB:
        return _("{kind}: A {a} → B {b}").format(kind=word, a=_stroke(a, op.a), b=_stroke(b, op.b))
    if op.op == INS:
        return _("{kind}: B {b} is not in A").format(kind=word, b=_stroke(b, op.b))
    if op.op == DEL:
        return _("{kind}: A {a} is not in B").format(kind=word, a=_stroke(a, op.a))
    assert op.op == MATCH
    return _("match: A {a} = B {b}").format(a=_stroke(a, op.a), b=_stroke(b, op.b))

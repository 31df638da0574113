"""The apparatus as a table: one row per place of variation, CSV or TSV.

For a spreadsheet or a paper's table: each row is one place where some
reading of a pattern differs (:attr:`Collation.variants
<guji.text.collation.collate.Collation.variants>`), with

``score, diagram, place`` (1, 2 … within the pattern), ``id`` (the place's
name, as the edition's ``<app>`` is named: ``b9``, ``a3-4``, ``a13.add``),
``column`` (the first of the collation's table, counting 半), ``part``
(``before 半`` or ``after 半``), ``base`` (the base reading's name),
``base_stroke`` (its strokes' numbers in the whole pattern, ``9`` or
``9-10``, empty where the base has none), ``base_glyph``, then a column per
reading of any pattern (its strokes there: ○, □, ``○□``, ``-`` for none,
empty for a reading of no such pattern), and ``witnesses``: who reads what
(``○: liji-zhengyi, lijing-benyi; □: wuli-tongkao``). One note's edit is one
row, an omission or addition of several strokes included.
"""

from __future__ import annotations

import csv
import io
from typing import Sequence

from ..text.collation.collate import Collation

__all__ = ["HEAD", "rows", "to_table"]

#: The first columns of every row; the readings' columns follow, then ``witnesses``.
HEAD = ("score", "diagram", "place", "id", "column", "part", "base", "base_stroke",
        "base_glyph")
#: A reading without a stroke at a place.
NONE = "-"


def rows(collations: Sequence[Collation]) -> list[list[str]]:
    """The header row and one row per place of variation."""
    names: list[str] = []
    for c in collations:
        names += [n for n in c.readings if n not in names]
    out = [[*HEAD, *names, "witnesses"]]
    for c in collations:
        for place, v in enumerate(c.variants, 1):
            glyphs = {n: v.readings[n] or NONE for n in c.readings}
            who: dict[str, list[str]] = {}
            for n, g in glyphs.items():
                who.setdefault(g, []).append(n)
            out.append([c.tradition.value, str(c.diagram), str(place), v.place, str(v.column + 1),
                        "before 半" if v.before_half else "after 半", c.base,
                        _numbers(v.base_strokes),
                        glyphs[c.base], *(glyphs.get(n, "") for n in names),
                        "; ".join(f"{g}: {', '.join(ns)}" for g, ns in who.items())])
    return out


def _numbers(strokes: tuple[int, ...]) -> str:
    """``9``, ``9-10``: a place's base strokes, 1-based ('' for none)."""
    if not strokes:
        return ""
    first, last = strokes[0] + 1, strokes[-1] + 1
    return str(first) if first == last else f"{first}-{last}"


def to_table(collations: Sequence[Collation], delimiter: str = ",") -> str:
    """The apparatus as CSV (*delimiter* ``,``) or TSV (``\\t``), one line a row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerows(rows(collations))
    return buffer.getvalue()

"""What the pictures call the patterns and their strokes: legends and tooltips.

Both pictures (:mod:`guji.views.source`, :mod:`guji.views.timeline`) end
with the same legend — a line per pattern, ``A  lu:1@liji-zhengyi  魯鼓 ·
前圖 (diagram 1) · 禮記正義`` — and give every stroke the same tooltip: its
number, drum, side of 半 and source position. The page (:mod:`guji.views.page`)
names the patterns with :func:`pattern_title` too.
"""

from __future__ import annotations

from typing import Sequence

from ..text.reading.names import LETTERS
from ..text.reading.names import title as pattern_title
from ..text.reading.notation import Pattern
from .svg import svg_text, text_width


def stroke_title(pattern: Pattern, i: int) -> str:
    """The tooltip of stroke *i* of *pattern*: its number, glyph and drum, its
    side of 半, and where the source writes it (with the glyph as written)."""
    s = pattern.strokes[i]
    side = "before 半 (射禮 only)" if i < pattern.half_start else "after 半"
    return (f"{pattern.id} stroke {i + 1}: {s.glyph} {s.drum.value} ({s.drum.english}), "
            f"{side}, source {s.location} '{s.raw}'")


def legend(patterns: Sequence[Pattern], x: float, y: float, size: float) -> tuple[str, float, float]:
    """Lines ``A   lu:1@liji-zhengyi   魯鼓 · 前圖 …``; returns (svg, width, height)."""
    body = []
    id_w = max(len(p.id) for p in patterns) * size * 0.6
    width = 0.0
    for r, p in enumerate(patterns):
        cy = y + size * 0.7 + r * size * 1.5
        body.append(svg_text(x, cy, LETTERS[r % 26], size, anchor="start",
                             extra=' font-weight="bold"'))
        body.append(svg_text(x + size * 1.6, cy, p.id, size, anchor="start"))
        title = pattern_title(p)
        body.append(svg_text(x + size * 2.6 + id_w, cy, title, size, anchor="start"))
        width = max(width, size * 2.6 + id_w + text_width(title, size))
    return "".join(body), width, len(patterns) * size * 1.5

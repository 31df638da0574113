"""What the pictures call the patterns and their strokes: legends and tooltips.

Both pictures (:mod:`guji.views.source`, :mod:`guji.views.timeline`) end
with the same legend — a line per pattern, ``A  lu:1@liji-zhengyi  魯鼓 ·
前圖 (diagram 1) · 禮記正義`` — and give every stroke the same tooltip: its
number, drum, side of 半 and source position. The page (:mod:`guji.views.page`)
names the patterns with :func:`pattern_title` too. Their words are in the
chosen language (:mod:`guji.page_words`); the ids, the glyphs and the
editions' titles are the sources' own, in every language.
"""

from __future__ import annotations

from typing import Sequence

from ..page_words import _
from ..text.reading.names import LETTERS
from ..text.reading.names import title as pattern_title
from ..text.reading.notation import Drum, Pattern
from .svg import svg_text, text_width


def drum_name(drum: Drum) -> str:
    """``鼙 (small drum)`` / ``鼓 (big drum)``; in Chinese the drum alone."""
    return _("鼙 (small drum)") if drum is Drum.SMALL else _("鼓 (big drum)")


def stroke_title(pattern: Pattern, i: int) -> str:
    """The tooltip of stroke *i* of *pattern*: its number, glyph and drum, its
    side of 半, and where the source writes it (with the glyph as written)."""
    s = pattern.strokes[i]
    side = _("before 半 (射禮 only)") if i < pattern.half_start else _("after 半")
    return _("{id} stroke {n}: {glyph} {drum}, {side}, source {place} '{raw}'").format(
        id=pattern.id, n=i + 1, glyph=s.glyph, drum=drum_name(s.drum), side=side,
        place=s.location, raw=s.raw)


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
        body.append(svg_text(x + size * 2.6 + id_w, cy, title, size, anchor="start",
                             extra=' class="legend"'))
        width = max(width, size * 2.6 + id_w + text_width(title, size))
    return "".join(body), width, len(patterns) * size * 1.5

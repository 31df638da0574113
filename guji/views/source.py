"""The patterns as the sources write them: vertical columns, right to left.

Each pattern is a vertical column, columns read from right to left (the first
pattern given stands at the right), ○ (鼙) drawn as a circle and □ (鼓) as a
square, 半 in its place, and the score label (魯鼓 / 薛鼓) where the edition
puts it. In the first diagram the label follows its pattern (below it in a
column); in the second it precedes it (above). When the source text says
where the label stands (:attr:`Pattern.label_location
<guji.text.reading.notation.Pattern.label_location>`), that decides; otherwise the
diagram does (:func:`label_after`). With two or more patterns, the strokes
where a pattern differs from the first (by the aligned grid of
:mod:`guji.text.collation.grid`) are shaded.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import UsageError
from ..text.collation.grid import Grid, align_many
from ..text.reading.names import LETTERS
from ..text.reading.notation import HALF, Pattern
from ..page_words import _
from .legend import legend, stroke_title
from .svg import DIFF_FILL, DIFF_OPACITY, INK, Drawing, quoteattr, rect, stroke_shape, svg_text


def label_after(pattern: Pattern) -> bool:
    """True when the pattern's label follows it (first diagram), False when it
    precedes it (second). The source's own label position decides when known."""
    if pattern.label_location is not None and pattern.strokes:
        return pattern.label_location.offset > pattern.strokes[0].location.offset
    return pattern.diagram != 2


def source_drawing(patterns: Sequence[Pattern], *, cell: float = 30.0,
                   highlight: bool = True) -> Drawing:
    """The patterns as the sources write them: vertical columns, right to left.

    Parameters
    ----------
    patterns:
        One or more patterns; the first stands in the rightmost column.
    cell:
        Height of one character (px); a column is ``1.6 × cell`` wide.
    highlight:
        Shade the strokes that differ from the first pattern (when there
        are two or more).
    """
    patterns = list(patterns)
    if not patterns:
        raise UsageError(_("nothing to draw: give at least one pattern"))
    grid = align_many(patterns) if highlight and len(patterns) > 1 else None
    differing = _differing_strokes(patterns, grid)
    col_w = cell * 1.8
    margin = cell
    # A column: the label (2 characters), one empty cell, the strokes and 半.
    rows = max(len(p.strokes) + 1 + 3 for p in patterns)
    top = margin
    column_bottom = top + rows * cell
    legend_svg, legend_w, legend_h = legend(patterns, margin, column_bottom + cell * 1.4,
                                            cell * 0.45)
    height = column_bottom + cell * 1.4 + legend_h + margin * 0.5
    block = col_w * len(patterns)
    width = max(margin * 2 + block, margin * 2 + legend_w)
    right = (width + block) / 2     # the block of columns is centred

    body = []
    for k, p in enumerate(patterns):
        cx = right - col_w * (k + 0.5)   # right to left: pattern 0 in the rightmost column
        body.append(_column(p, k, differing[k], cx, top, column_bottom, cell, col_w))
    body.append(legend_svg)
    title = _("the patterns as the sources write them: {ids}").format(
        ids=", ".join(p.id for p in patterns))
    return Drawing(width, height, "".join(body), title)


def _differing_strokes(patterns: Sequence[Pattern], grid: Grid | None) -> list[set[int]]:
    """For each pattern, the indices of its strokes that differ from pattern 0
    (for pattern 0: those where any other pattern differs)."""
    out: list[set[int]] = [set() for _ in patterns]
    if grid is None or len(patterns) < 2:
        return out
    for column in grid.walk():
        for cell in column.cells:
            if cell.index is not None and cell.differs:
                out[cell.row].add(cell.index)
    return out


def _column_items(pattern: Pattern) -> list[tuple[str, object]]:
    """What one column holds, top to bottom: ``("label", 魯)``…, ``("space",
    None)``, ``("stroke", i)``… with ``("half", 半)`` in its place; the label
    after the strokes or before them (:func:`label_after`)."""
    label: list[tuple[str, object]] = [("label", ch) for ch in pattern.tradition.label]
    strokes: list[tuple[str, object]] = []
    for i, s in enumerate(pattern.strokes):
        if i == pattern.half_start:
            strokes.append(("half", HALF))
        strokes.append(("stroke", i))
    if pattern.half_start >= len(pattern.strokes):
        strokes.append(("half", HALF))
    if label_after(pattern):
        return strokes + [("space", None)] + label
    return label + [("space", None)] + strokes


def _column(p: Pattern, k: int, differing: set[int], cx: float, top: float,
            column_bottom: float, cell: float, col_w: float) -> str:
    """The SVG group of pattern *p*'s column (the *k*-th, centred on *cx*),
    its letter below it; the strokes in *differing* shaded."""
    body = [f'<g class="column" data-pattern={quoteattr(p.id)}>\n']
    for j, (kind, value) in enumerate(_column_items(p)):
        cy = top + (j + 0.5) * cell
        if kind == "stroke":
            i = int(value)  # type: ignore[arg-type]
            if i in differing:
                body.append(rect(cx - col_w * 0.45, cy - cell / 2, col_w * 0.9, cell, DIFF_FILL,
                                 f' fill-opacity="{DIFF_OPACITY}" class="difference"'))
            body.append(stroke_shape(p.strokes[i].drum, cx, cy, cell * 0.62, INK,
                                     stroke_title(p, i), width=cell * 0.06, stroke=f"{k}-{i}"))
        elif kind == "half":
            body.append(svg_text(cx, cy, HALF, cell * 0.8, extra=' class="half"'))
        elif kind == "label":
            body.append(svg_text(cx, cy, str(value), cell * 0.8, extra=' class="label"'))
    body.append(svg_text(cx, column_bottom + cell * 0.6, LETTERS[k % 26], cell * 0.45,
                         fill="#666666"))
    body.append("</g>\n")
    return "".join(body)

"""A piano roll of two or more patterns on one aligned grid.

One track per pattern, a lane for each drum (鼙 above, 鼓 below), one column
per aligned stroke (:func:`guji.text.collation.grid.align_many`, read with
:meth:`Grid.walk <guji.text.collation.grid.Grid.walk>`), so a stroke one edition lacks
is an empty dashed cell, not a shifted tail. Columns where a pattern differs
from the first are highlighted; 半 is a line across its track; the part
before 半 (played only in the 射禮) is shaded grey. Every column is one
interval of the even grid (間若一).

The picture is drawn in steps, top to bottom: the column numbers
(:func:`_axis`), a track per pattern (:func:`_track`: its shading and lanes,
its labels, its cells, its 半), the key of the colours and marks
(:func:`_key`), and the legend (:func:`guji.views.legend.legend`). Where each
lies is worked out once, by :class:`_Frame`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..errors import UsageError
from ..text.collation.grid import Cell, Grid, align_many
from ..text.reading.names import LETTERS
from ..text.reading.notation import HALF, Drum, Pattern
from ..page_words import N_, _
from .legend import legend, stroke_title
from .svg import (BEFORE_HALF_FILL, BIG_COLOUR, DIFF_FILL, DIFF_OPACITY, GRID_COLOUR, INK,
                  SMALL_COLOUR, Drawing, escape, num, quoteattr, rect, stroke_shape, svg_text,
                  text_width)

#: The key under the tracks: what each sample stands for (translated where drawn).
KEY_ITEMS = (("small", N_("鼙 small drum (○)")), ("big", N_("鼓 big drum (□)")),
             ("before", N_("before 半: played only in the 射禮")),
             ("gap", N_("no stroke here (a gap in the alignment)")),
             ("diff", N_("differs from A")))


def timeline_drawing(patterns: Sequence[Pattern], *, grid: Grid | None = None,
                     cell: float = 24.0) -> Drawing:
    """A piano roll of the patterns on one aligned grid (see the module docstring).

    Parameters
    ----------
    patterns:
        One or more patterns; the first is the reference the others are
        aligned to and compared with.
    grid:
        A ready alignment of exactly these patterns (default: computed with
        :func:`guji.text.collation.grid.align_many`).
    cell:
        Width of one grid column and height of one lane (px).
    """
    patterns = list(patterns)
    if not patterns:
        raise UsageError(_("nothing to draw: give at least one pattern"))
    grid = grid or align_many(patterns)
    frame = _Frame(cell, len(patterns), len(grid.columns))
    legend_svg, legend_w, legend_h = legend(patterns, frame.margin, frame.key_y + cell * 1.2,
                                            frame.key_size)
    columns = list(grid.walk())
    body = [_axis(frame)]
    for r, p in enumerate(patterns):
        body.append(_track(frame, p, r, grid.half_columns[r], [col.cells[r] for col in columns]))
    key, key_end = _key(frame)
    body += [key, legend_svg]
    height = frame.key_y + cell * 1.2 + legend_h + frame.margin * 0.5
    width = max(frame.right + frame.margin, key_end + frame.margin, frame.margin * 2 + legend_w)
    title = _("timeline of {ids} on one aligned grid").format(
        ids=", ".join(p.id for p in patterns))
    return Drawing(width, height, "".join(body), title)


@dataclass(frozen=True)
class _Frame:
    """Where the parts of a timeline of *rows* tracks and *columns* grid
    columns lie, *cell* px a column and a lane."""

    cell: float
    rows: int
    columns: int

    @property
    def margin(self) -> float:
        return self.cell * 0.8

    @property
    def axis_h(self) -> float:
        """Height of the row of column numbers."""
        return self.cell * 1.2

    @property
    def track_h(self) -> float:
        """Height of a track: two lanes and room for the 半 label."""
        return self.cell * 2 + self.cell * 1.1

    @property
    def left(self) -> float:
        """Where column 0 starts, right of the track labels."""
        return self.margin + self.cell * 9.5

    @property
    def right(self) -> float:
        """Where the last column ends."""
        return self.left + self.columns * self.cell

    @property
    def top(self) -> float:
        """Where the first track starts."""
        return self.margin + self.axis_h

    def lanes_top(self, row: int) -> float:
        """Where the lanes of track *row* start (under its 半 label)."""
        return self.top + row * self.track_h + self.cell * 1.1

    def x(self, column: int) -> float:
        """Where *column* starts."""
        return self.left + column * self.cell

    @property
    def key_y(self) -> float:
        """The middle of the key's line, under the tracks."""
        return self.top + self.track_h * self.rows + self.cell * 0.6

    @property
    def key_size(self) -> float:
        """Size of the key's samples and of the legend's text."""
        return self.cell * 0.5


def _axis(frame: _Frame) -> str:
    """The column numbers above the tracks (every 5th, from 1)."""
    cell = frame.cell
    return "".join(svg_text(frame.x(c) + cell / 2, frame.margin + frame.axis_h / 2, str(c + 1),
                            cell * 0.45, fill="#666666")
                   for c in range(frame.columns) if c % 5 == 0)


def _track(frame: _Frame, p: Pattern, r: int, half_column: int, cells: Sequence[Cell]) -> str:
    """The SVG group of track *r* (pattern *p*, its *cells* of the grid walk)."""
    y0 = frame.lanes_top(r)
    body = [f'<g class="track" data-pattern={quoteattr(p.id)}>\n',
            _lanes(frame, y0, half_column), _track_labels(frame, p, r, y0)]
    body += [_cell(frame, p, cell, y0) for cell in cells]
    # 半: a line across the track at its boundary.
    cell = frame.cell
    hx = frame.x(half_column)
    body.append(f'<line x1="{num(hx)}" y1="{num(y0 - cell * 0.25)}" x2="{num(hx)}" '
                f'y2="{num(y0 + cell * 2)}" stroke="{INK}" stroke-width="2" class="half"/>\n')
    body.append(svg_text(hx, y0 - cell * 0.55, HALF, cell * 0.6))
    body.append("</g>\n")
    return "".join(body)


def _lanes(frame: _Frame, y0: float, half_column: int) -> str:
    """The 射禮-only region shaded (columns before *half_column*), and the
    lines of the two lanes."""
    cell = frame.cell
    body = []
    if half_column > 0:
        body.append(rect(frame.left, y0, half_column * cell, cell * 2, BEFORE_HALF_FILL))
    for lane in range(3):
        y = y0 + lane * cell
        body.append(f'<line x1="{num(frame.left)}" y1="{num(y)}" x2="{num(frame.right)}" '
                    f'y2="{num(y)}" stroke="{GRID_COLOUR}" stroke-width="1"/>\n')
    return "".join(body)


def _track_labels(frame: _Frame, p: Pattern, r: int, y0: float) -> str:
    """Left of the lanes: the letter, the score and its source, 鼙 and 鼓."""
    cell, margin, left = frame.cell, frame.margin, frame.left
    return "".join((
        svg_text(margin, y0 + cell, LETTERS[r % 26], cell * 0.9, anchor="start",
                 extra=' font-weight="bold"'),
        svg_text(margin + cell * 1.1, y0 + cell * 0.5, p.tradition.label, cell * 0.5,
                 anchor="start"),
        svg_text(margin + cell * 1.1, y0 + cell * 1.5, f"{p.diagram} "
                 f"{p.edition or p.filename or ''}"[:24], cell * 0.42, anchor="start",
                 fill="#666666"),
        svg_text(left - cell * 0.3, y0 + cell * 0.5, "鼙", cell * 0.5, anchor="end"),
        svg_text(left - cell * 0.3, y0 + cell * 1.5, "鼓", cell * 0.5, anchor="end"),
    ))


def _cell(frame: _Frame, p: Pattern, cell: Cell, y0: float) -> str:
    """One column of one track: highlighted where it differs from A, then a
    dashed empty cell for a gap, or the stroke in its drum's lane."""
    size, c = frame.cell, cell.column
    x = frame.x(c)
    body = []
    if cell.differs:
        kind = cell.kind if cell.row else ""
        body.append(rect(x, y0, size, size * 2, DIFF_FILL,
                         f' fill-opacity="{DIFF_OPACITY}" class="difference" '
                         f'data-column="{c}" data-kind="{kind or "ref"}"'))
    if cell.stroke is None:
        gap = _("{id}: no stroke here (column {n})").format(id=p.id, n=c + 1)
        body.append(f'<rect x="{num(x + size * 0.15)}" y="{num(y0 + size * 0.15)}" '
                    f'width="{num(size * 0.7)}" height="{num(size * 1.7)}" fill="none" '
                    f'stroke="#999999" stroke-dasharray="3 2" class="gap">'
                    f'<title>{escape(gap)}</title>'
                    f'</rect>\n')
        return "".join(body)
    drum = cell.stroke.drum
    lane_y = y0 + (0.5 if drum is Drum.SMALL else 1.5) * size
    colour = SMALL_COLOUR if drum is Drum.SMALL else BIG_COLOUR
    body.append(stroke_shape(drum, x + size / 2, lane_y, size * 0.62, colour,
                             _("{stroke}, column {n}").format(stroke=stroke_title(p, cell.index),
                                                              n=c + 1),
                             width=size * 0.09, stroke=f"{cell.row}-{cell.index}"))
    return "".join(body)


def _key(frame: _Frame) -> tuple[str, float]:
    """The key under the tracks, each item a sample and its words
    (:data:`KEY_ITEMS`); returns (svg, where it ends)."""
    kx, ks, key_y = frame.margin, frame.key_size, frame.key_y
    body = []
    for kind, words in KEY_ITEMS:
        words = _(words)
        sx, sy = kx + ks / 2, key_y
        if kind == "small":
            body.append(stroke_shape(Drum.SMALL, sx, sy, ks, SMALL_COLOUR, words, width=2))
        elif kind == "big":
            body.append(stroke_shape(Drum.BIG, sx, sy, ks, BIG_COLOUR, words, width=2))
        else:
            fill, extra = {"before": (BEFORE_HALF_FILL, ""),
                           "gap": ("none", ' stroke="#999999" stroke-dasharray="3 2"'),
                           "diff": (DIFF_FILL, f' fill-opacity="{DIFF_OPACITY}"')}[kind]
            body.append(rect(sx - ks / 2, sy - ks / 2, ks, ks, fill, extra))
        body.append(svg_text(kx + ks * 1.5, key_y, words, ks, anchor="start", fill="#444444"))
        kx += ks * 1.5 + text_width(words, ks) + ks
    return "".join(body), kx


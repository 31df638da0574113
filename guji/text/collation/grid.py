"""Several readings on one grid of aligned columns, and the one walk over it.

:func:`align_many` lays two or more patterns out on one :class:`Grid`: row 0
is the reference, every other row is aligned to it stroke by stroke
(:func:`guji.text.collation.align.align_patterns`), and a stroke some row lacks is a
gap in that row's column, not a shifted tail.

The walk
--------
Every display of a grid reads it the same way: the text table of ``guji
diff``, the collation table of ``guji collate`` (:mod:`guji.text.collation.collate`),
the HTML alignment table of the page and the SVG pictures
(:mod:`guji.views`), and the bells of ``guji compare --mode diff``
(:mod:`guji.compare.modes`). Column by column, each row has a stroke there
or a gap, stands to the reference as a match, a substitution, an insertion
or a deletion (the constants of :mod:`guji.text.collation.align`), and differs from
it or not; between two columns, some rows' 半 may stand. :meth:`Grid.walk`
yields exactly that as frozen values — a :class:`Column` of :class:`Cell`
values, one per row — and :meth:`Grid.walk_with_halves` puts a
:class:`HalfColumn` wherever 半 stands, so that no display works the grid
out again on its own.

Why here and not in :mod:`guji.views`: the collation walks the grid too, and
it belongs to the text stage. The stages import one way (text → timing →
views → cli), so the text stage may not import the views; the walk therefore
lives beside the grid it walks, and the views, the timing and the command
line take it from here.

Examples
--------
>>> from guji.text.reading.editions import load
>>> grid = align_many([load("lu:1"), load("lu:1@wuli-tongkao")])
>>> [c.index for c in grid.walk() if c.differs]
[3]
>>> [cell.kind for cell in next(c for c in grid.walk() if c.differs).cells]
['match', 'sub']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from .align import DEL, INS, MATCH, SUB, Alignment, align_patterns
from ..reading.notation import Drum, Pattern, Stroke


@dataclass(frozen=True)
class Cell:
    """What one row has in one column of a :class:`Grid`.

    Attributes
    ----------
    column:
        The grid column (an index into :attr:`Grid.columns`).
    row:
        The row (0: the reference).
    index:
        Index into ``patterns[row].strokes`` of the stroke here, ``None`` for
        a gap.
    stroke:
        That stroke, ``None`` for a gap.
    kind:
        The op of this row against the reference here (:meth:`Grid.kind`):
        :data:`~guji.text.collation.align.MATCH`, :data:`~guji.text.collation.align.SUB`,
        :data:`~guji.text.collation.align.INS`, :data:`~guji.text.collation.align.DEL`, or ``""``
        when both have a gap. The reference itself is ``match`` wherever it
        strikes.
    differs:
        True when this row differs from the reference here
        (:meth:`Grid.differs`); the reference differs where any other row does.
    """

    column: int
    row: int
    index: int | None
    stroke: Stroke | None
    kind: str
    differs: bool

    @property
    def drum(self) -> Drum | None:
        """The drum struck here, ``None`` for a gap."""
        return None if self.stroke is None else self.stroke.drum


@dataclass(frozen=True)
class Column:
    """One column of a :class:`Grid`: its index and a :class:`Cell` per row."""

    index: int
    cells: tuple[Cell, ...]

    @property
    def differs(self) -> bool:
        """True when some row differs from the reference in this column."""
        return any(cell.differs for cell in self.cells)


@dataclass(frozen=True)
class HalfColumn:
    """Where 半 stands: before grid column :attr:`before` (``len(columns)``:
    after the last one), with :attr:`rows` True for each row whose 半 it is
    (a display fills the other rows, so the columns stay in line)."""

    before: int
    rows: tuple[bool, ...]


@dataclass(frozen=True)
class Grid:
    """Two or more patterns laid out on one grid of aligned columns.

    Row 0 is the *reference*; every other row is aligned to it with
    :func:`~guji.text.collation.align.align_patterns` (a "star" alignment). Strokes a
    row has and the reference lacks (insertions) get columns of their own;
    when several rows insert strokes at the same place of the reference,
    their insertions share columns (the first inserted stroke of each row in
    the first such column, and so on), so two editions with the same extra ○
    line up together.

    With two patterns the columns are exactly the ops of
    ``align_patterns(a, b)``.

    Attributes
    ----------
    patterns:
        The rows, reference first.
    columns:
        ``columns[c][r]`` is the index into ``patterns[r].strokes`` of the
        stroke row *r* has in column *c*, or ``None`` (a gap).
    half_columns:
        For each row, the column boundary where its 半 stands: its strokes
        before 半 lie in columns ``< half_columns[r]``, those after in columns
        ``>= half_columns[r]``. When every row can put 半 at one boundary, they
        all share it (the earliest such).
    """

    patterns: tuple[Pattern, ...]
    columns: tuple[tuple[int | None, ...], ...]
    half_columns: tuple[int, ...]

    @property
    def rows(self) -> int:
        return len(self.patterns)

    def drum(self, column: int, row: int):
        """The drum row *row* strikes in *column*, or ``None`` for a gap."""
        i = self.columns[column][row]
        return None if i is None else self.patterns[row].strokes[i].drum

    def differs(self, column: int, row: int) -> bool:
        """True when row *row* differs from the reference in *column*: another
        drum (substitution), a gap where the reference strikes (deletion), or
        a stroke where the reference has a gap (insertion). Row 0 differs
        where any other row does."""
        if row == 0:
            return any(self.differs(column, r) for r in range(1, self.rows))
        return self.drum(column, row) != self.drum(column, 0)

    def kind(self, column: int, row: int) -> str:
        """The op of *row* against the reference in *column*: ``match``,
        ``sub``, ``ins``, ``del``, or ``""`` when both have a gap there."""
        ref, mine = self.columns[column][0], self.columns[column][row]
        if ref is None and mine is None:
            return ""
        if ref is None:
            return INS
        if mine is None:
            return DEL
        return MATCH if self.drum(column, row) == self.drum(column, 0) else SUB

    def cell(self, column: int, row: int) -> Cell:
        """What row *row* has in *column*, as a :class:`Cell`."""
        i = self.columns[column][row]
        stroke = None if i is None else self.patterns[row].strokes[i]
        return Cell(column, row, i, stroke, self.kind(column, row), self.differs(column, row))

    def walk(self) -> Iterator[Column]:
        """Every column, in order, with a :class:`Cell` for each row (see the
        module docstring)."""
        for c in range(len(self.columns)):
            yield Column(c, tuple(self.cell(c, r) for r in range(self.rows)))

    def walk_with_halves(self, half_columns: Sequence[int] | None = None
                         ) -> Iterator[Column | HalfColumn]:
        """The columns of :meth:`walk` with a :class:`HalfColumn` before each
        column boundary where some row's 半 stands (also after the last
        column, when 半 stands there): the order in which a table shows them.

        Parameters
        ----------
        half_columns:
            Where each row's 半 stands (default: :attr:`half_columns`); the
            collation gives its own (:mod:`guji.text.collation.collate`).
        """
        halves = self.half_columns if half_columns is None else tuple(half_columns)
        columns = self.walk()
        for c in range(len(self.columns) + 1):
            here = tuple(h == c for h in halves)
            if any(here):
                yield HalfColumn(c, here)
            if c < len(self.columns):
                yield next(columns)


def align_many(patterns: Sequence[Pattern], alignments: Sequence[Alignment] = ()) -> Grid:
    """Lay out *patterns* (at least one) on one aligned :class:`Grid`.

    The first pattern is the reference; each other is aligned to it with
    :func:`~guji.text.collation.align.align_patterns` (or taken from *alignments*, one
    for each other pattern, when the caller has them already).
    """
    patterns = tuple(patterns)
    if not patterns:
        raise ValueError("align_many needs at least one pattern")
    columns = _columns(patterns, tuple(alignments))
    return Grid(patterns, columns, _half_columns(patterns, columns))


def _columns(patterns: tuple[Pattern, ...], alignments: tuple[Alignment, ...] = ()
             ) -> tuple[tuple[int | None, ...], ...]:
    """The columns of :class:`Grid` for *patterns* (reference first)."""
    ref = patterns[0]
    n = len(ref.strokes)
    # For every row: at[k] = its stroke index facing reference stroke k (or
    # None); extra[k] = its strokes inserted just before reference stroke k
    # (k == n: after the last one).
    at_rows, extra_rows = [], []
    for k, p in enumerate(patterns[1:]):
        at: list[int | None] = [None] * n
        extra: list[list[int]] = [[] for _ in range(n + 1)]
        slot = 0
        for op in (alignments[k] if k < len(alignments) else align_patterns(ref, p)).ops:
            if op.a is None:
                extra[slot].append(op.b)
            else:
                at[op.a] = op.b
                slot = op.a + 1
        at_rows.append(at)
        extra_rows.append(extra)

    columns: list[tuple[int | None, ...]] = []
    for k in range(n + 1):
        width = max((len(extra[k]) for extra in extra_rows), default=0)
        for w in range(width):
            columns.append((None,) + tuple(extra[k][w] if w < len(extra[k]) else None
                                           for extra in extra_rows))
        if k < n:
            columns.append((k,) + tuple(at[k] for at in at_rows))
    return tuple(columns)


def _half_columns(patterns: tuple[Pattern, ...],
                  columns: tuple[tuple[int | None, ...], ...]) -> tuple[int, ...]:
    """Where each row's 半 stands on *columns* (:attr:`Grid.half_columns`)."""
    # Where each row's 半 may stand: between its last stroke before 半 and
    # its first stroke after it.
    ranges = []
    for r, p in enumerate(patterns):
        where = {col[r]: c for c, col in enumerate(columns) if col[r] is not None}
        lo = where[p.half_start - 1] + 1 if p.half_start > 0 else 0
        hi = where[p.half_start] if p.half_start < len(p.strokes) else len(columns)
        ranges.append((lo, hi))
    lo = max(r[0] for r in ranges)
    hi = min(r[1] for r in ranges)
    if lo <= hi:
        return (lo,) * len(patterns)
    return tuple(r[0] for r in ranges)

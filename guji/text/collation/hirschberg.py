"""The alignment of :func:`guji.text.collation.align.align` in linear memory (Hirschberg's split).

:func:`~guji.text.collation.align.align` is defined by a table: ``cost[i][j]``, the
cheapest edits turning ``a[:i]`` into ``b[:j]``, filled row by row, then
traced back from ``(len(a), len(b))``, at each cell taking the first of
diagonal, deletion, insertion that lies on a cheapest path. Held whole, the
table is ``len(a) × len(b)`` numbers: 3,000 strokes against 3,000 took 4 GB.

Here it is never held whole, and the trace is the same, step for step:

* Every step of the trace looks only at ``cost`` (the cells of the step and
  its three neighbours), and ``cost`` of any row follows from the row above
  it alone. So to trace rows ``r0 … r1`` from a cell of row ``r1`` back to
  where the trace enters row ``r0``, it is enough to know row ``r0``.
* Split at ``mid`` (Hirschberg 1975): fill rows ``r0 → mid`` keeping only
  row ``mid``; trace rows ``mid … r1`` from their end (recursively) to the
  column ``j`` where the trace enters row ``mid``; then trace rows
  ``r0 … mid`` from ``(mid, j)`` (columns past ``j`` are not needed: a
  cell's cost depends on the cells left of it and above it only).
* When few enough cells remain (:data:`BASE_CELLS`), the block of rows is
  filled whole and traced with the very rule of the whole table.

The trace at each cell therefore compares the same numbers as the whole
table's trace, so it takes the same step: the same ops, not merely another
cheapest alignment (``tests/test_align_linear.py`` checks it against the
whole table on random inputs). Memory: one row a level of the split plus one
block, O(len(b) × log len(a)); time O(len(a) × len(b) × log len(a)), each row
filled with numpy (``row[j] = min(t[j], row[j-1] + 1)`` is a running minimum:
``row = minimum.accumulate(t - j) + j``). Small tables (:data:`SMALL_CELLS`)
are filled in plain Python, without numpy.
"""

from __future__ import annotations

from typing import Sequence

#: Tables of at most this many cells are filled in plain Python, whole.
SMALL_CELLS = 4096
#: Blocks of rows of at most this many cells are filled whole (8 MB of int64).
BASE_CELLS = 2 ** 20

Ops = list  # of (kind, i, j), in reverse order while tracing


def trace_alignment(a: list, b: list, sides: tuple[Sequence, Sequence] | None = None, *,
                    small_cells: int = SMALL_CELLS, base_cells: int = BASE_CELLS
                    ) -> list[tuple[str, int | None, int | None]]:
    """The ops ``(kind, index in a, index in b)`` of :func:`guji.text.collation.align.align`, in order."""
    n, m = len(a), len(b)
    # costs: each edit is worth `unit`, each pair of items on different sides one (all
    # of them together less than one edit), so fewer edits always win.
    unit = n + m + 1 if sides is not None else 1
    side_a, side_b = (list(sides[0]), list(sides[1])) if sides is not None else ([0] * n, [0] * m)
    problem = _Problem(*codes(a, b), *codes(side_a, side_b), unit)
    ops: Ops = []
    if n * m <= small_cells:
        j = problem.trace_block(0, n, problem.python_table(n), m, ops)
    else:
        import numpy as np
        first = np.arange(m + 1, dtype=np.int64) * unit
        j = split_trace(problem, 0, n, first, m, ops, max(1, base_cells // (m + 1)))
    ops.extend(("ins", None, k) for k in range(j - 1, -1, -1))
    ops.reverse()
    return ops


def split_trace(problem, r0: int, r1: int, first, state, ops: Ops, rows: int):
    """Trace rows ``r0 … r1`` of *problem*'s table from *state* (in row *r1*)
    until the trace enters row *r0*, knowing row *r0* only (*first*): blocks
    of at most *rows* rows filled whole, longer stretches split in two (the
    module docstring). Returns the trace's state on entering row *r0*.

    *problem* fills rows (``fill(r0, r1, first, keep)``: every row as one
    array, or the last), traces a block (``trace_block(r0, r1, table, state,
    ops)``) and cuts a row to the columns a state needs (``cut(row, state)``).
    """
    if r1 - r0 <= rows:
        return problem.trace_block(r0, r1, problem.fill(r0, r1, first, keep=True), state, ops)
    mid = (r0 + r1) // 2
    state = split_trace(problem, mid, r1, problem.fill(r0, mid, first, keep=False), state,
                        ops, rows)
    return split_trace(problem, r0, mid, problem.cut(first, state), state, ops, rows)


def codes(a: list, b: list) -> tuple[list[int], list[int]]:
    """Each item as a small integer, equal items (``==``) the same integer."""
    try:
        table: dict = {}
        return ([table.setdefault(x, len(table)) for x in a],
                [table.setdefault(x, len(table)) for x in b])
    except TypeError:                      # unhashable items: compare by ==
        seen: list = []

        def code(x) -> int:
            for k, y in enumerate(seen):
                if x == y:
                    return k
            seen.append(x)
            return len(seen) - 1
        return [code(x) for x in a], [code(x) for x in b]


class _Problem:
    """The two sequences as codes and sides, and the unit cost of an edit."""

    def __init__(self, code_a: list[int], code_b: list[int], side_a: list, side_b: list,
                 unit: int):
        self.code_a, self.code_b, self.side_a, self.side_b = code_a, code_b, side_a, side_b
        self.unit = unit
        self._np = None

    def pair(self, i: int, j: int) -> int:
        """The cost of the diagonal step pairing ``a[i]`` with ``b[j]``."""
        return ((0 if self.code_a[i] == self.code_b[j] else self.unit)
                + (self.side_a[i] != self.side_b[j]))

    def python_table(self, n: int) -> list[list[int]]:
        """The whole table, in plain Python (small problems)."""
        m, unit, pair = len(self.code_b), self.unit, self.pair
        cost = [[j * unit for j in range(m + 1)]]
        for i in range(1, n + 1):
            prev, row = cost[-1], [i * unit] + [0] * m
            for j in range(1, m + 1):
                row[j] = min(prev[j - 1] + pair(i - 1, j - 1), prev[j] + unit,
                             row[j - 1] + unit)
            cost.append(row)
        return cost

    def trace_block(self, r0: int, r1: int, table, j: int, ops: Ops) -> int:
        """Trace from ``(r1, j)`` until the trace enters row *r0*; *table* holds
        rows ``r0 … r1`` (row 0 of it is row *r0*). Returns the column entered."""
        unit, pair, code_a, code_b = self.unit, self.pair, self.code_a, self.code_b
        i = r1
        while i > r0:
            row, above = table[i - r0], table[i - r0 - 1]
            here = row[j]
            if j > 0 and above[j - 1] + pair(i - 1, j - 1) == here:
                i, j = i - 1, j - 1
                ops.append(("match" if code_a[i] == code_b[j] else "sub", i, j))
            elif above[j] + unit == here:
                i -= 1
                ops.append(("del", i, None))
            else:
                j -= 1
                ops.append(("ins", None, j))
        return j

    @staticmethod
    def cut(row, j: int):
        """Row *row* up to column *j* (all the trace from column *j* needs)."""
        return row[:j + 1]

    def fill(self, r0: int, r1: int, first, keep: bool):
        """Rows ``r0 … r1`` from row *r0* (*first*): all of them (*keep*, a 2-D
        array) or the last one only."""
        np = self._numpy()
        e = len(first) - 1
        steps = self._steps[: e + 1]
        table = np.empty((r1 - r0 + 1, e + 1), dtype=np.int64) if keep else None
        row = first
        if keep:
            table[0] = first
        pairs = self._pairs
        for i in range(r0 + 1, r1 + 1):
            key = (self.code_a[i - 1], self.side_a[i - 1])
            pair = pairs.get(key)
            if pair is None:            # one row of pair costs for each kind of item in a
                pair = pairs[key] = ((self._code_b != key[0]) * self.unit
                                     + (self._side_b != key[1]))
            pair = pair[:e]
            t = np.empty(e + 1, dtype=np.int64)
            t[0] = row[0] + self.unit
            np.minimum(row[:-1] + pair, row[1:] + self.unit, out=t[1:])
            t -= steps
            row = np.minimum.accumulate(t)
            row += steps
            if keep:
                table[i - r0] = row
        return table if keep else row

    def _numpy(self):
        if self._np is None:
            import numpy as np
            self._np = np
            self._steps = np.arange(len(self.code_b) + 1, dtype=np.int64) * self.unit
            self._code_b = np.array(self.code_b, dtype=np.int64)
            self._side_b = np.array(self.side_b, dtype=np.int64)
            self._pairs: dict = {}
        return self._np

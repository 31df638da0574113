""":func:`guji.text.collation.agreement.align_runs` in linear memory, the same ops.

``align_runs`` keeps, for every cell of its table, the best ``(edits, runs)``
reaching it by each kind of last step (match, sub, del, ins), and traces
back from the end. Like the edit distance (:mod:`guji.text.collation.hirschberg`), a
row of that table follows from the row above alone and the trace looks at
the cells of its step only, so the same split traces it in linear memory,
step for step. Here ``(edits, runs)`` is one integer ``edits × big + runs``
(``runs`` is less than ``big``, so the order is the same), an unreachable
state :data:`UNREACHED`.
"""

from __future__ import annotations

from .hirschberg import BASE_CELLS, split_trace

#: Kinds of last step, in the order of the table's trace (match, sub, del, ins).
KINDS = ("match", "sub", "del", "ins")
M, S, D, I = range(4)
#: A state no step reaches (the table's ``worst``); anything past half of it is unreached.
UNREACHED = 2 ** 60


def trace_runs(a: list[int], b: list[int], *, base_cells: int = BASE_CELLS
               ) -> list[tuple[str, int | None, int | None]]:
    """The ops of ``align_runs`` for codes *a* and *b* (equal items equal codes)."""
    import numpy as np
    n, m = len(a), len(b)
    problem = _Runs(np, a, b)
    first = np.full((4, m + 1), UNREACHED, dtype=np.int64)
    first[M, 0] = 0
    first[I, 1:] = np.arange(1, m + 1) * problem.big + 1
    end = problem.fill(0, n, first, keep=False) if n else first
    values = [int(end[k, m]) for k in range(4)]
    kind = min(range(4), key=lambda k: values[k])
    ops: list = []
    j, kind, _ = split_trace(problem, 0, n, first, (m, kind, values[kind]), ops,
                             max(1, base_cells // (4 * (m + 1))))
    ops.extend(("ins", None, k) for k in range(j - 1, -1, -1))
    ops.reverse()
    return ops


class _Runs:
    def __init__(self, np, a: list[int], b: list[int]):
        self.np, self.a, self.b = np, a, b
        self.big = len(a) + len(b) + 2
        self.code_b = np.array(b, dtype=np.int64)
        self.steps = np.arange(len(b) + 1, dtype=np.int64) * self.big

    @staticmethod
    def cut(row, state):
        return row[:, :state[0] + 1]

    def fill(self, r0: int, r1: int, first, keep: bool):
        """Rows ``r0 … r1`` from row *r0* (*first*, 4 × columns): all (a 3-D
        array) or the last one."""
        np, big = self.np, self.big
        e = first.shape[1] - 1
        table = np.empty((r1 - r0 + 1, 4, e + 1), dtype=np.int64) if keep else None
        if keep:
            table[0] = first
        row = first
        for i in range(r0 + 1, r1 + 1):
            row = self._row(row, self.code_b[:e] == self.a[i - 1], e)
            if keep:
                table[i - r0] = row
        return table if keep else row

    def _row(self, prev, equal, e: int):
        """The row after *prev*: ``equal[j]`` when ``a[i] == b[j]``."""
        np, big = self.np, self.big
        new = np.full((4, e + 1), UNREACHED, dtype=np.int64)
        left = prev[:, :-1]
        least = left.min(axis=0)
        new[M, 1:] = np.where(equal, least, UNREACHED)
        others = np.minimum(np.minimum(left[M], left[D]), left[I]) + 1
        new[S, 1:] = np.where(equal, UNREACHED, np.minimum(others, left[S]) + big)
        new[D] = np.minimum(np.minimum(np.minimum(prev[M], prev[S]), prev[I]) + 1, prev[D]) + big
        # ins: entered from a cell of this row's other kinds (a new run), or continued
        enter = np.minimum(np.minimum(new[M, :-1], new[S, :-1]), new[D, :-1]) + big + 1
        steps = self.steps[:e]
        new[I, 1:] = np.minimum.accumulate(enter - steps) + steps
        new[new >= UNREACHED // 2] = UNREACHED
        return new

    def trace_block(self, r0: int, r1: int, table, state, ops: list):
        """The trace of ``agreement._trace`` from *state* ``(j, kind, target)``
        in row *r1* until it enters row *r0*; returns the state there."""
        j, kind, here = state
        big, a, b = self.big, self.a, self.b
        i = r1
        while i > r0:
            pi, pj = (i - 1, j - 1) if kind in (M, S) else (i - 1, j) if kind == D else (i, j - 1)
            ops.append((KINDS[kind], pi if kind != I else None, pj if kind != D else None))
            cell = table[pi - r0]
            for last in (M, S, D, I):
                old = int(cell[last, pj])
                if old == UNREACHED:
                    continue
                if (old if kind == M else old + big + (last != kind)) == here:
                    kind, here = last, old
                    break
            i, j = pi, pj
        return j, kind, here

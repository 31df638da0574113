"""The linear-memory alignment gives exactly the ops of the whole table, and is bounded.

:func:`reference` is ``guji.text.collation.align.align`` as it was before issue 20
(the whole ``(n+1) × (m+1)`` table, traced back from the end), copied here
unchanged as the oracle. The split (:mod:`guji.text.collation.hirschberg`) must give
the same ops, not merely an alignment of the same cost, on random inputs,
with the thresholds set so every path of it runs (one row per block, the
deepest split; the numpy rows; the plain-Python table).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import guji.limits
from guji.limits import LimitError, Limits
from guji.text.collation.agreement import align_runs, runs_table
from guji.text.collation.align import align
from guji.text.collation.hirschberg import BASE_CELLS, SMALL_CELLS, trace_alignment
from guji.text.collation.runs_split import trace_runs


def reference(a, b, sides=None):
    """The ops ``(kind, i, j)`` of the whole-table alignment (guji before issue 20)."""
    a, b = list(a), list(b)
    n, m = len(a), len(b)
    unit = n + m + 1 if sides is not None else 1
    side_a, side_b = sides if sides is not None else ([0] * n, [0] * m)

    def pair(i, j):
        return (0 if a[i] == b[j] else unit) + (side_a[i] != side_b[j])

    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        cost[i][0] = i * unit
    for j in range(m + 1):
        cost[0][j] = j * unit
    for i in range(1, n + 1):
        row, prev = cost[i], cost[i - 1]
        for j in range(1, m + 1):
            row[j] = min(prev[j - 1] + pair(i - 1, j - 1), prev[j] + unit, row[j - 1] + unit)
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        here = cost[i][j]
        if i > 0 and j > 0 and cost[i - 1][j - 1] + pair(i - 1, j - 1) == here:
            i, j = i - 1, j - 1
            ops.append(("match" if a[i] == b[j] else "sub", i, j))
        elif i > 0 and cost[i - 1][j] + unit == here:
            i -= 1
            ops.append(("del", i, None))
        else:
            j -= 1
            ops.append(("ins", None, j))
    ops.reverse()
    return ops


def halves(seq, cut):
    return [k >= cut for k in range(len(seq))]


strokes = st.lists(st.sampled_from("○□"), max_size=40)
# thresholds: plain Python whole; numpy, one row a block (deepest split); numpy, a few rows
WAYS = [dict(), dict(small_cells=0, base_cells=1), dict(small_cells=0, base_cells=7),
        dict(small_cells=0, base_cells=64)]


@settings(max_examples=300, deadline=None)
@given(strokes, strokes, st.integers(0, 40), st.integers(0, 40), st.booleans())
def test_the_split_traces_the_whole_tables_ops(a, b, cut_a, cut_b, with_sides):
    sides = (halves(a, cut_a), halves(b, cut_b)) if with_sides else None
    expected = reference(a, b, sides)
    for way in WAYS:
        assert trace_alignment(a, b, sides, **way) == expected, way


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=30), st.lists(st.integers(0, 4), max_size=30),
       st.lists(st.sampled_from("xyz"), max_size=30))
def test_any_items_and_labels_give_the_whole_tables_ops(a, b, labels):
    # labels of any kind (not only two sides), cycled over both sequences
    sides = ([labels[k % len(labels)] for k in range(len(a))],
             [labels[-1 - k % len(labels)] for k in range(len(b))]) if labels else None
    expected = reference(a, b, sides)
    for way in WAYS:
        assert trace_alignment(a, b, sides, **way) == expected, way


@pytest.mark.parametrize("seed", range(4))
def test_long_random_readings_with_the_default_thresholds(seed):
    # a few hundred strokes: numpy rows, several levels of the split at base_cells=2**12
    rng = random.Random(seed)
    a = [rng.choice("○□") for _ in range(rng.randint(200, 400))]
    b = list(a)
    for _ in range(rng.randint(1, 40)):           # an edition's copying errors
        k = rng.randrange(len(b))
        rng.choice([lambda: b.insert(k, rng.choice("○□")), lambda: b.pop(k),
                    lambda: b.__setitem__(k, rng.choice("○□"))])()
    sides = (halves(a, len(a) // 2), halves(b, rng.randrange(len(b))))
    for s in (None, sides):
        expected = reference(a, b, s)
        assert trace_alignment(a, b, s) == expected
        assert trace_alignment(a, b, s, base_cells=2 ** 12) == expected


def test_an_unhashable_item_is_compared_with_equals():
    a, b = [[1], [2], [1]], [[2], [1]]
    assert [(o.op, o.a, o.b) for o in align(a, b).ops] == reference(a, b)


def test_an_alignment_over_the_limit_is_refused_before_any_work():
    with guji.limits.using(Limits(alignment=100)):
        assert align("○" * 10, "□" * 10).distance == 10
        with pytest.raises(LimitError, match=r"aligning \(11 strokes\) with \(10 strokes\) would weigh 110 pairs.*100 pairs"):
            align("○" * 11, "□" * 10)
    with guji.limits.lifted():
        assert align("○" * 1100, "○" * 1000).deletions == 100


@settings(max_examples=200, deadline=None)
@given(strokes, strokes)
def test_the_fewest_runs_alignment_split_gives_the_whole_tables_ops(a, b):
    expected = runs_table(a, b)
    codes = {"○": 0, "□": 1}
    for base in (1, 16, 300, BASE_CELLS):
        assert trace_runs([codes[x] for x in a], [codes[x] for x in b],
                          base_cells=base) == expected, base


def test_long_readings_fewest_runs_through_align_runs():
    rng = random.Random(7)
    a = "".join(rng.choice("○□") for _ in range(150))
    b = "".join(rng.choice("○□") for _ in range(140))
    assert len(a) * len(b) > SMALL_CELLS
    assert align_runs(a, b) == runs_table(a, b)

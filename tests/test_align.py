"""Alignment (guji.text.collation.align) and ``guji diff``: the seeds' variant readings and properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guji.text.collation.align import Alignment, Op, align, align_patterns
from guji.cli.main import main
from guji.text.reading.editions import all_patterns, load
from guji.text.reading.notation import Drum

drums = st.lists(st.sampled_from([Drum.SMALL, Drum.BIG]), max_size=40)


# -- the real variant readings (docs/notation.md) --------------------------------------

def test_lu1_zhengyi_against_wuli_tongkao_is_one_substitution():
    a, b = load("lu:1"), load("lu:1@wuli-tongkao")
    al = align_patterns(a, b)
    assert (al.substitutions, al.insertions, al.deletions) == (1, 0, 0)
    (diff,) = al.differences
    # 五禮通考 opens ○□○□□□ where 禮記正義 reads ○□○○□□: the 4th stroke.
    assert diff.op == "sub" and diff.a == diff.b == 3
    assert a.strokes[3].drum is Drum.SMALL and b.strokes[3].drum is Drum.BIG


def test_xue2_zhengyi_against_lijing_benyi_is_one_insertion_and_nothing_else():
    a, b = load("xue:2"), load("xue:2@lijing-benyi")
    al = align_patterns(a, b)
    assert (al.substitutions, al.insertions, al.deletions) == (0, 1, 0)
    (diff,) = al.differences
    assert diff.op == "ins" and diff.a is None
    # The extra ○ is before 半 in 礼经本义 (one more ○ than the other two).
    assert diff.b < b.half_start
    assert b.strokes[diff.b].drum is Drum.SMALL
    # Every other stroke is matched, and 半 lines up: the halves are equal.
    assert al.matches == len(a.strokes)
    assert [s.drum for s in a.half] == [s.drum for s in b.half]


def test_reverse_direction_counts_a_deletion():
    al = align_patterns(load("xue:2@lijing-benyi"), load("xue:2"))
    assert (al.substitutions, al.insertions, al.deletions) == (0, 0, 1)


def test_every_shipped_pattern_against_itself_has_no_difference():
    for p in all_patterns():
        al = align_patterns(p, p)
        assert al.identical and al.matches == len(p.strokes)


def test_lu_against_xue_is_not_identical():
    al = align_patterns(load("lu:1"), load("xue:1"))
    assert al.distance > 0
    assert al.distance >= abs(len(load("lu:1").strokes) - len(load("xue:1").strokes))


# -- small exact cases --------------------------------------------------------

def test_one_missing_item_is_one_gap_not_a_shifted_tail():
    al = align("○□○○□□○□", "○□○□□○□")
    assert (al.substitutions, al.insertions, al.deletions) == (0, 0, 1)


def test_tie_breaking_puts_the_gap_at_the_start_of_a_run():
    al = align("□○○○□", "□○○□")
    assert [op.op for op in al.ops] == ["match", "del", "match", "match", "match"]
    assert al.ops[1].a == 1


def test_empty_sequences():
    assert align("", "").ops == ()
    assert [op.op for op in align("", "ab").ops] == ["ins", "ins"]
    assert [op.op for op in align("ab", "").ops] == ["del", "del"]


def test_json_shape():
    data = align("ab", "xb").to_json()
    assert data["substitutions"] == 1 and data["insertions"] == 0 and data["deletions"] == 0
    assert data["ops"] == [{"op": "sub", "a": 0, "b": 0}, {"op": "match", "a": 1, "b": 1}]


def test_inconsistent_op_is_refused():
    with pytest.raises(ValueError):
        Op("ins", 1, 2)
    with pytest.raises(ValueError):
        Op("swap", 1, 2)


# -- properties ----------------------------------------------------------------

def _levenshtein(a, b):
    """Reference distance by the textbook recursion, memoised (for checking)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def d(i, j):
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


@settings(max_examples=200, deadline=None)
@given(drums)
def test_a_sequence_against_itself_has_no_difference(a):
    al = align(a, a)
    assert al.identical
    assert all(op.op == "match" and op.a == op.b for op in al.ops)


@settings(max_examples=200, deadline=None)
@given(drums, drums)
def test_cost_is_symmetric_and_minimal(a, b):
    ab, ba = align(a, b), align(b, a)
    assert ab.distance == ba.distance == _levenshtein(tuple(a), tuple(b))
    assert ab.insertions - ab.deletions == len(b) - len(a)
    assert ba.insertions - ba.deletions == len(a) - len(b)


@settings(max_examples=200, deadline=None)
@given(drums, drums)
def test_ops_reconstruct_both_sequences(a, b):
    al = align(a, b)
    assert [op.a for op in al.ops if op.a is not None] == list(range(len(a)))
    assert [op.b for op in al.ops if op.b is not None] == list(range(len(b)))
    for op in al.ops:
        if op.op == "match":
            assert a[op.a] == b[op.b]
        elif op.op == "sub":
            assert a[op.a] != b[op.b]
    counts = {k: sum(1 for op in al.ops if op.op == k) for k in ("sub", "ins", "del")}
    assert counts == {"sub": al.substitutions, "ins": al.insertions, "del": al.deletions}


@settings(max_examples=100, deadline=None)
@given(drums, drums)
def test_alignment_is_deterministic(a, b):
    assert align(a, b) == align(list(a), tuple(b))


# -- guji diff -----------------------------------------------------------------

def test_diff_json_on_the_seeds(capsys):
    assert main(["diff", "lu:1", "lu:1@wuli-tongkao", "--json"]) == 1   # the readings differ: exit 1, as diff
    data = json.loads(capsys.readouterr().out)
    assert (data["substitutions"], data["insertions"], data["deletions"]) == (1, 0, 0)
    subs = [op for op in data["ops"] if op["op"] == "sub"]
    assert [(op["a"], op["b"], op["a_glyph"], op["b_glyph"]) for op in subs] == [(3, 3, "○", "□")]
    assert len(data["ops"]) == len(load("lu:1").strokes)
    assert data["a"]["id"] == "lu:1@liji-zhengyi" and data["b"]["id"] == "lu:1@wuli-tongkao"


def test_diff_json_insertion(capsys):
    assert main(["diff", "xue:2", "xue:2@lijing-benyi", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["substitutions"], data["insertions"], data["deletions"]) == (0, 1, 0)
    ins = [op for op in data["ops"] if op["op"] == "ins"]
    assert len(ins) == 1 and ins[0]["a"] is None and isinstance(ins[0]["b"], int)


def test_diff_text_shows_two_rows_with_the_difference_marked(capsys):
    assert main(["diff", "xue:2", "xue:2@lijing-benyi"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("A ○"))
    row_a, row_b, marks = lines[i], lines[i + 1], lines[i + 2]
    assert row_b.startswith("B ○")
    # The rows line up column for column; A has a gap (―) where B has the extra ○.
    from guji.errors import display_width
    assert display_width(row_a) == display_width(row_b)
    assert row_a.count("―") == 1 and "―" not in row_b
    assert row_a.count("半") == row_b.count("半") == 1
    assert row_a.index("半") == row_b.index("半")
    assert "1 insertion" in out and "0 substitutions" in out
    # One mark, standing under the gap.
    assert marks.count("↑") == 1
    assert display_width(marks[: marks.index("↑")]) == display_width(row_a[: row_a.index("―")])
    # Reading the rows without the gap gives back both patterns.
    assert row_a[2:].replace("―", "") == load("xue:2").notation()
    assert row_b[2:] == load("xue:2@lijing-benyi").notation()


def test_diff_text_substitution_marked_in_place(capsys):
    assert main(["diff", "lu:1", "lu:1@wuli-tongkao"]) == 1
    lines = capsys.readouterr().out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("A ○"))
    row_a, row_b, marks = lines[i], lines[i + 1], lines[i + 2]
    col = marks.index("↑")
    assert marks.count("↑") == 1
    assert (row_a[col], row_b[col]) == ("○", "□")
    assert any("substitution: A stroke 4 ○" in line for line in lines)


def test_diff_identical(capsys):
    assert main(["diff", "lu:2", "lu:2@wuli-tongkao"]) == 0
    out = capsys.readouterr().out
    assert "identical" in out


def test_diff_unknown_id_is_a_one_line_error(capsys):
    assert main(["diff", "lu:1", "lu:9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("guji:") and len(err.strip().splitlines()) == 1


def test_alignment_type():
    assert isinstance(align_patterns(load("lu:1"), load("lu:1")), Alignment)

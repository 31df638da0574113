"""Aligning long readings: refused at once over the limit, done in bounded memory with --force.

A 9 KB text of one 3,000-stroke pattern with one variant note once took
106 s and 4.1 GB in ``guji collate``; two 24 KB texts 125 s and 2.5 GB in
``guji diff`` (a ``MemoryError`` traceback under a 2 GB cap). Alignment is
now measured (strokes × strokes, :attr:`guji.limits.Limits.alignment`)
before it starts, and traced in linear memory when ``--force`` lifts it.
"""

from __future__ import annotations

import json
import random

import pytest

import runner
from test_limits import refused


def strokes(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("○□") for _ in range(n))


@pytest.fixture
def long_texts(tmp_path):
    rng = random.Random(20)
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(f"魯鼓\n{strokes(rng, 4000)}半{strokes(rng, 4000)}\n",
                                     encoding="utf-8")
    # one 3,000-stroke pattern whose note 一本作○ replaces the □ before it
    (tmp_path / "one.txt").write_text(
        f"魯鼓\n{strokes(rng, 1499)}□(一本作○)半{strokes(rng, 1500)}\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args, out", [
    (["diff", "lu@a.txt", "lu@b.txt"], None),
    (["collate", "--only", "one.txt", "a.txt"], None),
    (["draw", "lu@a.txt", "lu@b.txt"], "x.svg"),
    (["page", "lu@a.txt", "lu@b.txt"], "site"),
    (["compare", "lu@a.txt", "lu@b.txt", "--mode", "diff"], "x.wav"),
])
def test_a_long_alignment_is_refused_before_it_starts(long_texts, args, out):
    before = sorted(p.name for p in long_texts.iterdir())
    # a memory cap the whole table would not fit in (and a refusal needs nothing near it)
    r = runner.guji([*args, *(["-o", out] if out else [])], long_texts,
                    memory_bytes=600 * 2 ** 20)
    refused(r, "pairs of strokes", "over guji's limit of 1,000,000 pairs", "--force")
    assert "(3,000 strokes)" in r.stderr or "(8,000 strokes)" in r.stderr
    assert sorted(p.name for p in long_texts.iterdir()) == before


def test_a_witness_of_notes_is_placed_by_its_note_without_aligning(long_texts):
    """The 3,000-stroke text and its 一本: the note says where 一本 differs, so
    nothing is aligned and no limit is reached (no --force)."""
    r = runner.guji(["collate", "--only", "one.txt", "--json"], long_texts,
                    memory_bytes=600 * 2 ** 20)
    assert r.returncode == 0, r.stderr
    (lu,) = json.loads(r.stdout)
    (variant,) = lu["variants"]
    assert (variant["place"], variant["readings"]) == ("b1500", {"one": "□", "one~一本": "○"})


def test_with_force_the_long_diff_and_collate_finish_in_bounded_memory(long_texts):
    r = runner.guji(["diff", "lu@a.txt", "lu@b.txt", "--json", "--force"], long_texts,
                    memory_bytes=600 * 2 ** 20)
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    assert sum(op["a"] is not None for op in data["ops"]) == 8000
    assert sum(op["b"] is not None for op in data["ops"]) == 8000
    assert 0 < data["distance"] < 8000
    r = runner.guji(["collate", "--only", "one.txt", "--force", "--json"], long_texts,
                    memory_bytes=600 * 2 ** 20)
    assert r.returncode == 0, r.stderr
    assert "○ for □ at stroke 1500" in r.stdout.decode("utf-8")

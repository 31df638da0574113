"""A text's slices mapped one at a time give the map a plain reading of the whole text gives.

:func:`guji.text.reading.slicemap.piece_map` finds the hits, the runs of five
ideographs or more, the note brackets, the markup tags' ``<`` (with the first
``>`` or line feed after each) and the line feeds of one slice of a text, in
arrays it keeps from slice to slice (a :class:`~guji.text.reading.slicemap.Workspace`).
Here every slice size, from a few characters to the whole text, must give
what a character-by-character reading and a regular expression give for the
whole text — with the workspace's arrays left over from bigger and smaller
slices before, and with characters beyond the BMP (mapped as UTF-32) —
also when the quick guess of whether a slice holds them is wrong (its
string's size, which differs between Python builds), as are the line starts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from guji.text.reading import notespans
from guji.text.reading.prefilter import HIT_CHARS, _IDEOGRAPHS, _WORD_STARTS, _table
from guji.text.reading.sieve import _run_class
from guji.text.reading import slicemap
from guji.text.reading.slicemap import Workspace, line_starts, piece_map

DATA = Path(__file__).resolve().parent / "data"
CORPUS = sorted(DATA.rglob("*.txt"))
RUNS = re.compile(f"[{_run_class(_IDEOGRAPHS, HIT_CHARS + _WORD_STARTS)}]{{5,}}")
BRACKETS = "()（）【】"


def read_plainly(text: str) -> dict[str, list]:
    """The map of *text* read one character at a time (runs by a regular
    expression); the code point before a hit is 0 at a line's start."""
    hits = [k for k, c in enumerate(text) if c in HIT_CHARS]
    tags = []
    for k, c in enumerate(text):
        if c == "<":
            ends = [j for j in range(k + 1, len(text)) if text[j] in ">\n"]
            tags.append((k, ends[0] if ends else len(text)))
    return {"hits": [(k, ord(text[k]), 0 if k == 0 or text[k - 1] == "\n" else ord(text[k - 1]))
                     for k in hits],
            "runs": [(m.start(), m.end()) for m in RUNS.finditer(text)],
            "brackets": [(k, ord(c)) for k, c in enumerate(text) if c in BRACKETS],
            "tags": tags,
            "feeds": [k for k, c in enumerate(text) if c == "\n"]}


def mapped_in_slices(text: str, size: int, work: Workspace) -> dict[str, list]:
    """The maps of *text*'s slices of about *size* characters (cut as
    :func:`guji.text.reading.notespans.text_map` cuts them), put together."""
    out: dict[str, list] = {"hits": [], "runs": [], "brackets": [], "tags": [], "feeds": []}
    old, notespans.SLICE = notespans.SLICE, size
    try:
        slices = list(notespans._slices(text))
    finally:
        notespans.SLICE = old
    for base, piece in slices:
        (h, codes, before), (rs, re_), (b, bcodes), (lt, ends), (feeds,) = \
            piece_map(piece, base, _table(), work)
        out["hits"] += list(zip(h.tolist(), codes.tolist(), before.tolist()))
        out["runs"] += list(zip(rs.tolist(), re_.tolist()))
        out["brackets"] += list(zip(b.tolist(), bcodes.tolist()))
        out["tags"] += list(zip(lt.tolist(), ends.tolist()))
        out["feeds"] += feeds.tolist()
    return out


PIECES = st.sampled_from(["○", "□", "半", "鼓", "魯鼓", "薛", "口", "◍", "天地玄黃宇宙", "之乎",
                          "(", ")", "（", "）", "【", "】", "<", ">", "<pb:1>", "\n", "\r\n",
                          "\r", "a", " ", "\U00020000", "𠀀𠀀𠀀𠀀𠀀"])


@st.composite
def texts(draw):
    return "".join(draw(st.lists(st.one_of(PIECES, st.text(alphabet="天地玄黃人之記", min_size=1,
                                                                 max_size=9)), max_size=80)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.sampled_from([1, 3, 8, 40, 1 << 20]))
def test_slices_of_any_size_map_as_the_whole_text_reads(text, size):
    work = Workspace()
    mapped_in_slices("天地玄黃宇宙洪荒" * 50 + "\n○半", 16, work)     # arrays left over
    assert mapped_in_slices(text, size, work) == read_plainly(text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_in_slices(path):
    text = path.read_text(encoding="utf-8")
    work = Workspace()
    plain = read_plainly(text)
    for size in (7, 200, 1 << 20):
        assert mapped_in_slices(text, size, work) == plain


def lines_plainly(text: str) -> list[int]:
    """Where the lines after each line break start: after \\n, and after \\r not before \\n."""
    return [k + 1 for k, c in enumerate(text)
            if c == "\n" or (c == "\r" and text[k + 1:k + 2] != "\n")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.sampled_from([3, 40, 1 << 20]), st.sampled_from([False, True]))
def test_a_wrong_guess_of_wide_characters_maps_the_same(text, size, guess):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(slicemap, "_wide", lambda piece: guess)
        assert mapped_in_slices(text, size, Workspace()) == read_plainly(text)
        assert line_starts(text, 7).tolist() == [k + 7 for k in lines_plainly(text)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts())
def test_line_starts_as_lines_are_counted(text):
    assert line_starts(text, 0).tolist() == lines_plainly(text)

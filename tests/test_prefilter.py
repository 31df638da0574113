"""The prefilter cannot miss: a prefiltered scan equals the full scan.

:func:`guji.text.reading.prefilter.prefiltered_scan` reads only the windows
:func:`~guji.text.reading.prefilter.windows` keeps; whatever the text, it must give
what :func:`guji.text.reading.scan.scan` gives on the whole text — the same
patterns at the same offsets, lines and columns (with their variants, notes
and source lines), the same notices, the same error. Checked on every test
corpus and shipped edition, on random texts built from everything the
scanner acts on (strokes, 半, labels, headings, notes, tags, list markers,
prose), and on texts where ○ is a section mark on every line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from guji.errors import NotationError
from guji.text.reading.editions import editions
from guji.text.reading.prefilter import prefiltered_scan, windows
from guji.text.reading.scan import scan

DATA = Path(__file__).resolve().parent / "data"
CORPUS = sorted(DATA.rglob("*.txt"))
SEEDS = sorted((DATA / "seeds").glob("*.txt"))


def reading(function, text: str, labels: str = "auto"):
    """Everything a scan says about *text*, in comparable form."""
    try:
        result = function(text, filename="t.txt", labels=labels)
    except NotationError as e:
        return ("error", str(e), e.location)
    return (result.patterns,
            [p.to_json() for p in result.patterns],
            [(p.lines, p.label_location, [v.lines for v in p.variants]) for p in result.patterns],
            [str(n) for n in result.notices],
            [n.location for n in result.notices])


def same(text: str, labels: str = "auto") -> None:
    assert reading(prefiltered_scan, text, labels) == reading(scan, text, labels)
    spans = windows(text)
    for (a, b), (c, _) in zip(spans, spans[1:] + [(len(text) + 1, 0)]):
        assert 0 <= a < b <= len(text) and b < c
        assert a == 0 or text[a - 1] in "\r\n"
        assert b == len(text) or text[b - 1] in "\r\n"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_test_corpus(path):
    same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("slug", [e.slug for e in editions()])
def test_every_shipped_edition(slug):
    ed = next(e for e in editions() if e.slug == slug)
    same(ed.text())


def test_a_pattern_needs_only_its_window():
    """A seed in a book of prose: the book is skipped, the seed read whole."""
    seed = SEEDS[0].read_text(encoding="utf-8")
    prose = "天地玄黃宇宙洪荒日月盈昃辰宿列張¶\n" * 3000
    text = prose + seed + "\n" + prose
    same(text)
    kept = sum(b - a for a, b in windows(text))
    assert kept < len(seed) + 200
    assert prefiltered_scan(text).patterns


def test_section_marks_on_every_line():
    """○ opening every line (○疏曰…) never joins the lines into one run."""
    lines = [f"○{'疏曰正義曰此一節論投壺之禮'[i % 7:]}{i}" for i in range(400)]
    text = "\n".join(lines)
    assert windows(text) == []
    same(text)
    seed = SEEDS[2].read_text(encoding="utf-8")
    same("\n".join(lines[:200]) + "\n" + seed + "\n" + "\n".join(lines[200:]))
    marked = "\n".join("○" + line for line in seed.splitlines())
    same(marked)
    many = "\n".join(lines * 8)            # hits everywhere: left to the numpy map
    assert windows(many) == []
    sieve_sound(many)


PROSE = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏一二三四五"
PIECES = st.sampled_from([
    "○", "□", "囗", "口", "〇", "■", "半", "魯鼓", "薛鼓", "鲁鼔", "薜鼓", "鼓", "記鼓", "右鼔",
    "○□○○□□○□○○□半○□○□○○○□□○□○", "○□○○□半○□○", "□○□半○□□",
    "(", ")", "（", "）", "【", "】", "(一本作○)", "(某/本)", "(少一/○一□)", "(半)", "()",
    "\n", "\r\n", "\r", " ", "\u3000", "¶", "，", "。", "<pb:KR_1a>", "<pb:某>", "1. ", "一、",
    "o", "0", "●", "鼙聲十六", "取半以下", "之半也",
])


@st.composite
def texts(draw):
    parts = draw(st.lists(st.one_of(PIECES, st.text(alphabet=PROSE, min_size=1, max_size=9)),
                          max_size=60))
    return "".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.sampled_from(["auto", "after", "before"]))
def test_random_texts(text, labels):
    same(text, labels)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEEDS), st.lists(st.tuples(st.integers(0, 10 ** 6), texts()), max_size=6))
def test_seeds_with_random_insertions(seed, insertions):
    """A real edition with random text inserted anywhere: notes cut, brackets
    left open, labels moved, prose glued to the strokes."""
    text = seed.read_text(encoding="utf-8")
    for at, piece in insertions:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    same(text)


def outermost(text: str) -> list[tuple[int, int]]:
    """The outermost closed notes of *text* by the lexer's own pairing."""
    from guji.text.reading.lexer import match_notes
    ends = match_notes(text)
    out: list[tuple[int, int]] = []
    for start in sorted(ends):
        if not out or start >= out[-1][1]:
            out.append((start, ends[start]))
    return out


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(alphabet="()（）【】a\n", max_size=80),
                 st.text(alphabet="((((((())))))))（）【】a\n", max_size=120)))
def test_notes_paired_as_the_lexer_pairs_them(text):
    """Every way of pairing brackets (numpy for one kind; for several, the
    main kind by numpy and the rare others one by one where they cannot
    meet, else all one by one) finds the lexer's outermost notes."""
    from guji.text.reading.notespans import text_map
    from guji.text.reading.prefilter import _table
    tm = text_map(text, _table())
    assert list(zip(tm.note_starts.tolist(), tm.note_ends.tolist())) == outermost(text)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(texts(), max_size=6))
def test_texts_mapped_together_as_alone(many):
    """Many files mapped at once (:func:`windows_of_each`, as a library worker
    does) get each the windows it gets alone: no note, cluster or window
    runs from one file into the next."""
    from guji.text.reading.prefilter import windows_of_each
    seed = SEEDS[0].read_text(encoding="utf-8")
    many = many + [seed, "(" + seed, seed + ")"]
    assert windows_of_each(many) == [windows(t) for t in many]


def scanned_big(text: str, folder: Path, chunk: int, labels: str = "auto"):
    """:func:`guji.text.reading.bigfile.scan_big` of *text* written to a file, read *chunk* bytes at a time."""
    from guji.text.reading.bigfile import scan_big
    path = folder / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    return reading(lambda t, filename, labels: scan_big(str(path), filename, labels, chunk),
                   text, labels)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_big_files_chunk_by_chunk(path, tmp_path):
    """A file scanned a chunk at a time, never held whole, reads as the whole text."""
    text = path.read_bytes().decode("utf-8")
    if text.startswith("\ufeff"):
        pytest.skip("a BOM: read whole")
    for chunk in (50, 4096):
        assert scanned_big(text, tmp_path, chunk) == reading(scan, text)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts(), st.sampled_from([16, 64, 1 << 16]))
def test_big_random_texts(tmp_path_factory, text, chunk):
    folder = tmp_path_factory.mktemp("big")
    if not text.startswith("\ufeff"):
        assert scanned_big(text, folder, chunk) == reading(scan, text)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_big_files_mapped_in_processes(seed, tmp_path):
    """The first pass of a big file in byte ranges mapped by several
    processes: the same reading as the whole text."""
    from guji.text.reading.bigfile import scan_big
    text = seed.read_text(encoding="utf-8") * 3
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    assert reading(lambda t, filename, labels: scan_big(str(path), filename, labels, 997, 3),
                   text) == reading(scan, text)


def exact_windows(text: str) -> list[tuple[int, int]]:
    """The windows of *text* by the exact map alone (no quick look first)."""
    import numpy as np
    from guji.text.reading.notespans import text_map
    from guji.text.reading.prefilter import _spans, _table
    return _spans(text, text_map(text, _table()), np.array([0]), np.array([len(text)]))


def sieve_sound(text: str) -> None:
    from guji.text.reading.prefilter import _may_hold
    if not _may_hold(text):
        assert exact_windows(text) == []


PLAIN = st.sampled_from([
    "○", "□", "口", "囗", "〇", "半", "鼓", "記鼓", "薛", "魯", "(", ")", "()", "(半)", "(○)",
    "(一本作○)", "(○□半)", "）", "】", "<", ">", "<pb:天地玄黃宇>", "<pb:KR_1a>", "\n", "\r",
    "\r\n", "¶", "　", "，", "天地玄黃", "天地玄黃宇", "宇宙洪荒日月", "○□○", "□○□半○□□",
])


@st.composite
def plain_texts(draw):
    """Texts with ( ) notes only, as Kanripo's: the quick look decides them itself."""
    parts = draw(st.lists(st.one_of(PLAIN, st.text(alphabet=PROSE, min_size=1, max_size=7)),
                          max_size=50))
    return "".join(parts)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(plain_texts(), texts()))
def test_the_quick_look_never_skips_a_window(text):
    """:func:`may_matter` says "nothing here" only of texts where the exact
    map keeps no window (and the scan then equals the full scan)."""
    sieve_sound(text)
    same(text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_the_quick_look_on_every_corpus(path):
    text = path.read_text(encoding="utf-8")
    sieve_sound(text)
    for line in text.splitlines():
        sieve_sound(line)


def test_a_tag_never_closed():
    """A ``<`` with no ``>`` nor line feed after it, anywhere (the map once
    failed on it with an IndexError)."""
    same("<一一一一一○□○□半○□")
    same("<天地玄黃宇○□○□半○□\r○□○")


def test_a_hit_split_across_a_chunk_edge(tmp_path):
    """A big file read in chunks whose first edge falls inside a stroke's
    UTF-8 bytes, just after a line feed inside a diagram (its cluster then
    spans two pieces), inside a note spanning the edge, and inside a label:
    each reads as the whole text does."""
    prose = "天地玄黃宇宙洪荒日月盈昃辰宿列張\n" * 30
    text = (prose + "(注文○□○○□\n半○□)\n" + prose
            + "鲁鼓\n○□○○□□○□○○□半\n○□○□○○○□□○□○\n" + prose)
    data = text.encode("utf-8")
    whole = reading(scan, text)
    assert whole[0], "the text holds patterns"
    edges = []
    for mark, inside in (("○□○○□□", (1, 2)), ("\n○□○□", (1,)), ("注文", (0, 3)),
                         ("鲁鼓", (4,)), ("半○□)", (1,))):
        at = data.index(mark.encode("utf-8"))
        edges += [at + k for k in inside]
    for edge in edges:
        assert scanned_big(text, tmp_path, edge) == whole, edge
    # the edges are where they are said to be: inside a glyph's bytes, after a line feed
    assert data[edges[0]] & 0xC0 == 0x80 and data[edges[1]] & 0xC0 == 0x80
    assert data[edges[2] - 1:edges[2]] == b"\n"


def test_a_piece_read_back_by_its_line_feeds():
    """The second pass decodes only a window's lines (found by the piece's
    line feeds), and the whole piece where a bound is not a line start or a
    carriage return ends lines too: the same text either way."""
    import io
    import numpy as np
    from guji.text.reading.bigfile import _Piece, _feeds
    for text in ("鲁鼓○□\n半○\U00020000□\n\n天地玄黃\n", "鲁鼓○□\r\n半○□\r天地\n"):
        base = 40                                   # the piece's first character in the file
        starts = np.array([0, 17, base] + [base + k + 1 for k, c in enumerate(text)
                                           if c == "\n" or (c == "\r" and text[k + 1] != "\n")],
                          dtype=np.int32)
        end = base + len(text)
        bounds = sorted({int(s) for s in starts if base <= s <= end} | {base + 3, end})
        for a in bounds:
            for b in bounds:
                if a <= b:
                    data = b"x" * 7 + text.encode("utf-8")   # the piece's bytes at 7 in the file
                    piece = _Piece(io.BytesIO(data), (7, len(data) - 7, _feeds(data[7:], text)),
                                   base, end, starts)
                    assert piece[a:b] == text[a - base:b - base], (text, a, b)


def every_free_break(text: str):
    """The text's map with every break (as the map held them all before): each
    run of five ideographs or more (none a hit nor a label's first character),
    found by a regular expression, outside every note and every tag."""
    import dataclasses
    import re
    import numpy as np
    from guji.text.reading.notespans import text_map
    from guji.text.reading.prefilter import HIT_CHARS, _IDEOGRAPHS, _WORD_STARTS, _table
    from guji.text.reading.sieve import _run_class
    tm = text_map(text, _table())
    runs = re.compile(f"[{_run_class(_IDEOGRAPHS, HIT_CHARS + _WORD_STARTS)}]{{5,}}")

    def in_tag(at: int) -> bool:
        lt = text.rfind("<", 0, at)
        return lt >= 0 and ">" not in text[lt:at] and "\n" not in text[lt:at]
    found = [(m.start(), m.end()) for m in runs.finditer(text)]
    kept = [(a, b) for a, b in found
            if tm.inside(np.array([a]))[0] < 0 and not in_tag(a)]
    return tm, dataclasses.replace(tm, break_starts=np.array([a for a, _ in kept], dtype=np.int64),
                                   break_ends=np.array([b for _, b in kept], dtype=np.int64))


def same_windows_with_every_break(text: str) -> None:
    import numpy as np
    from guji.text.reading.prefilter import _spans
    kept, every = every_free_break(text)
    assert set(kept.break_starts.tolist()) <= set(every.break_starts.tolist())
    bounds, ends = np.array([0]), np.array([len(text)])
    assert _spans(text, kept, bounds, ends) == _spans(text, every, bounds, ends)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts())
def test_the_breaks_kept_choose_the_windows_every_break_would(text):
    """The map keeps only the first and last free break of each stretch
    between hits (those the windows are chosen by): the same windows as with
    every break, on random texts and every corpus."""
    same_windows_with_every_break(text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_the_breaks_kept_on_every_corpus(path):
    same_windows_with_every_break(path.read_text(encoding="utf-8"))


def test_breaks_deep_inside_notes_and_tags():
    """Stretches whose first runs stand in notes or tags (more than the runs
    looked at one by one): the breaks after them are still found."""
    from guji.text.reading.notespans import LOOKS
    seed = SEEDS[0].read_text(encoding="utf-8")
    note = "(" + "天地玄黃宇\n" * (LOOKS + 3) + ")"
    tag = "<pb:" + "天地玄黃宇。" * (LOOKS + 3) + ">"
    for text in (seed + note + "日月盈昃辰宿\n" + seed, "○半" + tag + "日月盈昃辰宿列張○□半",
                 "○" + note + tag + "寒來暑往秋收\n○□半" + note + "冬藏閏餘成歲"):
        same_windows_with_every_break(text)
        same(text)


def grouped_every_gap(text: str, hits, runs) -> bool:
    """The quick look's grouping as it was: every gap between two hits
    searched for a break (:func:`guji.text.reading.sieve._grouped` leaves
    the gaps between two 半 unsearched)."""
    from guji.text.reading.sieve import _Notes, _parted, _Tags
    notes, tags = _Notes(text), _Tags(text)
    strokes = halves = held_strokes = held_halves = 0
    quoted = half_note = False
    note = None
    resume = -1
    for at, stroke in hits:
        if resume >= 0 and _parted(text, resume, at, runs, notes, tags):
            strokes = halves = 0
            quoted = half_note = False
            note = None
        end = notes.end_of(at)
        if end is None:
            strokes += stroke
            halves += 1 - stroke
            resume = at + 1
        else:
            if end != note:
                note, held_strokes, held_halves = end, 0, 0
            held_strokes += stroke
            held_halves += 1 - stroke
            quoted = quoted or bool(held_strokes and held_halves)
            half_note = half_note or held_halves > 0
            resume = end
        if (strokes and halves) or strokes >= 6 or quoted or (half_note and strokes):
            return True
    return False


HALVES = st.sampled_from([
    "半", "半", "半", "半半", "半\n半", "取半以下", "之半也", "(半)", "( 半 )", "(一本作半)", "(半○)",
    "(○半)", "(半/○)", "(○)", "(□□)", "○", "□", "口", "囗", "〇", "○□○", "○半", "半○", "半□半",
    "□○□半○□□", "○□○○□□○□○○□半○□○□○○○□□○□○", "魯鼓", "薛鼓", "鼓", "記鼓", "(", ")", "()",
    "<", ">", "<pb:KR_1a>", "<pb:天地玄黃宇>", "\n", "\r\n", "\r", "¶", "　", "，",
    "天地玄黃宇", "宇宙洪荒日月", "天地玄黃", "半天地玄黃宇半", "天地玄黃宇宙半洪荒日月盈",
    "(夜半三通)", "(半半)", "( 半\n)", "(少半/劣也)", ")¶\n\u3000(", "(夜半○)",
])


@st.composite
def half_texts(draw):
    """Texts thick with 半: 半 beside 半 and beside strokes, in notes and out,
    parted by prose of four and five ideographs, tags, line breaks, labels."""
    parts = draw(st.lists(st.one_of(HALVES, HALVES, st.text(alphabet=PROSE + "半", min_size=1,
                                                                max_size=9)),
                          max_size=60))
    return "".join(parts)


def hits_of(text: str):
    """The hits the quick look groups (offset, 1 for a stroke / 0 for 半)."""
    from guji.text.reading.sieve import _STROKES
    return sorted([(k, 1) for k, c in enumerate(text) if c in _STROKES]
                  + [(k, 0) for k, c in enumerate(text) if c == "半"])


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(half_texts(), plain_texts()))
def test_gaps_between_two_halves_change_nothing(text):
    """The gap between two 半 in a row is not searched for a break: the
    grouping gives what searching every gap gives (on every text, not only
    soundly), the quick look stays sound and the prefiltered scan equals
    the full scan. (A text holding a label is passed to the map before any
    grouping, so the change cannot touch it; the full scan is compared there
    too.)"""
    from guji.text.reading.prefilter import _BREAK
    from guji.text.reading.sieve import _grouped
    hits = hits_of(text)
    assert _grouped(text, hits, _BREAK) == grouped_every_gap(text, hits, _BREAK)
    sieve_sound(text)
    same(text)


def test_a_lone_half_three_tokens_from_a_label():
    """A lone 半, a break, then ○ glued to 魯鼓: the label has its stroke, and
    the 半 is not named with it (the scanner once reached it three tokens
    away, across the break and the stroke; the map reads only the label's
    cluster)."""
    same("半\n一一一一一○魯鼓")
    assert reading(scan, "半\n一一一一一○魯鼓")[3] == []


#: What the lost-symbols notice is about: labels, 半, a stroke or a stand-in for one.
NEAR_WORDS = st.sampled_from([
    "魯鼓", "薛鼓", "鲁鼔", "薜鼓", "○魯鼓", "魯鼓○", "薛鼓□", "鼓", "記鼓", "半", "半", "半", "半", "○", "□",
    "口", "〓", "()", "(半)", "(一本作○)", "○□○半○□",
])
#: What stands between them: nothing, blanks, line breaks, short prose, breaks
#: (five ideographs or more) on a line of their own or not.
NEAR_GAPS = st.sampled_from([
    "", " ", "\u3000", "\n", "\r\n", "\n\n", "，", "：", "¶\n", "<pb:KR_1a>", "(某)", "天地",
    "天地玄黃", "天地玄黃宇", "\n天地玄黃宇", "天地玄黃宇\n", "\n天地玄黃宇\n", "\n一一一一一\n",
    "\r\n天地玄黃宇宙洪\r\n", "\n　天地玄黃宇，\n", "取半以下", "之半也",
])


@st.composite
def lost_texts(draw):
    """Labels, lone 半, single strokes and line breaks near each other, with
    blanks, short prose and breaks between: where the lost-symbols notice is
    decided (the class :func:`texts` rarely builds)."""
    gaps = st.one_of(NEAR_GAPS, NEAR_GAPS, st.text(alphabet=PROSE, max_size=7))
    parts = draw(st.lists(st.tuples(NEAR_WORDS, gaps), max_size=8))
    return "".join(word + gap for word, gap in parts)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lost_texts(), st.sampled_from(["auto", "after", "before"]))
def test_labels_and_lone_halves_near_strokes(text, labels):
    """The lost-symbols notice (and everything else) is the same from the
    windows as from the whole text where labels, lone 半 and a stroke or two
    stand close together across line breaks and prose."""
    same(text, labels)


def test_gaps_between_two_halves_examples():
    """Groups of 半 alone, joined or not, never matter; a stroke beside any
    of them does, whichever side of a 半–半 gap it stands."""
    from guji.text.reading.prefilter import _BREAK
    from guji.text.reading.sieve import _grouped
    for text, matters in (("半天地玄黃宇半", False), ("半天地玄黃宇(半)天地玄黃宇半", False),
                          ("○半天地玄黃宇半", True), ("半天地玄黃宇半○", True),
                          ("○天地玄黃宇半天地玄黃宇半天地玄黃宇○", False),
                          ("(○)半天地玄黃宇半", False), ("半天地玄黃宇(半○)", True)):
        hits = hits_of(text)
        assert _grouped(text, hits, _BREAK) == grouped_every_gap(text, hits, _BREAK) == matters, text
        sieve_sound(text)
        same(text)


def test_a_half_in_a_commentary_note_counts_for_nothing():
    """A 半 in a note that is neither ``(半)`` nor a quoted diagram (a
    commentary's word) is left out of the quick look's groups, as the map
    leaves it out of its clusters: a section mark ○ after a run of notes
    about 夜半 is passed over (Kanripo's 禮記 commentaries: 63 files once
    sent to the map for nothing); ``(半)``, a note quoting strokes, and a
    nested note still go to the map."""
    from guji.text.reading.prefilter import _may_hold
    commentary = ("(以為名堇言木堇以别於堇草)¶\n\u3000(夜半/其華朝榮暮隕)¶\n"
                  "<pb:KR1d0058_WYG_006-42a>¶\n○是月也毋")
    for text, held in (("(夜半三通)○", False), ("(半半)○", False), (commentary, False),
                       ("(半)○", True), ("( 半\u3000)○", True), ("(夜半○)", True),
                       ("(○(夜半)天)○", True), ("(夜半)○(半", True), ("○○○(夜半)○○○", True)):
        assert _may_hold(text) == held, text
        sieve_sound(text)
        same(text)


def test_the_quick_look_answers_before_the_brackets():
    """With no label, a text without strokes, or with fewer than six and no
    半, is passed over whatever its brackets (（ ） and 【 】 are paired only
    by the map); a nested note is looked for only when the grouping found
    nothing."""
    from guji.text.reading.prefilter import _may_hold
    for text, held in (("（注文）口天地", False), ("【某】天地玄黃", False), ("（注）○□○□○半", True),
                       ("【某】○○○○○○", True), ("(天(地)玄)○天地玄黃宇半", True),
                       ("(天地)○天地玄黃宇半", False), ("(天(半)玄)○", True)):
        assert _may_hold(text) == held, text
        sieve_sound(text)
        same(text)

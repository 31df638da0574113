"""The parser and the scanner: seeds, pasted-text shapes, errors, properties."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guji import NotationError, Rite, Tradition, parse, scan
from guji.text.reading.notation import ROUND_GLYPHS, SQUARE_GLYPHS, Drum

SEEDS = Path(__file__).parent / "data" / "seeds"

# docs/notation.md's table of the four patterns, per seed (square normalised to □).
LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
LU1_003 = "○□○□□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
XUE2_000 = "○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○"

EXPECTED = {
    "000_a32c6902e9fda003.txt": [("魯", 1, LU1), ("薛", 1, XUE1), ("魯", 2, LU2), ("薛", 2, XUE2_000)],
    "003_2baf43b897b12510.txt": [("魯", 1, LU1_003), ("薛", 1, XUE1), ("魯", 2, LU2), ("薛", 2, XUE2)],
    "004_c01987349620dc35.txt": [("魯", 1, LU1), ("薛", 1, XUE1), ("魯", 2, LU2), ("薛", 2, XUE2)],
}


def found(text: str, **kw) -> list[tuple[str, int, str]]:
    return [(p.tradition.value, p.diagram, p.notation()) for p in scan(text, **kw).patterns]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seed_files_give_exactly_the_four_patterns(name):
    text = (SEEDS / name).read_text(encoding="utf-8")
    assert found(text) == EXPECTED[name]


def test_positions_point_at_the_first_stroke_and_at_half():
    text = (SEEDS / "004_c01987349620dc35.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    for p in scan(text).patterns:
        first = p.location
        assert lines[first.line - 1][first.column - 1] == "○"
        assert text[first.offset] == "○"
        assert text[p.half_location.offset] == "半"
        for s in p.strokes:
            assert text[s.location.offset] == s.raw


def test_first_diagram_labels_follow_second_precede_despite_punctuation():
    # Seed 004's punctuation attaches 魯鼓， to the wrong pattern in diagram 1.
    text = (SEEDS / "004_c01987349620dc35.txt").read_text(encoding="utf-8")
    pats = scan(text).patterns
    lu1 = pats[0]
    assert lu1.tradition is Tradition.LU and lu1.label_location.offset > lu1.strokes[-1].location.offset
    lu2 = pats[2]
    assert lu2.label_location.offset < lu2.strokes[0].location.offset


# -- what users paste -----------------------------------------------------------

def test_square_lookalikes_and_mixed_glyphs_in_one_pattern():
    text = "鼓○◍○○■□○◛○○口半○囗○▢○○○□□○□〇魯鼓"
    assert found(text) == [("魯", 1, LU1)]


def test_every_accepted_glyph_maps_to_its_drum():
    for g in ROUND_GLYPHS:
        p = parse(f"魯鼓{g}半{g}")
        assert [s.drum for s in p.strokes] == [Drum.SMALL, Drum.SMALL]
        assert p.strokes[0].raw == g
    for g in SQUARE_GLYPHS:
        p = parse(f"魯鼓{g}半{g}")
        assert [s.drum for s in p.strokes] == [Drum.BIG, Drum.BIG]


def test_markup_page_breaks_line_marks_and_ideographic_indent():
    text = ("\u3000\u3000鼓○□○○□□¶\n\u3000\u3000○□○○<pb:0042a>□半○□○□○○○□□○□○\n"
            "魯鼓○□○○○□□○□○○□□○□○○□□○半○□○○○□□○薛鼓 取半以下為投壺禮")
    assert found(text) == [("魯", 1, LU1), ("薛", 1, XUE1)]


def test_notes_inside_a_pattern_are_not_strokes():
    text = "魯鼓○□○○□□○○(吳澄本作○)半○□○○□○○○○□○【□，方鼓】□○薛鼓○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
    assert found(text) == [("魯", 1, LU2), ("薛", 1, XUE2)]


def test_caption_line_before_a_diagram():
    text = ("魯鼓　　薛鼓\n"
            "鼓 ○□○○□□○□○○□半○□○□○○○□□○□○ 魯鼓 ○□○○○□□○□○○□□○□○○□□○半○□○○○□□○ 薛鼓\n"
            "取半以下為投壺禮\n"
            "魯鼓　　薛鼓\n"
            "魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n薛鼓 ○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○\n")
    assert found(text) == [("魯", 1, LU1), ("薛", 1, XUE1), ("魯", 2, LU2), ("薛", 2, XUE2)]


def test_section_mark_before_heading_and_lone_strokes_in_prose():
    text = ("右作樂○記鼓○□○○□□○□○○□半○□○□○○○□□○□○魯鼓○□○○○□□○□○○□□○□○○□□○半"
            "○□○○○□□○薛鼓。○圜音圓。□，方鼓，其聲高。")
    assert found(text) == [("魯", 1, LU1), ("薛", 1, XUE1)]


def test_variant_label_forms_and_miscopy():
    text = "鲁鼔○□○○□□○○半○□○○□○○○○□○□○薜鼓○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
    assert found(text) == [("魯", 1, LU2), ("薛", 1, XUE2)]


def test_web_copy_with_ascii_punctuation():
    text = "鼓: ○□○○□□○□○○□. 半, ○□○□○○○□□○□○. 魯鼓, ○□○○○□□○□○○□□○□○○□□○半, ○□○○○□□○. 薛鼓, 此魯薛擊鼓之節也."
    assert found(text) == [("魯", 1, LU1), ("薛", 1, XUE1)]


def test_lost_symbols_give_empty_result_and_a_warning():
    result = scan("鼓：半魯鼓；半薛鼓。")
    assert result.patterns == ()
    assert len(result.notices) == 1
    assert "lost" in result.notices[0].message


def test_run_without_half_is_not_a_pattern_and_is_reported_when_long():
    result = scan("魯鼓○□○○□□○○○□○○□○")
    assert result.patterns == ()
    assert "no 半" in result.notices[0].message


def test_unlabelled_pattern_is_skipped_with_a_notice():
    result = scan("some notes: ○□○半○□ and more")
    assert result.patterns == ()
    assert "no score name" in result.notices[0].message


def test_label_mode_override():
    text = "魯鼓 ○□○○□□○○半○□○ 薛鼓 ○□○半○□○ 魯鼓"
    assert [p.tradition.value for p in scan(text, labels="after").patterns] == ["薛", "魯"]
    assert [p.tradition.value for p in scan(text, labels="before").patterns] == ["魯", "薛"]


def test_scan_error_unknown_symbol_inside_pattern():
    text = "前文\n魯鼓○□○★○半○□○\n後文"
    with pytest.raises(NotationError) as e:
        scan(text, filename="x.txt")
    err = e.value
    assert (err.location.line, err.location.column) == (2, 6)
    assert "★" in err.message and "U+2605" in err.message
    assert str(err).startswith("x.txt:2:6: ")


def test_scan_error_second_half():
    with pytest.raises(NotationError) as e:
        scan("魯鼓○□半○□半○□")
    assert e.value.location.column == 8
    assert "second 半" in e.value.message


# -- parse: one pattern, and its errors -------------------------------------------

def test_parse_with_label_and_parts():
    p = parse("薛鼓 ○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○", diagram=2)
    assert p.tradition is Tradition.XUE and p.diagram == 2
    assert p.notation(Rite.TOUHU) == "○□○□○○○○□○"
    assert p.counts(Rite.TOUHU) == {Drum.SMALL: 7, Drum.BIG: 3}
    assert p.counts(Rite.SHE) == {Drum.SMALL: 21, Drum.BIG: 10}
    assert [s.index for s in p.strokes] == list(range(31))


def test_parse_score_given_by_caller():
    p = parse("○□半○", tradition="xue")
    assert p.tradition is Tradition.XUE


@pytest.mark.parametrize("text, line, column, words", [
    ("魯鼓 ○□○▲○半○□", 1, 7, "unknown symbol '▲'"),
    ("魯鼓 ○□○○□", 1, 4, "no 半"),
    ("魯鼓 ○□半○□半○", 1, 9, "second 半"),
    ("魯鼓 半○□", 1, 4, "nothing before 半"),
    ("魯鼓 ○□半", 1, 6, "nothing after 半"),
    ("○□半○□", 1, 1, "no score name"),
    ("魯鼓\n  ○□半○□ 薛鼓", 2, 9, "second score label"),
    ("魯鼓 ○□（注 半○", 1, 6, "never closed"),
    ("魯鼓 ○□半○ 擊鼓", 1, 9, "unexpected text"),
    ("", 1, 1, "no drum strokes"),
    ("魯鼓：半。", 1, 4, "no drum strokes"),
])
def test_parse_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(NotationError) as e:
        parse(text, filename="in.txt")
    err = e.value
    assert (err.location.line, err.location.column) == (line, column), err
    assert words in err.message
    assert str(err) == f"in.txt:{line}:{column}: {err.message}"
    assert "\n" not in str(err)


def test_caret_sits_under_the_bad_glyph_counting_wide_characters():
    with pytest.raises(NotationError) as e:
        parse("魯鼓 ○□○▲○半○□")
    shown, caret = e.value.caret().split("\n")
    assert shown == "    魯鼓 ○□○▲○半○□"
    # under 魯鼓 (wide) a full-width space each; under the space and ○□○ (one column in a
    # terminal) a space each
    assert caret == "    " + "\u3000" * 2 + " " * (1 + 3) + "^"
    # in the studio's page, whose CJK font draws ○□ full-width, a full-width space under each
    assert e.value.caret(ambiguous_wide=True).split("\n")[1] == "    " + "\u3000" * 2 + " " + "\u3000" * 3 + "^"


def test_caret_window_on_a_very_long_line():
    text = "魯鼓" + "○" * 5000 + "▲○半○"
    with pytest.raises(NotationError) as e:
        parse(text)
    shown, caret = e.value.caret().split("\n")
    assert len(shown) < 100
    from guji.errors import display_width
    col = display_width(caret[:caret.index("^")])
    # the character displayed at the caret's column is the bad symbol
    width = 0
    for ch in shown:
        if width == col:
            assert ch == "▲"
            break
        width += display_width(ch)
    else:
        pytest.fail("caret beyond the shown text")


# -- properties ---------------------------------------------------------------

ALPHABET = st.sampled_from(list("○□囗口〇◯■半魯鲁薛鼓鼔記 \u3000\n\r，。:()（）【】<>pb¶▲★abc字"))


def _check_position(text: str, err: NotationError) -> None:
    loc = err.location
    assert loc is not None
    assert 0 <= loc.offset <= len(text)
    assert loc.line >= 1 and loc.column >= 1
    # The offset and the line/column agree.
    import re
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    assert starts[loc.line - 1] + loc.column - 1 == loc.offset
    if text:
        assert loc.offset < len(text)


@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, max_size=40))
def test_parse_either_parses_or_raises_notation_error_with_position(text):
    try:
        p = parse(text)
    except NotationError as e:
        _check_position(text, e)
    else:
        assert p.before and p.half


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_parse_any_unicode(text):
    try:
        parse(text)
    except NotationError as e:
        _check_position(text, e)


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=80))
def test_scan_either_scans_or_raises_notation_error_with_position(text):
    try:
        result = scan(text)
    except NotationError as e:
        _check_position(text, e)
    else:
        for p in result.patterns:
            assert p.before and p.half
            assert text[p.location.offset] == p.strokes[0].raw


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("○□"), min_size=1, max_size=20),
       st.lists(st.sampled_from("○□"), min_size=1, max_size=20),
       st.sampled_from(["魯鼓", "薛鼓"]))
def test_parse_round_trips_the_notation(before, after, label):
    text = "".join(before) + "半" + "".join(after)
    p = parse(label + text)
    assert p.notation() == text
    assert len(p.half) == len(after)


# -- properties of reading whole texts (issue: never a silent misreading) ---------

from guji.text.reading.editions import editions, scan_edition  # noqa: E402
from guji.text.reading.lexer import is_ignorable  # noqa: E402
from guji.text.reading.notation import HALF  # noqa: E402

FOUR = [("魯", 1, LU1), ("薛", 1, XUE1), ("魯", 2, LU2), ("薛", 2, XUE2)]

#: Ignorable text that may stand anywhere between strokes and labels.
INLINE = st.sampled_from(["", " ", "\u3000", "，", "。", ", ", "\n", "\n\n", "\n \n\n", "（注）",
                          "【一本同】", "<pb:12a>", "¶", "**", "、", "；\n"])
#: Separators between the items of a diagram (pattern, label): also list markers.
BETWEEN = st.sampled_from(["", " ", "\u3000\u3000", "：", "\n", "\n\n", "\n- ", "\n* ", "\n1. ",
                           "\n2) ", "\n一、", "\n> ", "\n• ", " — ", "（鄭注）\n"])
#: Separators between the two diagrams: the above, or a line of prose.
BETWEEN_DIAGRAMS = st.sampled_from(["\n\n", "\n", "", "\nThe second diagram differs.\n",
                                    "\n此與前圖異亦一家之說\n", "\n次の図は異なる。\n", "\n\n---\n\n"])


@st.composite
def written_pattern(draw, notation: str) -> str:
    """*notation* with ignorable text drawn between some of its glyphs."""
    out = []
    for ch in notation:
        out.append(ch)
        if draw(st.integers(0, 4)) == 0:
            out.append(draw(INLINE))
    return "".join(out).rstrip()


@st.composite
def two_diagrams(draw) -> str:
    """Diagram 1 (labels after, with or without the heading 鼓) and diagram 2
    (labels before), joined by ignorable separators or prose lines."""
    sep = lambda: draw(BETWEEN)  # noqa: E731
    heading = draw(st.sampled_from(["鼓", "鼔", "記鼓", "右鼔", ""]))
    first = (heading + sep() + draw(written_pattern(LU1)) + sep() + "魯鼓" + sep()
             + draw(written_pattern(XUE1)) + sep() + "薛鼓")
    second = ("魯鼓" + sep() + draw(written_pattern(LU2)) + sep() + "薛鼓" + sep()
              + draw(written_pattern(XUE2)))
    return draw(st.sampled_from(["", "Notes on 投壺:\n", "# 投壺\n\n"])) + first \
        + draw(BETWEEN_DIAGRAMS) + second + draw(st.sampled_from(["", "\n", "\n(end)\n"]))


@settings(max_examples=300, deadline=None)
@given(two_diagrams())
def test_real_diagrams_joined_by_ignorable_separators_read_exactly(text):
    assert found(text) == FOUR, text


def _stroke_gaps(text: str) -> list[int]:
    """Offsets just after each stroke that has another stroke of its pattern after it."""
    return [s.location.offset + 1 for p in scan(text).patterns for s in p.strokes[:-1]]


def _texts_with_four_patterns() -> list[str]:
    return [e.text() for e in editions()] + [
        "鼓\n\n" + LU1 + "　魯鼓\n\n" + XUE1 + "　薛鼓\n\n\n魯鼓　" + LU2 + "\n\n薛鼓　" + XUE2 + "\n"]


TYPO = st.characters(exclude_categories=("Cs",)).filter(
    lambda c: not is_ignorable(c) and c != HALF and c not in ROUND_GLYPHS and c not in SQUARE_GLYPHS)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_texts_with_four_patterns()), st.data(), TYPO)
def test_one_character_between_two_strokes_is_an_error_at_that_character(text, data, typo):
    at = data.draw(st.sampled_from(_stroke_gaps(text)))
    bad = text[:at] + typo + text[at:]
    with pytest.raises(NotationError) as e:
        scan(bad, filename="t.txt")
    assert e.value.location.offset == at, (e.value, repr(typo))


@pytest.mark.parametrize("ed", editions(), ids=lambda e: e.slug)
def test_shipped_editions_read_the_four_patterns(ed):
    got = [(p.tradition.value, p.diagram) for p in scan_edition(ed.slug).patterns]
    assert got == [(s, d) for s, d, _ in FOUR]

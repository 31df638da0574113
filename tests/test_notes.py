"""Variant notes → witnesses' whole readings, through guji's own reader
(guji.text.apparatus.notes, edits, witnesses; parse and scan hand the notes over)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guji.text.apparatus.edits import Edit, EditError, apply
from guji.text.apparatus.notes import join_groups, note_body, read_notes
from guji.text.apparatus.numerals import numeral_value
from guji.text.apparatus.witnesses import readings
from notes_helpers import LU1, LU2, XUE1, XUE2, insert_note, only, plain, read, split


# ---------------------------------------------------------------------------
# The forms of the brief, on the real patterns
# ---------------------------------------------------------------------------

def test_replace_one_stroke_lu1():
    text = "○□○○□□○□(一本作○)○○□半○□○□○○○□□○□○"
    assert text == insert_note(LU1, 8, "(一本作○)")
    assert only(text) == ("一本", ("○□○○□□○○○○□○□○□○○○□□○□○", 11))


def test_replace_counts_numerals_and_several_strokes():
    # 作二○ = ○○ replaces the two strokes before the note (□□ at 4, 5)
    assert only(insert_note(LU1, 6, "（宋本作二○）")) == ("宋本", ("○□○○○○○□○○□○□○□○○○□□○□○", 11))
    # 作○□ replaces two strokes (○○ at 2, 3) with ○□
    assert only(insert_note(LU2, 4, "【古本作○□】")) == ("古本", ("○□○□□□○○○□○○□○○○○□○□○", 8))
    # 兩□一○ = □□○
    assert only(insert_note(XUE1, 3, "(陳氏作兩□一○)"), "xue") == \
        ("陳氏", ("□□○○○□□○□○○□□○□○○□□○○□○○○□□○", 20))


def test_delete_split_over_two_groups_with_column_breaks():
    text = "○□○○□□○□○○□半○□○□(某/本)(少一/○一□)○○○□□○□○"
    assert text == insert_note(LU1, 15, "(某/本)(少一/○一□)")
    assert only(text) == ("某本", ("○□○○□□○□○○□○□○○○□□○□○", 11))


def test_delete_named_strokes_must_match_in_written_order():
    # the strokes before the note are ○□: 少一□一○ names □ then ○
    found, unread = read(insert_note(LU1, 15, "(某本少一□一○)"))
    assert found == {}
    assert len(unread) == 1
    assert "names □○ as missing but the strokes before it are ○□" in unread[0].reason


def test_wu_ci():
    strokes, _ = plain(XUE2)
    assert only(insert_note(XUE2, 3, "(某本無此○)"), "xue") == \
        ("某本", (strokes[:2] + strokes[3:], 20))
    found, unread = read(insert_note(XUE2, 3, "(某本無此□)"), "xue")
    assert found == {} and len(unread) == 1


def test_insert_split_with_commentary_after():
    text = insert_note(XUE1, 3, "(某書/下)(尚有一□一/○某從之)")
    assert text.startswith("○□○(某書/下)(尚有一□一/○某從之)○○□□")
    assert only(text, "xue") == ("某書", ("○□○□○○○□□○□○○□□○□○○□□○○□○○○□□○", 22))


def test_groups_across_a_line_break_and_line_breaks_inside():
    text = insert_note(LU2, 3, "(儀禮經傳\n通解)\n(下多三\n□)")
    assert only(text) == ("儀禮經傳通解", ("○□○□□□○□□○○○□○○□○○○○□○□○", 11))


def test_fullwidth_brackets_and_glyph_variants():
    text = "〇囗〇〇囗囗〇〇半〇囗〇〇囗〇〇〇〇囗〇囗〇（一本作囗）"
    assert only(text) == ("一本", ("○□○○□□○○○□○○□○○○○□○□□", 8))


def test_note_after_last_stroke_before_the_label():
    text = "魯鼓 " + insert_note(LU2, 21, "（大戴禮有○）") + " 薛鼓"
    assert only(text.replace(" 薛鼓", "")) == ("大戴禮", (plain(LU2)[0] + "○", 8))


def test_one_witness_two_spellings_combine():
    text = insert_note(insert_note(LU1, 20, "(大戴禮作○)"), 3, "(《大戴禮》無此○)")
    strokes, _ = plain(LU1)
    assert only(text) == ("大戴禮", (strokes[:2] + strokes[3:19] + "○" + strokes[20:], 10))


def test_several_witnesses_and_commentary():
    # (一本作○)(音圜) touch: one note, whose words 音圜 are not a recognised comment
    found, unread = read(insert_note(insert_note(LU1, 8, "(一本作○)(音圜)"), 3, "(宋本少○)"))
    assert list(found) == ["宋本"]
    assert len(unread) == 1 and "音圜" in unread[0].reason
    # commentary separated by a stroke is a note of its own, without strokes: ignored
    found, unread = read(insert_note(insert_note(LU1, 9, "(音圜)"), 8, "(一本作○)"))
    assert found == {"一本": ("○□○○□□○○○○□○□○□○○○□□○□○", 11)} and unread == []


def test_abbreviated_witnesses():
    assert only(insert_note(LU1, 1, "(一作□)"))[0] == "一本"
    assert only(insert_note(LU1, 1, "(或作□)"))[0] == "或本"
    assert only(insert_note(LU1, 1, "(又一本作□)"))[0] == "又一本"
    assert only(insert_note(LU1, 1, "(無錫本無○)")) == ("無錫本", (plain(LU1)[0][1:], 10))
    assert only(insert_note(LU1, 1, "(按朱子作□)"))[0] == "朱子"


def test_comments_allowed():
    for comment in ("某從之", "陳氏从之也", "是也", "誤", "非", "當從之"):
        assert only(insert_note(LU1, 1, f"(一本作□{comment})"))[0] == "一本"
    assert only(insert_note(LU1, 1, "(一本作□，誤。)"))[0] == "一本"


# ---------------------------------------------------------------------------
# 半
# ---------------------------------------------------------------------------

def test_replace_right_after_half_applies_before_half():
    text = insert_note(LU2, 8, "(一本作□)", after_half=True)
    assert "半(一本作□)" in text
    assert only(text) == ("一本", ("○□○○□□○□○□○○□○○○○□○□○", 8))


def test_delete_right_after_half_moves_half_back():
    assert only(insert_note(LU2, 8, "(一本少二○)", after_half=True)) == \
        ("一本", ("○□○○□□○□○○□○○○○□○□○", 6))


def test_insert_beside_half_goes_on_the_side_it_is_written():
    before = insert_note(LU2, 8, "(一本有□)")
    after = insert_note(LU2, 8, "(一本有□)", after_half=True)
    assert "○(一本有□)半" in before and "半(一本有□)○" in after
    strokes = "○□○○□□○○□○□○○□○○○○□○□○"
    assert only(before) == ("一本", (strokes, 9))
    assert only(after) == ("一本", (strokes, 8))


def test_edit_crossing_half_not_read():
    found, unread = read(insert_note(LU2, 10, "(一本作三○)"))     # strokes 7, 8 | 半 | 9
    assert found == {} and "crosses 半" in unread[0].reason


def test_a_reading_with_nothing_before_half_is_not_read():
    found, unread = read("○○(一本無二○)半□□")
    assert found == {} and "nothing before 半" in unread[0].reason


# ---------------------------------------------------------------------------
# Not read: listed with the reason and the position
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("note, why", [
    ("(吳澄本作○ 疑誤)", "疑誤"),
    ("【□，方鼓也】", "no witness"),
    ("(○圜音圓)", "no witness"),
    ("(下有○)", "names no witness"),
    ("(又作○)", "names no witness"),
    ("(一本作○某本作□)", "某本作□"),
    ("(一本作三○)", "only 2 stand before it"),
    ("(一本少三○)", "only 2 stand before it"),
    ("(一本作此○)", "此"),
    ("(○ in some copies)", "no witness"),
])
def test_not_read(note, why):
    text = insert_note(LU1, 2, note)
    found, unread = read(text)
    assert found == {}
    assert len(unread) == 1
    assert why in unread[0].reason
    assert unread[0].text == note
    assert unread[0].location.offset == text.index(note)


def test_position_of_a_not_read_note_and_the_scan_warning():
    from guji.text.reading.scan import scan
    text = "魯鼓\n○□○○□□○□○○□半○□\n○□○○○(吳澄本作○疑誤)□□○□○"
    result = scan(text, filename="notes.txt")
    (unread,) = result.patterns[0].unread
    assert (unread.location.line, unread.location.column) == (3, 6)
    (notice,) = result.notices
    assert str(notice).startswith("notes.txt:3:6: warning: 魯鼓 (diagram 1): variant note not read")


def test_replacement_equal_to_text_not_read():
    found, unread = read(insert_note(LU1, 3, "(一本作○)"))   # stroke 3 is ○ already
    assert found == {} and "same as the text" in unread[0].reason


def test_one_bad_note_spoils_the_witness():
    text = insert_note(insert_note(LU1, 20, "(宋本作○)"), 2, "(宋本無此○)")   # stroke 2 is □
    found, unread = read(text)
    assert found == {}
    assert len(unread) == 2
    assert "names ○ as missing" in unread[0].reason
    assert "another note of 宋本" in unread[1].reason


def test_overlapping_notes_of_one_witness():
    text = insert_note(insert_note(LU1, 8, "(宋本作○)"), 7, "(宋本有□)")
    assert read(text)[0] == {"宋本": ("○□○○□□○□○○○□○□○□○○○□□○□○", 12)}
    text = insert_note(insert_note(LU1, 8, "(宋本作二○)"), 7, "(宋本有□)")   # insert inside replaced
    found, unread = read(text)
    assert found == {} and len(unread) == 2


def test_commentary_without_strokes_is_ignored():
    text = insert_note(LU1, 3, "(圜音圓)")
    strokes, half, notes, half_offset = split(text)
    assert read_notes(notes, text) == ([], [])
    assert readings(strokes, half, notes, text, half_offset) == ([], [])


# ---------------------------------------------------------------------------
# Where the strokes a note writes stand, and the witness as a pattern
# ---------------------------------------------------------------------------

def test_strokes_a_note_writes_stand_at_their_glyph_in_the_note():
    from guji.text.reading.parser import parse
    text = "○□○○□□○○半○□○(一本作二○)○○○○□○□○"
    pattern = parse(text, "lu")
    (witness,) = pattern.variants
    assert witness.id == "lu:1~一本" and witness.witness == "一本"
    glyph = text.index("二○") + 1
    # 作二○ replaces strokes 10, 11 (□○ after 半) with ○○, both at the ○ of the note
    assert [s.location.offset for s in witness.strokes[9:11]] == [glyph, glyph]
    assert [s.location.offset for s in witness.strokes[:9]] == \
        [s.location.offset for s in pattern.strokes[:9]]
    assert [s.index for s in witness.strokes] == list(range(len(witness.strokes)))
    assert witness.notes[0].text == "(一本作二○)"
    data = pattern.to_json()["variants"]
    assert data == [{"witness": "一本", "id": "lu:1~一本", "before": "○□○○□□○○",
                     "after": "○○○○○○○□○□○", "note": "(一本作二○)", "line": 1,
                     "column": text.index("(") + 1,
                     "notes": [{"note": "(一本作二○)", "line": 1, "column": text.index("(") + 1}]}]


# ---------------------------------------------------------------------------
# The user texts
# ---------------------------------------------------------------------------

def test_user_text_variant_note_paren():
    line = "魯鼓：○□○○□□○□○○□半○□○□○（一本作□）○○□□○□○"
    assert only(line) == ("一本", ("○□○○□□○□○○□○□○□□○○□□○□○", 11))
    found, unread = read("薛鼓：○□○○○(○ in some copies)□□○□○○□□○□○○□□○半○□○○○□□○", "xue")
    assert found == {} and len(unread) == 1


def test_user_text_variant_note_lenticular():
    line = "薛鼓　○□○○○○□○□○□○○○□○□○○【宋本此處有○】□○半○□○□○○○○□○"
    strokes, _ = plain(XUE2)
    assert only(line, "xue") == ("宋本", (strokes[:19] + "○" + strokes[19:], 22))


# ---------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------

def test_numerals():
    assert [numeral_value(n) for n in ("一", "九", "十", "十三", "二十", "二十一", "兩", "两", "廿",
                                       "廿一", "卅", "卅二", "九十九", "13", "１３")] == \
        [1, 9, 10, 13, 20, 21, 2, 2, 20, 21, 30, 32, 99, 13, 13]
    for bad in ("十十", "百", ""):
        with pytest.raises(ValueError):
            numeral_value(bad)


def test_join_groups_rules():
    text = "○□(某/本)(少一/○一□)○(宋)\n(本作□)半(一本)(作○)○"
    notes = split(text)[2]
    assert [len(g) for g in join_groups(notes, text)] == [2, 2, 2]
    text = "○□(某本)半(少○)○"
    notes = split(text)[2]
    assert [len(g) for g in join_groups(notes, text)] == [1, 1]   # 半 between: two notes
    assert note_body(notes[:1]) == "某本"


def test_apply_backwards_and_half():
    strokes, half = plain(LU1)
    edits = [Edit("insert", 0, ("□",)), Edit("delete", 11, ("○",)), Edit("replace", 19, ("○",)),
             Edit("insert", 23, ("○", "○"))]
    new, new_half = apply(strokes, half, edits)
    assert new == "□" + strokes[:11] + strokes[12:19] + "○" + strokes[20:] + "○○"
    assert new_half == 12         # +1 for the insert at 0; the delete at 11 is after 半
    assert apply(strokes, half, []) == (strokes, half)
    with pytest.raises(EditError):
        apply(strokes, half, [Edit("delete", 10, ("□", "○"))])       # crosses 半
    with pytest.raises(EditError):
        apply(strokes, half, [Edit("replace", 22, ("□", "□"))])      # past the end
    with pytest.raises(EditError) as e:
        apply(strokes, half, [Edit("insert", 3, ("○",)), Edit("insert", 3, ("□",))])
    assert e.value.edits == (0, 1)


# ---------------------------------------------------------------------------
# Property: any single edit, written as a note in any form, is read back exactly
# ---------------------------------------------------------------------------

ROUNDS, SQUARES = "○◯〇", "□囗口◍◛■▢"
WITNESSES = ["一本", "宋本", "某本", "古本", "某某本", "儀禮經傳通解", "《大戴禮》", "陳氏", "朱子",
             "無錫本"]
VERBS = {"replace": ["作", "亦作", "皆作"],
         "delete": ["少", "無", "无", "闕", "缺", "脫", "無此"],
         "insert": ["有", "多", "下有", "尚有", "又有", "此下有"]}
COMMENTS = ["", "某從之", "是也", "誤", "陳氏從之"]
CN = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十"}


@st.composite
def spelt(draw, strokes: str) -> str:
    """*strokes* as a note writes them: runs cut into chunks, each chunk plain
    glyphs or numeral + glyph, any glyph variant."""
    out, i = [], 0
    while i < len(strokes):
        j = i
        while j < len(strokes) and strokes[j] == strokes[i]:
            j += 1
        run = j - i
        while run:
            k = draw(st.integers(1, run))
            glyphs = ROUNDS if strokes[i] == "○" else SQUARES
            if draw(st.booleans()) and k <= 10:
                numeral = "兩" if k == 2 and draw(st.booleans()) else CN[k]
                out.append(numeral + draw(st.sampled_from(glyphs)))
            else:
                out.append("".join(draw(st.sampled_from(glyphs)) for _ in range(k)))
            run -= k
        i = j
    return "".join(out)


@st.composite
def flattened(draw, body: str) -> str:
    """*body* as a digital edition flattens a double-column note: column marks,
    line breaks, split into adjacent bracket groups."""
    out = []
    for ch in body:
        out.append(ch)
        r = draw(st.integers(0, 9))
        if r == 0:
            out.append("/")
        elif r == 1:
            out.append("\n")
    pieces = "".join(out)
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(pieces) - 1)), max_size=2)))
    parts: list[str] = []
    for a, b in zip([0, *cuts], [*cuts, len(pieces)]):
        part = pieces[a:b]
        if parts and not part.replace("/", "").strip():
            parts[-1] += part            # a group of only a line break is "()": not a note
        elif part:
            parts.append(part)
    groups = []
    for part in parts:
        opener, closer = draw(st.sampled_from([("(", ")"), ("（", "）"), ("【", "】")]))
        groups.append(opener + part + closer)
    seps = [draw(st.sampled_from(["", " ", "\n", "\u3000"])) for _ in groups[1:]]
    return groups[0] + "".join(s + g for s, g in zip(seps, groups[1:]))


def _expected(strokes: str, half: int, kind: str, after: int, named: str, after_half: bool):
    """The whole reading a single edit gives, and whether it crosses 半."""
    n = len(named)
    if kind == "insert":
        moved = after < half or (after == half and not after_half)
        return strokes[:after] + named + strokes[after:], half + n if moved else half, False
    crosses = after - n < half < after
    if kind == "delete":
        return strokes[:after - n] + strokes[after:], half - n if after <= half else half, crosses
    return strokes[:after - n] + named + strokes[after:], half, crosses


@st.composite
def cases(draw):
    length = draw(st.integers(2, 30))
    strokes = "".join(draw(st.lists(st.sampled_from("○□"), min_size=length, max_size=length)))
    half = draw(st.integers(1, length - 1))
    kind = draw(st.sampled_from(["replace", "delete", "insert"]))
    if kind == "insert":
        after = draw(st.integers(1, length))     # notes inside or right after the pattern
        named = "".join(draw(st.lists(st.sampled_from("○□"), min_size=1, max_size=4)))
    else:
        n = draw(st.integers(1, min(4, length)))
        after = draw(st.integers(n, length))
        named = strokes[after - n:after]
        if kind == "replace":
            named = "".join(draw(st.lists(st.sampled_from("○□"), min_size=n, max_size=n)))
            if named == strokes[after - n:after]:
                named = ("□" if named[0] == "○" else "○") + named[1:]
    verb = draw(st.sampled_from(VERBS[kind]))
    witness = draw(st.sampled_from(WITNESSES))
    note = draw(flattened(witness + verb + draw(spelt(named)) + draw(st.sampled_from(COMMENTS))))
    after_half = after == half and draw(st.booleans())
    expected, new_half, crosses = _expected(strokes, half, kind, after, named, after_half)
    pattern = "".join(draw(st.sampled_from(ROUNDS if s == "○" else SQUARES)) for s in strokes)
    text = insert_note(pattern[:half] + "半" + pattern[half:], after, note, after_half=after_half)
    return text, witness.strip("《》"), expected, new_half, crosses


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(cases())
def test_property_single_edit_read_back(case):
    text, witness, expected, new_half, crosses = case
    found, unread = read(text)
    empty = not 0 < new_half < len(expected)
    if crosses or empty:
        assert found == {}
        assert len(unread) == 1
        assert ("crosses 半" if crosses else "leave nothing") in unread[0].reason
    else:
        assert unread == []
        assert found == {witness: (expected, new_half)}


NOTE_ALPHABET = list("一二三兩十本宋某作少無此有多下尚從之誤疑《》○□〇囗口半/\n ，")


@settings(deadline=None)
@given(st.lists(st.text(alphabet=NOTE_ALPHABET, min_size=1, max_size=14), min_size=1, max_size=3),
       st.sampled_from([LU1, XUE2]), st.integers(0, 20))
def test_property_any_note_is_read_or_listed(bodies, pattern, after):
    """Whatever a note says, it is read, listed as not read, or (without
    strokes) ignored: never an exception, never lost."""
    note = "".join(f"({b})" for b in bodies)
    text = insert_note(pattern, after, note)
    strokes, half, notes, half_offset = split(text)
    found, not_read = readings(strokes, half, notes, text, half_offset)
    listed = {n.offset for nr in not_read for n in nr.notes}
    used = {n.offset for r in found for wn in r.notes for n in wn.notes}
    for n in notes:
        if any(ch in "○□〇囗口" for ch in n.text):
            assert n.offset in listed or n.offset in used
    for r in found:
        glyphs = r.glyphs(strokes)
        assert set(glyphs) <= {"○", "□"} and 0 < r.half_at < len(glyphs)


def _clash(a: Edit, b: Edit) -> bool:
    """Two edits change the same strokes: the definition, pair by pair."""
    span = lambda e: (e.at, e.at) if e.kind == "insert" else (e.at, e.at + len(e.strokes))  # noqa: E731
    (a0, a1), (b0, b1) = span(a), span(b)
    if a.kind == "insert" and b.kind == "insert":
        return a0 == b0
    if a.kind == "insert":
        return b0 < a0 < b1
    if b.kind == "insert":
        return a0 < b0 < a1
    return a0 < b1 and b0 < a1


edits_strategy = st.lists(st.builds(Edit, st.sampled_from(["replace", "delete", "insert"]),
                                    st.integers(0, 12),
                                    st.lists(st.just("○"), min_size=1, max_size=3).map(tuple)),
                          max_size=6)


@given(edits_strategy)
def test_property_conflicts_found_as_the_pairwise_definition_says(edits):
    from guji.text.apparatus.edits import _first_conflict
    found = _first_conflict(edits)
    pairs = [(i, j) for i in range(len(edits)) for j in range(i + 1, len(edits))
             if _clash(edits[i], edits[j])]
    assert (found is None) == (not pairs)
    if found is not None:
        i, j = found
        assert i < j and _clash(edits[i], edits[j])

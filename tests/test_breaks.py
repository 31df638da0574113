"""The apparatus across a printed page's breaks (issue 18).

Late-imperial editions print variant notes and commentators' counts in double
columns; a digitisation writes a column break as ``/`` and ends a printed line
with ``)¶``, a line break and ``(``. ``tests/data/breaks/`` holds one text per
form (``expected.toml`` says what each must read); the properties put the breaks
at every character position of the notes and counts of the shipped editions and
user texts and ask for the same readings and claims, positions mapped back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guji.text.collation.checked import text_claims
from guji.text.collation.claim_words import compact
from guji.text.reading.lexer import SourceText
from guji.text.reading.scan import scan

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

BREAKS = Path(__file__).parent / "data" / "breaks"
EXPECTED = tomllib.loads((BREAKS / "expected.toml").read_text(encoding="utf-8"))
PATTERNS = Path(__file__).parents[1] / "guji" / "data" / "patterns"
USER_TEXTS = Path(__file__).parent / "data" / "user-texts"
GUJI = str(Path(sys.executable).with_name("guji"))    # the console script, as a user runs it


def text_of(name: str) -> str:
    return (BREAKS / name).read_text(encoding="utf-8")


def claim_rows(claims) -> list[tuple]:
    return [(c.tradition.value, c.diagram, c.claim.part, c.claim.drum.value, c.claim.count,
             c.agrees) for c in claims]


# ---------------------------------------------------------------------------
# One text per form
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_case(name):
    want = EXPECTED[name]
    text = text_of(name)
    result = scan(text, filename=name)
    mains = [p for p in result.patterns if p.witness is None]
    assert [[p.tradition.slug, p.diagram, p.notation()] for p in mains] == want["patterns"]
    if "witnesses" in want:
        got = {f"{p.tradition.slug}:{p.diagram}~{v.witness}": v.notation()
               for p in mains for v in p.variants}
        assert got == want["witnesses"]
    for key, places in want.get("witness_notes", {}).items():
        pid, witness = key.split("~")
        variant = next(p for p in mains if f"{p.tradition.slug}:{p.diagram}" == pid).variant(witness)
        assert [[n.location.line, n.location.column] for n in variant.notes] == places
        for note in variant.notes:           # the note as cited is the text where it stands
            assert text[note.location.offset:].startswith(note.text)
    unread = [n for p in mains for n in p.unread]
    assert len(unread) == len(want.get("unread", []))
    for u, w in zip(unread, want.get("unread", [])):
        assert w["contains"] in u.reason
        assert (u.location.line, u.location.column) == (w["line"], w["column"])
    notices = want.get("notices", [])
    assert len(result.notices) == len(notices), [str(n) for n in result.notices]
    for n, w in zip(result.notices, notices):
        assert w["contains"] in n.message
        assert (n.location.line, n.location.column) == (w["line"], w["column"])
    if "claims" in want or "claims_as" in want:
        claims, claim_notices = text_claims(text, result.patterns, name)
        assert claim_notices == ()
        rows = [[c.tradition.value, c.diagram, c.claim.part, c.claim.drum.value, c.claim.count,
                 c.location.line, c.location.column, c.agrees] for c in claims]
        for row in want.get("claims", []):
            assert row in rows
        if "claims_as" in want:
            ed_text = (PATTERNS / want["claims_as"]).read_text(encoding="utf-8")
            ed_claims = text_claims(ed_text, scan(ed_text).patterns, "edition")[0]
            assert claim_rows(claims) == claim_rows(ed_claims)
    if "bracketed" in want:
        read = scan(text, filename=name, read_bracketed=True)
        assert [[p.tradition.slug, p.diagram, p.notation()] for p in read.patterns] == \
            want["bracketed"]
        for p in read.patterns:              # positions are the text's own
            assert all(text[s.location.offset] == s.raw for s in p.strokes)


def test_the_issue_forms_were_misread_before():
    """The cases are the issue's: without the join, 本 would be the witness and
    the 某本 note would name no witness (read the groups one by one)."""
    from guji.text.apparatus.notes import read_group
    from guji.text.apparatus.witnesses import notes_of
    from guji.text.reading.lexer import Kind, tokenize
    for name, fragment in (("01-witness-across-a-line-end.txt", "本"),
                           ("02-verb-starts-the-next-group.txt", None)):
        tokens = tokenize(SourceText(text_of(name)))
        strokes = [t.offset for t in tokens if t.kind is Kind.STROKE]
        groups = notes_of(strokes, [t for t in tokens if t.kind is Kind.NOTE])
        alone = [read_group((g,)) for g in groups]
        if fragment:
            assert alone[0] is None and alone[1].witness == fragment
        else:
            assert alone[0] is None and "names no witness" in alone[1].reason


# ---------------------------------------------------------------------------
# Properties: breaks at every character position of a note and of a claim
# ---------------------------------------------------------------------------

#: The layouts a digitisation writes inside a note: column breaks, and line
#: ends between two bracket groups (the brackets of the note's own kind).
def layouts(opener: str) -> list[str]:
    closer = {"(": ")", "（": "）", "【": "】"}[opener]
    return ["/", "｜", "¶\n<pb:KR1d0052_001-2a>¶\n", f"{closer}¶\n{opener}",
            f"{closer}\n　　{opener}", f"{closer}¶\n<pb:KR1d0052_001-2a>¶\n{opener}"]


def readings(text: str) -> dict:
    """Every witness reading of *text*: id → (notation, offsets of its strokes)."""
    return {f"{p.id}~{v.witness}": (v.notation(), [s.location.offset for s in v.strokes],
                                    [n.location.offset for n in v.notes])
            for p in scan(text).patterns for v in p.variants}


def broken_at(text: str, at: int, layout: str) -> tuple[str, callable]:
    """*text* with *layout* put in at offset *at*, and the map of an offset of
    *text* to the broken text."""
    return text[:at] + layout + text[at:], (lambda o: o + len(layout) if o >= at else o)


NOTED = [  # (text, note) the note put after stroke n of pattern pid (test_apparatus's forms)
    ("lijing-benyi.txt", "lu:1", 8, "(一本作○)"),
    ("lijing-benyi.txt", "lu:2", 3, "(《大戴禮》無此○)"),
    ("liji-zhengyi.txt", "lu:1", 15, "(某書本少一○一□)"),
    ("liji-zhengyi.txt", "xue:1", 3, "(某本下尚有一□一○某從之)"),
    ("wuli-tongkao.txt", "xue:2", 3, "（某本無此○）"),
    ("wuli-tongkao.txt", "lu:2", 21, "【宋本有二○】"),
]


def with_note(text: str, pid: str, after: int, note: str) -> tuple[str, int]:
    pattern = next(p for p in scan(text).patterns if p.id == pid)
    at = pattern.strokes[after - 1].location.offset + 1
    return text[:at] + note + text[at:], at


@pytest.mark.parametrize("file, pid, after, note", NOTED)
def test_property_a_note_broken_anywhere_reads_the_same(file, pid, after, note):
    text, at = with_note((PATTERNS / file).read_text(encoding="utf-8"), pid, after, note)
    want = readings(text)
    assert len(want) == 1                         # the note is read, as one witness
    for layout in layouts(note[0]):
        column = layout[0] not in ")）】"
        # a column mark anywhere inside; a line end strictly inside (no empty group)
        for k in range(1 if column else 2, len(note) - (0 if column else 1)):
            broken, moved = broken_at(text, at + k, layout)
            got = readings(broken)
            assert got.keys() == want.keys(), (layout, k)
            for key, (notation, strokes, notes) in want.items():
                assert got[key] == (notation, [moved(o) for o in strokes],
                                    [moved(o) for o in notes]), (layout, k)


def test_property_user_texts_notes_broken_anywhere():
    for name in ("18-variant-note-paren.txt", "19-variant-note-lenticular.txt"):
        text = (USER_TEXTS / name).read_text(encoding="utf-8")
        result = scan(text)
        want = readings(text)
        unread = [(n.reason, n.location.offset) for p in result.patterns for n in p.unread]
        notes = [v.notes[0] for p in result.patterns for v in p.variants]
        notes += [n for p in result.patterns for n in p.unread]
        for note in notes:
            for layout in layouts(note.text[0]):
                for k in range(2, len(note.text) - 1):
                    broken, moved = broken_at(text, note.location.offset + k, layout)
                    again = scan(broken)
                    got = readings(broken)
                    assert {key: (n, [moved(o) for o in s], [moved(o) for o in ns])
                            for key, (n, s, ns) in want.items()} == got, (name, layout, k)
                    assert [moved(o) for _, o in unread] == \
                        [n.location.offset for p in again.patterns for n in p.unread]


def test_property_a_claim_broken_anywhere_reads_the_same():
    """徐伯鲁's sixteen counts (礼经本义, in a 【】 note): a column break, a line
    end between two groups or a plain line wrap at every character of the
    stretch that holds them gives the same claims, each where the text has it."""
    text = (PATTERNS / "lijing-benyi.txt").read_text(encoding="utf-8")
    patterns = scan(text).patterns
    want, notices = text_claims(text, patterns, "benyi")
    assert len(want) == 16 and notices == ()
    start = text.index("今按前图")
    end = text.index("然以诗序")
    for layout in ("/", "】¶\n【", "】\n　　【", "¶\n", "¶\n<pb:KR1d0052_001-2a>¶\n"):
        for at in range(start + 1, end):
            broken, moved = broken_at(text, at, layout)
            got, got_notices = text_claims(broken, scan(broken).patterns, "benyi")
            assert got_notices == (), (layout, at)
            assert claim_rows(got) == claim_rows(want), (layout, at)
            src = SourceText(broken)
            for g, w in zip(got, want):
                assert g.claim.offset == moved(w.claim.offset)
                assert g.location == src.location(moved(w.claim.offset))
                assert compact(g.claim.text)[0] == compact(w.claim.text)[0]


# ---------------------------------------------------------------------------
# The grammar, the fragment rule, the claim reader's layout
# ---------------------------------------------------------------------------

def test_run_of_groups_split_by_grammar_not_by_brackets():
    from notes_helpers import LU1, insert_note, read
    # a run is one note where it reads as one; else whole groups make several notes
    found, unread = read(insert_note(LU1, 8, "(一本作○)¶\n(某本作○)"))
    assert set(found) == {"一本", "某本"} and unread == []
    found, unread = read(insert_note(LU1, 8, "(某/本)¶\n(作○)"))
    assert set(found) == {"某本"} and unread == []
    # one note in each column, also with a tag holding a / beside the column break
    for note in ("(一本作○/某本無此□)", "(一本作○<lb/>/某本無此□)", "(一本作○/<lb/>某本無此□)"):
        found, unread = read(insert_note(LU1, 8, note))
        assert found == {"一本": ("○□○○□□○○○○□○□○□○○○□□○□○", 11),
                         "某本": ("○□○○□□○○○□○□○□○○○□□○□○", 10)} and unread == [], note
    # a second reading inside one column is not read (as before this issue)
    found, unread = read(insert_note(LU1, 8, "(一本作○某本無此□)"))
    assert found == {} and "某本無此□" in unread[0].reason
    # a group without strokes never stands alone in a run: (一本作○)(音圜) is one note
    found, unread = read(insert_note(LU1, 8, "(一本作○)¶\n(音圜)"))
    assert found == {} and "音圜" in unread[0].reason


def test_never_a_witness_from_a_fragment():
    from notes_helpers import LU1, insert_note, read
    for between in ("，", "。", "、"):
        found, unread = read(insert_note(LU1, 8, f"(某/書){between}(本作○)"))
        assert found == {}
        assert "may be the end of a name" in unread[0].reason and repr(between) in unread[0].reason
    # a stroke between is another place: no fragment
    found, unread = read(insert_note(insert_note(LU1, 8, "(一本作○)"), 7, "(音圓)"))
    assert set(found) == {"一本"} and unread == []
    # 半 between: (某本)半(少○) is two notes, the second naming no witness (as before)
    found, unread = read("○□○○□□○□○○□(某本)半(少○)○□○□○○○□□○□○")
    assert found == {} and "no witness" in unread[0].reason


def test_compact_removes_the_layout_and_maps_back():
    text = "鼙声十六鼔)¶\n　(声/十二<pb:x>此"
    c, where = compact(text)
    assert c == "鼙声十六鼔声十二此"
    assert [text[i] for i in where] == list(c)


def test_a_score_not_closing_gives_the_true_reason():
    from guji.text.collation.claims import read_claims
    claims, lost = read_claims("鼙聲七鼓聲三此薛鼓云云")
    assert claims == []
    assert [u.count for u in lost] == [7, 3]
    assert "薛鼓 after the counts is not in the closing form (薛鼓之半也, 薛鼓也)" in lost[0].reason


# ---------------------------------------------------------------------------
# Through the command
# ---------------------------------------------------------------------------

def test_scan_says_what_a_bracket_hides_and_reads_it_on_request(tmp_path):
    text = "【注文\n魯鼓　○□○○□□○□○○□半○□○□○○○□□○□○\n後文】\n"
    run = subprocess.run([GUJI, "scan", "-"], input=text, capture_output=True,
                         text=True, encoding="utf-8")
    assert run.returncode == 0
    assert "no drum patterns found" in run.stdout
    assert "<stdin>:2:4: warning: a labelled pattern (魯鼓 ○□○○□□○□○○□半○□○□○○○□□○□○) " \
           "stands inside the note 【…】 from 1:1 to 3:3" in run.stderr
    assert "--read-bracketed" in run.stderr
    run = subprocess.run([GUJI, "scan", "-", "--read-bracketed"], input=text,
                         capture_output=True, text=True, encoding="utf-8")
    assert run.returncode == 0
    assert "lu:1  魯鼓  2:4  ○□○○□□○□○○□半○□○□○○○□□○□○" in run.stdout


def test_scan_cites_every_note_of_a_witness():
    path = BREAKS / "11-two-notes-in-one-run.txt"
    run = subprocess.run([GUJI, "scan", str(path)], capture_output=True, text=True,
                         encoding="utf-8")
    assert run.returncode == 0
    assert "~一本  ○□○○□□○○○○□半○□○○○○○□□○□○  (notes (一本作○) at 2:9; (一本作○/) at 3:15)" \
        in run.stdout
    assert "(notes (某本作○) at 3:1; (某本/無此□) at 5:1)" in run.stdout


def test_scan_says_the_symbols_are_lost():
    path = BREAKS / "07-lost-symbols.txt"
    run = subprocess.run([GUJI, "scan", str(path)], capture_output=True, text=True,
                         encoding="utf-8")
    assert run.returncode == 0
    assert f"{path}:2:9: warning: 半 魯鼓 半 薛鼓: score labels and 半 with no ○ or □ beside " \
           "them: the drum symbols appear to be lost in this text" in run.stderr


# ---------------------------------------------------------------------------
# Several breaks at once: a note or the counts laid out over many printed lines
# ---------------------------------------------------------------------------

def broken_many(text: str, cuts: list[tuple[int, str]]) -> tuple[str, callable]:
    """*text* with each (offset, layout) of *cuts* put in, and the offset map."""
    cuts = sorted(cuts)
    out, last = [], 0
    for at, layout in cuts:
        out += [text[last:at], layout]
        last = at
    out.append(text[last:])

    def moved(o: int) -> int:
        return o + sum(len(layout) for at, layout in cuts if o >= at)
    return "".join(out), moved


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(NOTED), data=st.data())
def test_property_a_note_laid_out_over_many_lines(case, data):
    file, pid, after, note = case
    text, at = with_note((PATTERNS / file).read_text(encoding="utf-8"), pid, after, note)
    want = readings(text)
    # distinct cut points strictly inside the note, none next to another (no empty group)
    points = data.draw(st.lists(st.integers(2, len(note) - 2), min_size=1, max_size=4,
                                unique=True).filter(
        lambda ps: all(abs(a - b) > 1 for a in ps for b in ps if a != b)))
    cuts = [(at + k, data.draw(st.sampled_from(layouts(note[0])))) for k in points]
    broken, moved = broken_many(text, cuts)
    assert readings(broken) == {key: (n, [moved(o) for o in s], [moved(o) for o in ns])
                                for key, (n, s, ns) in want.items()}


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_the_counts_laid_out_over_many_lines(data):
    text = (PATTERNS / "lijing-benyi.txt").read_text(encoding="utf-8")
    want = text_claims(text, scan(text).patterns, "benyi")[0]
    start, end = text.index("今按前图"), text.index("然以诗序")
    points = data.draw(st.lists(st.integers(start + 1, end - 1), min_size=1, max_size=8,
                                unique=True))
    cuts = [(p, data.draw(st.sampled_from(["/", "】¶\n【", "】\n　　【", "¶\n", "¶\n　",
                                           "¶\n<pb:KR1d0052_001-2a>¶\n"])))
            for p in points]
    broken, moved = broken_many(text, cuts)
    got, notices = text_claims(broken, scan(broken).patterns, "benyi")
    assert notices == ()
    assert claim_rows(got) == claim_rows(want)
    assert [g.claim.offset for g in got] == [moved(w.claim.offset) for w in want]


@pytest.mark.parametrize("text, said", [
    ("魯鼓〓〓〓〓半〓〓〓\n", "魯鼓 半"),                    # strokes printed as the geta mark
    ("鼓\n　　　半　　　魯鼓\n　　　半　　　薛鼓\n", "半 魯鼓 半 薛鼓"),
    ("魯鼓之半，薛鼓之全。此魯鼓之半。薛鼓\n", None),          # prose: 半 glued to words
    ("魯鼓○□○○□□○□○○□半○□○□○○○□□○□○\n", None),
    ("取半以下　魯鼓\n", None),
    ("半　天地　魯鼓\n", "半 魯鼓"),                       # short prose between: still named
    ("半\n一一一一一○魯鼓\n", None),                      # a break, and ○ beside the label
    ("半　天地　○　魯鼓\n", None),                        # a stroke between: the strokes are there
    ("○□○魯鼓　半\n", None),                            # the label names the strokes beside it
    ("半\n天地玄黃宇\n魯鼓\n", None),                    # prose of five: a break between
])
def test_lost_symbols_said_only_where_半_stands_among_blanks(text, said):
    notices = [n.message for n in scan(text).notices if "appear to be lost" in n.message]
    assert notices == ([] if said is None else [f"{said}: score labels and 半 with no ○ or □ "
                                                "beside them: the drum symbols appear to be lost "
                                                "in this text"])

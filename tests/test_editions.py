"""The shipped editions: raw passages are the seeds' very text; ids resolve."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from guji import UsageError, load
from guji.text.reading.editions import PatternId, edition, editions, scan_edition
from guji.text.reading.notation import Tradition

SEEDS = Path(__file__).parent / "data" / "seeds"


@pytest.mark.parametrize("ed", editions(), ids=lambda e: e.slug)
def test_passage_is_the_seed_text_exactly(ed):
    seed = (SEEDS / ed.seed).read_text(encoding="utf-8")
    lines = seed.split("\n")
    passage = ed.text()
    assert hashlib.sha256(passage.encode("utf-8")).hexdigest() == ed.sha256
    body = passage[:-1] if passage.endswith("\n") else passage
    plines = body.split("\n")
    first = lines[ed.seed_line - 1]
    assert first[ed.seed_column - 1:].startswith(plines[0])
    assert lines[ed.seed_line - 1:ed.end_line][1:-1] == plines[1:-1]
    assert lines[ed.end_line - 1][:ed.end_column].endswith(plines[-1])
    assert len(plines) == ed.end_line - ed.seed_line + 1


@pytest.mark.parametrize("ed", editions(), ids=lambda e: e.slug)
def test_positions_map_back_to_the_seed(ed):
    seed_lines = (SEEDS / ed.seed).read_text(encoding="utf-8").split("\n")
    for p in scan_edition(ed.slug).patterns:
        for s in p.strokes:
            line, col = ed.seed_position(s.location.line, s.location.column)
            assert seed_lines[line - 1][col - 1] == s.raw


def test_each_edition_has_the_four_patterns():
    for ed in editions():
        pats = scan_edition(ed.slug).patterns
        assert [(p.tradition, p.diagram) for p in pats] == [
            (Tradition.LU, 1), (Tradition.XUE, 1), (Tradition.LU, 2), (Tradition.XUE, 2)]
        assert all(p.edition == ed.slug for p in pats)


@pytest.mark.parametrize("text, expected", [
    ("lu", (Tradition.LU, 1, "liji-zhengyi")),
    ("魯", (Tradition.LU, 1, "liji-zhengyi")),
    ("鲁:2", (Tradition.LU, 2, "liji-zhengyi")),
    ("xue:2@wuli-tongkao", (Tradition.XUE, 2, "wuli-tongkao")),
    ("薛@lijing-benyi", (Tradition.XUE, 1, "lijing-benyi")),
])
def test_ids(text, expected):
    pid = PatternId.parse(text)
    assert (pid.tradition, pid.diagram, pid.source) == expected and not pid.is_file


@pytest.mark.parametrize("bad", ["", "qi", "lu:3", "lu:", "lu@", "lu@nowhere"])
def test_bad_ids(bad):
    with pytest.raises(UsageError):
        PatternId.parse(bad)


def test_load_from_a_user_file(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("my copy:\n魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    p = load(f"lu@{f}")
    assert p.notation() == "○□○○□□○○半○□○○□○○○○□○□○"
    assert p.filename == f.name and p.edition is None     # cited: no local absolute path
    with pytest.raises(UsageError, match="no 薛鼓"):
        load(f"xue@{f}")


def test_unknown_edition():
    with pytest.raises(UsageError, match="unknown edition"):
        edition("nope")


@pytest.mark.parametrize("ed", editions(), ids=lambda e: e.slug)
def test_one_form_of_the_volume_everywhere(ed):
    """The volume guji shows is the one the seed's header writes, as the
    bibliographic description has it (卷第五十九之二, not 卷58–59 beside it)."""
    assert ed.volume == (ed.bibl.volume or ed.bibl.page)
    assert ed.volume in ed.title_en and ed.volume in ed.cite()


def test_show_and_list_name_the_digitised_text():
    import json
    import subprocess
    import sys
    guji = str(Path(sys.executable).with_name("guji"))
    shown = subprocess.run([guji, "show", "lu"], capture_output=True, text=True,
                           timeout=60).stdout
    assert "line 3241 column 3 of its digitised text (collection unknown)" in shown
    assert "collection unknown" in shown and "printed edition unknown" in shown
    listed = json.loads(subprocess.run([guji, "list", "--json"], capture_output=True,
                                       text=True, timeout=60).stdout)
    for row in listed:
        ed = edition(row["edition"])
        assert row["digitised"]["file"] == ed.seed and row["volume"] == ed.volume
        assert row["digitised"]["collection"] == (ed.bibl.collection or "unknown")
    assert {r["digitised"]["printed"] for r in listed} == {"unknown", "钦定四库全书"}


def test_every_glyph_of_the_table_names_where_it_is_seen():
    """Each accepted glyph names the shipped edition or the Kanripo work and
    file it is seen in near 魯鼓/薛鼓, or says its source is unknown — no
    vague 'digitised editions' (◍ and ◛ were so mapped to the big drum)."""
    import re
    from guji.text.reading.notation import ROUND_GLYPHS, SQUARE_GLYPHS
    for glyph, note in {**ROUND_GLYPHS, **SQUARE_GLYPHS}.items():
        assert (re.search(r"\(the shipped editions?\)", note)
                or re.search(r"Kanripo KR\w+, KR\w+_\d+\.txt", note)
                or note.endswith("(source unknown)")), (glyph, note)
    assert "source unknown" in SQUARE_GLYPHS["\u25cd"] and "source unknown" in SQUARE_GLYPHS["\u25db"]
    assert "KR1i0019_008.txt" in SQUARE_GLYPHS["\u53e3"]

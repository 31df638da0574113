"""The editions' own apparatus on real texts: the seeds with variant notes put in,
read back as witnesses' readings by id (``lu:1@FILE~一本``) through every path a
user takes: scan, show, diff, compare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guji.cli.main import main
from guji.errors import UsageError
from guji.text.reading.bibl import cited
from guji.text.reading.editions import PatternId, load
from guji.text.reading.scan import scan
from guji.compare.modes import Timing, compare
from guji.text.reading.notation import Rite

SEEDS = Path(__file__).parent / "data" / "seeds"
BENYI = SEEDS / "000_a32c6902e9fda003.txt"      # 礼经本义: all on one line, □
TONGKAO = SEEDS / "003_2baf43b897b12510.txt"    # 五禮通考: square written 囗
ZHENGYI = SEEDS / "004_c01987349620dc35.txt"    # 禮記正義: punctuated, over many lines


def seed(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def with_note(text: str, pid: str, after: int, note: str, *, after_half: bool = False) -> str:
    """*text* with *note* written right after stroke *after* (1-based) of its
    pattern *pid* (``lu:1``), or right after its 半 with *after_half*."""
    pattern = next(p for p in scan(text).patterns if p.id == pid)
    at = (pattern.half_location.offset if after_half
          else pattern.strokes[after - 1].location.offset) + 1
    return text[:at] + note + text[at:]


def written(tmp_path: Path, text: str, name: str = "notes.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def reading(pid: str) -> str:
    return load(pid).notation()


# ---------------------------------------------------------------------------
# Every form of the brief, on the seeds, giving the exact alternative reading
# ---------------------------------------------------------------------------

def test_replace_in_benyi(tmp_path):
    text = with_note(seed(BENYI), "lu:1", 8, "(一本作○)")
    assert "○□○○□□○□(一本作○)○○□半" in text
    path = written(tmp_path, text)
    assert reading(f"lu:1@{path}") == "○□○○□□○□○○□半○□○□○○○□□○□○"
    assert reading(f"lu:1@{path}~一本") == "○□○○□□○○○○□半○□○□○○○□□○□○"


def test_delete_split_brackets_and_column_breaks_in_zhengyi(tmp_path):
    # 禮記正義 writes lu:1 over two lines with punctuation and spaces
    text = with_note(seed(ZHENGYI), "lu:1", 15, "(某/本)(少一/○一□)")
    path = written(tmp_path, text)
    assert reading(f"lu:1@{path}~某本") == "○□○○□□○□○○□半○□○○○□□○□○"


def test_wu_ci_in_tongkao_with_its_square_glyph(tmp_path):
    text = with_note(seed(TONGKAO), "xue:2", 3, "（某本無此○）")
    path = written(tmp_path, text)
    assert reading(f"xue:2@{path}") == "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
    assert reading(f"xue:2@{path}~某本") == "○□○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
    # strokes a note writes may use the edition's glyph too: 囗 is □
    text = with_note(seed(TONGKAO), "lu:1", 4, "(一本作○)")
    path = written(tmp_path, text, "tongkao.txt")
    assert reading(f"lu:1@{path}~一本") == "○□○○□□○□○○□半○□○□○○○□□○□○"


def test_insert_split_with_a_judgement_in_zhengyi(tmp_path):
    text = with_note(seed(ZHENGYI), "xue:1", 3, "(某書/下)(尚有一□一/○某從之)")
    path = written(tmp_path, text)
    assert reading(f"xue:1@{path}~某書") == "○□○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"


def test_line_breaks_inside_and_between_groups(tmp_path):
    text = with_note(seed(ZHENGYI), "lu:2", 3, "(儀禮經傳\n通解)\n(下多三\n□)")
    path = written(tmp_path, text)
    assert reading(f"lu:2@{path}") == "○□○○□□○○半○□○○□○○○○□○□○"
    assert reading(f"lu:2@{path}~儀禮經傳通解") == "○□○□□□○□□○○半○□○○□○○○○□○□○"


def test_note_after_the_last_stroke_and_notes_combined(tmp_path):
    # 礼经本义's second diagram: 鲁鼓○…○薛鼓○…: a note after lu:2's last stroke is lu:2's
    text = with_note(seed(BENYI), "lu:2", 21, "（大戴禮有○）")
    text = with_note(text, "lu:2", 3, "(《大戴禮》無此○)")
    path = written(tmp_path, text)
    assert reading(f"lu:2@{path}~大戴禮") == "○□○□□○○半○□○○□○○○○□○□○○"
    assert reading(f"xue:2@{path}") == "○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○"


def test_insert_beside_half_on_the_side_it_is_written(tmp_path):
    before = with_note(seed(BENYI), "lu:2", 8, "(一本有□)")
    after = with_note(seed(BENYI), "lu:2", 8, "(一本有□)", after_half=True)
    assert reading(f"lu:2@{written(tmp_path, before, 'a.txt')}~一本") == \
        "○□○○□□○○□半○□○○□○○○○□○□○"
    assert reading(f"lu:2@{written(tmp_path, after, 'b.txt')}~一本") == \
        "○□○○□□○○半□○□○○□○○○○□○□○"


def test_a_note_not_read_is_listed_with_its_position(tmp_path, capsys):
    text = with_note(seed(ZHENGYI), "lu:1", 15, "(吳澄本作○疑誤)")
    path = written(tmp_path, text)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "吳澄本" in t)
    column = text.splitlines()[line - 1].index("(吳澄本") + 1
    assert main(["scan", path, "--json"]) == 0
    out = capsys.readouterr()
    lu1 = json.loads(out.out)[0]
    assert lu1["variants"] == []
    assert lu1["unread"] == [{"note": "(吳澄本作○疑誤)", "line": line, "column": column,
                              "reason": lu1["unread"][0]["reason"]}]
    assert "疑誤" in lu1["unread"][0]["reason"]
    assert f"{path}:{line}:{column}: warning: 魯鼓 (diagram 1): variant note not read" in out.err
    # and the witness it names has no reading to load
    with pytest.raises(UsageError, match="no reading of '吳澄本'.*1 note with strokes not read"):
        load(f"lu:1@{path}~吳澄本")


# ---------------------------------------------------------------------------
# Ids and commands
# ---------------------------------------------------------------------------

def test_ids_with_a_witness(tmp_path):
    pid = PatternId.parse("lu:1@yishu.txt~一本")
    assert (pid.source, pid.witness, pid.is_file) == ("yishu.txt", "一本", True)
    assert PatternId.parse("lu:1@~/yishu.txt").witness is None
    odd = tmp_path / "a~b.txt"
    odd.write_text("魯鼓 ○□半○□", encoding="utf-8")
    assert PatternId.parse(f"lu@{odd}").witness is None          # a file name with ~ in it
    with pytest.raises(UsageError, match="nothing after '~'"):
        PatternId.parse("lu:1@yishu.txt~")
    with pytest.raises(UsageError, match="no reading of '一本'.*witnesses read there: none"):
        load("lu:1~一本")


def test_show_scan_and_diff_take_a_witness(tmp_path, capsys):
    path = written(tmp_path, with_note(seed(BENYI), "lu:1", 8, "(一本作○)"))
    assert main(["show", f"lu:1@{path}~一本", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == f"lu:1@{cited(path)}~一本" and data["witness"] == "一本"
    assert data["before"] == "○□○○□□○○○○□" and data["notes"][0]["note"] == "(一本作○)"
    assert main(["scan", path]) == 0
    out = capsys.readouterr().out
    assert "~一本" in out and "○□○○□□○○○○□半" in out
    assert main(["diff", f"lu:1@{path}", f"lu:1@{path}~一本"]) == 1      # they differ
    assert "stroke 8" in capsys.readouterr().out


def test_compare_diff_marks_the_note_against_the_main_text(tmp_path):
    path = written(tmp_path, with_note(seed(BENYI), "lu:1", 8, "(一本作○)"))
    main_text, witness = load(f"lu:1@{path}"), load(f"lu:1@{path}~一本")
    c = compare([main_text, witness], "diff", Timing(rite=Rite.SHE, interval=0.25))
    assert [cue.time for cue in c.cues] == [7 * 0.25]        # stroke 8, the one the note replaces
    notes_glyph = witness.strokes[7].location
    assert notes_glyph.offset == seed(BENYI).index("○□○○□□○□○○□半") + 8 + len("(一本作")


def test_compare_diff_plays_the_witness_on_a_real_stream(tmp_path, null_alsa):
    """``guji compare lu:1@notes.txt lu:1@notes.txt~一本 --mode diff`` on ALSA's null device."""
    path = written(tmp_path, with_note(seed(BENYI), "lu:1", 8, "(一本作○)"))
    env = dict(os.environ, ALSA_CONFIG_PATH=str(null_alsa), PYTHONIOENCODING="utf-8")
    guji = str(Path(sys.executable).with_name("guji"))
    r = subprocess.run([guji, "compare", f"lu:1@{path}", f"lu:1@{path}~一本", "--mode", "diff",
                        "--rite", "she", "--interval", "0.02", "--rate", "8000"],
                       capture_output=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode("utf-8")
    assert f"B lu:1@{cited(path)}~一本 differs" in out
    assert "stroke 8 □ 鼓: B" in out and "strikes ○ 鼙" in out


def test_midi_of_a_witness_names_its_note(tmp_path, capsys):
    import mido
    path = written(tmp_path, with_note(seed(BENYI), "lu:1", 8, "(一本作○)"))
    out = tmp_path / "yiben.mid"
    assert main(["midi", f"lu:1@{path}~一本", "--rite", "she", "-o", str(out)]) == 0
    texts = [m.text for track in mido.MidiFile(out, charset="utf-8").tracks for m in track if m.type == "text"]
    assert any(f"pattern lu:1@{cited(path)}~一本" in t for t in texts)
    assert any("the reading of 一本 given in the text's notes: (一本作○) at line 3" in t
               for t in texts)
    assert any("notation ○□○○□□○○○○□半" in t for t in texts)

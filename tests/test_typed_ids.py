"""Ids as a reader of Chinese types them, advice for what names nothing, and
a pattern typed where an id goes (guji issue 39, items 2 and 3)."""

from __future__ import annotations

import subprocess
import sys

import mido
import pytest

from guji.cli.main import main
from guji.errors import UsageError
from guji.midi.tracks import split_track_name
from guji.text.reading.editions import PatternId, load
from guji.text.reading.notation import Tradition
from guji.text.reading.typing_ids import as_typed, close_names, fold

LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
TYPED = "○□○○□□○□○○□半○□○□○○○□□○□○"


def ran(capsys, *args):
    """``guji ARGS…`` in this process: (status, stdout, stderr)."""
    status = main(["--lang", "en", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


# --- item 2: ids as typed with a Chinese input method ------------------------------------------

@pytest.mark.parametrize("typed, score, diagram, source", [
    ("lu：2", Tradition.LU, 2, "liji-zhengyi"),
    ("lu：２", Tradition.LU, 2, "liji-zhengyi"),
    ("lu:2@五禮通考", Tradition.LU, 2, "wuli-tongkao"),
    ("lu:2@五礼通考", Tradition.LU, 2, "wuli-tongkao"),
    ("lu：2＠五禮通考", Tradition.LU, 2, "wuli-tongkao"),
    ("xue@禮經本義", Tradition.XUE, 1, "lijing-benyi"),
    ("薛鼓後圖", Tradition.XUE, 2, "liji-zhengyi"),
    ("薛鼓前圖", Tradition.XUE, 1, "liji-zhengyi"),
    ("鲁鼓后图", Tradition.LU, 2, "liji-zhengyi"),
    ("魯鼓二", Tradition.LU, 2, "liji-zhengyi"),
    ("魯鼓後圖@五礼通考", Tradition.LU, 2, "wuli-tongkao"),
    ("魯：2", Tradition.LU, 2, "liji-zhengyi"),
    ("lu@wuli", Tradition.LU, 1, "wuli-tongkao"),         # a prefix of one slug only
])
def test_ids_as_a_chinese_input_method_types_them(typed, score, diagram, source):
    pid = PatternId.parse(typed)
    assert (pid.tradition, pid.diagram, pid.source, pid.is_file) == (score, diagram, source, False)


def test_a_full_width_tilde_names_a_witness():
    assert PatternId.parse("lu：1＠wuli-tongkao～一本").witness == "一本"
    assert as_typed("lu：1＠x～一本") == "lu:1@x~一本"


def test_fold_reads_both_scripts_as_one():
    assert fold("五禮通考") == fold("五礼通考")
    assert fold("禮記正義") == fold("礼记正义")


@pytest.mark.parametrize("typed, meant", [
    ("lu@li", ["liji-zhengyi", "lijing-benyi"]),     # two slugs begin so: both suggested
    ("lu@wulii", ["wuli-tongkao"]),
    ("luu", ["lu"]),
    ("xeu", ["xue"]),
])
def test_an_id_naming_nothing_says_what_it_may_have_meant(typed, meant):
    with pytest.raises(UsageError) as e:
        PatternId.parse(typed)
    said = str(e.value)
    assert "did you mean" in said
    assert all(f"'{m}'" in said for m in meant)


def test_nothing_close_suggests_nothing():
    with pytest.raises(UsageError) as e:
        PatternId.parse("lu@zzzzqqq")
    assert "did you mean" not in str(e.value)
    assert close_names("zzzzqqq", ["liji-zhengyi"]) == []


def test_the_cli_shows_what_a_chinese_reader_types(capsys):
    for typed in ("lu：2", "lu:2@五礼通考", "鲁鼓后图"):
        status, out, err = ran(capsys, "show", typed)
        assert status == 0, err
        assert LU2 in out
    status, out, err = ran(capsys, "show", "薛鼓後圖")
    assert status == 0 and out.startswith("xue:2@liji-zhengyi")


def test_a_mistyped_command_is_suggested(capsys):
    status, out, err = ran(capsys, "shw", "lu")
    assert status == 2
    assert "did you mean show?" in err
    assert len(err.strip().splitlines()) == 1


def test_a_mistyped_choice_is_suggested(capsys):
    status, out, err = ran(capsys, "show", "--labels", "aftr", "lu")
    assert status == 2 and "did you mean after?" in err


def test_the_suggestion_speaks_chinese(capsys):
    status, out, err = ran(capsys, "--lang", "zh-Hant", "show", "lu@li")
    assert status == 2 and "是否指" in err


# --- item 3: a typed pattern heard at once ------------------------------------------------------

def _strokes(path) -> str:
    """The strokes of a MIDI file guji wrote, as ○ and □, in time order (mido's reading)."""
    midi = mido.MidiFile(path, charset="utf-8")
    hits = []
    for track in midi.tracks[1:]:
        if not track.name:
            continue
        voice = split_track_name(track.name)[1].value
        now = 0
        for m in track:
            now += m.time
            if m.type == "note_on" and m.velocity and voice in ("鼙", "鼓"):
                hits.append((now, "○" if voice == "鼙" else "□"))
    return "".join(glyph for _time, glyph in sorted(hits))


def test_midi_of_a_typed_pattern(tmp_path, capsys):
    out = tmp_path / "x.mid"
    status, _out, err = ran(capsys, "midi", TYPED, "--rite", "she", "-o", str(out))
    assert status == 0, err
    assert _strokes(out) == TYPED.replace("半", "")
    assert "read as 魯鼓" in err and "--score" in err


def test_a_typed_pattern_takes_its_score(capsys):
    status, out, err = ran(capsys, "show", TYPED, "--score", "xue")
    assert status == 0 and out.startswith("xue:1") and err == ""
    status, out, err = ran(capsys, "show", "薛鼓" + TYPED)
    assert status == 0 and out.startswith("xue:1") and err == ""


def test_a_typed_pattern_with_a_typo_is_one_clear_error(capsys):
    status, out, err = ran(capsys, "show", "○□x半○")
    assert status == 2 and "'x'" in err and "Traceback" not in err


def test_an_id_reads_standard_input(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "guji", "--lang", "en", "show", "lu@-"],
                          input="魯鼓○□半○□".encode(), capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "○□半○□" in proc.stdout.decode()


def test_an_unlabelled_file_is_named_by_score(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nolabel.txt").write_text("○□半○□\n", encoding="utf-8")
    status, out, err = ran(capsys, "show", "lu@nolabel.txt")
    assert status == 2
    # the warning's advice names an option that exists, and following it works
    assert "--score" in err and "parse()" not in err
    status, out, err = ran(capsys, "show", "nolabel.txt", "--score", "xue")
    assert status == 0, err
    assert out.startswith("xue:1@nolabel.txt") and "○□半○□" in out


def test_load_is_unchanged_for_plain_ids():
    assert load("lu:2").notation() == LU2
    assert load("lu:2@五禮通考").edition == "wuli-tongkao"


def test_a_file_keeps_its_full_width_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "筆記：二.txt").write_text("魯鼓○□半○□\n", encoding="utf-8")
    (tmp_path / "口述.txt").write_text("魯鼓○□半□□\n", encoding="utf-8")
    assert load("lu@筆記：二.txt").notation() == "○□半○□"
    assert load("lu@口述.txt").notation() == "○□半□□"        # a glyph after @: a file, not typed
    assert as_typed("lu：1＠筆記：二.txt～一本") == "lu:1@筆記：二.txt~一本"


def test_a_witness_named_in_part_is_suggested(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.txt").write_text("魯鼓○□○(一本作□)半○□\n", encoding="utf-8")
    with pytest.raises(UsageError) as e:
        load("lu@w.txt~一")
    assert "did you mean '一本'?" in str(e.value)

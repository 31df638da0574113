"""The command line: listings, JSON shapes, errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

import runner

from guji.cli.main import main

SEEDS = Path(__file__).parent / "data" / "seeds"
#: ``guji ARGS…`` (tests/runner.py) as a user runs it: the installed console script,
#: its output as text (text=False: as bytes)
guji = partial(runner.guji, script=True, text=True)

JSON_KEYS = {"score", "diagram", "edition", "before", "after", "line", "column"}


def test_list_json_has_every_shipped_pattern(capsys):
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 12
    assert all(JSON_KEYS <= set(d) for d in data)
    assert {d["edition"] for d in data} == {"liji-zhengyi", "lijing-benyi", "wuli-tongkao"}


def test_list_text(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "lu:1@liji-zhengyi" in out and "xue:2@wuli-tongkao" in out


def test_show_json_shape(capsys):
    assert main(["show", "lu:2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["score"] == "魯" and d["diagram"] == 2 and d["edition"] == "liji-zhengyi"
    assert d["before"] == "○□○○□□○○" and d["after"] == "○□○○□○○○○□○□○"
    assert d["counts"] == {"whole": {"鼙": 14, "鼓": 7}, "half": {"鼙": 9, "鼓": 4}}
    assert d["source"]["seed_line"] == 3333


def test_show_text_marks_half_and_counts(capsys):
    assert main(["show", "xue:1@wuli-tongkao"]) == 0
    out = capsys.readouterr().out
    assert "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○" in out
    assert "as written: ○囗○○○囗囗○囗○○囗囗○囗○○囗囗○半○囗○○○囗囗○" in out


@pytest.mark.parametrize("seed", sorted(p.name for p in SEEDS.glob("*.txt")))
def test_scan_json_on_each_seed(seed, capsys):
    assert main(["scan", str(SEEDS / seed), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["score"], d["diagram"]) for d in data] == [("魯", 1), ("薛", 1), ("魯", 2), ("薛", 2)]
    assert all(JSON_KEYS <= set(d) and d["edition"] is None for d in data)
    assert all(set(d["before"] + d["after"]) <= {"○", "□"} for d in data)


def test_scan_stdin_and_gb18030():
    text = (SEEDS / "000_a32c6902e9fda003.txt").read_text(encoding="utf-8")
    r = guji(["scan", "-", "--json"], text=False, input=text.encode("gb18030"))
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)) == 4


def test_scan_lost_symbols_warns_and_gives_empty(tmp_path):
    f = tmp_path / "lost.txt"
    f.write_text("鼓：半魯鼓；半薛鼓。", encoding="utf-8")
    r = guji(["scan", str(f), "--json"], text=False)
    assert r.returncode == 0
    assert json.loads(r.stdout) == []
    assert b"lost" in r.stderr and b"Traceback" not in r.stderr


def test_id_with_file(tmp_path, capsys):
    f = tmp_path / "mine.txt"
    f.write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n薛鼓 ○□○半○□○\n", encoding="utf-8")
    assert main(["show", f"xue@{f}", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["before"] == "○□○" and d["line"] == 2 and d["column"] == 4


@pytest.mark.parametrize("args, words", [
    (["show", "lu:9"], b"diagram is 1 or 2"),
    (["show", "zz"], b"the score is lu"),
    (["show", "lu@nope"], b"neither a shipped edition"),
    (["scan", "/no/such/file.txt"], b"no such file"),
    (["show", "lu", "--bogus"], b"unrecognized arguments"),
    (["show"], b"arguments are required"),
    (["nosuchcommand"], b"invalid choice"),
])
def test_errors_exit_2_one_line_no_traceback(args, words):
    r = guji([*args], text=False)
    assert r.returncode == 2
    assert words in r.stderr
    assert b"Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_notation_error_shows_file_line_column_and_caret(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("前言\n魯鼓 ○□○▲○半○□\n", encoding="utf-8")
    r = guji(["scan", str(f)], text=False)
    assert r.returncode == 2
    lines = r.stderr.decode("utf-8").splitlines()
    assert lines[0].startswith(f"guji: {f}:2:7: unknown symbol '▲'")
    assert lines[1].strip() == "魯鼓 ○□○▲○半○□"
    assert lines[2].rstrip().endswith("^")
    assert b"Traceback" not in r.stderr


def test_glyphs_table(capsys):
    assert main(["glyphs", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert "U+56D7" in d["square"] and "U+3007" in d["round"]


# -- control characters are shown escaped, never obeyed ---------------------------------

def test_control_characters_in_input_are_escaped_in_errors(tmp_path):
    (tmp_path / "ctl.txt").write_text("x\x1b[31mred\x07 魯鼓 ○□\x1b○半○\n", encoding="utf-8")
    r = guji(["scan", "ctl.txt"], tmp_path)
    assert r.returncode == 2
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    first, shown, caret = r.stderr.splitlines()[:3]
    assert first.startswith("guji: ctl.txt:1:17: unknown symbol U+001B")
    # the caret stands under the escaped symbol (wide characters count two columns)
    from guji.errors import display_width
    at = shown.index("U+001B○半")
    assert display_width(shown[:at]) == display_width(caret[:caret.index("^")])


def test_control_characters_in_a_file_name_are_escaped_in_messages(tmp_path):
    name = "n\x01\x1b.txt"
    (tmp_path / name).write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    r = guji(["show", f"lu@{name}"], tmp_path)
    assert r.returncode == 0
    assert "\x01" not in r.stdout and "\x1b" not in r.stdout
    assert "nU+0001U+001B.txt" in r.stdout
    r = guji(["show", f"xue@{name}"], tmp_path)
    assert r.returncode == 2 and "\x01" not in r.stderr and "U+0001" in r.stderr


def test_control_characters_in_a_file_name_make_well_formed_svg_and_html(tmp_path):
    import xml.etree.ElementTree as ET
    name = "n\x01.txt"
    (tmp_path / name).write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n薛鼓 ○□○半○□○\n",
                                 encoding="utf-8")
    r = guji(["draw", f"lu@{name}", f"xue@{name}", "-o", "x.svg"], tmp_path)
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "x.svg").read_text(encoding="utf-8")
    ET.fromstring(svg)                      # well-formed: no raw U+0001
    assert "\x01" not in svg and "U+0001" in svg
    r = guji(["page", f"lu@{name}", f"xue@{name}", "-o", "pg/", "--audio-format", "wav"], tmp_path)
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "pg" / "index.html").read_text(encoding="utf-8")
    assert "\x01" not in page and "U+0001" in page


# -- one check each, shared by the library and the command line ---------------------

@pytest.mark.parametrize("argv, words", [
    (["midi", "lu", "-o", "x.mid", "--ticks-per-beat", "0"], "ticks per beat must be a whole number"),
    (["midi", "lu", "-o", "x.mid", "--interval", "0"], "interval must be positive"),
    (["midi", "lu", "-o", "x.mid", "--bpm", "nan"], "--bpm must be a positive"),
    (["render", "lu", "-o", "x.wav", "--repeat", "0"], "repeat must be a whole number"),
    (["render", "lu", "-o", "x.wav", "--count-in", "-2"], "count-in must be a whole number"),
    (["draw", "lu", "-o", "nodir/x.svg"], "no such directory"),
])
def test_bad_options_and_targets_are_one_line_from_the_library_check(tmp_path, argv, words):
    r = guji([*argv], tmp_path)
    assert r.returncode == 2 and words in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [["render", "lu", "-o", "d.wav"], ["draw", "lu", "-o", "d.svg"]])
def test_a_directory_is_never_an_output_file(tmp_path, argv):
    name = argv[-1]
    (tmp_path / name).mkdir()
    r = guji([*argv], tmp_path)
    assert r.returncode == 2 and f"{name}: is a directory" in r.stderr
    assert list((tmp_path / name).iterdir()) == []


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["show", "--help"]])
def test_help_and_version_to_a_full_stdout_are_one_line_and_exit_2(args):
    # argparse printed them before the command line's own handling: a traceback, exit 1
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    env = dict(os.environ, PYTHONIOENCODING="utf-8", GUJI_LANG="en")
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "guji", *args], stdout=full, stderr=subprocess.PIPE, env=env, timeout=120)
    assert (r.returncode, r.stderr.decode().splitlines()) == (
        2, ["guji: standard output: cannot write: disk full"])

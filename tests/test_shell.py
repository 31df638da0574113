"""The command line as a shell user meets it: options anywhere, errors
pointing to the command's own help, completion scripts (run in a real bash;
zsh and fish check their syntax), the man page (checked by groff)."""

from __future__ import annotations

import subprocess
from functools import partial
from pathlib import Path

import pytest

import runner
from tools import require

#: ``guji ARGS…`` (tests/runner.py) as a user runs it: the installed console script
guji = partial(runner.guji, script=True)


def test_options_anywhere_on_the_line(tmp_path):
    """``guji sheet lu:1 --gap 5 xue:1 -o x.musicxml`` writes what the same
    options at the end write, byte for byte."""
    mixed = guji(["sheet", "lu:1", "--gap", "5", "xue:1", "-o", "x.musicxml"], tmp_path)
    assert mixed.returncode == 0, mixed.stderr
    at_end = guji(["sheet", "lu:1", "xue:1", "--gap", "5", "-o", "y.musicxml"], tmp_path)
    assert at_end.returncode == 0, at_end.stderr
    x, y = (tmp_path / "x.musicxml").read_bytes(), (tmp_path / "y.musicxml").read_bytes()
    assert x == y and x.count(b"<note") > 20
    without_gap = guji(["sheet", "lu:1", "xue:1", "-o", "z.musicxml"], tmp_path)
    assert (tmp_path / "z.musicxml").read_bytes() != x, without_gap.stderr


@pytest.mark.parametrize("args, command", [
    (["show", "lu", "--bogus"], "show"),
    (["sheet", "lu:1", "--gap"], "sheet"),
    (["midi"], "midi"),
    (["render", "lu", "--rite", "dance", "-o", "x.wav"], "render"),
    (["bogus"], None),
])
def test_each_error_points_to_its_commands_help(args, command, tmp_path):
    r = guji(args, tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    errors = [line for line in r.err_lines if "error" in line]
    assert len(errors) == 1, r.stderr
    want = f"(see 'guji {command} --help')" if command else "(see 'guji --help')"
    assert errors[0].endswith(want), r.stderr


def _bash_complete(script: Path, line: str, words: list[str]) -> list[str]:
    """What the script offers for *line* (split into *words* as bash splits
    them, ``:`` a word of its own), run by bash itself."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    code = (f"source {script}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
            f"COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; _guji; "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    done = subprocess.run([require("bash"), "--norc", "-c", code], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completion(tmp_path):
    made = guji(["completion", "bash"], tmp_path)
    assert made.returncode == 0, made.stderr
    script = tmp_path / "guji.bash"
    script.write_bytes(made.stdout)
    (tmp_path / "mine.txt").write_text("x")
    assert _bash_complete(script, "guji sh", ["guji", "sh"]) == ["show", "sheet"]
    assert _bash_complete(script, "guji sheet lu --ga", ["guji", "sheet", "lu", "--ga"]) == \
        ["--gap"]
    assert _bash_complete(script, "guji render lu --rite ", ["guji", "render", "lu", "--rite",
                                                            ""]) == ["touhu", "she"]
    assert _bash_complete(script, "guji show xue:2@li", ["guji", "show", "xue", ":", "2@li"]) \
        == ["2@liji-zhengyi", "2@lijing-benyi"]
    here = subprocess.run(["bash", "--norc", "-c", f"cd {tmp_path}; source {script}; "
                           "COMP_WORDS=(guji scan mi); COMP_CWORD=2; COMP_LINE='guji scan mi'; "
                           "COMP_POINT=12; _guji; echo ${COMPREPLY[@]}"],
                          capture_output=True, text=True, timeout=60)
    assert here.stdout.split() == ["mine.txt"], here.stderr


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_parse(shell, tmp_path, tool):
    made = guji(["completion", shell], tmp_path)
    assert made.returncode == 0, made.stderr
    text = made.stdout.decode("utf-8")
    for command in ("demo", "sheet", "play", "completion", "man"):
        assert command in text
    script = tmp_path / f"guji.{shell}"
    script.write_text(text, encoding="utf-8")
    checked = subprocess.run([tool(shell), "-n", str(script)], capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0 and not checked.stderr, checked.stderr


def test_man_page_from_the_parsers(tmp_path, tool):
    made = guji(["man"], tmp_path)
    assert made.returncode == 0, made.stderr
    page = made.stdout.decode("utf-8")
    from guji.cli.main import COMMANDS
    assert [line[4:] for line in page.splitlines() if line.startswith(".SS ")] == list(COMMANDS)
    assert "\\fB\\-\\-gap\\fR" in page and "\\fB\\-\\-midi\\-out\\fR" in page
    (tmp_path / "guji.1").write_text(page, encoding="utf-8")
    checked = subprocess.run([tool("groff"), "-k", "-man", "-Tutf8", "-ww", "-z",
                              str(tmp_path / "guji.1")], capture_output=True, text=True,
                             timeout=60)
    assert checked.returncode == 0 and not checked.stderr, checked.stderr

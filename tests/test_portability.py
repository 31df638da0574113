"""The whole command line under a simulated Windows and a simulated macOS.

Each command runs as a user runs it (the console script), in a fresh
process, with ``tests/portability/sitecustomize.py`` on ``PYTHONPATH``: it
takes away what the other system lacks (Windows: SIGHUP and the other POSIX
signals, termios, ``O_CLOEXEC``, ``/dev``; macOS: ALSA) and gives what it
has (``\\`` paths and ``NUL``; rtmidi's WinMM or CoreMIDI), as its docstring
lists. Standard output is cp1252 on "Windows", as a redirect there is. No
command may print a traceback; each either works or says why in one line
(exit status 2).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import runner
from runner import environment, run

SITE = Path(__file__).resolve().parent / "portability"
GUJI = str(Path(sys.executable).with_name("guji"))
SYSTEMS = ("windows", "macos")

#: A user's text in a sub-folder (read as texts\\mine.txt on "Windows").
TEXT = "魯鼓：○□○○□□○□○○□半○□○□○○○□□○□○\n薛鼓：○□○□○○○□□○□○半□○□○□○○○□□○□\n"


def simulated(system: str, tmp: Path, **extra: str) -> dict:
    env = environment(GUJI_SIMULATE=system, PYTHONPATH=str(SITE),
                      GUJI_SIMULATE_MIDI_LOG=str(tmp / "midi.log"), HOME=str(tmp / "home"),
                      LOCALAPPDATA=str(tmp / "home" / "AppData" / "Local"))
    if system == "windows":
        env["PYTHONIOENCODING"] = "cp1252"
    env.update(extra)
    return env


def sep(system: str, *parts: str) -> str:
    """A relative path as that system's user types it."""
    return ("\\" if system == "windows" else "/").join(parts)


def guji(system: str, tmp: Path, args: list[str], **extra: str):
    (tmp / "home").mkdir(exist_ok=True)
    texts = tmp / "texts"
    if not texts.exists():
        texts.mkdir()
        (texts / "mine.txt").write_text(TEXT, encoding="utf-8")
    return runner.guji(args, tmp, script=True, env=simulated(system, tmp, **extra))


def check_clean(r, statuses=(0,)) -> None:
    """No traceback; the expected status; an error is one line."""
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode in statuses, (r.returncode, r.stderr)
    if r.returncode == 2:
        guji_lines = [line for line in r.err_lines if line.startswith("guji")]
        assert len(guji_lines) == 1, r.stderr


#: The whole command line: (arguments, with {sep} for a path separator; statuses).
COMMANDS = [
    (["--version"], (0,)),
    (["--help"], (0,)),
    ([], (2,)),
    (["list"], (0,)),
    (["show", "lu:1"], (0,)),
    (["show", "xue:2@lijing-benyi"], (0,)),
    (["show", "lu:1@texts{sep}mine.txt"], (0,)),
    (["scan", "texts{sep}mine.txt"], (0,)),
    (["collate", "texts{sep}mine.txt"], (0,)),
    (["claims", "lijing-benyi"], (0,)),
    (["glyphs"], (0,)),
    (["midi", "lu:1", "xue:1", "-o", "lu.mid"], (0,)),
    (["midi", "lu:1", "-o", "nowhere{sep}lu.mid"], (2,)),
    (["midi", "lu:1", "xue:1", "-o", "texts{sep}"], (0,)),
    (["play", "lu:1", "--interval", "0.01"], (0, 2)),
    (["sheet", "lu:1", "-o", "lu.musicxml"], (0,)),
    (["sheet", "lu:1", "-o", "lu.ly"], (0,)),
    (["sheet", "lu:1", "-o", "lu.svg"], (0,)),
    (["render", "lu:1", "-o", "lu.flac"], (0,)),
    (["render", "lu:1", "-o", "lu.wav", "--repeat", "2"], (0,)),
    (["devices"], (0, 2)),
    (["ports"], (0,)),
    (["diff", "xue:2", "xue:2@lijing-benyi"], (1,)),
    (["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "diff", "-o", "c.wav"], (0,)),
    (["draw", "lu:1", "-o", "d.svg"], (0,)),
    (["page", "lu:1", "lu:1@wuli-tongkao", "-o", "pg"], (0,)),
    (["demo", "--write", "-o", "demo"], (0,)),
    (["show", "lu:9"], (2,)),
    (["show", "lu", "--bogus"], (2,)),
    (["scan", "texts{sep}missing.txt"], (2,)),
]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("args, statuses", COMMANDS, ids=lambda a: " ".join(a)
                         if isinstance(a, list) else str(a))
def test_every_command_works_or_says_why(system, args, statuses, tmp_path):
    given = [a.replace("{sep}", "\\" if system == "windows" else "/") for a in args]
    r = guji(system, tmp_path, given)
    check_clean(r, statuses)
    stdout = r.stdout.decode("utf-8")           # data out is UTF-8, even on cp1252
    if args[:1] in (["show"], ["scan"]) and r.returncode == 0:
        assert "○" in stdout or "□" in stdout
    if args[-1:] == ["texts{sep}"]:                # a folder named by its trailing separator
        assert sorted(p.name for p in (tmp_path / "texts").glob("*.mid")) == [
            "lu-1-liji-zhengyi.mid", "xue-1-liji-zhengyi.mid"], r.stderr


@pytest.mark.parametrize("system", SYSTEMS)
def test_json_is_utf8_whatever_the_locale(system, tmp_path):
    with open(tmp_path / "x.json", "wb") as out:
        r = run([GUJI, "list", "--json"], tmp_path, stdout=out,
                env=simulated(system, tmp_path, PYTHONIOENCODING="cp1252"))
    check_clean(r)
    listed = json.loads((tmp_path / "x.json").read_bytes().decode("utf-8"))
    assert {p["score"] for p in listed} == {"魯", "薛"}


def test_messages_degrade_to_escapes_in_cp1252(tmp_path):
    """A message naming a character cp1252 lacks: an escape on stderr, not a crash."""
    r = guji("windows", tmp_path, ["show", "鼓:1"])
    check_clean(r, (2,))
    assert "\\u9f13" in r.stderr


@pytest.mark.parametrize("system, port", [("windows", "Microsoft GS Wavetable Synth"),
                                          ("macos", "IAC Driver Bus 1")])
def test_live_midi_through_the_systems_backend(system, port, tmp_path):
    listed = guji(system, tmp_path, ["ports", "--json"])
    check_clean(listed)
    assert json.loads(listed.stdout) == [{"name": port, "system": {"windows": "WinMM",
                                                                    "macos": "CoreMIDI"}[system]}]
    r = guji(system, tmp_path, ["play", "lu:1", "--midi-out", port.split()[0], "--no-audio", "--interval",
                                "0.01"])
    check_clean(r)
    sent = (tmp_path / "midi.log").read_text().split()
    note_ons = [m for m in sent if m.startswith("99") and not m.endswith("00")]
    assert len(note_ons) == 12, sent               # lu:1 for the 投壺: 12 strokes


@pytest.mark.parametrize("system", SYSTEMS + ("linux",))
def test_without_rtmidi_live_midi_is_one_line_of_advice(system, tmp_path):
    r = guji(system, tmp_path, ["play", "lu:1", "--midi-out"], GUJI_SIMULATE_NO_RTMIDI="1")
    check_clean(r, (2,))
    assert "pip install 'guji[midi]'" in r.stderr
    midi = guji(system, tmp_path, ["midi", "lu:1", "-o", "lu.mid"], GUJI_SIMULATE_NO_RTMIDI="1")
    check_clean(midi)


@pytest.mark.parametrize("system, words", [("windows", "lilypond.org"),
                                           ("macos", "brew install lilypond")])
def test_missing_programs_advised_in_the_systems_words(system, words, tmp_path):
    bare = {"PATH": str(Path(sys.executable).parent)}
    pdf = guji(system, tmp_path, ["sheet", "lu:1", "-o", "x.pdf"], **bare)
    check_clean(pdf, (2,))
    assert words in pdf.stderr
    png = guji(system, tmp_path, ["draw", "lu:1", "-o", "x.png"], **bare)
    check_clean(png, (2,))
    assert ("Chrome" in png.stderr) and "apt-get" not in png.stderr


def test_windows_null_device_and_no_dev(tmp_path):
    nul = guji("windows", tmp_path, ["render", "lu:1", "-o", "NUL"])
    check_clean(nul)
    assert not (tmp_path / "NUL").exists() and not (tmp_path / "nul").exists()
    dev = guji("windows", tmp_path, ["render", "lu:1", "-o", "/dev/null"])
    check_clean(dev, (2,))


@pytest.mark.parametrize("system, folder", [
    ("windows", ("AppData", "Local", "guji", "Cache")),
    ("macos", ("Library", "Caches", "guji"))])
def test_the_cache_is_where_the_system_keeps_caches(system, folder, tmp_path):
    env = {k: v for k, v in simulated(system, tmp_path).items() if k != "GUJI_CACHE"}
    guji(system, tmp_path, ["--version"])       # makes the folders
    r = run([GUJI, "render", "lu:1", "-o", "lu.wav"], tmp_path, env=env)
    check_clean(r)
    cache = tmp_path.joinpath("home", *folder)
    assert sorted(p.suffix for p in cache.iterdir()) and all(
        p.suffix == ".npy" for p in cache.iterdir())


@pytest.mark.parametrize("system", ["linux", "windows"])
def test_a_terminal_that_cannot_show_a_character_gets_an_escape(system, tmp_path):
    """On a real terminal (a pseudo-terminal) whose encoding is cp1252, the
    glyphs guji prints degrade to escapes; nothing fails (on "Windows" the
    console's VT mode is asked for too, and msvcrt is not there)."""
    import pty
    import subprocess
    main, secondary = pty.openpty()
    env = environment(PYTHONIOENCODING="cp1252") if system == "linux" else \
        simulated(system, tmp_path)
    proc = subprocess.Popen([GUJI, "show", "lu:1"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:                      # the terminal closed: the process is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert proc.wait(timeout=120) == 0
    text = shown.decode("cp1252")
    assert "\\u25cb\\u25a1" in text and "Traceback" not in text     # ○□

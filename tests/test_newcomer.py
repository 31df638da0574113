"""What a newcomer meets first: messages a musician or a scholar understands."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

import soundfile as sf

import runner
from runner import environment

GUJI = str(Path(sys.executable).with_name("guji"))
#: ``guji ARGS…`` (tests/runner.py) as a user runs it: the installed console script,
#: its output as text
guji = partial(runner.guji, script=True, text=True)
SEED_NAMES = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b|\bseeds? \d{3}\b")


def test_editions_are_named_by_title_not_by_our_file_names(tmp_path):
    for argv in (["show", "lu"], ["show", "xue:2@wuli-tongkao"], ["glyphs"], ["list"],
                 ["sheet", "lu", "xue", "-o", "s.musicxml"]):
        r = guji([*argv], tmp_path)
        assert r.returncode == 0 and not SEED_NAMES.search(r.stdout), (argv, r.stdout)
    assert not SEED_NAMES.search((tmp_path / "s.musicxml").read_text(encoding="utf-8"))
    shown = guji(["show", "lu"], tmp_path).stdout
    assert "禮記正義 卷第五十九之二, line 3241 column 3 of its digitised text (collection unknown)" in shown


def test_a_written_file_reports_its_own_length_ring_included(tmp_path):
    r = guji(["render", "lu", "-o", "lu.wav"], tmp_path)
    info = sf.info(str(tmp_path / "lu.wav"))
    length = info.frames / info.samplerate
    assert f"{length:.1f} s (the music 7.2 s" in r.stderr      # 12 strokes × 0.6 s, then the ring
    assert length > 7.2 + 0.5
    r = guji(["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "sequence", "-o", "c.flac"],
             tmp_path)
    info = sf.info(str(tmp_path / "c.flac"))
    assert f"wrote c.flac: {info.frames / info.samplerate:.1f} s" in r.stderr


def test_page_help_states_the_page_default_rite(tmp_path):
    help_text = " ".join(guji(["page", "--help"], tmp_path).stdout.split())
    assert "(default: she)" in help_text and "(default: touhu)" not in help_text


def test_one_pattern_is_not_patterns(tmp_path):
    (tmp_path / "one.txt").write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    out = guji(["scan", "one.txt"], tmp_path).stdout
    assert "1 pattern (" in out and "1 patterns" not in out


def test_renders_carry_no_dc_offset(tmp_path):
    """Every hit sums to zero (guji.sound.synth.without_dc): no offset however densely
    the hits overlap, the kit's recordings included."""
    import numpy as np

    import guji
    from guji.sound.mixer import render_array
    from guji.timing.score import Score

    for interval in (0.6, 0.15, 0.05):
        x = render_array(Score(guji.load("xue:2"), guji.Rite.SHE, interval, repeat=3))
        assert np.all(np.abs(x.mean(axis=0)) < 1e-6), interval
    # a recording with an offset of its own is played without it
    rate = 44100
    t = np.arange(rate // 2) / rate
    hit = 0.5 * np.sin(2 * np.pi * 200 * t) * np.exp(-t / 0.05) + 0.02
    sf.write(tmp_path / "small.wav", hit, rate)
    sf.write(tmp_path / "big.wav", hit, rate)
    from guji.sound.kit import load_kit
    kit = load_kit(tmp_path, rate)
    x = render_array(Score(guji.load("lu"), guji.Rite.TOUHU, 0.1), kit=kit, rate=rate)
    assert np.all(np.abs(x.mean(axis=0)) < 1e-6)


# -- no sound device: say so in words, say what to do next -------------------------------

#: ALSA with no card at all: PortAudio finds no output (as on a server).
NO_DEVICE_ALSA = "pcm.!default { type hw card 31 }\n"


def no_device(tmp_path) -> dict:
    conf = tmp_path / "no-device.conf"
    conf.write_text(NO_DEVICE_ALSA)
    return {"ALSA_CONFIG_PATH": str(conf), "PULSE_SERVER": "unix:/nonexistent"}


def suggested_commands(text: str) -> list[list[str]]:
    """The ``guji …`` command lines a message suggests, split as a shell would."""
    import shlex
    return [shlex.split(line[line.index("guji "):])[1:] for line in text.splitlines()
            if "guji " in line]


def test_demo_without_a_device_says_why_in_words_and_what_to_do_next(tmp_path):
    r = guji(["demo"], tmp_path, timeout=300, env=environment(**no_device(tmp_path)))
    assert r.returncode == 0, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith("guji: No sound output here: no sound card or audio device was found")
    assert "so here are the recordings instead" in first
    # what PortAudio said is kept for whoever helps, but after the words
    assert first.index("no sound card") < first.index("Error querying device")
    assert "open guji-out/all.wav" in r.stderr and "all four one after another" in r.stderr
    # every command it suggests works, as typed (the file ones write their file)
    suggested = [argv for argv in suggested_commands(r.stderr) if "-o" in argv]
    assert [argv[0] for argv in suggested] == ["compare", "sheet"]
    for argv in suggested:
        done = guji([*argv], tmp_path, timeout=300)
        assert done.returncode == 0, (argv, done.stderr)
        assert (tmp_path / argv[argv.index("-o") + 1]).stat().st_size > 0


def test_compare_without_a_device_fails_before_printing_and_advises_its_own_output(tmp_path):
    r = guji(["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "diff", "--rite", "she"],
             tmp_path, timeout=300, env=environment(**no_device(tmp_path)))
    assert r.returncode == 2
    assert r.stdout == ""                      # no timeline printed as if it played
    assert r.stderr.count("\n") == 1 and "no sound output here" in r.stderr
    (advice,) = suggested_commands(r.stderr)
    assert advice == ["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "diff", "--rite", "she",
                      "-o", "compare-diff.wav"]
    done = guji([*advice], tmp_path, timeout=300)
    assert done.returncode == 0 and (tmp_path / "compare-diff.wav").stat().st_size > 0


def test_play_without_a_device_advises_render_with_the_same_timing(tmp_path):
    r = guji(["play", "lu:1", "lu:1@wuli-tongkao", "--bpm", "90", "--loop", "--latency",
              "0.3", "--quiet"], tmp_path, timeout=300, env=environment(**no_device(tmp_path)))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    (advice,) = suggested_commands(r.stderr)
    assert advice == ["render", "lu:1", "lu:1@wuli-tongkao", "--bpm", "90", "-o", "lu-1.wav"]
    done = guji([*advice], tmp_path, timeout=300)
    assert done.returncode == 0 and (tmp_path / "lu-1.wav").stat().st_size > 0


def test_the_page_is_not_called_self_contained_where_its_audio_are_files(tmp_path):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    help_text = " ".join(guji(["page", "--help"], tmp_path).stdout.split())
    top = " ".join(guji(["--help"], tmp_path).stdout.split())
    for text in (readme, help_text, top):
        assert "self-contained" not in text
    assert "audio files" in help_text and "--single-file" in help_text


def test_advice_names_guji_as_the_user_can_run_it(tmp_path):
    """Before the virtualenv is activated guji is .venv/bin/guji: advice says that;
    with it on the PATH, plain guji."""
    bare = {"PATH": "/usr/bin:/bin"}
    r = guji(["compare", "lu:1", "lu:2"], tmp_path, timeout=300,
             env=environment(**no_device(tmp_path), **bare))
    assert f"instead: {GUJI} compare lu:1 lu:2 -o compare-sequence.wav" in r.stderr
    on_path = {"PATH": f"{Path(GUJI).parent}:/usr/bin:/bin"}
    r = guji(["compare", "lu:1", "lu:2"], tmp_path, timeout=300,
             env=environment(**no_device(tmp_path), **on_path))
    assert "instead: guji compare lu:1 lu:2 -o compare-sequence.wav" in r.stderr


def readme_examples() -> list[str]:
    """The shell lines of the README's "A few things to try"."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("A few things to try"):]
    block = block[block.index("```sh\n") + 6:]
    return [line for line in block[:block.index("```")].splitlines()
            if line.strip() and not line.startswith("#")]


def test_the_readme_examples_run_as_written(tmp_path, tool):
    """Each line of "A few things to try", in a shell, in a folder holding what a
    clone holds: exit 0 (1 for diff: the readings differ), every file it names
    written; guji play, with no sound device, one line saying what to do."""
    tool("lilypond")                                # the PDF of guji sheet
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "patterns").symlink_to(root / "patterns")
    env = {**no_device(tmp_path), "PATH": f"{Path(GUJI).parent}:{os.environ['PATH']}"}
    lines = readme_examples()
    assert len(lines) >= 15
    for line in lines:
        r = subprocess.run(["bash", "-c", line], capture_output=True, text=True, encoding="utf-8",
                           env=dict(os.environ, PYTHONIOENCODING="utf-8", **env), cwd=tmp_path,
                           timeout=300, stdin=subprocess.DEVNULL)
        command = line.split("#")[0].split()
        if command[:2] == ["guji", "play"]:
            assert r.returncode == 2 and r.stderr.count("\n") == 1, (line, r.stderr)
            continue
        assert r.returncode == (1 if command[:2] == ["guji", "diff"] else 0), (line, r.stderr)
        assert "Traceback" not in r.stderr
        if "-o" in command:
            written = tmp_path / command[command.index("-o") + 1]
            assert written.exists() and (written.is_dir() or written.stat().st_size > 0), line


def test_the_manual_lists_every_document():
    """Every page of docs/ has its row in the README's manual table (three
    were lost when the README was merged from several branches)."""
    top = Path(__file__).resolve().parents[1]
    readme = (top / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## The manual"):]
    listed = {line.split("](")[1].split(")")[0] for line in table.splitlines()
              if line.startswith("| [docs/")}
    assert listed == {f"docs/{p.name}" for p in (top / "docs").glob("*.md")}

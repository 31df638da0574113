"""``guji demo``, the README's main job: plays where it can, else writes files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mido
import soundfile as sf

from guji.text.reading.editions import default_edition, scan_edition
from guji.midi import read_midi
from guji.text.reading.notation import Rite
from guji.timing.score import DEFAULT_INTERVAL

GUJI = str(Path(sys.executable).with_name("guji"))


def run_demo(tmp_path, alsa_conf: str, *args):
    conf = tmp_path / "asound.conf"
    conf.write_text(alsa_conf)
    env = dict(os.environ, ALSA_CONFIG_PATH=str(conf), PYTHONIOENCODING="utf-8")
    return subprocess.run([GUJI, "demo", "-o", str(tmp_path / "out"), *args],
                          capture_output=True, env=env, cwd=tmp_path, timeout=300)


def test_without_a_device_it_writes_audio_and_midi_and_says_where(tmp_path):
    # An ALSA default that names a card this machine does not have: no device.
    r = run_demo(tmp_path, "pcm.!default { type hw card 42 }\n")
    assert r.returncode == 0, r.stderr
    assert b"Traceback" not in r.stderr
    assert b"so here are the recordings instead" in r.stderr
    # each file reported on stderr, in the one form of every command; nothing on stdout
    listed = [Path(line.split(": ")[0][len("wrote "):]) for line in r.stderr.decode().splitlines()
              if line.startswith("wrote ")]
    out = tmp_path / "out"
    assert sorted(listed) == sorted(out.iterdir())
    assert len(listed) == 10 and r.stdout == b""
    patterns = scan_edition(default_edition()).patterns
    for p in patterns:
        stem = f"{p.tradition.slug}-{p.diagram}-{p.edition}"
        audio, rate = sf.read(out / f"{stem}.wav")
        assert rate == 48000
        # the audio lasts at least the grid of the half (投壺, the default rite)
        assert len(audio) / rate >= len(p.strokes_for(Rite.TOUHU)) * DEFAULT_INTERVAL
        hits = read_midi(out / f"{stem}.mid").hits
        assert len(hits) == len(p.half)
    total = sum(len(p.half) for p in patterns)
    assert len(read_midi(out / "all.mid").hits) == total
    assert mido.MidiFile(out / "all.mid", charset="utf-8").type == 1


def test_with_a_device_it_plays_and_writes_nothing(tmp_path, null_alsa):
    r = run_demo(tmp_path, null_alsa.read_text(), "--interval", "0.05")
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "out").exists()
    shown = r.stderr.decode("utf-8")
    assert "魯鼓 1" in shown and "薛鼓 2" in shown   # the display named what sounded
    # the device named first, a hint for when nothing is heard, then the same next steps
    first = shown.splitlines()[0]
    assert first.startswith("guji: playing on ") and "demo --write" in first, first
    assert "Next:" in shown and "compare lu:1 lu:1@wuli-tongkao" in shown


def test_write_forces_files(tmp_path, null_alsa):
    r = run_demo(tmp_path, null_alsa.read_text(), "--write", "--rite", "she")
    assert r.returncode == 0, r.stderr
    assert len(list((tmp_path / "out").iterdir())) == 10

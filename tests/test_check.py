"""``guji check``: a recording heard and checked against the score.

The recordings are ``guji render`` of the same options (every stroke right,
|deviation| ≤ 1 ms) and the seeded performances of tests/practice_set.py,
each with its truth: jitter, a 30 ms-late stroke, wrong drums, missed and
extra strokes, noise at −30 dB and below.
"""

from __future__ import annotations

import json
import os
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

import runner

sys.path.insert(0, str(Path(__file__).parent))
from practice_set import f1, perform, shipped_patterns  # noqa: E402

from guji.practice.pairing import pair  # noqa: E402
from guji.practice.report import rows  # noqa: E402
from guji.practice.transcribe import transcribe_array  # noqa: E402

#: ``guji ARGS…`` (tests/runner.py) as a user runs it: the installed console script
guji = partial(runner.guji, script=True)
PATTERNS = shipped_patterns()


def checked(args, cwd, recording):
    r = guji(["check", str(recording), *args, "--json"], cwd)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("args, name", [
    (["lu", "--rite", "she"], "lu.wav"),
    (["xue:2", "--repeat", "2", "--count-in", "4", "--channels", "1", "--rate", "44100"],
     "xue.flac"),
    (["lu:2@wuli-tongkao", "xue:1", "--bpm", "150", "--rate", "22050"], "two.ogg"),
])
def test_a_render_checks_right_to_a_millisecond(tmp_path, args, name):
    render = guji(["render", *args, "-o", name], tmp_path)
    assert render.returncode == 0, render.stderr
    timing = [a for a in args if a not in ("--channels", "1", "--rate", "44100", "22050")]
    report = checked(timing, tmp_path, tmp_path / name)
    s = report["summary"]
    assert s["right"] == s["strokes"] > 0
    assert (s["wrong_drum"], s["missing"], s["extra"]) == (0, 0, 0)
    assert max(abs(r["deviation_ms"]) for r in report["strokes"]) <= 1.0


@pytest.mark.parametrize("tempo", [["--interval", "0.6"], []], ids=["given", "found"])
def test_a_late_stroke_is_named_with_its_lateness(tmp_path, tempo):
    x, truth = perform(PATTERNS[3], seed=30, late=(9, 0.030))
    sf.write(tmp_path / "late.wav", x, 48000)
    report = checked([PATTERNS[3].id, "--rite", "she", *tempo], tmp_path, tmp_path / "late.wav")
    worst = report["summary"]["worst"][0]
    assert worst == 9
    row = next(r for r in report["strokes"] if r["stroke"] == 9)
    assert abs(row["deviation_ms"] - 30.0) <= 2.0
    others = [abs(r["deviation_ms"]) for r in report["strokes"] if r["stroke"] != 9]
    assert max(others) <= 1.0


def _scores(x, truth, rate=48000):
    heard = transcribe_array(x, rate)
    score, _ = f1([h.time for h in heard.hits], [t for t, _ in truth.hits])
    drum = dict(truth.hits)
    p = pair(truth.events, heard.hits, 0.6)              # the drums told again as it pairs
    right = [drum[min(drum, key=lambda t: abs(t - h.time))] == h.big for h in p.hits]
    errors = [abs(p.deviation[op.b] - truth.deviation(op.a)) * 1000
              for op in p.alignment.ops
              if op.a is not None and op.b is not None and truth.deviation(op.a) is not None]
    return score, right, errors, p


@pytest.mark.parametrize("noise_db", [None, -40.0, -30.0])
def test_jittered_performances_of_every_pattern(noise_db):
    """Every shipped pattern, Gaussian jitter 5–40 ms: F1 ≥ 0.98 (20 ms), drum
    right ≥ 98 %, median deviation error ≤ 2 ms."""
    scores, right, errors = [], [], []
    for i, pattern in enumerate(PATTERNS):
        jitter = (0.005, 0.02, 0.04)[i % 3]
        x, truth = perform(pattern, seed=100 + i, jitter=jitter, noise_db=noise_db)
        s, r, e, _ = _scores(x, truth)
        scores.append(s)
        right += r
        errors += e
    assert min(scores) >= 0.98
    assert np.mean(right) >= 0.98
    assert np.median(errors) <= 2.0


def test_mistakes_are_named_where_they_were_made():
    for i, pattern in enumerate(PATTERNS[:6]):
        x, truth = perform(pattern, seed=200 + i, jitter=0.02, wrong=2, missing=2, extra=2,
                           noise_db=-35.0)
        _, _, _, p = _scores(x, truth)
        table = rows(p)
        said = {kind: sorted(r.stroke for r in table if r.kind == kind)
                for kind in ("wrong drum", "missing")}
        for kind in ("wrong drum", "missing"):
            assert said[kind] == [k for k, (what, _) in enumerate(truth.strokes) if what == kind]
        extra = sorted(r.played for r in table if r.kind == "extra")
        assert len(extra) == len(truth.extra)
        assert np.max(np.abs(np.array(extra) - np.array(truth.extra))) <= 0.020


def test_a_slow_player_is_dragging(tmp_path):
    """0.62 s a stroke when 100 bpm (0.6 s) was asked: dragging, by 20 ms a
    stroke; with no tempo given, the tempo found is the player's, and steady."""
    x, truth = perform(PATTERNS[1], seed=7, interval=0.62, jitter=0.005, repeat=2)
    sf.write(tmp_path / "slow.flac", x, 48000)
    report = checked([PATTERNS[1].id, "--rite", "she", "--repeat", "2", "--bpm", "100"],
                     tmp_path, tmp_path / "slow.flac")
    s = report["summary"]
    assert s["tempo"] == "dragging" and s["right"] == s["strokes"]
    assert s["drift_ms"] == pytest.approx(20 * (len(report["strokes"]) - 1), rel=0.05)
    assert report["tempo"]["how"] == "given" and report["tempo"]["bpm"] == 100
    found = checked([PATTERNS[1].id, "--rite", "she", "--repeat", "2"], tmp_path,
                    tmp_path / "slow.flac")
    assert found["tempo"]["how"] == "found"
    assert found["tempo"]["interval"] == pytest.approx(0.62, abs=0.0005)
    assert found["summary"]["tempo"] == "steady"
    assert found["summary"]["right"] == found["summary"]["strokes"]


def test_the_text_report(tmp_path):
    x, truth = perform(PATTERNS[0], seed=3, wrong=1, missing=1, extra=1)
    sf.write(tmp_path / "take.ogg", x, 48000)
    r = guji(["check", "take.ogg", PATTERNS[0].id, "--rite", "she"], tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    n = len(truth.strokes)
    assert f"{n - 2} of {n} strokes right (1 wrong drum, 1 missing, 1 extra)" in out
    assert "wrong drum" in out and "missing" in out and "extra" in out


@pytest.mark.parametrize("make, words", [
    (lambda d: None, "no such recording"),
    (lambda d: (d / "take.wav").write_bytes(b"not audio at all"), "cannot read this recording"),
    (lambda d: (d / "take.wav").mkdir(), "a folder"),
    (lambda d: sf.write(d / "take.wav", np.zeros((0, 1)), 48000), "empty"),
    # once "no such recording", an untruth
    (lambda d: (d / "take.wav").symlink_to("take.wav"), "cannot read: too many levels of symbolic"),
    # a FIFO with no writer once waited forever
    (lambda d: os.mkfifo(d / "take.wav"), "take.wav: not a file"),
])
def test_bad_recordings_are_one_line(tmp_path, make, words):
    make(tmp_path)
    r = guji(["check", "take.wav", "lu"], tmp_path)
    assert r.returncode == 2
    assert len(r.err_lines) == 1 and words in r.stderr and "Traceback" not in r.stderr


def test_a_recording_over_the_limit_is_refused_before_reading(tmp_path):
    """25 hours of 8-bit mono at 8 kHz (a sparse file): refused from its header."""
    frames = 25 * 3600 * 8000
    path = tmp_path / "long.wav"
    sf.write(path, np.zeros(0), 8000, "PCM_U8")
    data = bytearray(path.read_bytes())
    i = data.index(b"data")
    data[i + 4:i + 8] = frames.to_bytes(4, "little")
    data[4:8] = (len(data) - 8 + frames).to_bytes(4, "little")
    path.write_bytes(data)
    with open(path, "r+b") as fh:
        fh.truncate(len(data) + frames)
    r = guji(["check", "long.wav", "lu"], tmp_path)
    assert r.returncode == 2 and len(r.err_lines) == 1, r.stderr
    assert "over guji's limit" in r.stderr and "--force" in r.stderr


def test_a_silent_recording_misses_every_stroke(tmp_path):
    sf.write(tmp_path / "silent.wav", np.zeros(48000), 48000)
    report = checked(["lu"], tmp_path, tmp_path / "silent.wav")
    s = report["summary"]
    assert s["missing"] == s["strokes"] == 12 and s["right"] == 0 and s["mean_ms"] is None

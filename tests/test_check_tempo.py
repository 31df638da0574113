"""``guji check`` without ``--interval``/``--bpm``: the tempo found from the recording.

The performances (tests/practice_set.py) are played at tempi guji does not
default to, with jitter, mistakes, a slow drift (slowing down, speeding up)
and a rushed passage, each with its truth; the tempo found is compared with
the one played, and the report made at it with what the player did.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from runner import run

sys.path.insert(0, str(Path(__file__).parent))
from practice_set import perform, shipped_patterns  # noqa: E402

from guji.practice.pairing import pair  # noqa: E402
from guji.practice.report import rows, summarise  # noqa: E402
from guji.practice.tempo import find_tempo  # noqa: E402
from guji.practice.transcribe import transcribe_array  # noqa: E402
from guji.practice.expected import expected_events  # noqa: E402
from guji.timing.layout import lay_out  # noqa: E402
from guji.timing.performance import Timing  # noqa: E402
from guji.text.reading.notation import Rite  # noqa: E402

GUJI = str(Path(sys.executable).with_name("guji"))
PATTERNS = shipped_patterns()


def _found(x, truth, pattern, repeat=1):
    """(tempo found, pairing at it, the events at it) of a performance."""
    heard = transcribe_array(x, 48000)
    tempo = find_tempo(truth.events, heard.hits)
    events = expected_events(lay_out([pattern], Timing(Rite.SHE, tempo.interval, repeat)))
    return tempo, pair(events, heard.hits, tempo.interval), events


def test_the_tempo_of_every_pattern_is_found():
    """Every shipped pattern at 0.45, 0.6 or 0.8 s a stroke, jitter 5–20 ms, a
    wrong, a missing and an extra stroke: the interval within 0.5 %; the
    mistakes named where they were made; the deviations (against the tempo
    found) within 2 ms of the truth's (median)."""
    errors = []
    for i, pattern in enumerate(PATTERNS):
        interval = (0.45, 0.6, 0.8)[i % 3]
        x, truth = perform(pattern, seed=400 + i, interval=interval, jitter=(0.005, 0.02)[i % 2],
                           wrong=1, missing=1, extra=1, repeat=2)
        tempo, p, events = _found(x, truth, pattern, 2)
        assert tempo.interval == pytest.approx(interval, rel=0.005), pattern.id
        table = rows(p)
        for kind in ("wrong drum", "missing"):
            assert sorted(r.stroke for r in table if r.kind == kind) == \
                [k for k, (what, _) in enumerate(truth.strokes) if what == kind], pattern.id
        assert sum(r.kind == "extra" for r in table) == 1
        strokes = [e for e in events if not e.is_click]
        for op in p.alignment.ops:
            if op.a is not None and op.b is not None:
                played = truth.strokes[op.a][1]
                want = played - (truth.anchor + strokes[op.a].time)
                errors.append(abs(p.deviation[op.b] - want) * 1000)
    assert np.median(errors) <= 2.0


@pytest.mark.parametrize("drift, word", [(0.10, "dragging"), (-0.10, "rushing")])
def test_a_slow_drift_is_found_and_named(drift, word):
    """The interval growing (or shrinking) by 10 % from the first step to the
    last, over three passes: every stroke still paired, the tempo at the start
    and the end within 1.5 % of the played, and the drift named."""
    pattern = PATTERNS[1]
    x, truth = perform(pattern, seed=21, interval=0.6, jitter=0.005, repeat=3, drift=drift)
    tempo, p, _ = _found(x, truth, pattern, 3)
    assert tempo.start_interval == pytest.approx(0.6, rel=0.015)
    assert tempo.end_interval == pytest.approx(0.6 * (1 + drift), rel=0.015)
    s = summarise(p, rows(p), curve=True)
    assert s.right == s.strokes and s.extra == 0
    assert s.tempo == word


def test_a_steady_jittery_player_is_not_called_rushing_or_dragging():
    """40 ms of jitter and no drift, tempo found: the drift is within its
    error, so "steady", for every shipped pattern."""
    for i, pattern in enumerate(PATTERNS):
        x, truth = perform(pattern, seed=500 + i, interval=0.6, jitter=0.04, repeat=2)
        tempo, p, _ = _found(x, truth, pattern, 2)
        s = summarise(p, rows(p), curve=True)
        assert s.tempo == "steady", (pattern.id, s.drift_ms, s.drift_error_ms)


def test_a_rushed_passage_is_followed_and_shown(tmp_path):
    """Steps 12–24 of two passes played at 90 % of the interval (the time won
    kept): with --bpm 100 every stroke is still paired, the rushed strokes'
    deviations are the truth's (within 2 ms), and the worst places are in
    or after the passage; with the tempo found, every stroke is paired too."""
    pattern = PATTERNS[1]
    x, truth = perform(pattern, seed=22, interval=0.6, jitter=0.005, repeat=2,
                       rush=(12, 24, 0.9))
    sf.write(tmp_path / "rushed.wav", x, 48000)
    for tempo in (["--bpm", "100"], []):
        r = run([GUJI, "check", "rushed.wav", pattern.id, "--rite", "she", "--repeat", "2",
                 "--json", *tempo], tmp_path)
        assert r.returncode == 0, r.stderr
        report = json.loads(r.stdout)
        s = report["summary"]
        assert s["right"] == s["strokes"] and s["extra"] == 0, tempo
    given = json.loads(run([GUJI, "check", "rushed.wav", pattern.id, "--rite", "she",
                            "--repeat", "2", "--json", "--bpm", "100"], tmp_path).stdout)
    by_stroke = {row["stroke"]: row for row in given["strokes"]}
    errors = [abs(by_stroke[k]["deviation_ms"] - truth.deviation(k) * 1000)
              for k in range(len(truth.strokes))]
    assert np.median(errors) <= 2.0
    steps = [e.step for e in truth.events if not e.is_click]
    assert all(steps[k] > 12 for k in given["summary"]["worst"])
    assert min(r["deviation_ms"] for r in given["strokes"]) == pytest.approx(-0.1 * 600 * 12,
                                                                             abs=20)


def test_too_few_hits_use_the_default_tempo_and_say_so(tmp_path):
    x, truth = perform(PATTERNS[0], seed=5, missing=len(PATTERNS[0].strokes_for(Rite.SHE)) - 3)
    sf.write(tmp_path / "few.wav", x, 48000)
    r = run([GUJI, "check", "few.wav", PATTERNS[0].id, "--rite", "she"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "tempo: the default 100.0 bpm (0.600 s a stroke) (too few hits to find it)" \
        in r.stdout.decode()
    r = run([GUJI, "check", "few.wav", PATTERNS[0].id, "--rite", "she", "--json"], tmp_path)
    assert json.loads(r.stdout)["tempo"]["how"] == "default"


def test_the_found_tempo_is_said(tmp_path):
    r = run([GUJI, "render", "xue:2", "--bpm", "83", "-o", "take.flac"], tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([GUJI, "check", "take.flac", "xue:2"], tmp_path)
    out = r.stdout.decode()
    assert r.returncode == 0 and "tempo found from the recording: 83.0 bpm" in out
    assert "strokes right (0 wrong drum, 0 missing, 0 extra)" in out

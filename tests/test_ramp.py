"""``--ramp START:END``: a practice tempo ramp over the passes (render and play).

The layout (:func:`guji.timing.layout.ramp`) is checked against exact
arithmetic: pass *k* at the *k*-th tempo of an even ramp, each stroke at
``step × interval`` of its own pass, each pass starting where the last one's
grid ends. The render is read back (soundfile, and ``flac -t``) and its
strokes found by guji's own detector at those times; ``guji play --ramp``
is held sample for sample against the render in tests/test_live.py
(``STREAM_CASES``).
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from runner import run

from guji.practice.transcribe import transcribe
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.events import events
from guji.timing.layout import ramp, ramp_intervals
from guji.timing.performance import Timing


GUJI = str(Path(sys.executable).with_name("guji"))


def test_the_tempo_goes_evenly_from_start_to_end():
    assert [60 / i for i in ramp_intervals(60, 100, 5)] == pytest.approx([60, 70, 80, 90, 100])
    assert [60 / i for i in ramp_intervals(120, 90, 4)] == pytest.approx([120, 110, 100, 90])


@pytest.mark.parametrize("ids, count_in, gap", [(["lu"], 0, 3), (["lu", "xue:2"], 3, 2)])
def test_each_pass_on_its_own_exact_grid(ids, count_in, gap):
    patterns = [load(i) for i in ids]
    perf = ramp(patterns, Timing(Rite.TOUHU, repeat=4, count_in=count_in), 60, 100, gap=gap)
    intervals = ramp_intervals(60, 100, 4)
    want, start = [], Fraction(0)
    for pattern in patterns:
        n = len(pattern.strokes_for(Rite.TOUHU))
        for k, interval in enumerate(intervals):
            clicks = count_in if not want else 0
            exact = Fraction(interval)
            want += [float(start + exact * i) for i in range(clicks + n)]
            start += exact * (clicks + n)
        start += Fraction(intervals[-1]) * gap
    got = [e.time for e in events(perf)]
    assert got == want                                  # to the last bit: one rounding each
    assert [p.score.interval for p in perf.parts] == list(intervals) * len(patterns)
    assert len({p.name for p in perf.parts}) == len(patterns)   # a pattern's passes: one voice


def test_a_ramp_render_sounds_every_stroke_at_its_time(tmp_path, tool):
    r = run([GUJI, "render", "lu", "--repeat", "3", "--ramp", "60:100", "--count-in", "2",
             "-o", "ramp.flac"], tmp_path)
    assert r.returncode == 0, r.stderr
    # 2 clicks and 12 strokes at 60 bpm, 12 at 80, 12 at 100: 14 + 9 + 7.2 s
    assert "the music 30.2 s" in r.stderr and "36 strokes" in r.stderr
    flac = tool("flac")
    assert subprocess.run([flac, "-t", "-s", str(tmp_path / "ramp.flac")]).returncode == 0
    perf = ramp([load("lu")], Timing(Rite.TOUHU, repeat=3, count_in=2), 60, 100)
    want = np.array([e.time for e in events(perf)])
    heard = np.array([h.time for h in transcribe(tmp_path / "ramp.flac").hits])
    assert len(heard) == len(want)
    assert np.abs(heard - heard[0] - want).max() <= 0.001
    gaps = np.diff(want)
    assert gaps[:13] == pytest.approx(1.0) and gaps[-11:] == pytest.approx(0.6)
    assert sf.info(tmp_path / "ramp.flac").duration >= want[-1]


@pytest.mark.parametrize("args, words", [
    (["--ramp", "60:100"], "--repeat 2 or more"),
    (["--repeat", "3", "--ramp", "60:100", "--bpm", "80"], "leave out --interval and --bpm"),
    (["--repeat", "3", "--ramp", "60:100", "--stack", "xue"], "leave out --stack"),
    (["--repeat", "3", "--ramp", "60"], "START:END"),
    (["--repeat", "3", "--ramp", "60:fast"], "START:END"),
    (["--repeat", "3", "--ramp", "0:100"], "positive"),
])
@pytest.mark.parametrize("command", ["render", "play"])
def test_a_bad_ramp_is_one_line(tmp_path, args, words, command):
    out = ["-o", "x.wav"] if command == "render" else []
    r = run([GUJI, command, "lu", *args, *out], tmp_path)
    assert r.returncode == 2 and len(r.err_lines) == 1, r.stderr
    assert words in r.stderr and "Traceback" not in r.stderr
    assert not list(tmp_path.iterdir())

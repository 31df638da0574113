"""Compare modes (guji.compare.modes, ``guji compare``): parts, cues, schedules, MIDI and renders."""

from __future__ import annotations

import json

import numpy as np
import pytest
import soundfile as sf

from guji.compare import modes as cmp
from guji.cli.main import main
from guji.compare.modes import (ALTERNATE_GAP_SLOTS, SEQUENCE_CUE_SLOT, SEQUENCE_GAP_SLOTS, Timing,
                          compare)
from guji.text.reading.editions import load
from guji.midi import read_midi, write_midi
from guji.text.reading.notation import Rite
from guji.timing.performance import Part, Voice

RATE = 8000   # renders in these tests: small and fast, still sample-exact

A, B = "lu:1", "lu:1@wuli-tongkao"


@pytest.fixture(scope="module")
def lu():
    return [load(A), load(B)]


@pytest.fixture(scope="module")
def xue():
    return [load("xue:2"), load("xue:2@lijing-benyi")]


# -- sequence ------------------------------------------------------------------------

def test_sequence_b_starts_after_the_documented_gap(lu):
    t = Timing(rite=Rite.SHE, interval=0.5, repeat=2, count_in=3)
    c = compare(lu, "sequence", t)
    pa, pb = c.parts
    assert pa.score.count_in == 3 and pb.score.count_in == 0
    assert pa.score.start == 0
    n = len(pa.score)       # A's events: 3 clicks + 2 passes of 23 strokes
    assert n == 3 + 2 * 23
    assert pb.score.start == (n + SEQUENCE_GAP_SLOTS) * 0.5
    (cue,) = c.cues
    assert cue.time == (n + SEQUENCE_CUE_SLOT) * 0.5
    # The bell stands in the silence between A's last stroke and B's first.
    assert pa.score.end < cue.time < pb.score.time(0)
    assert "next: B" in cue.label
    assert [p.name for p in c.parts] == ["魯鼓 1 liji-zhengyi", "魯鼓 1 wuli-tongkao"]


def test_sequence_of_three_has_two_bells(lu):
    c = compare(lu + [load("xue:1")], "sequence")
    assert len(c.parts) == 3 and len(c.cues) == 2
    starts = [p.score.start for p in c.parts]
    for k in (1, 2):
        prev = c.parts[k - 1].score
        assert starts[k] == pytest.approx(prev.start + (len(prev) + SEQUENCE_GAP_SLOTS)
                                          * prev.interval, abs=1e-9)
        assert c.parts[k - 1].score.end < c.cues[k - 1].time < starts[k]


def test_schedule_says_what_plays_when(lu):
    c = compare(lu, "sequence", Timing(count_in=2))
    text = c.schedule_text()
    lines = text.splitlines()
    assert lines[0].strip().startswith("0.00 s") and "count-in" in lines[0]
    b_line = next(line for line in lines if " B " in line)
    assert f"{c.parts[1].score.start:.2f} s" in b_line and B in b_line
    assert any("bell" in line for line in lines)


# -- alternate -----------------------------------------------------------------------

def test_alternate_pass_by_pass(lu):
    t = Timing(interval=0.4, repeat=3)
    c = compare(lu, "alternate", t)
    assert len(c.parts) == 6
    assert [p.score.pattern.id for p in c.parts] == [load(A).id, load(B).id] * 3
    assert all(p.score.repeat == 1 for p in c.parts)
    for prev, nxt in zip(c.parts, c.parts[1:]):
        assert nxt.score.start == pytest.approx(
            prev.score.start + (len(prev.score) + ALTERNATE_GAP_SLOTS) * 0.4, abs=1e-9)
    assert not c.cues
    assert [e.text.split()[0] for e in c.schedule] == ["A", "B"] * 3


# -- stereo --------------------------------------------------------------------------

def test_stereo_same_grid_left_and_right(lu):
    c = compare(lu, "stereo", Timing(count_in=2, interval=0.3))
    pa, pb = c.parts
    assert (pa.pan, pb.pan) == (-1.0, 1.0)
    assert pb.score.count_in == 0
    # A's stroke i and B's stroke i sound at one instant.
    for i in range(pb.score.stroke_count):
        assert pa.score.time(2 + i) == pytest.approx(pb.score.time(i), abs=1e-12)


def test_stereo_pans_spread_for_three():
    assert cmp.stereo_pans(3) == (-1.0, 0.0, 1.0)
    assert cmp.stereo_pans(2) == (-1.0, 1.0)


# -- diff ----------------------------------------------------------------------------

def test_diff_marks_the_substituted_stroke_in_every_pass(lu):
    c = compare(lu, "diff", Timing(rite=Rite.SHE, repeat=2, interval=0.5))
    (part,) = c.parts
    assert part.score.pattern.id == load(A).id
    per_pass = len(load(A).strokes)
    assert [cue.time for cue in c.cues] == [part.score.time(3), part.score.time(per_pass + 3)]
    assert [m.kind for m in c.marks] == ["sub", "sub"]
    assert "stroke 4" in c.marks[0].text and "□" in c.marks[0].text
    assert f"{part.score.time(3):.2f} s" in c.schedule_text()


def test_diff_in_touhu_lists_the_difference_before_half_as_unheard(lu):
    c = compare(lu, "diff")
    assert not c.cues
    assert [m.time for m in c.marks] == [None]
    assert "--rite she" in c.schedule_text()


def test_diff_insertion_sounds_between_the_two_strokes(xue):
    c = compare(xue, "diff", Timing(rite=Rite.SHE, interval=0.5))
    (cue,) = c.cues
    # B's extra ○ stands between A's strokes 11 and 12 (indices 10 and 11).
    s = c.parts[0].score
    assert s.time(10) < cue.time < s.time(11)
    assert cue.time == pytest.approx((s.time(10) + s.time(11)) / 2)
    assert c.marks[0].kind == "ins"


def test_diff_of_identical_readings_marks_nothing():
    c = compare([load("lu:2"), load("lu:2@wuli-tongkao")], "diff", Timing(rite=Rite.SHE))
    assert not c.cues and not c.marks
    assert "no differences" in c.schedule_text()


def test_bad_mode_and_too_few_patterns(lu):
    from guji.errors import UsageError
    with pytest.raises(UsageError):
        compare(lu, "chorus")
    with pytest.raises(UsageError):
        compare(lu[:1], "stereo")


# -- MIDI: one named track set per variant ----------------------------------------------

@pytest.mark.parametrize("mode", cmp.MODES)
def test_midi_has_one_track_set_per_variant(tmp_path, lu, mode):
    c = compare(lu, mode, Timing(rite=Rite.SHE, repeat=2, count_in=1))
    path = write_midi(tmp_path / f"{mode}.mid", c.performance)
    r = read_midi(path)
    names = [p.name for p in c.parts]
    variants = list(dict.fromkeys(names))
    assert list(r.part_names) == variants
    # Every stroke and click of every part is there, at its time (within a tick).
    want = sorted(((ev.time, Voice.of(ev.drum), part.name)
                   for part in c.parts for ev in part.score),
                  key=lambda e: (round(e[0], 3), e[2], e[1].value))
    got = sorted(((h.time, h.voice, h.part) for h in r.hits if h.voice is not Voice.CUE),
                 key=lambda e: (round(e[0], 3), e[2], e[1].value))
    assert len(got) == len(want)
    for (tw, vw, pw), (tg, vg, pg) in zip(want, got):
        assert (vw, pw) == (vg, pg) and tg == pytest.approx(tw, abs=1e-3)
    cue_times = [h.time for h in r.hits if h.voice is Voice.CUE]
    assert cue_times == pytest.approx([cue.time for cue in c.cues], abs=1e-3)


def test_alternate_midi_markers_say_the_round(tmp_path, lu):
    c = compare(lu, "alternate", Timing(repeat=2))
    r = read_midi(write_midi(tmp_path / "alt.mid", c.performance))
    texts = [m.text for m in r.markers]
    assert any("round 2/2" in t for t in texts)
    assert not any("(2)" in name for name in r.track_names)


# -- renders (guji.sound.mixer) -----------------------------------------------------------

def _render(parts, cues=(), channels=2):
    """Every stroke the kit's own hit (``--strike exact``): a varied stroke is
    chosen by its grid step, so B alone (from step 0) would sound other strokes."""
    import dataclasses
    from guji.sound.kit import default_kit
    from guji.sound.mixer import render_array
    exact = dataclasses.replace(default_kit(RATE), strike="exact")
    return render_array(parts, cues, rate=RATE, channels=channels, kit=exact)


def _pad(x, n):
    out = np.zeros((n,) + x.shape[1:], dtype=x.dtype)
    out[: len(x)] = x
    return out


def test_stereo_render_left_is_a_right_is_b_sample_for_sample(lu):
    c = compare(lu, "stereo", Timing(rite=Rite.SHE, interval=0.25))
    both = _render(c.parts, c.cues)
    pa, pb = c.parts
    a_alone = _render([Part(pa.score, pa.name)], channels=1)[:, 0]
    b_alone = _render([Part(pb.score, pb.name)], channels=1)[:, 0]
    n = max(len(both), len(a_alone), len(b_alone))
    both, a_alone, b_alone = _pad(both, n), _pad(a_alone, n), _pad(b_alone, n)
    assert np.abs(both).max() > 0.01
    np.testing.assert_array_equal(both[:, 0], a_alone)
    np.testing.assert_array_equal(both[:, 1], b_alone)
    # And they differ (the substituted stroke), so the check can tell them apart.
    assert not np.array_equal(a_alone, b_alone)


def test_sequence_render_b_starts_where_the_gap_says(lu):
    t = Timing(interval=0.25, count_in=2)
    c = compare(lu, "sequence", t)
    pa, pb = c.parts
    start = round(pb.score.start * RATE)
    assert pb.score.start == (len(pa.score) + SEQUENCE_GAP_SLOTS) * 0.25
    whole = _render(c.parts, c.cues)
    without_b = _render([pa], c.cues)
    b_alone = _render([Part(t.score(pb.score.pattern, count_in=0), pb.name)])
    n = max(len(whole), len(without_b), start + len(b_alone))
    b_part = _pad(whole, n) - _pad(without_b, n)
    # Nothing of B before its start sample; from it on, B exactly as alone.
    assert np.all(b_part[:start] == 0)
    assert np.abs(b_part[start:start + RATE // 200]).max() > 0.01
    np.testing.assert_allclose(b_part[start:start + len(b_alone)], b_alone, atol=1e-6)
    # The bell sounds in the gap, between A's end and B's start.
    (cue,) = c.cues
    bell = round(cue.time * RATE)
    a_only = _render([pa])
    gap = _pad(without_b, n) - _pad(a_only, n)
    assert np.all(gap[:bell] == 0) and np.abs(gap[bell:start]).max() > 0


def test_diff_render_has_a_bell_at_each_mark(lu):
    c = compare(lu, "diff", Timing(rite=Rite.SHE, interval=0.25, repeat=2))
    assert len(c.cues) == 2
    with_bells = _render(c.parts, c.cues)
    plain = _render(c.parts)
    n = max(len(with_bells), len(plain))
    bells = _pad(with_bells, n) - _pad(plain, n)
    first = round(c.cues[0].time * RATE)
    assert np.all(bells[:first] == 0)
    for cue in c.cues:
        onset = round(cue.time * RATE)
        assert np.abs(bells[onset:onset + RATE // 200]).max() > 0.001


# -- the command -------------------------------------------------------------------

def test_compare_writes_audio_and_midi_alongside(tmp_path, capsys):
    out = tmp_path / "cmp.wav"
    assert main(["compare", A, B, "--mode", "stereo", "-o", str(out),
                 "--interval", "0.25"]) == 0
    data, rate = sf.read(out, always_2d=True)
    assert data.shape[1] == 2 and rate > 0
    c = compare([load(A), load(B)], "stereo", Timing(interval=0.25))
    assert len(data) / rate >= c.duration
    mid = out.with_suffix(".mid")
    assert list(read_midi(mid).part_names) == [p.name for p in c.parts]
    err = capsys.readouterr()
    assert "0.00 s" in err.out + err.err


def test_compare_midi_only_by_extension(tmp_path, capsys):
    out = tmp_path / "cmp.mid"
    assert main(["compare", A, B, "--mode", "sequence", "-o", str(out)]) == 0
    assert out.exists() and not list(tmp_path.glob("*.wav"))
    assert len(read_midi(out).part_names) == 2


def test_compare_json_schedule(capsys):
    assert main(["compare", A, B, "--mode", "diff", "--rite", "she", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "diff" and len(data["marks"]) == 1
    assert data["marks"][0]["kind"] == "sub"


def test_compare_needs_two_patterns(capsys):
    assert main(["compare", A, "--json"]) == 2
    assert capsys.readouterr().err.startswith("guji:")


def _compare_on(tmp_path, alsa_conf: str):
    """Run ``guji compare`` (no -o: to the sound device) with ALSA configured by *alsa_conf*."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    conf = tmp_path / "asound.conf"
    conf.write_text(alsa_conf)
    env = dict(os.environ, ALSA_CONFIG_PATH=str(conf), PYTHONIOENCODING="utf-8")
    guji = str(Path(sys.executable).with_name("guji"))
    return subprocess.run([guji, "compare", A, B, "--mode", "stereo", "--interval", "0.02",
                           "--rate", "8000"], capture_output=True, env=env, timeout=120)


def test_compare_plays_on_a_real_stream(tmp_path, null_alsa):
    """A real PortAudio stream on ALSA's null device: it plays and says what plays when."""
    r = _compare_on(tmp_path, null_alsa.read_text())
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode("utf-8")
    assert "A 魯鼓 1 liji-zhengyi" in out and ", left" in out and ", right" in out


def test_compare_without_a_device_says_why_in_one_line(tmp_path):
    r = _compare_on(tmp_path, "pcm.!default { type hw card 42 }\n")
    assert r.returncode == 2
    err = r.stderr.decode("utf-8")
    assert err.startswith("guji:") and len(err.strip().splitlines()) == 1
    assert "guji compare" in err and "-o compare-stereo.wav" in err and "Traceback" not in err
    assert r.stdout == b""                 # nothing printed as if it played


def test_compare_stereo_needs_two_channels(tmp_path, capsys):
    assert main(["compare", A, B, "--mode", "stereo", "--channels", "1",
                 "-o", str(tmp_path / "x.wav")]) == 2
    assert "two channels" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_modes_warn_when_the_rite_hides_the_difference(lu):
    for mode in ("sequence", "alternate", "stereo"):
        assert "--rite she" in compare(lu, mode).schedule_text()
        assert "--rite she" not in compare(lu, mode, Timing(rite=Rite.SHE)).schedule_text()
    # 魯鼓 against 薛鼓 differ after 半 too: no warning.
    assert "--rite she" not in compare([load("lu:1"), load("xue:1")], "sequence").schedule_text()

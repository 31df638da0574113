"""``play --check``'s passes without a sound card: what is scored, pass by pass.

The live tests (tests/test_play_check_passes.py) play along on a PulseAudio
sink; these feed the same :class:`~guji.sound.capture.Capture` through its
own callback with a seeded performance (blocks of a device's sizes, as
tests/test_play_check.py's capture test) and let the
:class:`~guji.cli.commands._listening.PassChecker` thread check it. What is
simulated: the player (its report's ``first_heard``: when guji's output
frame 0 was heard, on the same clock as the input's start) — the rest is
guji's code as it runs. The truth is known exactly, so the figures are
exact: every stroke's kind, every deviation within 0.1 ms of the truth's
plus the one constant of the click's attack (guji's first click anchors).
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import types

import numpy as np
import pytest
import soundfile as sf

import practice_set
import drummer as along
from guji.cli.commands._listening import PassChecker
from guji.cli.commands._practise import passes_of, practice_what
from guji.cli.live import Outputs
from guji.practice.expected import expected_events
from guji.practice.passes import loop_passes, whole
from guji.sound.capture import Capture
from guji.sound.kit import default_kit, one_shot
from guji.text.reading.editions import load
from guji.text.reading.notation import Drum, Rite
from guji.timing.layout import lay_out, ramp
from guji.timing.loop import Loop
from guji.timing.performance import DRUMS, Timing
from guji.timing.voices import Voice

RATE = 48000
STARTED = 100.0      # the input's start on the monotonic clock (simulated)


class Status:
    input_overflow = False


def _room(drummer_path, events, guji_sounds):
    """What the microphone hears: the drummer's file (its time LEAD on the first
    stroke) after the count-in's time of silence — so the performance's time 0 is
    LEAD into it — with guji's own sounds (*guji_sounds(e)*: the voice guji sounds
    at event *e*, or None) mixed in at their exact times."""
    x, _rate = sf.read(drummer_path)
    origin = min(e.time for e in events if e.drum is not None)
    x = np.concatenate((np.zeros(round(origin * RATE)), x, np.zeros(RATE)))
    kit = default_kit(RATE)
    for e in events:
        voice = guji_sounds(e)
        if voice is None:
            continue
        shot = 0.5 * np.asarray(one_shot(kit, voice, RATE))
        i = round((practice_set.LEAD + e.time) * RATE)
        x[i:i + len(shot)] += shot[:len(x) - i]
    return x.astype(np.float32)


def _checked(what, args, x, *, seconds=200.0):
    """The JSON reports of the checker on input *x* (guji's performance time 0 at
    LEAD into it, :func:`_room`) fed half a second at a time, each time until the
    checker waits for more; the capture after."""
    played = practice_what(what, args)
    capture = Capture(rate=RATE, seconds=seconds)
    capture.started = STARTED
    report = types.SimpleNamespace(first_heard=STARTED + practice_set.LEAD, jumps=0)
    transport = types.SimpleNamespace(player=types.SimpleNamespace(report=lambda: report),
                                      stop=lambda: None)
    out = io.StringIO()

    class Shown(Outputs):
        def interject(self, text, _out):
            out.write(text)

    checker = PassChecker(args, passes_of(played, args), capture,
                          endless=isinstance(played, Loop))
    checker.watch(transport, Shown([]))
    rng = np.random.default_rng(3)
    at = 0
    while at < len(x):
        for _ in range(12):                      # ~0.5 s of a device's blocks
            n = int(rng.integers(64, 4096))
            block = np.stack([x[at:at + n], x[at:at + n]], axis=1)
            capture._callback(block, len(block), None, Status())
            at += n
        _until_waiting(checker, capture, report)
    capture.ended = STARTED + len(x) / RATE      # as fast as real time, for clockless
    assert checker.error is None, checker.error
    text = out.getvalue() + checker.finish(report)
    if not args.json:
        return text, capture
    return [json.loads(line) for line in text.splitlines()], capture


def _until_waiting(checker, capture, report) -> None:
    """Until the checker's thread has ended or waits for frames not yet in."""
    for _ in range(3000):
        thread, pending = checker._thread, checker.pending
        if thread is None or not thread.is_alive() or pending is None:
            return
        need = checker._frames_needed(pending, report)
        if need is not None and capture.frames < need:
            return
        thread.join(0.01)
    raise AssertionError("the checker neither checked nor waited")


def _args(**kw):
    base = dict(input=None, json=True, ids=["lu"], mute=None, solo=None, ramp=None,
                latency=0.2)
    return argparse.Namespace(**{**base, **kw})


def _clicks(e):
    return Voice.CLICK if e.drum is None else None


def test_each_pass_of_a_ramp_is_scored_on_its_own_grid(tmp_path):
    performance = ramp([load("lu")], Timing(Rite.TOUHU, repeat=3, count_in=4), 80, 120)
    events = expected_events(performance)
    path, truth, extras = along.drummer(tmp_path, events, seed=41, wrong=(2,), missing=(15,),
                                   extra=(27,))
    x = _room(path, events, _clicks)
    reports, _capture = _checked(performance, _args(ramp=(80, 120)), x)
    assert [r["pass"] for r in reports] == [1, 2, 3]
    assert [r["tempo"]["bpm"] for r in reports] == [80.0, 100.0, 120.0]
    offsets = []
    for report, truth_k in zip(reports, along.per_pass(truth, 12)):
        assert [r["kind"] for r in report["strokes"] if r["kind"] != "extra"] == \
            [k for k, _, _ in truth_k]
        assert [r["stroke"] for r in report["strokes"] if r["stroke"] is not None] == \
            list(range(12))
        offsets += along.offsets(report, truth_k)
    assert [r["summary"]["extra"] for r in reports] == [0, 0, 1]
    assert np.ptp(offsets) <= 0.1, offsets            # one constant: the click's attack


def test_a_loop_is_scored_pass_by_pass_and_lets_go_of_what_it_checked(tmp_path):
    perf = lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 1, 4))
    events = expected_events(lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 6, 4)))
    path, truth, extras = along.drummer(tmp_path, events, seed=42, wrong=(40,), missing=(13,),
                                   extra=(60,))
    x = _room(path, events, _clicks)
    reports, capture = _checked(Loop(perf), _args(loop=True), x, seconds=30.0)
    # six passes played, and silence after: the loop goes on (all missing), not checked
    assert [r["pass"] for r in reports] == [1, 2, 3, 4, 5, 6]
    offsets = []
    for report, truth_k in zip(reports, along.per_pass(truth, 12)):
        assert [r["kind"] for r in report["strokes"] if r["kind"] != "extra"] == \
            [k for k, _, _ in truth_k]
        offsets += along.offsets(report, truth_k)
    assert np.ptp(offsets) <= 0.1, offsets
    assert [r["summary"]["extra"] for r in reports] == [0, 0, 0, 0, 0, 1]
    # 45 s of input went through a capture holding 30 s, nothing dropped: it let go
    assert len(x) / RATE > 40 and capture.dropped == 0
    assert capture._base > 20 * RATE


def test_minus_one_scores_only_the_drum_left_out(tmp_path):
    perf = lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 2, 4))
    events = expected_events(perf)
    for muted, kept in ((Drum.BIG, Voice.SMALL), (Drum.SMALL, Voice.BIG)):
        path, truth, extras = along.drummer(tmp_path, events, seed=43,
                                       plays=lambda e: e.drum is muted, wrong=(1,),
                                       missing=(3,), extra=(0,))
        x = _room(path, events, lambda e: Voice.CLICK if e.drum is None else
                          kept if e.drum is not muted else None)
        voice = Voice.BIG if muted is Drum.BIG else Voice.SMALL
        (report,), _capture = _checked(perf.muting([voice]), _args(mute=voice), x)
        assert report["pass"] is None
        assert report["summary"]["strokes"] == sum(e.drum is muted for e in events) == len(truth)
        assert [r["kind"] for r in report["strokes"] if r["kind"] != "extra"] == \
            [k for k, _, _ in truth]
        assert report["summary"]["extra"] == 1            # the drummer's; guji's are its own
        assert np.ptp(along.offsets(report, truth)) <= 0.1


def test_the_passes_are_bounded_half_way_between_them():
    perf = lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 1, 4)).muting(DRUMS)
    first, second, third = itertools.islice(loop_passes(Loop(perf)), 3)
    assert first.lo == -np.inf and first.hi == second.lo and second.hi == third.lo
    assert first.hi == (first.last + second.first) / 2 == pytest.approx(9.3, abs=1e-12)
    assert second.first - first.last == pytest.approx(0.6, abs=1e-12)   # the grid runs on
    assert [e.step for e in second.events] == list(range(12))
    one = whole(perf)
    assert (one.lo, one.hi) == (-np.inf, np.inf) and len(one.events) == 16


def test_the_text_reports_name_their_pass(tmp_path):
    """Text, as guji check prints it, each report's first line naming its pass as
    the stroke display does (a loop's "loop 2", a ramp's "pass 2"); the anchor's
    line once, after the first."""
    perf = lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 1, 4))
    events = expected_events(lay_out([load("lu")], Timing(Rite.TOUHU, 0.6, 2, 4)))
    path, truth, _extras = along.drummer(tmp_path, events, seed=44)
    text, _capture = _checked(Loop(perf), _args(json=False, loop=True), _room(path, events, _clicks))
    heads = [line for line in text.splitlines() if line.startswith("the input")]
    assert heads == ["the input, loop 1: 12 of 12 strokes right (0 wrong drum, 0 missing, 0 extra)",
                     "the input, loop 2: 12 of 12 strokes right (0 wrong drum, 0 missing, 0 extra)"]
    assert [line for line in text.splitlines() if line.startswith("time from")] == \
        ["time from the first hit"]            # no clocks in this simulation
    performance = ramp([load("lu")], Timing(Rite.TOUHU, repeat=2, count_in=4), 90, 110)
    events = expected_events(performance)
    path, truth, _extras = along.drummer(tmp_path, events, seed=45)
    text, _capture = _checked(performance, _args(json=False, ramp=(90, 110)),
                              _room(path, events, _clicks))
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("the input")] == \
        ["the input, pass 1", "the input, pass 2"]
    assert "tempo: 90.0 bpm (0.667 s a stroke), as given" in text
    assert "tempo: 110.0 bpm (0.545 s a stroke), as given" in text
    assert text.splitlines()[-1] == \
        "all 2 passes: 24 of 24 strokes right (0 wrong drum, 0 missing, 0 extra)"

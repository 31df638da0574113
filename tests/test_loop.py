"""Looping (``guji play --loop``): pass after pass on one grid, seamless, exact.

A loop is rendered a segment of passes at a time (guji.sound.feed); these
tests hold the endless stream against a finite render of the same passes:
sample for sample the same, so the seams are invisible — the interval
across a seam is the interval, and a 鼓 ringing across it rings on.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from guji.errors import UsageError
from guji.midi.events import loop_messages, note_events, timed_messages
from guji.sound.feed import SEGMENT_SECONDS, loop_feed, loop_soundings
from guji.sound.mixer import Mix
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.layout import lay_out
from guji.timing.loop import Loop
from guji.timing.performance import Timing, as_performance
from guji.timing.score import Score

RATE = 16000


def frames_of(feed, count: int) -> np.ndarray:
    """The first *count* frames of an endless feed."""
    out, have = [], 0
    for block in feed.blocks:
        out.append(np.asarray(block))
        have += len(block)
        if have >= count:
            break
    return np.concatenate(out)[:count]


def test_a_loop_is_its_count_in_once_then_the_body_again_and_again():
    perf = lay_out([load("lu"), load("xue")], Timing(interval=0.5, count_in=3), gap=2)
    loop = Loop(perf, gap=2)
    assert loop.intro_steps == 3
    assert [(p.step, p.end_step) for p in loop.body.parts] == [(0, 12), (14, 22)]
    assert loop.period_steps == 22 + 2
    two = loop.passes(0, 2)
    assert [p.score.count_in for p in two.parts] == [3, 0, 0, 0]
    assert [p.step for p in two.parts] == [0, 17, 27, 41]        # pass 1 starts on step 27
    assert loop.pass_start(1) == 27 * 0.5
    # far away, still exact: computed from the step, not added up
    far = loop.passes(10_000, 1)
    assert far.parts[0].score.start == (3 + 10_000 * 24) * 0.5
    assert [p.name for p in far.parts] == [p.name for p in perf.parts]
    with pytest.raises(UsageError):
        Loop(perf, gap=-1)


@pytest.mark.parametrize("interval", [0.25, 0.30001])
def test_the_looped_sound_is_the_finite_render_sample_for_sample(interval):
    # 0.30001 s is not a whole number of samples: each pass still starts on
    # round(step × interval × rate), never on a sum of rounded passes
    loop = Loop(as_performance(Score(load("lu"), Rite.TOUHU, interval, count_in=2)))
    feed = loop_feed(loop, rate=RATE, channels=2)
    passes = int(2 * SEGMENT_SECONDS / loop.period) + 3            # across two segment seams
    end = round(loop.pass_start(passes) * RATE)
    looped = frames_of(feed, end)
    whole = Mix(loop.passes(0, passes), rate=RATE, channels=2, gains=feed.gains).array()
    assert np.array_equal(looped, whole[:end])
    # the strokes: every pass where its grid steps put it, the seam no exception
    sounded = list(itertools.islice(loop_soundings(loop, RATE), 2 + 12 * passes))
    strokes = [s for s in sounded if s.event.drum is not None]
    times = np.array([s.time for s in strokes])
    assert np.allclose(np.diff(times), interval, atol=1e-9)
    assert [s.frame for s in strokes] == [round((2 + i) * interval * RATE)
                                          for i in range(len(strokes))]
    assert [s.loop_pass for s in strokes] == [k for k in range(passes) for _ in range(12)]
    assert [s.number for s in sounded] == list(range(len(sounded)))


def test_a_ring_longer_than_a_pass_carries_across_the_seam():
    # a pass of 4 strokes at 0.05 s is 0.2 s; the 鼓 rings for 2 s, over ten passes
    pattern = load("lu:2")
    loop = Loop(as_performance(Score(pattern, Rite.TOUHU, 0.05)))
    feed = loop_feed(loop, rate=RATE, channels=1)
    passes = int(SEGMENT_SECONDS / loop.period) * 2 + 1
    end = round(loop.pass_start(passes) * RATE)
    whole = Mix(loop.passes(0, passes), rate=RATE, channels=1, gains=feed.gains).array()
    looped = frames_of(feed, end)
    assert looped.shape == (end, 1)
    assert np.array_equal(looped, whole[:end])
    # the one gain keeps the steady state's peak under the ceiling
    assert np.abs(looped).max() <= 10 ** (-1 / 20)


def test_the_midi_of_a_loop_is_the_midi_of_its_passes():
    perf = lay_out([load("lu:2")], Timing(interval=0.4, count_in=2))
    loop = Loop(perf)
    three = list(timed_messages(note_events(loop.passes(0, 3))))
    looped = list(itertools.islice(loop_messages(loop), len(three) - 1))
    # the last note_off of pass 3 waits for the next note in an endless stream
    assert [(m.time, m.message) for m in looped] == [(m.time, m.message) for m in three[:-1]]
    ons = [m.time for m in looped if m.message.type == "note_on"]
    assert np.allclose(np.diff(ons), 0.4)

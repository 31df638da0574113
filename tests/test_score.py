"""The Score: strokes placed on one even grid (間若一), the two rites, repeats,
count-in, and the validation of the speed."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guji.text.reading.editions import all_patterns, load
from guji.errors import UsageError
from guji.text.reading.notation import Drum, Rite
from guji.text.reading.names import part_name
from guji.timing.performance import Cue, Part, Performance, Voice, as_performance
from guji.timing.score import (DEFAULT_INTERVAL, MIN_INTERVAL, Score, check_interval,
                               interval_from_bpm)

PATTERNS = all_patterns()
IDS = [p.id for p in PATTERNS]


# --- the commentators' counts (docs/notation.md, 徐伯鲁 in seed 000) -------------
# (score id in the default edition) -> ((half 鼙, half 鼓), (whole 鼙, whole 鼓));
# 薛鼓 diagram 1's half 鼓 is printed 七, the pattern and the whole imply 3.
COUNTS = {
    "lu:1": ((7, 5), (13, 10)),
    "xue:1": ((5, 3), (16, 12)),
    "lu:2": ((9, 4), (14, 7)),
    "xue:2": ((7, 3), (21, 10)),
}


def drum_counts(score: Score) -> tuple[int, int]:
    drums = [e.drum for e in score]
    return drums.count(Drum.SMALL), drums.count(Drum.BIG)


@pytest.mark.parametrize("pid", sorted(COUNTS))
def test_rites_play_the_counted_strokes(pid):
    """投壺 plays the half, 射禮 the whole: the strokes of each match 徐伯鲁's counts."""
    half, whole = COUNTS[pid]
    pattern = load(pid)
    assert drum_counts(Score(pattern, Rite.TOUHU)) == half
    assert drum_counts(Score(pattern, Rite.SHE)) == whole


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
def test_touhu_is_the_half_and_she_the_whole(pattern):
    touhu = Score(pattern, Rite.TOUHU)
    she = Score(pattern, Rite.SHE)
    assert [e.stroke for e in touhu] == list(pattern.strokes[pattern.half_start:])
    assert [e.stroke for e in she] == list(pattern.strokes)
    assert len(she) - len(touhu) == pattern.half_start
    # the 投壺 part is exactly the 射禮 part after 半, stroke for stroke
    assert [e.drum for e in touhu] == [e.drum for e in she][pattern.half_start:]
    # the default rite is 投壺
    assert Score(pattern).rite is Rite.TOUHU


@pytest.mark.parametrize("pattern", PATTERNS, ids=IDS)
def test_events_keep_their_source_position(pattern):
    """Each event carries its stroke, hence the glyph's line and column in the source."""
    for rite in Rite:
        for e in Score(pattern, rite, repeat=2):
            original = pattern.strokes[e.stroke.index]
            assert e.stroke is original
            assert e.stroke.location == original.location
            assert e.stroke.location.line >= 1 and e.stroke.location.column >= 1


def test_even_grid():
    score = Score(load("xue:1"), Rite.SHE, interval=0.37, repeat=5, count_in=3, start=1.25)
    times = [e.time for e in score]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(gaps) == len(score) - 1
    assert all(math.isclose(g, 0.37, abs_tol=1e-12) for g in gaps)
    for e in score:       # the exact time, rounded once (the start is kept as an exact step)
        assert e.time == float(Fraction(1.25) + e.index * Fraction(0.37))


def test_time_is_computed_from_the_index_not_summed():
    """Event times equal (step + i) × interval, one multiplication, bit for bit,
    even a million strokes in (a running sum would have drifted)."""
    interval, step = 0.1, 3
    start = step * interval
    score = Score(load("lu:1"), Rite.SHE, interval=interval, repeat=10**6, step=step)
    assert score.time(10**6) == (step + 10**6) * interval
    last = len(score) - 1
    assert score.event(last).time == (step + last) * interval
    assert score.event(-1).time == (step + last) * interval
    assert score.end == (step + last) * interval
    assert score.duration == (step + len(score)) * interval
    # what summing would have given is not it (so the test can tell them apart)
    running = start
    for _ in range(10**6):
        running += interval
    assert running != start + 10**6 * interval
    assert abs(score.time(10**6) - 100000.3) < 1e-9


def test_the_score_is_lazy():
    """--repeat 10**9 costs nothing until asked: any event is computed from its index."""
    pattern = load("xue:2")
    score = Score(pattern, Rite.TOUHU, repeat=10**9, count_in=4)
    per_pass = len(pattern.half)
    assert len(score) == 4 + 10**9 * per_pass
    e = score.event(len(score) - 1)
    assert e.pass_index == 10**9 - 1
    assert e.position == per_pass - 1
    assert e.stroke is pattern.strokes[-1]
    assert e.time == (len(score) - 1) * DEFAULT_INTERVAL


@pytest.mark.parametrize("rite", list(Rite))
def test_repeat(rite):
    pattern = load("lu:2")
    played = pattern.strokes_for(rite)
    score = Score(pattern, rite, interval=0.5, repeat=4)
    assert len(score) == 4 * len(played) == score.stroke_count
    events = list(score)
    for p in range(4):
        chunk = events[p * len(played):(p + 1) * len(played)]
        assert [e.stroke for e in chunk] == list(played)
        assert {e.pass_index for e in chunk} == {p}
        assert [e.position for e in chunk] == list(range(len(played)))
        assert score.pass_start(p) == chunk[0].time == p * len(played) * 0.5
    # the grid runs straight on from one pass to the next
    assert events[len(played)].time - events[len(played) - 1].time == pytest.approx(0.5)


def test_count_in():
    pattern = load("lu:1")
    score = Score(pattern, Rite.TOUHU, interval=0.4, count_in=3)
    events = list(score)
    assert len(score) == 3 + len(pattern.half)
    clicks, strokes = events[:3], events[3:]
    for i, e in enumerate(clicks):
        assert e.is_click and e.drum is None and e.stroke is None
        assert e.pass_index == -1 and e.position == i and not e.before_half
        assert Voice.of(e.drum) is Voice.CLICK
        assert e.time == i * 0.4
    assert not any(e.is_click for e in strokes)
    assert strokes[0].time == 3 * 0.4 == score.pass_start(0)
    assert strokes[0].stroke is pattern.strokes[pattern.half_start]
    assert score.stroke_count == len(pattern.half)
    # no count-in: no click
    assert not any(e.is_click for e in Score(pattern, count_in=0))


def test_before_half_and_half_time():
    pattern = load("xue:1")
    she = Score(pattern, Rite.SHE, interval=0.25, repeat=3, count_in=2)
    for e in she:
        if e.is_click:
            continue
        assert e.before_half == (e.position < pattern.half_start)
        assert e.before_half == (e.stroke.index < pattern.half_start)
    for p in range(3):
        t = she.half_time(p)
        at = [e for e in she if e.time == t]
        assert len(at) == 1 and at[0].stroke.index == pattern.half_start and at[0].pass_index == p
    touhu = Score(pattern, Rite.TOUHU, repeat=3)
    assert not any(e.before_half for e in touhu)
    assert touhu.half_time(0) is None      # in 投壺 every pass starts at 半


def test_voices():
    assert Voice.of(Drum.SMALL) is Voice.SMALL and Voice.SMALL.value == "鼙"
    assert Voice.of(Drum.BIG) is Voice.BIG and Voice.BIG.value == "鼓"
    assert Voice.of(None) is Voice.CLICK


def test_drum_at_agrees_with_event():
    score = Score(load("lu:1"), Rite.SHE, repeat=3, count_in=2)
    for i in range(-len(score), len(score)):
        assert score.drum_at(i) is score.event(i).drum
    for bad in (len(score), -len(score) - 1):
        with pytest.raises(IndexError):
            score.event(bad)
        with pytest.raises(IndexError):
            score.drum_at(bad)


def test_events_slices():
    score = Score(load("lu:2"), Rite.SHE, repeat=2, count_in=1)
    assert [e.index for e in score.events(5, 9)] == [5, 6, 7, 8]
    assert [e.index for e in score.events(-3, 2)] == [0, 1]
    assert [e.index for e in score.events(len(score) - 2, 10**6)] == [len(score) - 2, len(score) - 1]
    assert list(score.events()) == list(score)


# --- speed -------------------------------------------------------------------

BAD_INTERVALS = [0, 0.0, -0.6, -1e-9, float("nan"), float("inf"), float("-inf"),
                 MIN_INTERVAL / 2, 1e-300, "fast", None, "nan"]


@pytest.mark.parametrize("bad", BAD_INTERVALS, ids=repr)
def test_bad_interval(bad):
    with pytest.raises(UsageError) as info:
        check_interval(bad)
    assert "\n" not in str(info.value) and str(info.value)
    with pytest.raises(UsageError):
        Score(load("lu"), interval=bad)


@pytest.mark.parametrize("bad", [0, -100, float("nan"), float("inf"), -float("inf"),
                                 60 / MIN_INTERVAL * 2, "quick", None])
def test_bad_bpm(bad):
    with pytest.raises(UsageError) as info:
        interval_from_bpm(bad)
    assert "\n" not in str(info.value)


def test_good_speeds():
    assert check_interval(MIN_INTERVAL) == MIN_INTERVAL
    assert check_interval("0.5") == 0.5
    assert interval_from_bpm(100) == 60 / 100 == DEFAULT_INTERVAL
    assert interval_from_bpm(60 / MIN_INTERVAL) == pytest.approx(MIN_INTERVAL)
    # the documented default sits in docs/notation.md's 0.5–0.7 s reading
    assert 0.5 <= DEFAULT_INTERVAL <= 0.7
    assert Score(load("lu")).interval == DEFAULT_INTERVAL


@pytest.mark.parametrize("kwargs", [
    {"repeat": 0}, {"repeat": -2}, {"repeat": 1.5}, {"repeat": "3"},
    {"count_in": -1}, {"count_in": 0.5},
    {"start": -0.1}, {"start": float("nan")}, {"start": float("inf")},
])
def test_bad_shape(kwargs):
    with pytest.raises(UsageError):
        Score(load("lu"), **kwargs)


def test_require_resolution():
    score = Score(load("lu"), interval=0.01)
    score.require_resolution(48000, "sample")         # 480 samples apart
    score.require_resolution(100, "tick")             # exactly one tick apart: still distinct
    with pytest.raises(UsageError, match="tick grid"):
        score.require_resolution(99, "tick")
    slow = Score(load("lu"), interval=2.0)
    slow.require_resolution(0.5, "tick")
    with pytest.raises(UsageError):
        slow.require_resolution(0.4, "tick")


# --- parts ---------------------------------------------------------------------

def test_parts():
    lu, xue = load("lu:1"), load("xue:1")
    a = Score(lu, interval=0.5)
    b = Score(xue, interval=0.5, start=3.0)
    perf = as_performance([a, Part(b, "B", pan=0.5)])
    parts = perf.parts
    assert parts[0] == Part(a, part_name(lu)) and parts[0].name == "魯鼓 1 liji-zhengyi"
    assert parts[1].name == "B" and parts[1].pan == 0.5
    assert as_performance(a).parts == (Part(a, part_name(lu)),)
    assert as_performance(parts[1]).parts == (parts[1],)
    assert as_performance(perf) is perf
    assert perf.duration == max(a.duration, b.duration) == b.duration
    with pytest.raises(TypeError):
        as_performance([lu])
    with pytest.raises(UsageError):
        Performance(())
    cue = Cue(1.5, "gap")
    assert cue.time == 1.5 and cue.label == "gap" and cue.pan is None


# --- properties ----------------------------------------------------------------

def exact_time(score, i):
    """The time of event *i*: (step + i) × interval, exact, rounded once."""
    return float((Fraction(score.step) + i) * Fraction(score.interval))


scores = st.builds(
    Score,
    pattern=st.sampled_from(PATTERNS),
    rite=st.sampled_from(list(Rite)),
    interval=st.floats(min_value=MIN_INTERVAL, max_value=60.0, allow_nan=False),
    repeat=st.integers(min_value=1, max_value=30),
    count_in=st.integers(min_value=0, max_value=8),
    start=st.floats(min_value=0.0, max_value=1e4, allow_nan=False),
)


@settings(max_examples=150, deadline=None)
@given(scores)
def test_property_every_event_on_the_grid(score):
    pattern = score.pattern
    played = pattern.strokes_for(score.rite)
    events = list(score)
    assert len(events) == len(score) == score.count_in + score.repeat * len(played)
    for i, e in enumerate(events):
        assert e.index == i
        assert e.time == exact_time(score, i) == score.time(i)
        assert e.drum is score.drum_at(i)
        if i < score.count_in:
            assert e.is_click and e.pass_index == -1
            continue
        k = i - score.count_in
        assert (e.pass_index, e.position) == divmod(k, len(played))
        assert e.stroke is played[e.position]
        assert e.drum is e.stroke.drum
        assert e.before_half == (score.rite is Rite.SHE and e.stroke.index < pattern.half_start)
    # strictly increasing: no two events share a time
    assert all(b.time > a.time for a, b in zip(events, events[1:]))
    assert score.end == events[-1].time
    assert score.duration == exact_time(score, len(score))
    for p in range(score.repeat):
        first = events[score.count_in + p * len(played)]
        assert score.pass_start(p) == first.time and first.position == 0
        if score.rite is Rite.SHE:
            half = events[score.count_in + p * len(played) + pattern.half_start]
            assert score.half_time(p) == half.time and not half.before_half


@settings(max_examples=200, deadline=None)
@given(interval=st.floats(min_value=MIN_INTERVAL, max_value=100.0, allow_nan=False),
       start=st.floats(min_value=0.0, max_value=1e5, allow_nan=False),
       index=st.integers(min_value=0, max_value=10**9))
def test_property_time_is_exact_and_monotonic(interval, start, index):
    score = Score(load("xue:2"), Rite.SHE, interval=interval, repeat=10**8, start=start)
    assert score.time(index) == float(Fraction(start) + index * Fraction(interval))
    assert score.time(0) == score.start == start
    assert score.time(index + 1) > score.time(index)
    if index < len(score):
        assert score.event(index).time == score.time(index)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.floats(max_value=MIN_INTERVAL, exclude_max=True),
                 st.floats(allow_nan=True, allow_infinity=True).filter(
                     lambda v: not (MIN_INTERVAL <= v < float("inf")))))
def test_property_bad_intervals_are_refused(value):
    with pytest.raises(UsageError):
        check_interval(value)


# -- minus-one (Part.muted) ---------------------------------------------------------------

def test_a_part_leaves_a_drum_out_or_makes_it_a_click():
    from guji.timing.layout import lay_out
    from guji.timing.performance import Timing, Voice
    lu = load("lu:1")
    perf = lay_out([lu, load("xue:1")], Timing(Rite.SHE, count_in=2))
    muted = perf.muting("□")
    first = muted.parts[0]
    assert first.muted == frozenset({Voice.BIG}) and not first.ghost
    voices = [first.voice_at(i) for i in range(len(first.score))]
    assert voices[:2] == [Voice.CLICK, Voice.CLICK]          # the count-in stays
    assert voices[2:] == [Voice.SMALL if s.glyph == "○" else None for s in lu.strokes]
    ghost = perf.muting("gu", ghost=True).parts[0]
    assert [ghost.voice_at(i) for i in range(2, len(ghost.score))] == \
        [Voice.SMALL if s.glyph == "○" else Voice.CLICK for s in lu.strokes]
    # the layout is the same; only what sounds changes
    assert [(p.step, p.end_step) for p in muted.parts] == [(p.step, p.end_step) for p in perf.parts]
    assert muted.stroke_count == sum(s.glyph == "○" for p in perf.parts
                                     for s in p.score.pattern.strokes)
    assert muted.later(3).parts[1].muted == frozenset({Voice.BIG})
    assert perf.muting(()) is perf


@pytest.mark.parametrize("make,message", [
    (lambda s: Part(s, "a", muted={"click"}), "only a drum can be muted"),
    (lambda s: Part(s, "a", muted={"tom"}), "unknown voice"),
    (lambda s: Part(s, "a", ghost=True), "mute 鼙 or 鼓 too"),
    (lambda s: Performance((Part(s, "a"),)).muting((), ghost=True), "mute 鼙 or 鼓 too"),
])
def test_only_a_drum_can_be_muted(make, message):
    with pytest.raises(UsageError, match=message):
        make(Score(load("lu")))

"""One schedule: integer grid steps, and the one event stream every sink plays.

* Every onset of a laid-out performance lands on exactly
  ``round((step + i) × interval × rate)`` — the part's whole grid step plus the
  event's index, times the interval, times the rate — in the renderer's
  vectorised positions, its scalar positions and the player's announcements:
  0 samples off, however the parts are laid out (the schedule used to add a
  part's start in seconds, ``step×interval + i×interval``, and put 59 of 3,450
  sampled onsets one sample off).
* Starts, strokes and cues are grid steps (``int``, or an exact ``Fraction``
  for a cue half-way between two strokes): nothing in timing is kept in seconds.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from guji.text.reading.editions import all_patterns, load
from guji.text.reading.notation import Rite
from guji.compare import compare
from guji.timing.layout import lay_out
from guji.timing.performance import Timing

PATTERNS = all_patterns()
RATES = (8000, 22050, 44100, 48000, 96000)


@st.composite
def layouts(draw):
    patterns = draw(st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=6))
    timing = Timing(draw(st.sampled_from(list(Rite))),
                    draw(st.floats(min_value=0.05, max_value=2.0, allow_nan=False)),
                    draw(st.integers(1, 5)), draw(st.integers(0, 4)))
    perf = lay_out(patterns, timing, gap=draw(st.integers(0, 5)), stacked=draw(st.booleans()))
    return perf, draw(st.sampled_from(RATES))


def expected(step: int, i: int, interval: float, rate: int) -> int:
    return round((step + i) * interval * rate)


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_every_onset_of_random_layouts_is_exact(layout):
    from guji.sound.feed import soundings
    from guji.sound.onsets import Track
    import numpy as np
    perf, rate = layout
    off = total = 0
    for part in perf.parts:
        score = part.score
        assert isinstance(part.step, int)              # whole grid steps, not seconds
        n = len(score)
        want = [expected(part.step, i, score.interval, rate) for i in range(n)]
        track = Track(score, rate, np.zeros(max(score.per_pass, 1), np.int64), 0, [1])
        got = track.positions(0, n).tolist()
        off += sum(a != b for a, b in zip(got, want))
        off += sum(track.position(i) != w for i, w in enumerate(want))
        total += n
    announced = [s.frame for s in soundings(perf, rate)]
    want_all = sorted(expected(p.step, i, p.score.interval, rate)
                      for p in perf.parts for i in range(len(p.score)))
    assert sorted(announced) == want_all
    assert off == 0, f"{off} of {total} onsets off"


def test_the_layout_of_the_issue_is_exact_at_five_intervals_and_two_rates():
    """``lay_out([lu, xue] * 3, repeat=40)``: every onset, 0 off (59 of 3,450 were)."""
    from guji.sound.onsets import Track
    import numpy as np
    lu, xue = load("lu"), load("xue")
    off = total = 0
    for interval in (0.13, 0.25, 0.37, 0.45, 0.6):
        perf = lay_out([lu, xue] * 3, Timing(interval=interval, repeat=40))
        for rate in (22050, 48000):
            for part in perf.parts:
                n = len(part.score)
                track = Track(part.score, rate, np.zeros(part.score.per_pass, np.int64), 0, [1])
                got = track.positions(0, n)
                want = np.array([expected(part.step, i, interval, rate) for i in range(n)])
                off += int((got != want).sum())
                total += n
    assert total > 10_000 and off == 0


def test_cues_are_grid_steps_and_half_steps():
    lu, wuli = load("lu:1"), load("lu:1@wuli-tongkao")
    seq = compare([lu, wuli], "sequence", Timing(interval=0.37)).performance
    assert all(isinstance(c.step, int) and c.interval == 0.37 for c in seq.cues)
    diff = compare([lu, wuli], "diff", Timing(Rite.SHE, 0.37)).performance
    assert [c.step for c in diff.cues] == [3]          # on the differing stroke's step
    extra = compare([load("xue:2"), load("xue:2@lijing-benyi")], "diff",
                    Timing(Rite.SHE, 0.37)).performance
    assert [c.step for c in extra.cues] == [Fraction(21, 2)]   # an extra stroke: half-way
    for c in diff.cues + extra.cues:
        assert c.time == float(Fraction(c.step) * Fraction(c.interval))


def test_moving_a_performance_moves_its_steps_not_its_seconds():
    perf = lay_out([load("lu"), load("xue")], Timing(interval=0.37))
    later = perf.later(1000)
    assert [p.step for p in later.parts] == [p.step + 1000 for p in perf.parts]
    assert later.parts[1].score.time(5) == (perf.parts[1].step + 1000 + 5) * 0.37


# --- one stream, every sink -------------------------------------------------------------

@st.composite
def performances(draw):
    """Random performances: layouts, repeats, count-ins, mutes, ghosts, stacks."""
    perf, rate = draw(layouts())
    muted = draw(st.sampled_from([(), ("鼙",), ("鼓",)]))
    ghost = bool(muted) and draw(st.booleans())
    return perf.muting(muted, ghost=ghost), rate


def unfolded(sheet) -> list[tuple[int, int, object]]:
    """(grid step, staff, voice) of every note the sheet plays, repeats played out."""
    out, step, k = [], 0, 0
    measures = sheet.measures
    start = 0
    while k < len(measures):
        m = measures[k]
        if m.left == "repeat-start":
            start = k
        for staff, notes in enumerate(m.notes):
            out += [(step + b, staff, n.voice) for b, n in enumerate(notes) if not n.is_rest]
        step += m.beats
        if m.repeat_times is not None:
            block = measures[start:k + 1]
            for _ in range(m.repeat_times - 1):
                for again in block:
                    for staff, notes in enumerate(again.notes):
                        out += [(step + b, staff, n.voice) for b, n in enumerate(notes)
                                if not n.is_rest]
                    step += again.beats
        k += 1
    return out


@settings(max_examples=40, deadline=None)
@given(performances())
def test_every_sink_plays_the_same_events(tmp_path_factory, drawn):
    """The MIDI file, the live messages, the audio onsets, the --json lines and
    the sheet's notes are the onsets of :func:`guji.timing.events.events`."""
    from guji.midi import read_midi, write_midi
    from guji.midi.events import note_events, timed_messages
    from guji.sheet.build import sheet_of
    from guji.sound.feed import soundings
    from guji.sound.mixer import Mix
    from guji.timing.events import events
    perf, rate = drawn
    stream = list(events(perf))
    sounding = [o for o in stream if o.voice is not None]
    want = sorted((o.step, o.voice.value, o.part.name) for o in sounding)
    # the MIDI file, read back: the grid step of each note from its time
    path = write_midi(tmp_path_factory.mktemp("m") / "p.mid", perf)
    hits = read_midi(path).hits
    interval = perf.interval
    assert sorted((round(h.time / interval), h.voice.value, h.part) for h in hits) == want
    # live MIDI: the note_ons, in the stream's order
    plan_notes = note_events(perf)
    assert [(n.time, n.voice, n.part) for n in plan_notes] == \
        [(o.time, o.voice, o.part.name) for o in sounding]
    ons = [m for m in timed_messages(plan_notes) if m.message.type == "note_on"]
    assert [m.time for m in ons] == [o.time for o in sounding]
    # the renderer's onsets: the sample and the voice of every one that sounds
    mix = Mix(perf, rate=rate, channels=1)
    rendered = []
    for track in mix._tracks:
        kinds = track.kinds(0, track.n)
        for frame, kind in zip(track.positions(0, track.n).tolist(), kinds.tolist()):
            if mix._voices[kind] is not None:
                rendered.append((frame, mix._voices[kind].value))
    assert sorted(rendered) == sorted((o.sample(rate), o.voice.value) for o in sounding)
    # what play --json prints: every stroke and click, muted ones too, in order
    lines = [s.to_json() for s in soundings(perf, rate)]
    assert lines == [o.to_json() for o in stream if not o.is_cue]
    assert [j["index"] for j in lines] == list(range(len(lines)))
    # the sheet's notes, repeats played out
    notes = sorted((step, voice.value) for step, _, voice in unfolded(sheet_of(perf)))
    assert notes == sorted((o.step, o.voice.value) for o in sounding)

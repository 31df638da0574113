"""The live MIDI of a performance is the MIDI file's, note for note.

``guji play --midi-out`` sends :func:`guji.midi.events.note_events`; these
tests write the file of the same performance with ``guji midi``'s writer,
read it back with :func:`guji.midi.read_midi`, and find the same notes:
voices, parts, keys, channels and velocities equal, times within half a
tick (the file rounds to ticks; the live notes keep exact seconds).
"""

from __future__ import annotations

import mido
import pytest

from guji.errors import UsageError
from guji.midi import read_midi, write_midi
from guji.midi.events import Instruments, note_events, timed_messages
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.compare import compare
from guji.timing.layout import lay_out
from guji.timing.performance import Timing


def performances():
    lu, xue = load("lu"), load("xue:2")
    yield "one pattern", lay_out([lu], Timing(interval=0.6))
    yield "count-in and repeats", lay_out([lu, xue], Timing(Rite.SHE, 0.35, 2, 3))
    yield "stacked", lay_out([lu, xue], Timing(interval=0.5), stacked=True)
    yield "alternate, cues", compare([lu, load("lu@wuli-tongkao")], "alternate",
                                     Timing(Rite.SHE, 0.4, 2)).performance
    yield "sequence with a bell", compare([xue, load("xue:2@lijing-benyi")], "sequence",
                                          Timing(Rite.SHE, 0.3, 1, 2)).performance
    # minus-one: the live notes leave out what the file leaves out (they sent every drum)
    yield "鼓 muted", lay_out([lu]).muting("鼓")
    yield "鼓 muted, ghost clicks", lay_out([lu, xue], Timing(count_in=2)).muting("鼓", ghost=True)
    yield "鼙 solo, stacked, ghost", lay_out([lu, xue], Timing(Rite.SHE, 0.4, 2),
                                              stacked=True).muting("鼓", ghost=True)
    yield "alternate, 鼙 muted", compare([lu, load("lu@wuli-tongkao")], "alternate",
                                         Timing(Rite.SHE, 0.4, 2)).performance.muting("鼙")


CASES = list(performances())


@pytest.mark.parametrize("melodic", [False, True])
@pytest.mark.parametrize("name,performance", CASES, ids=[c[0] for c in CASES])
def test_live_notes_are_the_files_notes(tmp_path, name, performance, melodic):
    options = {"melodic": melodic, "keys": {"鼙": 45} if not melodic else None,
               "velocities": {"鼓": 120}}
    path = write_midi(tmp_path / "file.mid", performance, **options)
    reading = read_midi(path)
    notes = note_events(performance, **options)
    assert len(notes) == len(reading.hits)
    half_tick = reading.tempo / reading.ticks_per_beat / 1e6 / 2
    by_time = sorted(notes, key=lambda n: (round(n.time, 6), n.part, n.voice.value))
    hits = sorted(reading.hits, key=lambda h: (round(h.time, 6), h.part, h.voice.value))
    for note, hit in zip(by_time, hits):
        assert (note.voice, note.part, note.velocity) == (hit.voice, hit.part, hit.velocity)
        assert (note.key, note.channel) == (hit.key, hit.channel)
        assert note.time == pytest.approx(hit.time, abs=half_tick + 1e-9)


def test_the_issues_muted_drum_is_not_sent():
    """``lay_out([lu]).muting("鼓")``: 7 notes in the file, 7 live (12 were sent, 鼓 too)."""
    muted = lay_out([load("lu")]).muting("鼓")
    notes = note_events(muted)
    assert len(notes) == 7 and {n.voice.value for n in notes} == {"鼙"}
    ghost = note_events(lay_out([load("lu")]).muting("鼓", ghost=True))
    assert [n.voice.value for n in ghost].count("click") == 5 and len(ghost) == 12


def test_note_offs_come_first_at_equal_times():
    performance = lay_out([load("lu:2")], Timing(interval=0.5))
    messages = list(timed_messages(note_events(performance)))
    assert [m.message.type for m in messages[:3]] == ["note_on", "note_off", "note_on"]
    assert messages[1].time == messages[2].time == 0.5
    times = [m.time for m in messages]
    assert times == sorted(times)
    ons = [m for m in messages if m.message.type == "note_on"]
    offs = [m for m in messages if m.message.type == "note_off"]
    assert len(ons) == len(offs) == performance.parts[0].score.stroke_count
    # every note lasts one grid step, as in the file
    assert offs[-1].time == pytest.approx(ons[-1].time + 0.5)


def test_melodic_mode_sets_programs_first():
    performance = lay_out([load("lu"), load("xue")], Timing(count_in=2))
    setup = Instruments(performance, melodic=True).setup()
    assert {m.type for m in setup} == {"program_change"}
    assert {m.program for m in setup} == {116, 115}           # Taiko Drum, Woodblock
    assert Instruments(performance).setup() == []


def test_bad_keys_are_refused():
    with pytest.raises(UsageError):
        note_events(lay_out([load("lu")]), keys={"鼙": 200})


def test_messages_are_mido_messages():
    messages = list(timed_messages(note_events(lay_out([load("lu")]))))
    assert all(isinstance(m.message, mido.Message) for m in messages)
    assert messages[0].message.bytes() == [0x99, 62, 80]      # channel 10, Mute Hi Conga, 80

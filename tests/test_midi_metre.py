"""MIDI as performers' tools take it: bars, the ring bar, patterns one after
another (in FluidSynth too), minus-one, and names that read as Latin-1.

Independent readers: mido (the file's events), pretty_midi (reads names as
Latin-1), LilyPond's midi2ly, FluidSynth (plays the file).
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

import mido
import pretty_midi
import pytest

from guji.cli.main import main
from guji.midi import PAD_SECONDS, build_midi, read_midi, split_track_name, track_name, write_midi
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.bars import bars
from guji.timing.layout import lay_out
from guji.timing.performance import Part, Timing, Voice
from guji.timing.score import Score

try:
    import onsets
    from tools import under_ci
except ModuleNotFoundError:  # pragma: no cover - tests/ made a package
    from tests import onsets
    from tests.tools import under_ci

SOUNDFONT = Path("/usr/share/sounds/sf2/TimGM6mb.sf2")


def absolute(track):
    tick = 0
    for msg in track:
        tick += msg.time
        yield tick, msg


def signatures(midi: mido.MidiFile) -> list[tuple[int, int]]:
    return [(t, m.numerator) for t, m in absolute(midi.tracks[0]) if m.type == "time_signature"]


def ends(midi: mido.MidiFile) -> set[int]:
    return {t for track in midi.tracks for t, m in absolute(track) if m.type == "end_of_track"}


def last_note_off(midi: mido.MidiFile) -> int:
    return max(t for track in midi.tracks for t, m in absolute(track)
               if m.type == "note_off" or (m.type == "note_on" and m.velocity == 0))


def run(argv):
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


# --- bars and the end of the file ---------------------------------------------------------

def test_time_signatures_stand_on_the_bar_lines_and_the_file_ends_on_one(tmp_path):
    out = tmp_path / "lu-xue.mid"
    assert run(["midi", "lu", "xue", "--count-in", "4", "--repeat", "2", "-o", str(out)]) == 0
    midi = mido.MidiFile(out, charset="utf-8")
    tpb = midi.ticks_per_beat
    # count-in 4/4, lu's passes 12/4 (投壺: from 半), a 3/4 gap, xue's passes
    # 8/4, and a 4/4 bar of rest (2.4 s ≥ 2 s) for the ring
    assert signatures(midi) == [(0, 4), (4 * tpb, 12), (28 * tpb, 3), (31 * tpb, 8),
                                (47 * tpb, 4)]
    assert ends(midi) == {51 * tpb}                # every track ends on the last bar line
    assert (51 * tpb - last_note_off(midi)) / tpb * 0.6 >= PAD_SECONDS
    ts = [m for _, m in absolute(midi.tracks[0]) if m.type == "time_signature"]
    assert {(m.denominator, m.clocks_per_click, m.notated_32nd_notes_per_beat) for m in ts} == \
        {(4, 24, 8)}


@pytest.mark.parametrize("ids,rite,repeat,count_in,stacked", [
    (["lu:2"], Rite.SHE, 3, 0, False),
    (["xue:1", "lu:1@wuli-tongkao"], Rite.TOUHU, 2, 3, False),
    (["lu", "xue"], Rite.SHE, 2, 2, True),
])
def test_the_bars_of_the_file_are_those_of_the_performance(ids, rite, repeat, count_in, stacked):
    perf = lay_out([load(i) for i in ids], Timing(rite, 0.6, repeat, count_in), stacked=stacked)
    midi = build_midi(perf)
    tpb = midi.ticks_per_beat
    lines = [b.step * tpb for b in bars(perf)]
    changes = signatures(midi)
    # a signature where the length changes, each on one of the bar lines
    assert {t for t, _ in changes[:-1]} <= set(lines)
    beats = dict(changes)
    current = None
    for bar in bars(perf):
        current = beats.get(bar.step * tpb, current)
        assert current == bar.beats
    ring = changes[-1]
    assert ring[0] == bars(perf)[-1].end * tpb and ring[1] == math.ceil(PAD_SECONDS / 0.6)
    assert ends(midi) == {ring[0] + ring[1] * tpb}


def test_very_slow_strokes_are_two_beats_and_long_bars_are_split():
    slow = build_midi(lay_out([load("lu")], Timing(interval=20.0)))   # beyond MIDI's 16.8 s beat
    assert signatures(slow) == [(0, 24), (24 * slow.ticks_per_beat, 2)]
    gap = build_midi(lay_out([load("lu"), load("xue")], Timing(), gap=300))
    tpb = gap.ticks_per_beat
    assert signatures(gap) == [(0, 12), (12 * tpb, 150), (312 * tpb, 8), (320 * tpb, 4)]


def test_no_metre_where_there_is_no_grid(tmp_path):
    lu = load("lu")
    off_grid = [Part(Score(lu, interval=0.5), "a"), Part(Score(lu, interval=0.5, start=0.25), "b")]
    midi = build_midi(off_grid)
    assert signatures(midi) == []
    assert ends(midi) == {last_note_off(midi) + round(PAD_SECONDS / 0.5 * midi.ticks_per_beat)}
    custom = build_midi(Score(lu, interval=0.6), tempo=500_000)     # 1.2 beats a stroke
    assert signatures(custom) == []


# --- patterns one after another, in FluidSynth ----------------------------------------------

def test_fluidsynth_plays_xue_after_lu_each_stroke_once(tmp_path, tool):
    tool("fluidsynth")
    if not SOUNDFONT.exists():
        message = f"{SOUNDFONT} is missing (apt-get install timgm6mb-soundfont; .ci/run does)"
        pytest.fail(message) if under_ci() else pytest.skip(message)
    import soundfile as sf
    out = tmp_path / "lu-xue.mid"
    assert run(["midi", "lu", "xue", "--rite", "she", "-o", str(out)]) == 0
    perf = lay_out([load("lu"), load("xue")], Timing(Rite.SHE))
    lu, xue = perf.parts
    assert lu.end_step + 3 == xue.step                  # three empty steps between them
    wav = tmp_path / "lu-xue.wav"
    subprocess.run(["fluidsynth", "-ni", "-q", "-r", "48000", "-F", str(wav), str(SOUNDFONT),
                    str(out)], check=True, capture_output=True, timeout=120)
    samples, rate = sf.read(wav)
    scheduled = [e.time for p in perf.parts for e in p.score]
    found = onsets.detect_onsets(samples, rate, rise_db=15.0)
    match = onsets.match_onsets(scheduled, found, tolerance=0.010)
    assert not match.missing and not match.extra, match.summary()
    # in order: every stroke of 薛 after every stroke of 魯, none in the gap
    assert max(e.time for e in lu.score) < xue.score.start
    assert not [t for t in found if lu.score.duration - 0.3 < t < xue.score.start - 0.01]
    # the ring bar: the audio lasts past the last stroke
    assert len(samples) / rate >= xue.score.end + PAD_SECONDS


def test_stack_overlays_the_patterns(tmp_path):
    out = tmp_path / "both.mid"
    assert run(["midi", "lu", "xue", "--stack", "-o", str(out)]) == 0
    reading = read_midi(out)
    assert reading.part_names == ("魯鼓 1 liji-zhengyi", "薛鼓 1 liji-zhengyi")
    for part in reading.part_names:
        assert reading.times(part)[0] == 0.0
    assert len(reading.hits) == len(load("lu").half) + len(load("xue").half)


# --- minus-one ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv,voices", [
    (["--mute", "鼓"], {Voice.SMALL}),
    (["--solo", "big"], {Voice.BIG}),
    (["--mute", "□", "--ghost", "click"], {Voice.SMALL, Voice.CLICK}),
])
def test_a_muted_drum_leaves_exactly_the_other_drums_strokes(tmp_path, argv, voices):
    out = tmp_path / "m.mid"
    assert run(["midi", "xue:2", "--rite", "she", "--repeat", "2", *argv, "-o", str(out)]) == 0
    reading = read_midi(out)
    pattern = load("xue:2")
    glyphs = [s.glyph for s in pattern.strokes] * 2
    times = [i * 0.6 for i in range(len(glyphs))]
    assert {h.voice for h in reading.hits} == voices
    kept = "○" if Voice.SMALL in voices else "□"
    strokes = [h for h in reading.hits if h.voice in (Voice.SMALL, Voice.BIG)]
    assert [h.time for h in strokes] == pytest.approx(
        [t for t, g in zip(times, glyphs) if g == kept], abs=1e-3)
    clicks = reading.times(voice=Voice.CLICK)
    assert clicks == pytest.approx([t for t, g in zip(times, glyphs) if g != kept], abs=1e-3) \
        if Voice.CLICK in voices else clicks == ()
    dropped = {Voice.SMALL, Voice.BIG} - voices
    assert not any(split_track_name(n)[1] in dropped for n in reading.track_names)


# --- names that travel --------------------------------------------------------------------

def test_latin_1_readers_see_the_latin_first(tmp_path):
    out = write_midi(tmp_path / "n.mid", lay_out([load("lu"), load("xue:2")]))
    names = [i.name for i in pretty_midi.PrettyMIDI(str(out)).instruments]
    assert [n.split(" ")[:2] for n in names] == [["Lu", "gu"]] * 2 + [["Xue", "gu"]] * 2
    assert [re.sub(r"[^ -~]", "", n).split(" - ")[1].strip() for n in names] == ["pi", "gu"] * 2
    assert [n.encode("latin-1").decode("utf-8") for n in names] == [
        "Lu gu 魯鼓 1 liji-zhengyi - pi 鼙", "Lu gu 魯鼓 1 liji-zhengyi - gu 鼓",
        "Xue gu 薛鼓 2 liji-zhengyi - pi 鼙", "Xue gu 薛鼓 2 liji-zhengyi - gu 鼓"]


def test_midi2ly_reads_whole_bars_and_latin_names(tmp_path, tool):
    exe = tool("midi2ly")
    out = write_midi(tmp_path / "m.mid", lay_out([load("lu"), load("xue")],
                                                 Timing(Rite.SHE, count_in=4)))
    subprocess.run([exe, "-o", str(tmp_path / "m.ly"), str(out)], check=True,
                   capture_output=True, timeout=120, cwd=tmp_path)
    ly = (tmp_path / "m.ly").read_text(encoding="utf-8", errors="replace")
    assert not re.search(r"\\skip \S*/", ly), "a fraction of a bar"
    times = re.findall(r"\\time (\d+)/4", ly)
    assert times == ["4", "11", "12", "3", "20", "8", "4"]
    names = re.findall(r'instrumentName = "([^"]*)"', ly)
    assert any(n.startswith("Lu gu ") and n.endswith(" - pi ~~~") for n in names), names


def test_old_track_names_are_still_read(tmp_path):
    midi = mido.MidiFile(type=1, charset="utf-8")
    for name, note in (("魯鼓 1 liji-zhengyi · 鼙", 62), ("魯鼓 1 liji-zhengyi · click", 76)):
        track = mido.MidiTrack([mido.MetaMessage("track_name", name=name)])
        track += [mido.Message("note_on", channel=9, note=note, velocity=80, time=0),
                  mido.Message("note_off", channel=9, note=note, time=480)]
        midi.tracks.append(track)
    midi.save(tmp_path / "old.mid")
    reading = read_midi(tmp_path / "old.mid")
    assert [(h.voice, h.part) for h in reading.hits] == [
        (Voice.SMALL, "魯鼓 1 liji-zhengyi"), (Voice.CLICK, "魯鼓 1 liji-zhengyi")]
    assert track_name("魯鼓 1 liji-zhengyi", Voice.SMALL) == "Lu gu 魯鼓 1 liji-zhengyi - pi 鼙"
    assert split_track_name("A - gu 鼓") == ("A", Voice.BIG)
    assert split_track_name("x - y") == ("x - y", None)

"""Building a guji MIDI file, and saving it.

:func:`build_midi` makes a :class:`mido.MidiFile` of a performance, in
memory: laid out as :mod:`guji.midi.tracks` tells (a conductor track, a
track set per part, a cue track), with the instruments of
:mod:`guji.midi.gm` (percussion keys, or the melodic mode) and the tempo and
ticks of :mod:`guji.midi.ticks`. :func:`write_midi` builds one and writes it
atomically; :func:`save_midi` writes one already built.

Notes, bars and the end of the file
-----------------------------------
Every note has a length (one interval: a quarter note, ending where the
next grid step starts, so two strokes of one drum never overlap). The
conductor track has a time signature on the bar lines of
:func:`guji.timing.bars.bars` (the sheet music's), and the file ends on the
bar line of a last bar of rest at least :data:`PAD_SECONDS` long, so no
player or DAW cuts the ring of the last stroke (:mod:`guji.midi.metre`).

Minus-one
---------
A part's muted drum (:attr:`Part.muted <guji.timing.performance.Part.muted>`)
has no notes and no track; with ghost clicks its strokes are notes of the
click track: the file plays the one schedule (:mod:`guji.timing.events`),
laid out by the plan live MIDI shares (:mod:`guji.midi.plan`).
"""

from __future__ import annotations

import operator
import os
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import mido

from .. import __version__
from ..errors import UsageError
from ..files import writing
from ..text.reading.names import file_stem, latin_first
from ..text.reading.notation import Pattern, Rite
from ..timing.performance import Cue, Part, Performance, Voice, as_performance
from ..timing.score import Score
from ..timing.events import events
from .metre import PAD_SECONDS, metre
from .gm import GM_PERCUSSION, MELODIC_PROGRAMS, PROGRAM_NAMES
from .plan import MidiPlan
from .ticks import (DEFAULT_TICKS_PER_BEAT, TickGrid, TickTrack, check_tempo,
                    check_ticks_per_beat, tempo_for)
from .size import check_notes
from .tracks import CUE_TRACK, MARKER_SEPARATOR, track_name

def default_filename(pattern: Pattern, suffix: str = ".mid") -> str:
    """A file name for *pattern*'s MIDI file: ``lu-1-liji-zhengyi.mid``
    (:func:`guji.text.reading.names.file_stem`)."""
    return file_stem(pattern) + suffix


# ---------------------------------------------------------------------------
# tracks of the plan (guji.midi.plan: the file's and live MIDI's)

def _new_track(plan: MidiPlan, name: str, voice: Voice, channel: int) -> TickTrack:
    """A new track for *voice*, its instrument named (and chosen, melodic)."""
    t = TickTrack(name)
    key = plan.keys[voice]
    if plan.melodic:
        program = MELODIC_PROGRAMS[voice]
        t.add(0, TickTrack.META, mido.MetaMessage(
            "instrument_name", name=f"{PROGRAM_NAMES[program]} (GM program {program + 1}), "
                                    f"note {key}"))
        t.add(0, TickTrack.META, mido.Message("program_change", channel=channel, program=program))
    else:
        instrument = f"GM percussion {key} {GM_PERCUSSION.get(key, '')}".rstrip()
        t.add(0, TickTrack.META, mido.MetaMessage("instrument_name", name=instrument))
    return t


# ---------------------------------------------------------------------------
# the conductor: provenance and markers

def _conductor_track(perf: Performance, title: str | None, grid: TickGrid) -> TickTrack:
    """Track 0: named *title* (default: the performance's title, else the part
    names and rites), the tempo, and each part's provenance texts and markers
    (the label of a part of several rounds says which round)."""
    groups = perf.groups()
    if title is None:
        title = perf.title if perf.title is not None else _default_title(groups)
    conductor = TickTrack(title)
    conductor.add(0, TickTrack.META, mido.MetaMessage("set_tempo", tempo=grid.tempo))
    for name, parts in groups.items():
        rounds = len(parts)
        for k, part in enumerate(parts):
            label = name if rounds == 1 else f"{name}{MARKER_SEPARATOR}round {k + 1}/{rounds}"
            for text in _provenance(label, part.score):
                conductor.add(0, TickTrack.META, mido.MetaMessage("text", text=text))
            for when, text in _markers(label, part.score, numbered=rounds == 1):
                conductor.add(grid.tick(when), TickTrack.META,
                              mido.MetaMessage("marker", text=text))
    return conductor


def _default_title(groups: Mapping[str, Sequence[Part]]) -> str:
    if not groups:
        return "guji cues"
    return " / ".join(f"{latin_first(n)} ({ps[0].score.rite.chinese} {ps[0].score.rite.value})"
                      for n, ps in groups.items())


def _provenance(name: str, score: Score) -> list[str]:
    """Text events saying where *score*'s strokes come from and how they are timed."""
    p = score.pattern
    texts = [
        f"{name}: pattern {p.id}; {p.tradition.label}, diagram {p.diagram}; "
        f"rite {score.rite.value} ({score.rite.chinese}: "
        f"{'from 半 to the end' if score.rite is Rite.TOUHU else 'the whole pattern'}); "
        f"{score.per_pass} strokes a pass",
        f"{name}: notation {p.notation(Rite.SHE)}",
        f"{name}: interval {score.interval:g} s ({60 / score.interval:g} strokes a minute, "
        f"間若一); repeat {score.repeat}; count-in {score.count_in}; start {score.start:g} s",
    ]
    first = p.strokes[0].location
    where = (f"{name}: source {p.filename or p.edition or 'text'}, strokes from line "
             f"{first.line} column {first.column}, 半 at line {p.half_location.line} "
             f"column {p.half_location.column}")
    if p.edition:
        try:
            from ..text.reading.editions import edition
            ed = edition(p.edition)
            sl, sc = ed.seed_position(first.line, first.column)
            hl, hc = ed.seed_position(p.half_location.line, p.half_location.column)
            where += (f"; edition {ed.slug} = {ed.cite()} ({ed.title_en}): strokes from "
                      f"line {sl} column {sc}, 半 at line {hl} column {hc} of its digitised text")
        except UsageError:
            where += f"; edition {p.edition}"
    texts.append(where)
    if p.witness is not None:
        texts.append(f"{name}: the reading of {p.witness} given in the text's notes: "
                     + "; ".join(f"{n.text} at line {n.location.line} column {n.location.column}"
                                 for n in p.notes))
    texts.append(f"generated by guji {__version__}")
    return texts


def _markers(name: str, score: Score, numbered: bool = True) -> Iterable[tuple[float, str]]:
    """(time, text) of *score*'s markers: count-in, each pass start, each 半.

    Passes are numbered (``pass 1/1``) unless *numbered* is false and there
    is one pass (a round of ``compare alternate``, whose *name* says the round).
    """
    if score.count_in:
        yield score.time(0), f"{name}{MARKER_SEPARATOR}count-in"
    n = score.repeat
    sep = MARKER_SEPARATOR
    for p in range(n):
        which = f"{sep}pass {p + 1}/{n}" if numbered or n > 1 else ""
        count = f" {p + 1}/{n}" if numbered or n > 1 else ""
        if score.rite is Rite.TOUHU:
            yield score.pass_start(p), f"{name}{which}{sep}半"
        else:
            yield score.pass_start(p), f"{name}{which}"
            yield score.half_time(p), f"{name}{sep}半{count}"


# ---------------------------------------------------------------------------
# building

def build_midi(performance, cues: Iterable[Cue] = (), *, title: str | None = None,
               keys: Mapping | None = None, velocities: Mapping | None = None,
               melodic: bool = False, ticks_per_beat: int = DEFAULT_TICKS_PER_BEAT,
               tempo: int | None = None) -> mido.MidiFile:
    """A type-1 MIDI file of *performance*, in memory.

    Parameters
    ----------
    performance:
        A :class:`~guji.timing.performance.Performance` (or what
        :func:`~guji.timing.performance.as_performance` accepts: a score, a
        part, a sequence of them). Each part *name* gets one track set (鼙,
        鼓, and click if a part of that name has a count-in): the passes of
        one variant in ``compare alternate`` share their tracks.
    cues:
        More :class:`~guji.timing.performance.Cue` bells: with the
        performance's own, on a track of their own named ``cue``, each with
        its label (or ``cue``) as a marker.
    title:
        The sequence name (track 0's name). Default: the performance's title,
        else the part names and rites.
    keys:
        Voice → MIDI key (percussion mode: a GM drum-kit key, default
        :data:`~guji.midi.gm.DEFAULT_KEYS`) or pitch (melodic mode, default
        :data:`~guji.midi.gm.DEFAULT_PITCHES`), 0–127. Voices may be named as
        :meth:`Voice.from_name <guji.timing.performance.Voice.from_name>`
        accepts (``"鼙"``, ``"big"``, a :class:`~guji.text.reading.notation.Drum`
        …); unnamed voices keep their default.
    velocities:
        Voice → note velocity 1–127 (default :data:`~guji.midi.gm.DEFAULT_VELOCITIES`).
    melodic:
        Put the drums on melodic channels with GM program 117 Taiko Drum
        (see :mod:`guji.midi.gm`) instead of GM percussion channel 10.
    ticks_per_beat:
        Resolution, 1–32767 (default 960).
    tempo:
        Microseconds per beat. Default: the performance's interval (one
        stroke = one quarter note; :func:`~guji.midi.ticks.tempo_for`), or 500,000 with cues
        only.

    Returns
    -------
    mido.MidiFile
        With ``charset='utf-8'``; ``.save(path)`` writes it (or use
        :func:`write_midi`).

    Raises
    ------
    UsageError
        A key/velocity out of range, a bad resolution or tempo, or strokes
        finer than the tick grid (:meth:`Score.require_resolution`); a
        file too big to build or to hold (:mod:`guji.midi.size`).
    """
    perf = as_performance(performance, cues)
    check_notes(perf)                  # before anything is built
    grid = _tick_grid(perf, ticks_per_beat, tempo)
    plan = MidiPlan(perf, keys=keys, velocities=velocities, melodic=melodic)
    conductor = _conductor_track(perf, title, grid)
    return _midi_file(perf, grid, conductor, _voice_tracks(perf, grid, plan))


def _tick_grid(perf: Performance, ticks_per_beat, tempo) -> TickGrid:
    """The file's grid: *ticks_per_beat* and *tempo* checked, the tempo by
    default one stroke a beat (500,000 with cues only); every part's strokes
    must fall on distinct ticks of it."""
    tpb = check_ticks_per_beat(ticks_per_beat)
    tempo = check_tempo(tempo) if tempo is not None else (
        tempo_for(perf.interval) if perf.parts else 500_000)
    grid = TickGrid(tpb, tempo)
    for part in perf.parts:
        # the interval as MIDI counts it, in microseconds (what the tempo is chosen from)
        us = Fraction(part.score.interval * 1_000_000) / 1_000_000
        part.score.require_resolution(grid.exact_per_second, "MIDI tick", us)
    return grid


def _voice_tracks(perf: Performance, grid: TickGrid, plan: MidiPlan) -> list[TickTrack]:
    """The tracks after the conductor, as the plan lays them out: a track set
    per part name, then the cue track; each note an onset of the one schedule
    (:func:`guji.timing.events.events`: minus-one applied there), both ends
    from its grid steps (this one and the next)."""
    made: dict[tuple[str, Voice], TickTrack] = {}
    for (name, voice), channel in plan.tracks.items():
        made[(name, voice)] = _new_track(plan, CUE_TRACK if voice is Voice.CUE
                                         else track_name(name, voice), voice, channel)
    beat = grid.tempo / 1_000_000
    for onset in events(perf):
        voice = onset.voice
        if voice is None:     # a muted drum
            continue
        if voice is Voice.CUE:
            track, on = made[("", voice)], grid.tick(onset.time)
            track.add(on, TickTrack.META, mido.MetaMessage("marker", text=onset.label or "cue"))
            track.note(on, max(on + 1, grid.tick(onset.time + beat)), plan.channel("", voice),
                       plan.keys[voice], plan.velocities[voice])
            continue
        name = onset.part.name
        made[(name, voice)].note(grid.tick(onset.time), grid.tick(onset.end),
                                 plan.channel(name, voice), plan.keys[voice],
                                 plan.velocities[voice])
    return list(made.values())


def _midi_file(perf: Performance, grid: TickGrid, conductor: TickTrack,
               tracks: Sequence[TickTrack]) -> mido.MidiFile:
    """The file of *conductor* and *tracks*: time signatures on the bar lines
    and every track ending on the ring bar's closing bar line
    (:func:`~guji.midi.metre.metre`); without a metre, :data:`PAD_SECONDS`
    after the last note ends (or after the last marker, if later)."""
    last = max([t.last_off for t in tracks] + [e[0] for e in conductor.events])
    bars = metre(perf, grid, last)
    if bars is None:
        end_tick = last + grid.tick(PAD_SECONDS)
    else:
        end_tick = bars.end_tick
        for tick, beats in bars.signatures():
            conductor.add(tick, TickTrack.META, mido.MetaMessage(
                "time_signature", numerator=beats, denominator=4, clocks_per_click=24,
                notated_32nd_notes_per_beat=8))
    midi = mido.MidiFile(type=1, ticks_per_beat=grid.ticks_per_beat, charset="utf-8")
    midi.tracks.append(conductor.to_mido(end_tick, grid.ticks_per_beat))
    for t in tracks:
        midi.tracks.append(t.to_mido(end_tick, grid.ticks_per_beat))
    return midi


# ---------------------------------------------------------------------------
# saving

def write_midi(path: str | os.PathLike, parts, cues: Iterable[Cue] = (), **options) -> Path:
    """Build a MIDI file (:func:`build_midi`, same options) and write it to
    *path* (:func:`save_midi`): a file atomically, so a failed or
    interrupted write leaves no partial file; a device or pipe directly.

    Returns the path written. Raises :class:`UsageError` when *path* is a
    directory, its directory does not exist, or it cannot be written.
    """
    return save_midi(build_midi(parts, cues, **options), path)


def save_midi(midi: mido.MidiFile, path) -> Path:
    """Write *midi* to *path* (a file name, ``-`` for standard output, or a
    binary file object) as :func:`guji.files.writing` decides: a file
    atomically, a device or pipe directly (see :func:`write_midi`); return
    the path."""
    with writing(path, hint=" (give a file name, or end the path with '/' for one file "
                            "per pattern)") as out:
        midi.save(file=out.open())
    return Path(out.name)

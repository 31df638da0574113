"""MIDI files of a performance, and reading them back.

A guji MIDI file is a Standard MIDI File of type 1 that any DAW, notation
program or hardware player can open:

* **Track 0, the conductor track**: the title (its track name), the tempo at
  tick 0, provenance as text events (pattern id, edition, the source
  position of the strokes and of 半, the timing), and markers at the start
  of each pass and at 半 (``魯鼓 1 liji-zhengyi · pass 2/4``,
  ``… · 半 2/4``; in 投壺 a pass starts at 半, so one marker says both).
* **For each part, one track per drum**, named ``"<part> · 鼙"`` and
  ``"<part> · 鼓"`` (e.g. ``魯鼓 1 liji-zhengyi · 鼙``), plus
  ``"<part> · click"`` when the score has a count-in. In the default mode they
  are all on the General MIDI percussion channel 10 (mido's ``channel=9``)
  and each drum is a key of the GM drum kit (:data:`DEFAULT_KEYS`).
* **A cue track** named ``cue`` when cues are given (:class:`guji.score.Cue`:
  the soft bell of ``compare``), each cue's label a marker on it.

Track names, texts and markers are UTF-8 (``mido.MidiFile(path,
charset='utf-8')`` reads them back).

The melodic mode
----------------
Synths without a drum kit (many hardware modules in non-GM modes, some
notation programs) ignore channel 10 or play it as a piano. With
``melodic=True`` each drum track gets a channel of its own (never 10) with
GM program 117 *Taiko Drum* (mido ``program=116``, programs counting from 0),
and the drums become pitches (:data:`DEFAULT_PITCHES`); the click becomes
GM 116 *Woodblock* and the cue GM 113 *Tinkle Bell*. ``keys`` then gives
pitches.

Time
----
The tempo is chosen so that one stroke is one quarter note: the tempo in
microseconds per beat is the (smallest) interval of the parts, rounded down
to a whole microsecond (MIDI's unit). A DAW or notation program then shows the
score on its beat grid. Whatever the tempo, every tick is computed from the
event's absolute time, ``tick = round(time × ticks_per_second)`` with the
file's *actual* (rounded) tempo, and only then differenced into MIDI's
delta times; so nothing drifts: after 10,000 strokes the last one still sits
within half a tick of ``start + index × interval``, and :func:`read_midi`
gives back times within half a tick (0.3 ms at the default tempo) of the
score's.

Every note has a length (one interval: a quarter note, ending where the
next grid step starts, so two strokes of one drum never overlap) and the
file runs :data:`PAD_SECONDS` past the last note's end, so no player or DAW
cuts the ring of the last stroke.
"""

from __future__ import annotations

import bisect
import math
import operator
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import mido

from .. import __version__
from ..errors import UsageError
from ..text.names import file_stem
from ..text.notation import Drum, Pattern, Rite
from ..timing.performance import Cue, Part, Voice, as_performance
from ..timing.score import Score
from ..files import atomic_path

#: General MIDI percussion key of each voice (channel 10). The drums follow
#: 陸德明's 釋文 on the two drums, in the loudness reading of 聲高 / 聲下
#: (DOMAIN.md, "Timbre"):
#:
#: * 鼓 (□) — 其聲高，其音鏜鏜然: loud, ringing, booming (擊鼓其鏜) → 41 *Low
#:   Floor Tom*, the biggest, longest-ringing drum of the GM kit (a kick
#:   drum, 35/36, is dry and short: no 鏜鏜).
#: * 鼙 (○) — 其聲下，其音榻榻然: softer, flat, damped "ta-ta" → 62 *Mute Hi
#:   Conga*, a small hand drum stopped by the palm: the most damped drum of
#:   the kit, still a drum (a side stick or a clap would not be).
#:
#: Neither is pitched by the text; under the other reading of 聲高 (pitch),
#: swap them with ``--map 鼙=41,鼓=62``. guji's own voices, in no source, sound
#: unlike either drum: the count-in click is 76 *Hi Wood Block*, the cue (a
#: soft bell) 81 *Open Triangle*.
DEFAULT_KEYS: dict[Voice, int] = {
    Voice.SMALL: 62,
    Voice.BIG: 41,
    Voice.CLICK: 76,
    Voice.CUE: 81,
}

#: Note velocity of each voice. 鼓 is louder than 鼙 (鼓 其聲高, loud; 鼙 其聲下,
#: soft); the click and the cue stay below both, being guides, not music.
DEFAULT_VELOCITIES: dict[Voice, int] = {
    Voice.SMALL: 80,
    Voice.BIG: 112,
    Voice.CLICK: 72,
    Voice.CUE: 56,
}

#: Pitches of the melodic mode (MIDI note numbers; 60 is middle C). The big
#: drum an octave below the small one (C2 / C3), as a big drum sounds; the
#: click and the bell high above both.
DEFAULT_PITCHES: dict[Voice, int] = {
    Voice.SMALL: 48,
    Voice.BIG: 36,
    Voice.CLICK: 76,
    Voice.CUE: 84,
}

#: GM programs of the melodic mode, counting from 0 as mido does (GM's own
#: numbers count from 1): 116 Taiko Drum (GM 117), 115 Woodblock (GM 116),
#: 112 Tinkle Bell (GM 113).
MELODIC_PROGRAMS: dict[Voice, int] = {
    Voice.SMALL: 116,
    Voice.BIG: 116,
    Voice.CLICK: 115,
    Voice.CUE: 112,
}

#: mido's number of General MIDI channel 10, the percussion channel.
PERCUSSION_CHANNEL = 9

#: Channels of the melodic mode: all but the percussion channel.
MELODIC_CHANNELS: tuple[int, ...] = tuple(c for c in range(16) if c != PERCUSSION_CHANNEL)

#: Seconds the file runs on after the last note ends, for the ring.
PAD_SECONDS = 2.0

#: Default resolution: 960 ticks a quarter note (a stroke), the usual DAW value.
DEFAULT_TICKS_PER_BEAT = 960

#: MIDI's largest tempo: 2**24 - 1 microseconds per beat (16.8 s).
MAX_TEMPO = 0xFFFFFF

#: Name of the cue track.
CUE_TRACK = "cue"

#: Between the part name and the voice in a track name.
TRACK_SEPARATOR = " · "

#: General MIDI level 1 percussion key names (channel 10), for the
#: instrument names written into the file and for ``--help``.
GM_PERCUSSION: dict[int, str] = {
    35: "Acoustic Bass Drum", 36: "Bass Drum 1", 37: "Side Stick", 38: "Acoustic Snare",
    39: "Hand Clap", 40: "Electric Snare", 41: "Low Floor Tom", 42: "Closed Hi-Hat",
    43: "High Floor Tom", 44: "Pedal Hi-Hat", 45: "Low Tom", 46: "Open Hi-Hat",
    47: "Low-Mid Tom", 48: "Hi-Mid Tom", 49: "Crash Cymbal 1", 50: "High Tom",
    51: "Ride Cymbal 1", 52: "Chinese Cymbal", 53: "Ride Bell", 54: "Tambourine",
    55: "Splash Cymbal", 56: "Cowbell", 57: "Crash Cymbal 2", 58: "Vibraslap",
    59: "Ride Cymbal 2", 60: "Hi Bongo", 61: "Low Bongo", 62: "Mute Hi Conga",
    63: "Open Hi Conga", 64: "Low Conga", 65: "High Timbale", 66: "Low Timbale",
    67: "High Agogo", 68: "Low Agogo", 69: "Cabasa", 70: "Maracas", 71: "Short Whistle",
    72: "Long Whistle", 73: "Short Guiro", 74: "Long Guiro", 75: "Claves",
    76: "Hi Wood Block", 77: "Low Wood Block", 78: "Mute Cuica", 79: "Open Cuica",
    80: "Mute Triangle", 81: "Open Triangle",
}

_PROGRAM_NAMES = {112: "Tinkle Bell", 115: "Woodblock", 116: "Taiko Drum"}


# ---------------------------------------------------------------------------
# values read back

@dataclass(frozen=True)
class MidiHit:
    """One note (a stroke, a click or a cue) read back from a MIDI file.

    Attributes
    ----------
    time:
        Seconds from the start of the file (from the tick and the tempo map).
    voice:
        :class:`~guji.score.Voice`: 鼙, 鼓, click or cue, from the track name.
    velocity:
        Note-on velocity (1–127).
    track:
        Name of the track the note is on (``魯鼓 1 liji-zhengyi · 鼙``).
    part:
        The part name (the track name before ``" · "``; ``""`` for cues).
    tick:
        Absolute tick of the note-on. Not compared (``==`` looks at the
        first five fields only, so hits built from a score compare equal).
    key:
        MIDI key (percussion) or pitch (melodic mode). Not compared.
    channel:
        mido channel (0–15; 9 is GM channel 10). Not compared.
    """

    time: float
    voice: Voice
    velocity: int
    track: str
    part: str
    tick: int = field(default=0, compare=False)
    key: int = field(default=0, compare=False)
    channel: int = field(default=0, compare=False)


@dataclass(frozen=True)
class MidiMarker:
    """A marker meta event: *text* at *time* seconds, on track *track*."""

    time: float
    text: str
    track: str
    tick: int = field(default=0, compare=False)


@dataclass(frozen=True)
class MidiReading:
    """What :func:`read_midi` finds in a MIDI file.

    Attributes
    ----------
    hits:
        Every note-on, in time order (ties in track order), as :class:`MidiHit`.
    title:
        The name of the first track (the conductor), ``None`` if it has none.
    tempo:
        Microseconds per beat at tick 0 (500,000 if the file sets none).
    ticks_per_beat:
        The file's resolution.
    texts:
        Text meta events of every track, in order (guji writes provenance here).
    markers:
        Marker meta events of every track, in time order.
    track_names:
        The name of each track, in file order (``""`` for a nameless track).
    duration:
        Seconds to the end of the longest track (padding included).
    midi_type:
        0, 1 or 2.
    path:
        The file read.
    """

    hits: tuple[MidiHit, ...]
    title: str | None
    tempo: int
    ticks_per_beat: int
    texts: tuple[str, ...] = ()
    markers: tuple[MidiMarker, ...] = ()
    track_names: tuple[str, ...] = ()
    duration: float = 0.0
    midi_type: int = 1
    path: Path | None = None

    @property
    def part_names(self) -> tuple[str, ...]:
        """Part names in the order their tracks appear (cues excluded)."""
        seen: dict[str, None] = {}
        for name in self.track_names:
            part, voice = split_track_name(name)
            if voice is not None and voice is not Voice.CUE:
                seen.setdefault(part, None)
        return tuple(seen)

    def select(self, part: str | None = None, voice: Voice | None = None) -> tuple[MidiHit, ...]:
        """The hits of one part and/or one voice (``None``: any)."""
        return tuple(h for h in self.hits
                     if (part is None or h.part == part) and (voice is None or h.voice is voice))

    def times(self, part: str | None = None, voice: Voice | None = None) -> tuple[float, ...]:
        """The times of :meth:`select`'s hits."""
        return tuple(h.time for h in self.select(part, voice))


# ---------------------------------------------------------------------------
# names

def track_name(part: str, voice: Voice) -> str:
    """The name of *part*'s track for *voice*: ``"魯鼓 1 liji-zhengyi · 鼙"``;
    the cue track is just ``"cue"``."""
    if voice is Voice.CUE:
        return CUE_TRACK
    return f"{part}{TRACK_SEPARATOR}{voice.value}"


def split_track_name(name: str) -> tuple[str, Voice | None]:
    """``(part, voice)`` of a guji track name; voice ``None`` if it names none.

    >>> split_track_name("魯鼓 1 liji-zhengyi · 鼓")
    ('魯鼓 1 liji-zhengyi', <Voice.BIG: '鼓'>)
    """
    if name == CUE_TRACK:
        return "", Voice.CUE
    if TRACK_SEPARATOR in name:
        part, _, tail = name.rpartition(TRACK_SEPARATOR)
        for voice in Voice:
            if tail == voice.value and voice is not Voice.CUE:
                return part, voice
    return name, None


def default_filename(pattern: Pattern, suffix: str = ".mid") -> str:
    """A file name for *pattern*'s MIDI file: ``lu-1-liji-zhengyi.mid``
    (:func:`guji.text.names.file_stem`)."""
    return file_stem(pattern) + suffix


# ---------------------------------------------------------------------------
# building

def _check_level(value, what: str, voice: Voice, low: int) -> int:
    """*value* as an int in low…127, or :class:`UsageError`."""
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        number = None
    if number is None or not low <= number <= 127:
        raise UsageError(f"{what} of {voice.value} must be a whole number {low}–127, "
                         f"not {value!r}")
    return number


def _voice_table(defaults: Mapping[Voice, int], overrides, what: str, low: int) -> dict[Voice, int]:
    table = dict(defaults)
    if overrides:
        for name, value in dict(overrides).items():
            voice = Voice.from_name(name)
            table[voice] = _check_level(value, what, voice, low)
    return table


def check_ticks_per_beat(ticks_per_beat) -> int:
    """*ticks_per_beat* as a whole number 1–32767 (MIDI's range), or :class:`UsageError`."""
    try:
        if isinstance(ticks_per_beat, bool):
            raise TypeError
        value = operator.index(ticks_per_beat) if not isinstance(ticks_per_beat, str) \
            else int(ticks_per_beat)
    except (TypeError, ValueError):
        value = None
    if value is None or not 1 <= value <= 0x7FFF:
        raise UsageError(f"ticks per beat must be a whole number 1–32767, not {ticks_per_beat!r}")
    return value


def check_tempo(tempo) -> int:
    """*tempo* as whole microseconds per beat, 1–16,777,215 (MIDI's range), or :class:`UsageError`."""
    if isinstance(tempo, bool) or not isinstance(tempo, int) or not 1 <= tempo <= MAX_TEMPO:
        raise UsageError(f"tempo must be a whole number of microseconds per beat, "
                         f"1–{MAX_TEMPO}, not {tempo!r}")
    return tempo


def tempo_for(interval: float) -> int:
    """Microseconds per beat that make one stroke of *interval* seconds one
    quarter note; for intervals beyond MIDI's slowest tempo (16.8 s a beat),
    one stroke every 2, 3, … beats."""
    us = interval * 1_000_000
    beats = max(1, math.ceil(us / MAX_TEMPO))
    # rounded down: a stroke then spans at least ticks_per_beat ticks, so no
    # two strokes can share a tick, whatever the resolution
    return max(1, min(MAX_TEMPO, math.floor(us / beats)))


@dataclass(frozen=True)
class TickGrid:
    """Seconds ↔ ticks for a file of one tempo.

    ``tick(t) = round(t × ticks_per_second)``: always from absolute time.
    """

    ticks_per_beat: int
    tempo: int   #: microseconds per beat

    @property
    def per_second(self) -> float:
        return self.ticks_per_beat * 1_000_000 / self.tempo

    def tick(self, seconds: float) -> int:
        return round(seconds * self.ticks_per_beat * 1_000_000 / self.tempo)

    def seconds(self, tick: int) -> float:
        return tick * self.tempo / (self.ticks_per_beat * 1_000_000)


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
            from ..text.editions import edition
            ed = edition(p.edition)
            sl, sc = ed.seed_position(first.line, first.column)
            hl, hc = ed.seed_position(p.half_location.line, p.half_location.column)
            where += (f"; edition {ed.slug} = {ed.title} ({ed.title_en}); seed {ed.seed} "
                      f"line {sl} column {sc}, 半 at line {hl} column {hc}")
        except UsageError:
            where += f"; edition {p.edition}"
    texts.append(where)
    texts.append(f"generated by guji {__version__}")
    return texts


def _markers(name: str, score: Score, numbered: bool = True) -> Iterable[tuple[float, str]]:
    """(time, text) of *score*'s markers: count-in, each pass start, each 半.

    Passes are numbered (``pass 1/1``) unless *numbered* is false and there
    is one pass (a round of ``compare alternate``, whose *name* says the round).
    """
    if score.count_in:
        yield score.time(0), f"{name}{TRACK_SEPARATOR}count-in"
    n = score.repeat
    sep = TRACK_SEPARATOR
    for p in range(n):
        which = f"{sep}pass {p + 1}/{n}" if numbered or n > 1 else ""
        count = f" {p + 1}/{n}" if numbered or n > 1 else ""
        if score.rite is Rite.TOUHU:
            yield score.pass_start(p), f"{name}{which}{sep}半"
        else:
            yield score.pass_start(p), f"{name}{which}"
            yield score.half_time(p), f"{name}{sep}半{count}"


class _Track:
    """Events of one track at absolute ticks, turned into mido's delta times
    only at the end (so no rounding error can pile up)."""

    # at one tick: meta first, then note-offs, then note-ons
    META, OFF, ON = 0, 1, 2

    def __init__(self, name: str):
        self.name = name
        # (tick, order, sequence number, message or note tuple)
        self.events: list[tuple[int, int, int, object]] = []
        self.last_off = 0

    def add(self, tick: int, order: int, msg) -> None:
        self.events.append((tick, order, len(self.events), msg))

    def note(self, on: int, off: int, channel: int, key: int, velocity: int) -> None:
        """A note from tick *on* to tick *off* (> *on*)."""
        self.add(on, self.ON, ("note_on", channel, key, velocity))
        self.add(off, self.OFF, ("note_off", channel, key, 0))
        self.last_off = max(self.last_off, off)

    def to_mido(self, end_tick: int) -> mido.MidiTrack:
        track = mido.MidiTrack()
        track.append(mido.MetaMessage("track_name", name=self.name, time=0))
        now = 0
        for tick, _, _, item in sorted(self.events, key=lambda e: e[:3]):
            if isinstance(item, tuple):
                kind, channel, key, velocity = item
                # values checked by build_midi; mido's per-message checks would
                # triple the time of a long file (skip_checks: mido >= 1.3)
                track.append(mido.Message(kind, skip_checks=True, channel=channel, note=key,
                                          velocity=velocity, time=tick - now))
            else:
                track.append(item.copy(time=tick - now))
            now = tick
        track.append(mido.MetaMessage("end_of_track", time=max(0, end_tick - now)))
        return track


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
        :data:`DEFAULT_KEYS`) or pitch (melodic mode, default
        :data:`DEFAULT_PITCHES`), 0–127. Voices may be named as
        :meth:`Voice.from_name <guji.timing.performance.Voice.from_name>`
        accepts (``"鼙"``, ``"big"``, a :class:`Drum` …); unnamed voices keep
        their default.
    velocities:
        Voice → note velocity 1–127 (default :data:`DEFAULT_VELOCITIES`).
    melodic:
        Put the drums on melodic channels with GM program 117 Taiko Drum
        (see the module docstring) instead of GM percussion channel 10.
    ticks_per_beat:
        Resolution, 1–32767 (default 960).
    tempo:
        Microseconds per beat. Default: the performance's interval (one
        stroke = one quarter note; :func:`tempo_for`), or 500,000 with cues
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
        finer than the tick grid (:meth:`Score.require_resolution`).
    """
    perf = as_performance(performance, cues)
    tpb = check_ticks_per_beat(ticks_per_beat)
    tempo = check_tempo(tempo) if tempo is not None else (
        tempo_for(perf.interval) if perf.parts else 500_000)
    grid = TickGrid(tpb, tempo)
    for part in perf.parts:
        part.score.require_resolution(grid.per_second, "MIDI tick")
    kit = _Instruments(keys, velocities, melodic,
                       click=any(p.score.count_in for p in perf.parts), cue=bool(perf.cues))
    groups = perf.groups()
    if title is None:
        title = perf.title if perf.title is not None else _default_title(groups)
    conductor = _Track(title)
    conductor.add(0, _Track.META, mido.MetaMessage("set_tempo", tempo=tempo))
    tracks: list[_Track] = []
    for name, parts in groups.items():
        tracks += _group_tracks(name, parts, conductor, grid, kit)
    if perf.cues:
        tracks.append(_cue_track(perf.cues, grid, kit, tempo))
    last = max([t.last_off for t in tracks] + [e[0] for e in conductor.events])
    end_tick = last + grid.tick(PAD_SECONDS)
    midi = mido.MidiFile(type=1, ticks_per_beat=tpb, charset="utf-8")
    midi.tracks.append(conductor.to_mido(end_tick))
    for t in tracks:
        midi.tracks.append(t.to_mido(end_tick))
    return midi


class _Instruments:
    """Keys, velocities and channels of the voices in one file.

    Channels: percussion (channel 10) for every voice, or, in the melodic
    mode, a channel each for the click and the cue reserved first, the drum
    tracks cycling through the rest (all Taiko Drum, so sharing is safe).
    """

    def __init__(self, keys, velocities, melodic: bool, *, click: bool, cue: bool):
        self.melodic = melodic
        self.keys = _voice_table(DEFAULT_PITCHES if melodic else DEFAULT_KEYS, keys, "key", 0)
        self.velocities = _voice_table(DEFAULT_VELOCITIES, velocities, "velocity", 1)
        self._free = list(MELODIC_CHANNELS)
        self._reserved: dict[Voice, int] = {}
        if click:
            self._reserved[Voice.CLICK] = self._free.pop()
        if cue:
            self._reserved[Voice.CUE] = self._free.pop()
        self._next = 0

    def channel(self, voice: Voice) -> int:
        if not self.melodic:
            return PERCUSSION_CHANNEL
        if voice in self._reserved:
            return self._reserved[voice]
        ch = self._free[self._next % len(self._free)]
        self._next += 1
        return ch

    def track(self, name: str, voice: Voice, channel: int) -> _Track:
        """A new track for *voice*, its instrument named (and chosen, melodic)."""
        t = _Track(name)
        key = self.keys[voice]
        if self.melodic:
            program = MELODIC_PROGRAMS[voice]
            t.add(0, _Track.META, mido.MetaMessage(
                "instrument_name", name=f"{_PROGRAM_NAMES[program]} (GM program {program + 1}), "
                                        f"note {key}"))
            t.add(0, _Track.META, mido.Message("program_change", channel=channel, program=program))
        else:
            t.add(0, _Track.META, mido.MetaMessage(
                "instrument_name", name=f"GM percussion {key} {GM_PERCUSSION.get(key, '')}".rstrip()))
        return t


def _group_tracks(name: str, parts: Sequence[Part], conductor: "_Track", grid: "TickGrid",
                  kit: _Instruments) -> list["_Track"]:
    """The track set of the parts named *name*; their texts and markers go
    to the *conductor*."""
    rounds = len(parts)
    for k, part in enumerate(parts):
        label = name if rounds == 1 else f"{name}{TRACK_SEPARATOR}round {k + 1}/{rounds}"
        for text in _provenance(label, part.score):
            conductor.add(0, _Track.META, mido.MetaMessage("text", text=text))
        for when, text in _markers(label, part.score, numbered=rounds == 1):
            conductor.add(grid.tick(when), _Track.META, mido.MetaMessage("marker", text=text))
    voices = [Voice.SMALL, Voice.BIG] + ([Voice.CLICK] if any(p.score.count_in for p in parts)
                                         else [])
    made = {}
    for voice in voices:
        ch = kit.channel(voice)
        made[voice] = (kit.track(track_name(name, voice), voice, ch), ch)
    for part in parts:
        score = part.score
        for i in range(len(score)):
            voice = Voice.of(score.drum_at(i))
            track, ch = made[voice]
            # both ends from absolute time: this grid step and the next
            track.note(grid.tick(score.time(i)), grid.tick(score.time(i + 1)), ch,
                       kit.keys[voice], kit.velocities[voice])
    return [t for t, _ in made.values()]


def _cue_track(cues: Sequence[Cue], grid: "TickGrid", kit: _Instruments, tempo: int) -> "_Track":
    ch = kit.channel(Voice.CUE)
    track = kit.track(CUE_TRACK, Voice.CUE, ch)
    beat = tempo / 1_000_000
    for cue in cues:
        on = grid.tick(cue.time)
        track.add(on, _Track.META, mido.MetaMessage("marker", text=cue.label or "cue"))
        track.note(on, max(on + 1, grid.tick(cue.time + beat)), ch,
                   kit.keys[Voice.CUE], kit.velocities[Voice.CUE])
    return track


def _default_title(groups: Mapping[str, Sequence[Part]]) -> str:
    if not groups:
        return "guji cues"
    return " / ".join(f"{n} ({ps[0].score.rite.chinese} {ps[0].score.rite.value})"
                      for n, ps in groups.items())


def write_midi(path: str | os.PathLike, parts, cues: Iterable[Cue] = (), **options) -> Path:
    """Build a MIDI file (:func:`build_midi`, same options) and write it to
    *path* atomically: a failed or interrupted write leaves no partial file.

    Returns the path written. Raises :class:`UsageError` when *path* is a
    directory, its directory does not exist, or it cannot be written.
    """
    return save_midi(build_midi(parts, cues, **options), path)


def save_midi(midi: mido.MidiFile, path: str | os.PathLike) -> Path:
    """Write *midi* to *path* atomically (see :func:`write_midi`); return the path."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{path}: is a directory (give a file name, or end the path "
                         "with '/' for one file per pattern)")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{path}: no such directory {str(parent)!r}")
    try:
        with atomic_path(target) as tmp:
            midi.save(tmp)
    except OSError as e:
        raise UsageError(f"{path}: cannot write: {e.strerror or e}") from None
    return target


# ---------------------------------------------------------------------------
# reading

class _TempoMap:
    """Ticks → seconds through a file's tempo changes."""

    def __init__(self, changes: list[tuple[int, int]], ticks_per_beat: int):
        self.tpb = ticks_per_beat
        changes = sorted(changes)
        if not changes or changes[0][0] != 0:
            changes.insert(0, (0, 500_000))
        # (start tick, tempo, seconds at start tick)
        self.segments: list[tuple[int, int, float]] = []
        seconds = 0.0
        prev_tick, prev_tempo = changes[0]
        for tick, tempo in changes[1:]:
            self.segments.append((prev_tick, prev_tempo, seconds))
            seconds += (tick - prev_tick) * prev_tempo / (ticks_per_beat * 1_000_000)
            prev_tick, prev_tempo = tick, tempo
        self.segments.append((prev_tick, prev_tempo, seconds))
        self.starts = [s[0] for s in self.segments]

    def seconds(self, tick: int) -> float:
        i = bisect.bisect_right(self.starts, tick) - 1
        start, tempo, base = self.segments[i]
        return base + (tick - start) * tempo / (self.tpb * 1_000_000)


def read_midi(path: str | os.PathLike) -> MidiReading:
    """Read a guji MIDI file back into hits (strokes, clicks, cues) and times.

    Each note-on (velocity > 0) becomes a :class:`MidiHit`; its voice and part
    come from the track name (``"<part> · 鼙"``, ``"<part> · 鼓"``,
    ``"<part> · click"``, ``"cue"``). A note on a track not named so (a file
    renamed in a DAW, or not guji's) is taken by its key on channel 10
    (:data:`DEFAULT_KEYS`), its part being the track name; any other note is
    an error. Times come from absolute ticks through the tempo map, so
    ``read_midi(write_midi(path, score)).hits`` are the score's events within
    half a tick.

    Raises
    ------
    UsageError
        The file is missing, not a MIDI file, or holds notes guji cannot place.
    """
    p = Path(path)
    try:
        midi = mido.MidiFile(p, charset="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a MIDI file") from None
    except (OSError, EOFError, ValueError, KeyError, IndexError) as e:
        raise UsageError(f"{path}: not a readable MIDI file ({e})") from None

    tpb = midi.ticks_per_beat
    changes = []
    for track in midi.tracks:
        tick = 0
        for msg in track:
            tick += msg.time
            if msg.type == "set_tempo":
                changes.append((tick, msg.tempo))
    tempo_map = _TempoMap(changes, tpb)
    tempo0 = next((t for k, t in sorted(changes) if k == 0), 500_000)
    by_key = {k: v for v, k in DEFAULT_KEYS.items()}

    hits: list[tuple[int, int, int, MidiHit]] = []
    markers: list[tuple[int, int, MidiMarker]] = []
    texts: list[str] = []
    names: list[str] = []
    end = 0
    for ti, track in enumerate(midi.tracks):
        name = next((m.name for m in track if m.type == "track_name"), "")
        names.append(name)
        part, voice = split_track_name(name)
        tick = 0
        for mi, msg in enumerate(track):
            tick += msg.time
            if msg.type == "note_on" and msg.velocity > 0:
                v = voice
                if v is None:
                    v = by_key.get(msg.note) if msg.channel == PERCUSSION_CHANNEL else None
                    if v is None:
                        raise UsageError(f"{path}: track {ti} ({name or 'unnamed'}): note "
                                         f"{msg.note} on channel {msg.channel + 1} is not a "
                                         "guji voice")
                hits.append((tick, ti, mi, MidiHit(tempo_map.seconds(tick), v, msg.velocity,
                                                   name, "" if v is Voice.CUE else part,
                                                   tick, msg.note, msg.channel)))
            elif msg.type == "marker":
                markers.append((tick, ti, MidiMarker(tempo_map.seconds(tick), msg.text, name,
                                                     tick)))
            elif msg.type == "text":
                texts.append(msg.text)
        end = max(end, tick)
    hits.sort(key=lambda h: h[:3])
    markers.sort(key=lambda m: m[:2])
    title = names[0] if names and names[0] else None
    return MidiReading(
        hits=tuple(h[3] for h in hits),
        title=title,
        tempo=tempo0,
        ticks_per_beat=tpb,
        texts=tuple(texts),
        markers=tuple(m[2] for m in markers),
        track_names=tuple(names),
        duration=tempo_map.seconds(end),
        midi_type=midi.type,
        path=p,
    )

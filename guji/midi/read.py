"""Reading a guji MIDI file back: :func:`read_midi`.

:func:`read_midi` gives a :class:`MidiReading`: every note as a
:class:`MidiHit` (its time in seconds, voice, velocity and part), every
marker as a :class:`MidiMarker`, the texts, the track names, the tempo and
the length of the file. Voices and parts come from the track names
(:func:`~guji.midi.tracks.split_track_name`, the layout of
:mod:`guji.midi.tracks`); times come from absolute ticks through the file's
tempo changes, so a file :func:`~guji.midi.write.write_midi` wrote reads
back within half a tick of its score (:mod:`guji.midi.ticks`).
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field
from pathlib import Path

import mido

from ..i18n import _
from ..errors import UsageError
from ..timing.performance import Voice
from .gm import DEFAULT_KEYS, PERCUSSION_CHANNEL
from .tracks import split_track_name


@dataclass(frozen=True)
class MidiHit:
    """One note (a stroke, a click or a cue) read back from a MIDI file.

    Attributes
    ----------
    time:
        Seconds from the start of the file (from the tick and the tempo map).
    voice:
        :class:`~guji.timing.performance.Voice`: 鼙, 鼓, click or cue, from the track name.
    velocity:
        Note-on velocity (1–127).
    track:
        Name of the track the note is on (``Lu gu 魯鼓 1 liji-zhengyi - pi 鼙``).
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
    come from the track name (``"Lu gu 魯鼓 1 … - pi 鼙"``, ``"… - gu 鼓"``,
    ``"… - click"``, ``"cue"``, or the ``" · "`` names of earlier guji files:
    :func:`~guji.midi.tracks.split_track_name`). A note on a track not named so (a file
    renamed in a DAW, or not guji's) is taken by its key on channel 10
    (:data:`~guji.midi.gm.DEFAULT_KEYS`), its part being the track name; any
    other note is an error. Times come from absolute ticks through the tempo
    map, so ``read_midi(write_midi(path, score)).hits`` are the score's events
    within half a tick.

    Raises
    ------
    UsageError
        The file is missing, not a MIDI file, or holds notes guji cannot place.
    """
    midi = _open(path)
    changes = _tempo_changes(midi)
    tempo_map = _TempoMap(changes, midi.ticks_per_beat)
    tracks = [_read_track(ti, track, tempo_map, path) for ti, track in enumerate(midi.tracks)]
    hits = sorted((h for t in tracks for h in t.hits), key=lambda h: h[:3])
    markers = sorted((m for t in tracks for m in t.markers), key=lambda m: m[:2])
    names = [t.name for t in tracks]
    return MidiReading(
        hits=tuple(h[3] for h in hits),
        title=names[0] if names and names[0] else None,
        tempo=next((t for k, t in sorted(changes) if k == 0), 500_000),
        ticks_per_beat=midi.ticks_per_beat,
        texts=tuple(text for t in tracks for text in t.texts),
        markers=tuple(m[2] for m in markers),
        track_names=tuple(names),
        duration=tempo_map.seconds(max([t.end for t in tracks], default=0)),
        midi_type=midi.type,
        path=Path(path),
    )


def _open(path: str | os.PathLike) -> mido.MidiFile:
    """The MIDI file at *path*, its texts read as UTF-8, or :class:`UsageError`."""
    try:
        return mido.MidiFile(Path(path), charset="utf-8")
    except FileNotFoundError:
        raise UsageError(_('{path}: no such file').format(path=path)) from None
    except IsADirectoryError:
        raise UsageError(_('{path}: is a directory, not a MIDI file').format(path=path)) from None
    except (OSError, EOFError, ValueError, KeyError, IndexError) as e:
        raise UsageError(_('{path}: not a readable MIDI file ({e})').format(path=path, e=e)) from None


def _tempo_changes(midi: mido.MidiFile) -> list[tuple[int, int]]:
    """(absolute tick, tempo) of every ``set_tempo`` event, of every track."""
    changes = []
    for track in midi.tracks:
        tick = 0
        for msg in track:
            tick += msg.time
            if msg.type == "set_tempo":
                changes.append((tick, msg.tempo))
    return changes


@dataclass(frozen=True)
class _TrackReading:
    """What one track holds: its name, its hits and markers (each behind its
    sort key: tick, track number, and for hits the message number), its
    texts, and its last tick."""

    name: str
    hits: tuple[tuple[int, int, int, MidiHit], ...]
    markers: tuple[tuple[int, int, MidiMarker], ...]
    texts: tuple[str, ...]
    end: int


def _read_track(ti: int, track: mido.MidiTrack, tempo_map: _TempoMap,
                path: str | os.PathLike) -> _TrackReading:
    """Track number *ti* of the file at *path*, its ticks timed by *tempo_map*."""
    name = next((m.name for m in track if m.type == "track_name"), "")
    part, voice = split_track_name(name)
    hits, markers, texts = [], [], []
    tick = 0
    for mi, msg in enumerate(track):
        tick += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            v = voice if voice is not None else _voice_of_key(msg, ti, name, path)
            hits.append((tick, ti, mi, MidiHit(tempo_map.seconds(tick), v, msg.velocity,
                                               name, "" if v is Voice.CUE else part,
                                               tick, msg.note, msg.channel)))
        elif msg.type == "marker":
            markers.append((tick, ti, MidiMarker(tempo_map.seconds(tick), msg.text, name, tick)))
        elif msg.type == "text":
            texts.append(msg.text)
    return _TrackReading(name, tuple(hits), tuple(markers), tuple(texts), tick)


def _voice_of_key(msg: mido.Message, ti: int, name: str, path: str | os.PathLike) -> Voice:
    """The voice of a note on a track not named for one: its key on channel
    10 (:data:`~guji.midi.gm.DEFAULT_KEYS`), or :class:`UsageError`."""
    by_key = {k: v for v, k in DEFAULT_KEYS.items()}
    v = by_key.get(msg.note) if msg.channel == PERCUSSION_CHANNEL else None
    if v is None:
        raise UsageError(_('{path}: track {ti} ({value}): note {note} on channel {value2} is not a guji voice').format(path=path, ti=ti, value=name or 'unnamed', note=msg.note, value2=msg.channel + 1))
    return v

"""The notes of a performance as timed MIDI messages, for a live port.

``guji play --midi-out`` sends the same notes ``guji midi`` writes — the same
voices, keys, velocities and channels, in percussion or melodic mode
(:func:`~guji.midi.write.build_midi`'s instruments) — but as messages due
at times in seconds, not ticks: :func:`note_events` gives each note
(its on and off time: a note lasts one grid step, as in the file),
:func:`timed_messages` the note_on and note_off messages in sending order,
and :func:`loop_messages` the endless messages of a
:class:`~guji.timing.loop.Loop`, pass after pass.

Times are exact: ``step × interval`` of the score
(:meth:`~guji.timing.score.Score.time`), where a file rounds each to a tick
(half a tick at most: 0.3 ms at the default tempo). At equal times a
note_off goes before a note_on, so a note_off never cuts the next stroke
on the same key.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

import mido

from ..timing.loop import Loop
from ..timing.performance import Cue, Performance, Voice, as_performance
# the instruments of a guji MIDI file (keys, velocities, channels), so the
# live notes are the file's: one policy, one place
from .write import _Instruments


@dataclass(frozen=True)
class NoteEvent:
    """One note: *voice* of part *part* from *time* to *end* (seconds)."""

    time: float
    end: float
    voice: Voice
    part: str
    channel: int
    key: int
    velocity: int


@dataclass(frozen=True)
class TimedMessage:
    """A MIDI message due *time* seconds from the start."""

    time: float
    message: mido.Message


class Instruments:
    """The keys, velocities and channels of every voice of *performance*,
    as :func:`~guji.midi.write.build_midi` gives them."""

    def __init__(self, performance: Performance, *, keys: Mapping | None = None,
                 velocities: Mapping | None = None, melodic: bool = False):
        kit = _Instruments(keys, velocities, melodic,
                           click=any(p.score.count_in for p in performance.parts),
                           cue=bool(performance.cues))
        self.melodic = melodic
        self.keys: dict[Voice, int] = dict(kit.keys)
        self.velocities: dict[Voice, int] = dict(kit.velocities)
        self.channels: dict[tuple[str, Voice], int] = {}
        # in build_midi's order: a track set per part name, 鼙 鼓 (click), then the cue
        for name, parts in performance.groups().items():
            voices = [Voice.SMALL, Voice.BIG]
            if any(p.score.count_in for p in parts):
                voices.append(Voice.CLICK)
            for voice in voices:
                self.channels[(name, voice)] = kit.channel(voice)
        if performance.cues:
            self.channels[("", Voice.CUE)] = kit.channel(Voice.CUE)

    def setup(self) -> list[mido.Message]:
        """Messages to send before the first note: the melodic mode's program changes."""
        if not self.melodic:
            return []
        from .gm import MELODIC_PROGRAMS
        done: dict[int, int] = {}
        for (_, voice), channel in self.channels.items():
            done.setdefault(channel, MELODIC_PROGRAMS[voice])
        return [mido.Message("program_change", channel=c, program=p) for c, p in done.items()]

    def note(self, time: float, end: float, voice: Voice, part: str) -> NoteEvent:
        channel = self.channels[("" if voice is Voice.CUE else part, voice)]
        return NoteEvent(time, end, voice, part, channel, self.keys[voice],
                         self.velocities[voice])


def note_events(performance, cues: Iterable[Cue] = (), *, keys: Mapping | None = None,
                velocities: Mapping | None = None, melodic: bool = False,
                instruments: Instruments | None = None) -> list[NoteEvent]:
    """Every note of *performance* (plus *cues*), by time (ties in track order).

    A stroke or click lasts one grid step, a cue one interval, as in the
    file. *keys*, *velocities*, *melodic* as for
    :func:`~guji.midi.write.build_midi` (or *instruments*, made once for a
    loop). Raises :class:`~guji.errors.UsageError` for a bad key or velocity.
    """
    perf = as_performance(performance, cues)
    kit = instruments or Instruments(perf, keys=keys, velocities=velocities, melodic=melodic)
    notes = []
    for order, part in enumerate(perf.parts):
        score = part.score
        for i in range(len(score)):
            voice = Voice.of(score.drum_at(i))
            notes.append((score.time(i), order,
                          kit.note(score.time(i), score.time(i + 1), voice, part.name)))
    for cue in perf.cues:
        notes.append((cue.time, len(perf.parts), kit.note(cue.time, cue.time + perf.interval,
                                                          Voice.CUE, "")))
    notes.sort(key=lambda n: n[:2])
    return [n[2] for n in notes]


def timed_messages(notes: Iterable[NoteEvent]) -> Iterator[TimedMessage]:
    """The note_on and note_off of each note, by time; note_offs first at one time.

    *notes* must come by start time (as :func:`note_events` gives them); the
    messages come lazily, so an endless stream of notes is fine."""
    offs: list[tuple[float, int, int, int]] = []       # (end, seq, channel, key)
    for seq, note in enumerate(notes):
        while offs and offs[0][0] <= note.time:
            end, _, channel, key = heapq.heappop(offs)
            yield TimedMessage(end, mido.Message("note_off", channel=channel, note=key))
        yield TimedMessage(note.time, mido.Message("note_on", channel=note.channel,
                                                   note=note.key, velocity=note.velocity))
        heapq.heappush(offs, (note.end, seq, note.channel, note.key))
    while offs:
        end, _, channel, key = heapq.heappop(offs)
        yield TimedMessage(end, mido.Message("note_off", channel=channel, note=key))


def loop_messages(loop: Loop, **options) -> Iterator[TimedMessage]:
    """The messages of *loop*, endless: pass after pass, each from its own
    grid steps (*options* as for :func:`note_events`)."""
    kit = Instruments(loop.passes(0, 1), **options)

    def notes() -> Iterator[NoteEvent]:
        k = 0
        while True:
            yield from note_events(loop.passes(k, 1), instruments=kit)
            k += 1

    return timed_messages(notes())

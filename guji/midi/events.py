"""The notes of a performance as timed MIDI messages, for a live port.

``guji play --midi-out`` sends the same notes ``guji midi`` writes: both play
the one schedule (:func:`guji.timing.events.events`, minus-one applied there:
a muted drum sends nothing, ghost clicks send the click) through the one plan
(:class:`~guji.midi.plan.MidiPlan`: the voices' channels, keys and
velocities, in percussion or melodic mode) — but as messages due at times in
seconds, not ticks: :func:`note_events` gives each note (its on and off time:
a note lasts one grid step, as in the file), :func:`timed_messages` the
note_on and note_off messages in sending order, and :func:`loop_messages`
the endless messages of a :class:`~guji.timing.loop.Loop`, pass after pass.

Times are exact: ``(step + i) × interval`` of the schedule, where a file
rounds each to a tick (half a tick at most: 0.3 ms at the default tempo). At
equal times a note_off goes before a note_on, so a note_off never cuts the
next stroke on the same key.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

import mido

from ..timing.events import Onset, events, loop_events
from ..timing.loop import Loop
from ..timing.performance import Cue, Voice, as_performance
# the plan of a guji MIDI file (tracks, channels, keys, velocities), so the
# live notes are the file's: one policy, one place
from .plan import MidiPlan


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


class Instruments(MidiPlan):
    """The plan of *performance* (:class:`~guji.midi.plan.MidiPlan`) with what
    live MIDI needs besides: the program changes to send first, and a note."""

    def setup(self) -> list[mido.Message]:
        """Messages to send before the first note: the melodic mode's program changes."""
        return [mido.Message("program_change", channel=c, program=p)
                for c, p in self.programs().items()]

    def note(self, onset: Onset) -> NoteEvent:
        voice = onset.voice
        part = "" if voice is Voice.CUE else onset.part.name
        return NoteEvent(onset.time, onset.end, voice, part, self.channel(part, voice),
                         self.keys[voice], self.velocities[voice])


def note_events(performance, cues: Iterable[Cue] = (), *, keys: Mapping | None = None,
                velocities: Mapping | None = None, melodic: bool = False,
                instruments: Instruments | None = None) -> list[NoteEvent]:
    """Every note of *performance* (plus *cues*), by time (ties in track order):
    the onsets of the one schedule that sound (a muted drum's are left out).

    A stroke or click lasts one grid step, a cue one interval, as in the
    file. *keys*, *velocities*, *melodic* as for
    :func:`~guji.midi.write.build_midi` (or *instruments*, made once for a
    loop). Raises :class:`~guji.errors.UsageError` for a bad key or velocity.
    """
    perf = as_performance(performance, cues)
    plan = instruments or Instruments(perf, keys=keys, velocities=velocities, melodic=melodic)
    return list(_notes(events(perf), plan))


def _notes(onsets: Iterable[Onset], plan: Instruments) -> Iterator[NoteEvent]:
    for onset in onsets:
        if onset.voice is not None:
            yield plan.note(onset)


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
    plan = Instruments(loop.passes(0, 1), **options)
    return timed_messages(_notes(loop_events(loop), plan))

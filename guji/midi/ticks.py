"""Time in a guji MIDI file: the tempo, seconds → ticks, ticks → delta times.

Time
----
The tempo is chosen so that one stroke is one quarter note: the tempo in
microseconds per beat is the (smallest) interval of the parts, rounded down
to a whole microsecond (MIDI's unit; :func:`tempo_for`). A DAW or notation
program then shows the score on its beat grid. Whatever the tempo, every
tick is computed from the event's absolute time, ``tick = round(time ×
ticks_per_second)`` with the file's *actual* (rounded) tempo
(:class:`TickGrid`), and only then differenced into MIDI's delta times
(:class:`TickTrack`); so nothing drifts: after 10,000 strokes the last one
still sits within half a tick of ``start + index × interval``, and
:func:`~guji.midi.read.read_midi` gives back times within half a tick
(0.3 ms at the default tempo) of the score's.

How long each note lasts and where the file ends is told in
:mod:`guji.midi.write`, which builds the notes; reading ticks back into
seconds through a file's tempo changes is :mod:`guji.midi.read`'s.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..i18n import _
from ..errors import UsageError, encodable
from ..timing.score import check_interval
from .size import MAX_DELTA, check_delta

if TYPE_CHECKING:
    import mido

#: Default resolution: 960 ticks a quarter note (a stroke), the usual DAW value.
DEFAULT_TICKS_PER_BEAT = 960

#: MIDI's largest tempo: 2**24 - 1 microseconds per beat (16.8 s).
MAX_TEMPO = 0xFFFFFF


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
        raise UsageError(_('ticks per beat must be a whole number 1–32767, not {ticks_per_beat}').format(ticks_per_beat=repr(ticks_per_beat)))
    return value


def check_tempo(tempo) -> int:
    """*tempo* as whole microseconds per beat, 1–16,777,215 (MIDI's range), or :class:`UsageError`."""
    if isinstance(tempo, bool) or not isinstance(tempo, int) or not 1 <= tempo <= MAX_TEMPO:
        raise UsageError(_('tempo must be a whole number of microseconds per beat, 1–{max_tempo}, not {tempo}').format(max_tempo=MAX_TEMPO, tempo=repr(tempo)))
    return tempo


def tempo_for(interval: float) -> int:
    """Microseconds per beat that make one stroke of *interval* seconds one
    quarter note; for intervals beyond MIDI's slowest tempo (16.8 s a beat),
    one stroke every 2, 3, … beats. *interval* is checked first
    (:func:`~guji.timing.score.check_interval`)."""
    us = check_interval(interval) * 1_000_000
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

    @property
    def exact_per_second(self) -> Fraction:
        """Ticks a second, exactly (for :meth:`~guji.timing.score.Score.require_resolution`)."""
        return Fraction(self.ticks_per_beat * 1_000_000, self.tempo)

    def tick(self, seconds: float) -> int:
        return round(seconds * self.ticks_per_beat * 1_000_000 / self.tempo)

    def seconds(self, tick: int) -> float:
        return tick * self.tempo / (self.ticks_per_beat * 1_000_000)


class TickTrack:
    """Events of one track at absolute ticks, turned into mido's delta times
    only at the end (so no rounding error can pile up).

    The builder's tool (:func:`~guji.midi.write.build_midi` fills one per
    track): *name* becomes the track name, :meth:`add` takes a message at a
    tick, :meth:`note` a note from one tick to another, :meth:`to_mido` gives
    the :class:`mido.MidiTrack`."""

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

    def to_mido(self, end_tick: int, ticks_per_beat: int | None = None) -> mido.MidiTrack:
        """The track, its events in order with their delta-times; a delta-time
        over the Standard MIDI File's limit is a :class:`~guji.limits.LimitError`
        (:func:`~guji.midi.size.check_delta`: the advice names a resolution
        that fits, given *ticks_per_beat*)."""
        import mido     # here, not at the top: the command line's parsers read this module
        track = mido.MidiTrack()
        track.append(mido.MetaMessage("track_name", name=encodable(self.name), time=0))
        now = 0
        for tick, _, _, item in sorted(self.events, key=lambda e: e[:3]):
            if tick - now > MAX_DELTA:
                check_delta(tick - now, self.name, ticks_per_beat or 1)
            if isinstance(item, tuple):
                kind, channel, key, velocity = item
                # values checked by build_midi; mido's per-message checks would
                # triple the time of a long file (skip_checks: mido >= 1.3)
                track.append(mido.Message(kind, skip_checks=True, channel=channel, note=key,
                                          velocity=velocity, time=tick - now))
            else:
                track.append(_encodable(item).copy(time=tick - now))
            now = tick
        track.append(mido.MetaMessage("end_of_track", time=check_delta(
            max(0, end_tick - now), self.name, ticks_per_beat or 1)))
        return track


def _encodable(message: mido.MetaMessage) -> mido.MetaMessage:
    """*message* with its text (a name from a file or the command line) such as
    UTF-8 can hold (:func:`~guji.errors.encodable`): mido encodes it when saved."""
    for field in ("text", "name"):
        value = getattr(message, field, None)
        if isinstance(value, str) and encodable(value) != value:
            return message.copy(**{field: encodable(value)})
    return message

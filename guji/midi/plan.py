"""The MIDI plan: which track, channel, key and velocity each voice of a performance gets.

One plan, shared by the MIDI file (:func:`guji.midi.write.build_midi`) and
live MIDI (:mod:`guji.midi.events`, ``guji play --midi-out``), so the notes a
port receives are the file's: the same voices (minus-one applied once, by
the schedule of :mod:`guji.timing.events`), keys, velocities and channels.

* **Tracks**: for each part *name* (a track set: the passes of one variant
  share it), one track per voice that sounds, in the order 鼙, 鼓, click (the
  click when a part of that name has a count-in or ghost clicks; a muted
  drum has none); then the cue track, if there are cues.
* **Channels**: GM percussion (channel 10, mido's 9) for every voice, or, in
  the melodic mode, a channel each for the click and the cue reserved first,
  the drum tracks cycling through the rest (all Taiko Drum, so sharing is safe).
* **Keys and velocities**: :mod:`guji.midi.gm`'s defaults, or the user's
  (``--map``, ``--velocity``), checked here: one clear line for a bad one.
"""

from __future__ import annotations

import operator
from typing import Mapping

from ..i18n import _
from ..errors import UsageError
from ..timing.performance import Part, Performance, Voice
from .gm import DEFAULT_KEYS, DEFAULT_PITCHES, DEFAULT_VELOCITIES, MELODIC_CHANNELS, \
    MELODIC_PROGRAMS, PERCUSSION_CHANNEL

#: The voices of a part's track set, in track order.
TRACK_VOICES = (Voice.SMALL, Voice.BIG, Voice.CLICK)


def _check_level(value, what: str, voice: Voice, low: int) -> int:
    """*value* as an int in low…127, or :class:`UsageError`."""
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        number = None
    if number is None or not low <= number <= 127:
        raise UsageError(_('{what} of {value} must be a whole number {low}–127, not {value2}').format(what=what, value=voice.value, low=low, value2=repr(value)))
    return number


def voice_table(defaults: Mapping[Voice, int], overrides, what: str, low: int) -> dict[Voice, int]:
    """*defaults* with the user's *overrides* (voice names as
    :meth:`Voice.from_name` takes them), each checked to be *low*–127."""
    table = dict(defaults)
    if overrides:
        for name, value in dict(overrides).items():
            voice = Voice.from_name(name)
            table[voice] = _check_level(value, what, voice, low)
    return table


def sounds_click(part: Part) -> bool:
    """Whether *part* sounds the click: a count-in, or ghost clicks."""
    return bool(part.score.count_in) or Voice.CLICK in part.pass_voices()


def part_voices(parts) -> list[Voice]:
    """The voices that sound in *parts* (one track set), in track order."""
    sounding = {v for p in parts for v in p.pass_voices()}
    if any(p.score.count_in for p in parts):
        sounding.add(Voice.CLICK)
    return [v for v in TRACK_VOICES if v in sounding]


class MidiPlan:
    """Voice → track, channel, key and velocity for *performance* (see the module).

    Attributes
    ----------
    keys, velocities:
        Voice → MIDI key (or pitch, melodic) and velocity.
    tracks:
        ``(part name, voice)`` → channel, in the file's track order (the cue
        track's name is ``""``).
    """

    def __init__(self, performance: Performance, *, keys: Mapping | None = None,
                 velocities: Mapping | None = None, melodic: bool = False):
        self.melodic = bool(melodic)
        self.keys = voice_table(DEFAULT_PITCHES if melodic else DEFAULT_KEYS, keys, "key", 0)
        self.velocities = voice_table(DEFAULT_VELOCITIES, velocities, "velocity", 1)
        free = list(MELODIC_CHANNELS)
        reserved: dict[Voice, int] = {}
        if any(sounds_click(p) for p in performance.parts):
            reserved[Voice.CLICK] = free.pop()
        if performance.cues:
            reserved[Voice.CUE] = free.pop()
        self.tracks: dict[tuple[str, Voice], int] = {}
        turn = 0
        for name, parts in performance.groups().items():
            for voice in part_voices(parts):
                if not self.melodic:
                    channel = PERCUSSION_CHANNEL
                elif voice in reserved:
                    channel = reserved[voice]
                else:
                    channel, turn = free[turn % len(free)], turn + 1
                self.tracks[(name, voice)] = channel
        if performance.cues:
            self.tracks[("", Voice.CUE)] = reserved[Voice.CUE] if self.melodic \
                else PERCUSSION_CHANNEL

    def channel(self, part: str, voice: Voice) -> int:
        """The channel of *voice* in *part*'s track set (the cue: any part)."""
        return self.tracks[("" if voice is Voice.CUE else part, voice)]

    def programs(self) -> dict[int, int]:
        """Melodic mode: channel → GM program (empty in percussion mode)."""
        if not self.melodic:
            return {}
        out: dict[int, int] = {}
        for (_, voice), channel in self.tracks.items():
            out.setdefault(channel, MELODIC_PROGRAMS[voice])
        return out

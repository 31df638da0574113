"""Performance: what every sink takes — parts and cues on one even grid.

A :class:`Performance` is the whole of what sounds: its :class:`Part`\\ s (a
:class:`~guji.timing.score.Score` each, with a name and a pan) and its
:class:`Cue`\\ s (soft bells outside any pattern). The MIDI writer, the
renderer, the player, the comparisons and the shared page all take one, and
validate nothing it already guarantees: every part, cue and pan checked,
at least one thing to play, times finite and never negative.

Layout
------
Performances are laid out by the combinators of :mod:`guji.timing.layout`
(one after another, at once, pass by pass, a count-in), which keep every
stroke on one grid.

Track sets
----------
Parts that bear the same name are one voice of the performance (the passes
of one variant in :func:`alternate`): a MIDI file gives each *name* one
track set (:meth:`Performance.groups`).

Minus-one
---------
A part may leave a drum out (:attr:`Part.muted`, :meth:`Performance.muting`):
to practise one drum's part against the other, the muted drum's strokes
are silent, or, with :attr:`Part.ghost`, sound as the neutral click so the
player keeps their place. Every sink asks the part what sounds at each event
(:meth:`Part.voice_at`), so MIDI, audio, playback and sheet music leave out
the same strokes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Iterable

from ..i18n import _
from ..errors import UsageError
from ..text.reading.names import part_name
from ..text.reading.notation import Pattern, Rite
from .extent import check_length, check_parts, seconds_of
from .score import (DEFAULT_INTERVAL, Score, check_count_in, check_interval, check_repeat,
                    check_step, grid_time, step_of)
from .voices import DRUMS, VOICE_NAMES, Voice, check_muted

__all__ = ["Voice", "VOICE_NAMES", "DRUMS", "check_muted", "check_pan", "Timing", "Part", "Cue",
           "Performance", "as_performance"]


def check_pan(pan, what: str = "pan") -> float:
    """*pan* as a float from −1 (left) to 1 (right), or :class:`UsageError`."""
    try:
        value = float(pan)
    except (TypeError, ValueError):
        raise UsageError(_('{what} must be a number from -1 (left) to 1 (right), not {pan}').format(what=what, pan=repr(pan))) from None
    if not (math.isfinite(value) and -1.0 <= value <= 1.0):
        raise UsageError(_('{what} must be between -1 (left) and 1 (right), not {value:g}').format(what=what, value=value))
    return value


@dataclass(frozen=True)
class Timing:
    """How patterns are played (see :class:`~guji.timing.score.Score`): the
    rite, the interval between strokes, the passes, the count-in clicks.
    Checked when made, like a score."""

    rite: Rite = Rite.TOUHU
    interval: float = DEFAULT_INTERVAL
    repeat: int = 1
    count_in: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rite, Rite):
            raise UsageError(_('rite must be Rite.TOUHU or Rite.SHE, not {rite}').format(rite=repr(self.rite)))
        object.__setattr__(self, "interval", check_interval(self.interval))
        object.__setattr__(self, "repeat", check_repeat(self.repeat))
        object.__setattr__(self, "count_in", check_count_in(self.count_in))

    def score(self, pattern: Pattern, *, step: int = 0, repeat: int | None = None,
              count_in: int | None = None) -> Score:
        """A score of *pattern* starting at grid step *step*."""
        return Score(pattern, self.rite, self.interval,
                     repeat=self.repeat if repeat is None else repeat,
                     count_in=self.count_in if count_in is None else count_in, step=step)


@dataclass(frozen=True)
class Part:
    """One named voice of a performance: a score, a name, an optional pan,
    and the drums it leaves out.

    Attributes
    ----------
    score:
        What is played, and when.
    name:
        What tracks, staves and players call it.
    pan:
        −1 (left) … +1 (right); ``None`` keeps each drum's own pan (the kit's).
    muted:
        The drums left out (:data:`DRUMS`: :attr:`Voice.SMALL` 鼙,
        :attr:`Voice.BIG` 鼓), for practising one drum's part against the
        other (minus-one). Names as :meth:`Voice.from_name` takes them are
        accepted.
    ghost:
        The muted drum's strokes sound as the count-in click instead of
        nothing (needs a muted drum).
    """

    score: Score
    name: str
    pan: float | None = None
    muted: frozenset[Voice] = frozenset()
    ghost: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.score, Score):
            raise TypeError(f"expected Score, not {type(self.score).__name__}")
        if self.pan is not None:
            object.__setattr__(self, "pan", check_pan(self.pan))
        object.__setattr__(self, "muted", check_muted(self.muted))
        object.__setattr__(self, "ghost", bool(self.ghost))
        if self.ghost and not self.muted:
            raise UsageError(_("ghost clicks stand for a muted drum's strokes: mute 鼙 or 鼓 too"))

    def sounding(self, voice: Voice) -> Voice | None:
        """What sounds for a stroke or click of *voice*: the voice itself, the
        click for a muted drum with :attr:`ghost`, ``None`` for a muted one."""
        if voice in self.muted:
            return Voice.CLICK if self.ghost else None
        return voice

    def voice_at(self, index: int) -> Voice | None:
        """What sounds at event *index* of the score (count-in included):
        :meth:`sounding` of the event's voice. Every sink asks this."""
        return self.sounding(Voice.of(self.score.drum_at(index)))

    def pass_voices(self) -> tuple[Voice | None, ...]:
        """:meth:`sounding` of each stroke of one pass, in order."""
        return tuple(self.sounding(Voice.of(s.drum)) for s in self.score.played)

    @property
    def stroke_count(self) -> int:
        """Drum strokes that sound (muted ones, and their ghost clicks, not counted)."""
        per_pass = sum(v in DRUMS for v in self.pass_voices())
        return per_pass * self.score.repeat

    @property
    def step(self) -> "int | Fraction":
        """The grid step of the score's first event (:attr:`Score.step`)."""
        return self.score.step

    @property
    def end_step(self) -> int:
        """The grid step just after the part's last event."""
        return self.step + len(self.score)


@dataclass(frozen=True, init=False)
class Cue:
    """A bell outside any pattern, on grid step *step* of a grid of *interval*
    seconds (a whole step or an exact :class:`~fractions.Fraction` of one:
    ``compare diff`` rings half-way between two strokes): sinks sound it with
    :attr:`Voice.CUE` (MIDI: a track of its own, with *label* as a marker).

    ``Cue(1.5, "gap")`` puts one at a time in seconds instead (kept exactly:
    step 3/2 of a one-second grid); :meth:`Performance.later` moves a cue onto
    the performance's own grid."""

    step: "int | Fraction"
    interval: float
    label: str
    pan: float | None

    def __init__(self, time: float | None = None, label: str = "", pan: float | None = None, *,
                 step: "int | Fraction | None" = None, interval: float | None = None):
        if step is None:
            if time is None:
                raise UsageError(_('a cue needs a time or a grid step'))
            interval, step = 1.0, step_of(time, 1.0, "cue time")
        else:
            interval = check_interval(DEFAULT_INTERVAL if interval is None else interval)
            step = check_step(step, "the cue's step")
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "interval", interval)
        object.__setattr__(self, "label", str(label))
        object.__setattr__(self, "pan", None if pan is None else check_pan(pan, "cue pan"))

    @property
    def time(self) -> float:
        """Seconds from the start: ``step × interval`` (:func:`~guji.timing.score.grid_time`)."""
        return grid_time(self.step, self.interval)

    def step_on(self, interval: float) -> "int | Fraction":
        """The cue's exact step on a grid of *interval* seconds."""
        if interval == self.interval:
            return self.step
        return check_step(Fraction(self.step) * Fraction(self.interval) / Fraction(interval))

    def on_grid(self, interval: float) -> "Cue":
        """The same cue, its step counted on a grid of *interval* seconds."""
        if interval == self.interval:
            return self
        return Cue(step=self.step_on(interval), interval=interval, label=self.label, pan=self.pan)


@dataclass(frozen=True)
class Performance:
    """Parts and cues: everything a sink plays or writes.

    Attributes
    ----------
    parts:
        The parts, in the order their track sets appear (a MIDI file's tracks,
        a page's players).
    cues:
        Bells outside the patterns, in time order.
    title:
        What a file or a page calls the whole (``None``: the sinks make one
        from the part names).
    """

    parts: tuple[Part, ...] = ()
    cues: tuple[Cue, ...] = ()
    title: str | None = None

    def __post_init__(self) -> None:
        parts, cues = tuple(self.parts), tuple(self.cues)
        for p in parts:
            if not isinstance(p, Part):
                raise TypeError(f"expected Part, not {type(p).__name__}")
        for c in cues:
            if not isinstance(c, Cue):
                raise TypeError(f"expected Cue, not {type(c).__name__}")
        if not parts and not cues:
            raise UsageError(_('nothing to play: no part and no cue'))
        check_parts(len(parts) + len(cues))
        for p in parts:                # each part's end, before any time is computed
            events = p.score.count_in + p.score.stroke_count
            check_length(seconds_of(p.score.step + events, p.score.interval))
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "cues", tuple(sorted(cues, key=lambda c: c.time)))
        check_length(self.duration)

    # -- shape -------------------------------------------------------------
    @property
    def interval(self) -> float:
        """The grid: the smallest interval of the parts (the default with cues only)."""
        return min((p.score.interval for p in self.parts), default=DEFAULT_INTERVAL)

    @property
    def duration(self) -> float:
        """Seconds until the last part's grid ends, or the last cue's grid step."""
        end = max((p.score.duration for p in self.parts), default=0.0)
        for cue in self.cues:
            end = max(end, grid_time(cue.step_on(self.interval) + 1, self.interval))
        return end

    @property
    def end_step(self) -> int:
        """Grid steps from 0 to the end of the last part's grid (or cue's step)."""
        end = max((p.end_step for p in self.parts), default=0)
        for cue in self.cues:
            end = max(end, math.floor(cue.step_on(self.interval)) + 1)
        return end

    @property
    def stroke_count(self) -> int:
        """Drum strokes of every part that sound (clicks, cues and muted strokes
        not counted)."""
        return sum(p.stroke_count for p in self.parts)

    def names(self) -> tuple[str, ...]:
        """The part names, each once, in order."""
        return tuple(dict.fromkeys(p.name for p in self.parts))

    def groups(self) -> dict[str, tuple[Part, ...]]:
        """Name → the parts bearing it, in order: one track set each."""
        out: dict[str, list[Part]] = {}
        for p in self.parts:
            out.setdefault(p.name, []).append(p)
        return {name: tuple(ps) for name, ps in out.items()}

    # -- moving ------------------------------------------------------------
    def later(self, steps: int) -> "Performance":
        """The same performance *steps* grid steps later."""
        if steps == 0:
            return self
        parts = tuple(replace(p, score=replace(p.score, step=p.step + steps))
                      for p in self.parts)
        grid = self.interval
        cues = tuple(Cue(step=c.step_on(grid) + steps, interval=grid, label=c.label, pan=c.pan)
                     for c in self.cues)
        return Performance(parts, cues, self.title)

    def titled(self, title: str | None) -> "Performance":
        return replace(self, title=title)

    def muting(self, voices, *, ghost: bool = False) -> "Performance":
        """Every part with the drums *voices* left out (see :attr:`Part.muted`;
        with *ghost*, their strokes sound as clicks). No voice: as it is."""
        muted = check_muted(voices)
        if not muted:
            if ghost:
                raise UsageError(_("ghost clicks stand for a muted drum's strokes: mute 鼙 or 鼓 too"))
            return self
        parts = tuple(replace(p, muted=muted, ghost=ghost) for p in self.parts)
        return Performance(parts, self.cues, self.title)


def as_performance(what, cues: Iterable[Cue] = ()) -> Performance:
    """A :class:`Performance` of *what*: a performance, a score, a part, or a
    sequence of scores and parts; *cues* are added.

    A score becomes a part named after its pattern
    (:func:`~guji.text.reading.names.part_name`), with `` (2)``, `` (3)`` … added when
    that name is taken: scores given one by one stay apart, while parts given
    the same name on purpose share a track set.
    """
    cues = tuple(cues)
    if isinstance(what, Performance):
        return replace(what, cues=what.cues + cues) if cues else what
    if what is None:
        what = ()
    if isinstance(what, (Score, Part)):
        what = [what]
    what = list(what)
    taken = {item.name for item in what if isinstance(item, Part)}
    parts = []
    for item in what:
        if isinstance(item, Score):
            base = name = part_name(item.pattern)
            n = 1
            while name in taken:
                n += 1
                name = f"{base} ({n})"
            taken.add(name)
            parts.append(Part(item, name))
        elif isinstance(item, Part):
            parts.append(item)
        else:
            raise TypeError(f"expected Score or Part, not {type(item).__name__}")
    return Performance(tuple(parts), cues)

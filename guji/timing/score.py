"""Pattern → Score: strokes placed in time on one even grid (間若一).

命弦者曰：「請奏《貍首》，間若一。」 孔穎達: 謂前後樂節中間疏數如似一也 — the gaps
between the beats are all the same. So a :class:`Score` puts every stroke on
one grid: a score starts on grid step :attr:`Score.step` (a whole number, or
an exact :class:`~fractions.Fraction` for a score put by hand between two
steps), and its event *i* sounds at ``(step + i) × interval`` seconds — one
multiplication of the exact step, never an addition of seconds, so nothing
drifts however long the piece, and every sink's edge (a sample, a tick) is
worked out from the step: ``sample = round((step + i) × interval × rate)``
(:func:`grid_time`).

A score is lazy: it holds the pattern and the timing, and computes any event
from its index. ``--repeat 10000`` costs no memory until a sink asks.

The default interval
--------------------
The sources give no absolute speed; the interval is the user's choice.
:data:`DEFAULT_INTERVAL` is 0.6 s (100 strokes a minute). The reasoning, one
reading and not a source (docs/notation.md): the throwers take their timing from
the music (鄭玄: 投壺當以為志取節焉); if one pass of the half pattern
accompanies one throw, and a throw comes every 6–8 s, the 10–13 strokes of a
half put about 0.5–0.7 s between strokes. 0.6 s sits in the middle.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..i18n import _
from .. import defaults
from ..defaults import INTERVAL
from ..errors import UsageError
from ..text.reading.notation import Drum, Pattern, Rite, Stroke
from .extent import check_exact

#: Seconds between strokes when the user says nothing (see the module docstring).
DEFAULT_INTERVAL = INTERVAL

#: No interval below this (5 ms, 12,000 strokes a minute) is accepted: strokes
#: would merge into a buzz long before, and sinks need room on their grids.
MIN_INTERVAL = defaults.MIN_INTERVAL


def check_interval(interval: float) -> float:
    """Return *interval* as a float, or raise :class:`UsageError` if unusable."""
    try:
        value = float(interval)
    except (TypeError, ValueError):
        raise UsageError(_('interval must be a number of seconds, not {interval}').format(interval=repr(interval))) from None
    if math.isnan(value) or math.isinf(value):
        raise UsageError(_('interval must be a finite number of seconds, not {value}').format(value=value))
    if value <= 0:
        raise UsageError(_('interval must be positive, not {value:g} s').format(value=value))
    if value < MIN_INTERVAL:
        raise UsageError(_('interval {value:g} s is too small: strokes would collide (at least {min_interval:g} s, i.e. {value2:g} per minute)').format(value=value, min_interval=MIN_INTERVAL, value2=60 / MIN_INTERVAL))
    check_exact(value, f"one stroke of interval {value:g} s")
    return value


def interval_from_bpm(bpm: float) -> float:
    """Seconds between strokes for *bpm* strokes per minute."""
    try:
        value = float(bpm)
    except (TypeError, ValueError):
        raise UsageError(_('--bpm must be a number of strokes per minute, not {bpm}').format(bpm=repr(bpm))) from None
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise UsageError(_('--bpm must be a positive, finite number of strokes per minute, not {value:g}').format(value=value))
    return check_interval(60.0 / value)


def _whole(value) -> int | None:
    """*value* as a Python int if it is a whole number (numpy ints too), else None.

    ``True``/``False`` are refused: a flag is not a count.
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


#: The most passes or clicks a score counts: 2**53, past which an event's
#: index (and so its time, index × interval) is no longer exact in floating point.
MAX_COUNT = 2 ** 53


def check_repeat(repeat) -> int:
    """*repeat* as a whole number of passes, 1 to :data:`MAX_COUNT`, or :class:`UsageError`."""
    value = _whole(repeat)
    if value is None or value < 1:
        raise UsageError(_('repeat must be a whole number of passes, at least 1, not {value}').format(value=_shown(repeat)))
    if value > MAX_COUNT:
        raise UsageError(_('repeat {value} is past the {max_count:,} passes a score can count exactly').format(value=_shown(value), max_count=MAX_COUNT))
    return value


def check_count_in(count_in) -> int:
    """*count_in* as a whole number of clicks, 0 to :data:`MAX_COUNT`, or :class:`UsageError`."""
    value = _whole(count_in)
    if value is None or value < 0:
        raise UsageError(_('count-in must be a whole number of clicks, 0 or more, not {value}').format(value=_shown(count_in)))
    if value > MAX_COUNT:
        raise UsageError(_('count-in {value} is past the {max_count:,} clicks a score can count exactly').format(value=_shown(value), max_count=MAX_COUNT))
    return value


def _shown(value) -> str:
    """*value* for a message: a whole number of a thousand digits shortened."""
    text = repr(value)
    return text if len(text) <= 30 else f"{text[:12]}…({len(text)} digits)"


def grid_time(step: "int | Fraction", interval: float) -> float:
    """Seconds of grid *step* on a grid of *interval* seconds: ``step × interval``,
    one multiplication (a whole step: Python's exactly rounded ``int × float``;
    a fraction of a step: the exact product, rounded once)."""
    if isinstance(step, int):
        return step * interval
    return float(step * Fraction(interval))


def check_step(step, what: str = "the start step") -> "int | Fraction":
    """*step* as a whole number of grid steps (an ``int``), or an exact
    :class:`~fractions.Fraction` of one, 0 or more; :class:`UsageError` else.
    A fraction that is whole becomes an ``int``."""
    if isinstance(step, bool):
        raise UsageError(_('{what} must be a number of grid steps, not {step}').format(what=what, step=repr(step)))
    whole = _whole(step)
    if whole is not None:
        value: int | Fraction = whole
    elif isinstance(step, Fraction):
        value = int(step) if step.denominator == 1 else step
    else:
        raise UsageError(_('{what} must be a whole number of grid steps or an exact Fraction of one, not {step}').format(what=what, step=repr(step)))
    if value < 0:
        raise UsageError(_('{what} must be 0 or more, not {value}').format(what=what, value=value))
    return value


def step_of(seconds, interval: float, what: str = "start") -> "int | Fraction":
    """The exact grid step of a time given in *seconds* (a score or cue put by
    hand): ``Fraction(seconds) / Fraction(interval)``, whole if it is one."""
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise UsageError(_('{what} must be a number of seconds, not {seconds}').format(what=what, seconds=repr(seconds))) from None
    if not math.isfinite(value) or value < 0:
        raise UsageError(_('{what} must be a finite, non-negative time, not {value:g}').format(what=what, value=value))
    return check_step(Fraction(value) / Fraction(interval), what)


@dataclass(frozen=True)
class Event:
    """One timed event of a score.

    Attributes
    ----------
    time:
        Seconds from the start of the piece (``(score.step + index) × interval``).
    index:
        Place in the whole score, count-in included (0-based).
    drum:
        The drum struck, or ``None`` for a count-in click.
    stroke:
        The pattern's stroke (with its source position), ``None`` for a click.
    pass_index:
        Which pass of the pattern (0-based); ``-1`` for the count-in.
    position:
        Place of the stroke within the part played in one pass (0-based).
    before_half:
        True for strokes before 半 (only the 射禮 plays them).
    """

    time: float
    index: int
    drum: Drum | None
    stroke: Stroke | None
    pass_index: int
    position: int
    before_half: bool

    @property
    def is_click(self) -> bool:
        return self.drum is None


@dataclass(frozen=True, init=False)
class Score:
    """A pattern played on the even grid.

    Parameters
    ----------
    pattern:
        What to play.
    rite:
        :attr:`Rite.TOUHU` (投壺: from 半 to the end, the default) or
        :attr:`Rite.SHE` (射禮: the whole pattern).
    interval:
        Seconds between strokes (間若一: always the same).
    repeat:
        Passes of the pattern (the music goes on while the arrows fly).
    count_in:
        Neutral clicks, on a voice of their own, one interval apart, before
        the first stroke.
    step:
        The grid step of the first event (used to lay scores side by side):
        a whole number, or an exact :class:`~fractions.Fraction` of a step.
    start:
        Instead of *step*, the seconds before the first event (a score put
        by hand): kept as the exact step ``Fraction(start) / Fraction(interval)``.
    """

    pattern: Pattern
    rite: Rite
    interval: float
    repeat: int
    count_in: int
    step: "int | Fraction"

    def __init__(self, pattern: Pattern, rite: Rite = Rite.TOUHU,
                 interval: float = DEFAULT_INTERVAL, repeat: int = 1, count_in: int = 0,
                 step: "int | Fraction" = 0, *, start: float | None = None):
        interval = check_interval(interval)
        if start is not None:
            step = step_of(start, interval)
        for name, value in (("pattern", pattern), ("rite", rite), ("interval", interval),
                            ("repeat", check_repeat(repeat)),
                            ("count_in", check_count_in(count_in)),
                            ("step", check_step(step))):
            object.__setattr__(self, name, value)

    @property
    def start(self) -> float:
        """Seconds before the first event: ``step × interval``."""
        return grid_time(self.step, self.interval)

    # -- shape ----------------------------------------------------------
    @property
    def played(self) -> tuple[Stroke, ...]:
        """The strokes of one pass."""
        return self.pattern.strokes_for(self.rite)

    @property
    def per_pass(self) -> int:
        return len(self.played)

    @property
    def stroke_count(self) -> int:
        """Strokes in the whole score (clicks not counted)."""
        return self.per_pass * self.repeat

    def __len__(self) -> int:
        """Events in the whole score, count-in clicks included."""
        return self.count_in + self.stroke_count

    @property
    def duration(self) -> float:
        """Seconds from 0 to one interval after the last event (the grid's end)."""
        return self.time(len(self))

    @property
    def end(self) -> float:
        """Time of the last event."""
        return self.time(len(self) - 1)

    # -- time -----------------------------------------------------------
    def time(self, index: int) -> float:
        """Time of event *index*: ``(step + index) × interval`` (:func:`grid_time`)."""
        return grid_time(self.step + index, self.interval)

    def pass_start(self, pass_index: int) -> float:
        """Time of the first stroke of pass *pass_index*."""
        return self.time(self.count_in + pass_index * self.per_pass)

    def half_time(self, pass_index: int) -> float | None:
        """Time of the first stroke after 半 in pass *pass_index* (``None`` in 投壺,
        where the pass starts at 半)."""
        if self.rite is Rite.TOUHU:
            return None
        return self.time(self.count_in + pass_index * self.per_pass + self.pattern.half_start)

    def event(self, index: int) -> Event:
        """Event *index* (0 ≤ index < len(score))."""
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"event {index} out of range (score has {n})")
        t = self.time(index)
        if index < self.count_in:
            return Event(t, index, None, None, -1, index, False)
        k = index - self.count_in
        pass_index, position = divmod(k, self.per_pass)
        stroke = self.played[position]
        before = self.rite is Rite.SHE and position < self.pattern.half_start
        return Event(t, index, stroke.drum, stroke, pass_index, position, before)

    def events(self, first: int = 0, stop: int | None = None) -> Iterator[Event]:
        """Events *first* … *stop*−1, in order (all of them by default)."""
        stop = len(self) if stop is None else min(stop, len(self))
        for i in range(max(first, 0), stop):
            yield self.event(i)

    def __iter__(self) -> Iterator[Event]:
        return self.events()

    def drum_at(self, index: int) -> Drum | None:
        """The drum of event *index* without building the event (same indexing
        as :meth:`event`: negative counts from the end, out of range is an
        :class:`IndexError`)."""
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"event {index} out of range (score has {n})")
        if index < self.count_in:
            return None
        return self.played[(index - self.count_in) % self.per_pass].drum

    def require_resolution(self, per_second: "int | Fraction", grid: str,
                           interval: "Fraction | None" = None) -> None:
        """Raise :class:`UsageError` if two strokes would fall on one step of a
        grid of *per_second* steps a second (MIDI ticks, audio samples), given
        exactly (an ``int`` or a :class:`~fractions.Fraction`): the check is
        ``interval × per_second < 1`` in exact arithmetic, *interval* being the
        score's, or as the sink measures it (MIDI: in microseconds,
        ``interval × 1,000,000`` as the tempo is chosen from it)."""
        exact = Fraction(self.interval) if interval is None else interval
        if exact * Fraction(per_second) < 1:
            raise UsageError(_('interval {interval:g} s is finer than the {grid} grid ({value:g} a second): strokes would collide').format(interval=self.interval, grid=grid, value=float(per_second)))

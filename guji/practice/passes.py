"""What ``guji play --check`` scores, pass by pass: the events of each pass on its own grid.

A :class:`Pass` is one report's worth of the performance: its events (as
:func:`~guji.practice.expected.expected_events` lists them) counted from
the pass's own start — steps from 0 on the pass's own grid, times in
seconds from that start — and the stretch of the performance whose hits it
takes (:attr:`Pass.lo` … :attr:`Pass.hi`: half-way between its last event
and the next pass's first, so a late last stroke stays in its pass and an
early first stroke in the next).

* :func:`whole` — the whole performance, one pass (``guji check`` of it);
* :func:`ramp_passes` — a practice ramp (``--ramp``), a pass per part, each
  at its own tempo (its own interval);
* :func:`loop_passes` — ``--loop``: pass after pass, endless.

Minus-one (``--mute``/``--solo``: guji plays one drum, the drummer the
other): a stroke guji sounds itself is not the drummer's (:func:`drummers`);
it stays among the events, as the count-in's clicks do (``drum`` ``None``),
so that the microphone's hearing it is no extra hit, and is not scored.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Iterator

from ..timing.loop import Loop
from ..timing.performance import Performance
from ..timing.score import grid_time
from ..timing.voices import Voice
from .expected import Expected, expected_events


@dataclass(frozen=True)
class Pass:
    """One pass to report on.

    Attributes
    ----------
    number:
        0-based: the pass of ``--loop``, or of ``--ramp``.
    events:
        Its events, steps and times counted from :attr:`start`.
    interval:
        Its grid (seconds a step): the tempo it is scored against.
    start:
        Seconds of the performance where its steps and times count from.
    lo, hi:
        Seconds of the performance: the hits heard from *lo* up to *hi*
        are this pass's (``-inf`` for the first, ``inf`` for the last).
    looped:
        A pass of ``--loop`` (what ``guji play`` shows as ``loop 3``).
    """

    number: int
    events: tuple[Expected, ...]
    interval: float
    start: float
    lo: float
    hi: float
    looped: bool = False

    @property
    def first(self) -> float:
        """Seconds of the performance of its first event."""
        return self.start + self.events[0].time

    @property
    def last(self) -> float:
        """Seconds of the performance of its last event."""
        return self.start + self.events[-1].time


def drummers(performance: Performance) -> tuple[Expected, ...]:
    """:func:`expected_events` of the *performance* guji plays, every stroke
    that guji sounds itself (a drum it keeps under minus-one, or a ghost
    click) made guji's own: ``drum`` ``None``, no glyph — like a click, it
    takes the hit heard at it and is not scored."""
    own = set()
    for part in performance.parts:
        for event in part.score.events():
            if event.drum is not None and part.sounding(Voice.of(event.drum)) is not None:
                own.add(part.step + event.index)
    return tuple(replace(e, drum=None, glyph="") if e.step in own else e
                 for e in expected_events(performance))


def whole(performance: Performance) -> Pass:
    """The whole *performance*: one pass, every hit heard (``guji check``)."""
    return Pass(0, drummers(performance), performance.interval, 0.0, -math.inf, math.inf)


def ramp_passes(performance: Performance) -> tuple[Pass, ...]:
    """A pass for each part of a ramp (:func:`guji.timing.layout.ramp`), on
    the part's own grid; the count-in with the first."""
    out = []
    for k, part in enumerate(performance.parts):
        one = Performance((part,))
        base = part.step                                   # an exact Fraction
        start = grid_time(base, part.score.interval)
        events = tuple(replace(e, step=int(e.step - base), time=e.time - start,
                               pass_index=k if e.pass_index >= 0 else e.pass_index)
                       for e in drummers(one))
        out.append(Pass(k, events, part.score.interval, start, -math.inf, math.inf))
    return _bounded(out)


def loop_passes(loop: Loop) -> Iterator[Pass]:
    """The passes of *loop*, one after another, endless (the count-in with the first)."""
    upcoming = _loop_pass(loop, 0)
    for k in itertools.count():
        following = _loop_pass(loop, k + 1)
        lo = -math.inf if k == 0 else upcoming.lo
        hi = (upcoming.last + following.first) / 2
        yield replace(upcoming, lo=lo, hi=hi)
        upcoming = replace(following, lo=hi)


def _loop_pass(loop: Loop, k: int) -> Pass:
    base = 0 if k == 0 else loop.pass_step(k)
    start = grid_time(base, loop.interval)
    events = tuple(replace(e, step=e.step - base, time=e.time - start)
                   for e in drummers(loop.passes(k, 1)))
    return Pass(k, events, loop.interval, start, -math.inf, math.inf, looped=True)


def _bounded(passes: list[Pass]) -> tuple[Pass, ...]:
    """*passes* each bounded half-way to its neighbours' events."""
    out = list(passes)
    for k in range(len(out) - 1):
        cut = (out[k].last + out[k + 1].first) / 2
        out[k] = replace(out[k], hi=cut)
        out[k + 1] = replace(out[k + 1], lo=cut)
    return tuple(out)

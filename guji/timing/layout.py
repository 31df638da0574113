"""Layout: the combinators that build a :class:`~guji.timing.performance.Performance`.

Performances are built by a few combinators, here and nowhere else, and
every one of them keeps all strokes on one grid (間若一): each part starts
a whole number of grid steps from 0.

* :func:`perform` — one pattern played with a :class:`Timing` (rite,
  interval, passes, count-in);
* :func:`sequence` — one after another: each performance starts
  :data:`DEFAULT_GAP_STEPS` empty grid steps (or *gap*) after the previous
  one's grid ends, optionally with a bell in the gap;
* :func:`alternate` — pass by pass, A's pass then B's, for several rounds;
* :func:`stack` — at once, each part with its pan;
* :func:`count_in` — clicks before everything else, which moves later;
* :func:`ramp` — a practice ramp: the passes one after another, the tempo
  going evenly from one figure to another, each pass on its own exact grid.

:func:`lay_out` is the one layout of several patterns named on one command
line: one after another (a count-in, if any, once, first), or stacked when
asked for.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Sequence

from ..i18n import _
from ..errors import UsageError
from ..text.reading.names import part_name
from ..text.reading.notation import Pattern
from .extent import check_parts, check_steps
from .performance import Cue, Part, Performance, Timing
from .score import Score, check_step, interval_from_bpm

#: Empty grid steps between patterns played one after another (the cue bell,
#: where there is one, sounds on the middle one).
DEFAULT_GAP_STEPS = 3


def perform(pattern: Pattern, timing: Timing = Timing(), *, name: str | None = None,
            pan: float | None = None) -> Performance:
    """One pattern played with *timing*, from grid step 0."""
    return Performance((Part(timing.score(pattern), name or part_name(pattern), pan),))


def sequence(performances: Sequence[Performance], *, gap: int = DEFAULT_GAP_STEPS,
             cue_labels: Sequence[str] | None = None, cue_step: int = 1,
             title: str | None = None) -> Performance:
    """*performances* one after another: each starts *gap* empty grid steps
    after the previous one's grid ends. With *cue_labels*, a bell sounds in
    each gap, *cue_step* steps into it, labelled with the next label."""
    gap = check_gap(gap)
    parts: list[Part] = []
    cues: list[Cue] = []
    step = 0
    for k, perf in enumerate(performances):
        if k and cue_labels is not None:
            bell = step - gap + cue_step
            cues.append(Cue(step=bell, interval=perf.interval, label=cue_labels[k - 1]))
        moved = perf.later(step)
        parts += moved.parts
        cues += moved.cues
        step = moved.end_step + gap
    return Performance(tuple(parts), tuple(cues), title)


def stack(performances: Sequence[Performance], *, pans: Sequence[float | None] | None = None,
          title: str | None = None) -> Performance:
    """*performances* at once; with *pans*, every part of the *k*-th at ``pans[k]``."""
    parts: list[Part] = []
    cues: list[Cue] = []
    for k, perf in enumerate(performances):
        pan = pans[k] if pans is not None else None
        parts += [replace(p, pan=pan) if pans is not None else p for p in perf.parts]
        cues += perf.cues
    return Performance(tuple(parts), tuple(cues), title)


def alternate(patterns: Sequence[Pattern], timing: Timing, *, names: Sequence[str] | None = None,
              gap: int = 1, title: str | None = None) -> Performance:
    """Pass by pass: A's pass, B's pass …, then A's next, for ``timing.repeat``
    rounds, *gap* empty steps between passes; the count-in once, first. Every
    pass of a pattern bears its name (one track set in MIDI)."""
    names = list(names) if names is not None else [part_name(p) for p in patterns]
    passes = timing.repeat * len(patterns)          # checked before any is made
    check_parts(passes, "passes (parts)")
    check_steps(timing.count_in + timing.repeat * sum(len(p.strokes_for(timing.rite))
                                                      for p in patterns)
                + gap * (passes - 1), timing.interval)
    one_pass = replace(timing, repeat=1, count_in=0)
    passes = [perform(p, one_pass, name=n) for _ in range(timing.repeat)
              for p, n in zip(patterns, names)]
    return count_in(sequence(passes, gap=gap, title=title), timing.count_in)


def count_in(performance: Performance, clicks: int) -> Performance:
    """*clicks* count-in clicks, one step apart, before everything: they
    belong to the first part, and everything else moves *clicks* steps later."""
    if not clicks:
        return performance
    first, rest = performance.parts[0], performance.parts[1:]
    if first.score.count_in:
        raise UsageError(_('the first part already has a count-in'))
    moved = Performance(rest, performance.cues, performance.title).later(clicks) \
        if (rest or performance.cues) else None
    head = replace(first, score=replace(first.score, count_in=clicks))
    return Performance((head,) + (moved.parts if moved else ()),
                       moved.cues if moved else (), performance.title)


def check_gap(gap) -> int:
    """*gap* as a whole number of empty grid steps (0 or more), or :class:`UsageError`."""
    if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
        raise UsageError(_('the gap is a whole number of empty grid steps, 0 or more, not {gap}').format(gap=repr(gap)))
    return gap


def lay_out(patterns: Sequence[Pattern], timing: Timing = Timing(), *,
            gap: int = DEFAULT_GAP_STEPS, stacked: bool = False,
            names: Sequence[str] | None = None, title: str | None = None) -> Performance:
    """The one layout of several patterns: one after another, *gap* empty
    grid steps between them, or all at once when *stacked*; the count-in,
    if any, once, before the first."""
    if not patterns:
        raise UsageError(_('nothing to play: no pattern given'))
    names = list(names) if names is not None else [part_name(p) for p in patterns]
    plain = replace(timing, count_in=0)
    each = [perform(p, plain, name=n) for p, n in zip(patterns, names)]
    whole = stack(each, title=title) if stacked else sequence(each, gap=gap, title=title)
    return count_in(whole, timing.count_in)


def ramp_intervals(start_bpm: float, end_bpm: float, passes: int) -> tuple[float, ...]:
    """The interval of each of *passes* passes, the tempo (strokes a minute)
    going evenly from *start_bpm* (the first pass) to *end_bpm* (the last)."""
    if passes < 2:
        raise UsageError(_("--ramp needs --repeat 2 or more: it ramps the tempo over the passes"))
    return tuple(interval_from_bpm(start_bpm + (end_bpm - start_bpm) * k / (passes - 1))
                 for k in range(passes))


def ramp(patterns: Sequence[Pattern], timing: Timing, start_bpm: float, end_bpm: float, *,
         gap: int = DEFAULT_GAP_STEPS, names: Sequence[str] | None = None,
         title: str | None = None) -> Performance:
    """A practice ramp: each pattern's ``timing.repeat`` passes, pass *k* at
    the *k*-th of :func:`ramp_intervals` (*timing*'s own interval unused),
    one after another, each pass on its own exact grid: it starts on the exact
    step (a :class:`~fractions.Fraction`) of its own interval where the
    previous pass's grid ends, so every stroke is ``step × interval`` of its
    pass, the passes' lengths summed exactly. Patterns follow one another
    *gap* steps (of the last pass's interval) apart; the count-in, at the
    first pass's tempo, once, first. Every pass of a pattern bears its name."""
    if not patterns:
        raise UsageError(_("nothing to play: no pattern given"))
    intervals = ramp_intervals(start_bpm, end_bpm, timing.repeat)
    check_parts(timing.repeat * len(patterns), "passes (parts)")
    gap = check_gap(gap)
    names = list(names) if names is not None else [part_name(p) for p in patterns]
    parts: list[Part] = []
    start = Fraction(0)                  # seconds, exactly
    for pattern, name in zip(patterns, names):
        for interval in intervals:
            exact = Fraction(interval)
            score = Score(pattern, timing.rite, interval, repeat=1,
                          count_in=0 if parts else timing.count_in,
                          step=check_step(start / exact))
            parts.append(Part(score, name))
            start += exact * len(score)
        start += Fraction(intervals[-1]) * gap
    return Performance(tuple(parts), (), title)

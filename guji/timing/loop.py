"""A performance played over and over until it is stopped, on one grid.

:class:`Loop` describes ``guji play --loop``: the count-in (if any) once,
then the rest of the performance — its *body* — pass after pass, each pass
starting :attr:`Loop.period_steps` grid steps after the one before. The
period is the body's grid (its last stroke's step + 1) plus *gap* empty
steps, so across the seam from one pass to the next the strokes keep the
grid (間若一): with no gap, the first stroke of a pass comes one interval
after the last stroke of the pass before, like any two strokes.

A loop is endless, so no sink holds it whole: sinks ask for a few passes at
a time (:meth:`Loop.passes`), each an ordinary
:class:`~guji.timing.performance.Performance` whose times are computed from
their absolute grid step (``(step) × interval``, one multiplication), never
by adding up passes: pass 10,000 is exactly where its steps put it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..i18n import _
from .. import limits
from ..errors import UsageError
from .performance import Performance


@dataclass(frozen=True)
class Loop:
    """*performance* played again and again, *gap* empty grid steps between passes.

    Attributes
    ----------
    performance:
        What one pass plays; a count-in (on its first part) is played once,
        before the first pass only.
    gap:
        Empty grid steps after each pass (0: the next pass starts one grid
        step after the last stroke).
    intro_steps:
        Grid steps of the count-in.
    body:
        The performance without its count-in, from step 0.
    period_steps:
        Grid steps from the start of one pass to the next.
    """

    performance: Performance
    gap: int = 0
    intro_steps: int = field(init=False)
    body: Performance = field(init=False)
    period_steps: int = field(init=False)

    def __post_init__(self) -> None:
        if isinstance(self.gap, bool) or not isinstance(self.gap, int) or self.gap < 0:
            raise UsageError(_('the gap between passes is a whole number of grid steps, 0 or more, not {gap}').format(gap=repr(self.gap)))
        perf = self.performance
        if not perf.parts:
            raise UsageError(_('nothing to loop: no part'))
        first = perf.parts[0]
        clicks = first.score.count_in
        # without its clicks the first part's strokes start on step 0; the
        # rest, which the count-in moved later, move back as many steps
        head = replace(first, score=replace(first.score, count_in=0))
        rest = Performance(perf.parts[1:], perf.cues, perf.title) \
            if (perf.parts[1:] or perf.cues) else None
        if rest is not None and clicks:
            rest = rest.later(-clicks)
        body = Performance((head,) + (rest.parts if rest else ()), rest.cues if rest else (),
                           perf.title)
        object.__setattr__(self, "intro_steps", clicks)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "period_steps", max(body.end_step, 1) + self.gap)

    @property
    def interval(self) -> float:
        """Seconds of one grid step."""
        return self.performance.interval

    @property
    def period(self) -> float:
        """Seconds from the start of one pass to the next."""
        return self.period_steps * self.interval

    def pass_step(self, index: int) -> int:
        """The grid step on which pass *index* (0-based) starts."""
        return self.intro_steps + index * self.period_steps

    def pass_start(self, index: int) -> float:
        """Seconds from the start to pass *index*: ``pass_step × interval``."""
        return self.pass_step(index) * self.interval

    def passes(self, first: int, count: int) -> Performance:
        """Passes *first* … *first* + *count* − 1 as one performance at their
        own times (the count-in with pass 0). Parts keep their names: pass
        after pass, a part is one voice (one track set in MIDI)."""
        if first < 0 or count < 1:
            raise ValueError(f"passes from {first}, {count} of them: first ≥ 0, count ≥ 1")
        parts = []
        cues = []
        # a loop plays until stopped: the limit on a piece's length is not for it
        # (the hard limits still hold: sample positions stay exact)
        with limits.lifted():
            for k in range(first, first + count):
                one = self.performance if k == 0 else self.body.later(self.pass_step(k))
                parts += one.parts
                cues += one.cues
            return Performance(tuple(parts), tuple(cues), self.performance.title)

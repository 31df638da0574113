"""Repeats: passes that sound the same are written once, between repeat signs.

``--repeat N`` plays a pattern N times; a MIDI file holds every pass, but a
performer reads the pass once between repeat signs, ×N over the closing
one. :func:`runs` finds where a score can be folded so: runs of bars that
repeat, bar for bar and staff for staff, right after one another.

The rule
--------
Walking from the first bar, at each bar the longest run of identical
groups of up to :data:`MAX_SPAN` bars is taken (the shortest group where two
cover as much): a pass of the 投壺 (one bar) or of the 射禮 (two bars,
either side of 半), or, with patterns sounding at once, the bars of a
pass of all of them when their passes line up. A group whose later copies
carry a text (a pattern's name where it begins) is not a repeat: a
different pattern begins there. Where passes of patterns sounding at once
do not line up (12 strokes against 8), there may be no such group: those
bars are written out as they sound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Sequence

#: The most bars one repeated group may have.
MAX_SPAN = 16


@dataclass(frozen=True)
class Run:
    """Bars ``start`` … ``start + span − 1`` played ``times`` times in a row."""

    start: int
    span: int
    times: int

    @property
    def end(self) -> int:
        """The first bar after the run, as the bars sound."""
        return self.start + self.span * self.times


def runs(keys: Sequence[Hashable], labelled: Sequence[bool],
         max_span: int = MAX_SPAN) -> list[Run]:
    """The runs to fold, in order, none overlapping (see the module docstring).

    *keys* are what each bar sounds like (two bars of equal keys are played
    alike); *labelled* says which bars carry a text, which only the first
    copy of a run may.
    """
    if len(keys) != len(labelled):
        raise ValueError("one key and one label flag per bar")
    keys = list(keys)
    out: list[Run] = []
    i, n = 0, len(keys)
    while i < n:
        best: Run | None = None
        for span in range(1, min(max_span, (n - i) // 2) + 1):
            times = _copies(keys, labelled, i, span)
            if times >= 2 and (best is None or times * span > best.times * best.span):
                best = Run(i, span, times)
        if best is None:
            i += 1
        else:
            out.append(best)
            i = best.end
    return out


def _copies(keys: list, labelled: Sequence[bool], start: int, span: int) -> int:
    """How many times bars ``start … start + span − 1`` sound in a row."""
    group = keys[start:start + span]
    times = 1
    at = start + span
    while at + span <= len(keys) and keys[at:at + span] == group \
            and not any(labelled[at:at + span]):
        times += 1
        at += span
    return times

"""Bars: where a performance's bar lines stand, the same for MIDI and sheet music.

The sources have no bars: every stroke sits on one even grid (間若一) and
nothing marks a metre. But performers read bars, and MIDI programs assume
4/4 where a file says nothing. So guji's bars are the *sections* of the
piece, and nothing else:

* the count-in clicks are a bar (n/4 for n clicks);
* each pass of a pattern is a bar (投壺: m/4, the m strokes from 半 to the
  end), or two in the 射禮: the strokes before 半 (k/4), then, after a double
  bar line, the half (m/4);
* the empty grid steps between two patterns are a bar of rests (g/4).

A bar line stands wherever any part's section begins or ends, so when
patterns sound at once (``--stack``, ``compare --mode stereo``) the bars
are those of all of them; each bar is one stroke a beat, never a tuplet, never
a tie, and its time signature is its length in grid steps over 4 (a stroke is
a quarter note, the tempo is the interval).

Bars need one grid: every part on the same interval, starting on a whole
grid step (:func:`on_one_grid`). The layouts of :mod:`guji.timing.layout`
always give one; a performance put together by hand may not, and then has
no bars (MIDI writes no time signature for it, and sheet music refuses it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.reading.notation import Rite
from .performance import Part, Performance


@dataclass(frozen=True)
class Bar:
    """One bar: *beats* grid steps from grid step *step*.

    Attributes
    ----------
    step:
        The grid step the bar starts on (0 is the piece's first step).
    beats:
        Its length in grid steps: the time signature is ``beats``/4.
    half:
        A part's 半 stands at the start of this bar (a double bar line before
        it, the mark 半 over it).
    count_in:
        The bar holds count-in clicks.
    rest:
        No part sounds in it (the gap between patterns).
    """

    step: int
    beats: int
    half: bool = False
    count_in: bool = False
    rest: bool = False

    @property
    def end(self) -> int:
        """The grid step just after the bar."""
        return self.step + self.beats


def sections(part: Part) -> list[tuple[int, str]]:
    """(grid step, what starts there) of every section of *part*: ``count-in``,
    ``pass`` (a pass's first stroke), ``half`` (半 inside a pass, 射禮 only)
    and ``end`` (just after its last stroke)."""
    score = part.score
    out = []
    if score.count_in:
        out.append((part.step, "count-in"))
    first = part.step + score.count_in
    for p in range(score.repeat):
        start = first + p * score.per_pass
        out.append((start, "pass"))
        if score.rite is Rite.SHE:
            out.append((start + score.pattern.half_start, "half"))
    out.append((part.end_step, "end"))
    return out


def bars(performance: Performance) -> tuple[Bar, ...]:
    """The bars of *performance*, from grid step 0 to its end (see the module
    docstring). A performance with cues only is one bar of rests."""
    marks: dict[int, set[str]] = {0: set()}
    spans = []
    for part in performance.parts:
        for step, what in sections(part):
            marks.setdefault(step, set()).add(what)
        spans.append((part.step, part.end_step, part.step + part.score.count_in))
    end = max(performance.end_step, 1)
    marks.setdefault(end, set())
    lines = sorted(s for s in marks if 0 <= s <= end)
    out = []
    for a, b in zip(lines, lines[1:]):
        sounding = any(lo < b and a < hi for lo, hi, _ in spans)
        clicks = any(lo <= a < first for lo, _, first in spans)
        out.append(Bar(a, b - a, half="half" in marks[a], count_in=clicks, rest=not sounding))
    return tuple(out)


def on_one_grid(performance: Performance) -> bool:
    """Whether every part shares the performance's interval and starts on a
    whole grid step, so that :func:`bars` are its bars."""
    interval = performance.interval
    return all(part.score.interval == interval and isinstance(part.step, int)
               for part in performance.parts)

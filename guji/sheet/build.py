"""A :class:`~guji.sheet.model.Sheet` from a performance: :func:`sheet_of`.

Every sink takes a :class:`~guji.timing.performance.Performance`, the sheet
too, so it plays what the MIDI file and the audio play (the layout of
:func:`guji.timing.layout.lay_out`, the drums a part leaves out).

The metre
---------
The sources have no bars; the bars are the sections of the piece, from
:func:`guji.timing.bars.bars`, the very bar lines of the MIDI file: the
count-in (n/4), each pass (投壺: the m strokes from 半 to the end, m/4; 射禮:
the strokes before 半, a double bar line, 半 as a boxed mark, the half), a
bar of rests between patterns. One stroke is one quarter note: no tuplet,
no tie, each stroke one note.

Staves
------
One staff holds both drums (○ 鼙 in the snare's space, □ 鼓 in the bass
drum's) and the click (a cross above the staff). Patterns played one
after another share a staff, each one's name over its first bar; patterns
sounding at once (``--stack``) get a staff each, named after them.

Repeats
-------
Passes that sound alike are written once between repeat signs, ×N over
the closing one (:mod:`guji.sheet.fold`); MIDI and audio play every pass.
Where patterns sounding at once have passes that do not line up, their
bars are written out, and :attr:`Sheet.notices <guji.sheet.model.Sheet.notices>` says so.

Minus-one
---------
A part's muted drum (:attr:`Part.muted <guji.timing.performance.Part.muted>`)
is left out of the sheet too: its strokes are rests, or, with ghost
clicks, clicks — the notes come from the one schedule (:mod:`guji.timing.events`).
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from ..i18n import _
from ..errors import UsageError, escape_controls
from ..text.reading.names import latin_first
from ..timing.bars import Bar, bars, on_one_grid
from ..timing.events import pass_onsets
from ..timing.performance import DRUMS, Part, Performance, Voice
from .fold import Run, runs
from .model import REST, Instruments, Measure, Note, Sheet, Staff
from .texts import credits_of, subtitle_of, title_of

#: The printed name of a staff holding several patterns: the two drums.
SHARED_STAFF = Staff("鼙 鼓", "Drums (pi 鼙, gu 鼓)")

#: The rehearsal mark at 半.
HALF_MARK = "半"

#: A click: the count-in, or a muted drum's ghost stroke.
CLICK = Note(Voice.CLICK)


def sheet_of(performance: Performance, *, instruments: Instruments = Instruments(),
             title: str | None = None) -> Sheet:
    """The sheet music of *performance* (see the module docstring).

    Raises :class:`~guji.errors.UsageError` for a performance with no part
    (cues alone are not music) or whose parts are not on one grid
    (:func:`guji.timing.bars.on_one_grid`: the layouts always are).
    """
    if not performance.parts:
        raise UsageError(_('sheet music needs a pattern: this performance has only cues'))
    if not on_one_grid(performance):
        raise UsageError(_('sheet music needs every part on one grid (one interval, starting on a grid step)'))
    staff_of, staves = _staves(performance)
    lines = [_Line([p for p, s in zip(performance.parts, staff_of) if s == k],
                   named=staff is not SHARED_STAFF)
             for k, staff in enumerate(staves)]
    timing_bars = bars(performance)
    raw = [_measure(bar, lines) for bar in timing_bars]
    kinds: dict[tuple, int] = {}       # what a bar sounds like, as a small number
    folds = runs([kinds.setdefault((m.beats, m.notes, m.rehearsal), len(kinds)) for m in raw],
                 [any(w is not None for w in m.words) for m in raw])
    measures = _bar_lines(_folded(raw, folds))
    return Sheet(escape_controls(title) if title else title_of(performance), staves,
                 measures, subtitle_of(performance), credits_of(performance),
                 60 / performance.interval, instruments=instruments,
                 notices=_written_out(performance, timing_bars, folds))


def _staves(performance: Performance) -> tuple[list[int], tuple[Staff, ...]]:
    """The staff of each part (the first on which it overlaps no other part),
    and the staves, each named after its parts' one name or :data:`SHARED_STAFF`."""
    spans: list[list[tuple[int, int]]] = []
    names: list[set[str]] = []
    staff_of = []
    for part in performance.parts:
        lo, hi = part.step, part.end_step
        k = next((k for k, taken in enumerate(spans)
                  if all(hi <= a or b <= lo for a, b in taken)), len(spans))
        if k == len(spans):
            spans.append([])
            names.append(set())
        spans[k].append((lo, hi))
        names[k].add(part.name)
        staff_of.append(k)
    staves = tuple(_staff(min(ns)) if len(ns) == 1 else SHARED_STAFF for ns in names)
    return staff_of, staves


def _staff(name: str) -> Staff:
    """The staff of the parts named *name*: that name, and Latin first."""
    return Staff(escape_controls(name), escape_controls(latin_first(name)))


class _Line:
    """The parts of one staff, found by grid step; *named*: its staff bears
    their one name, so no text over their first bars."""

    def __init__(self, parts: list[Part], *, named: bool):
        self.parts = sorted(parts, key=lambda p: p.step)
        self.named = named
        self.starts = [p.step for p in self.parts]
        # (end step, first stroke's step, the notes of one pass) of each part
        self.spans = [(p.end_step, p.step + p.score.count_in, _pass_notes(p))
                      for p in self.parts]

    def note(self, step: int) -> Note:
        """What the staff plays at grid *step*."""
        k = bisect.bisect_right(self.starts, step) - 1
        if k < 0:
            return REST
        end, first, notes = self.spans[k]
        if step >= end:
            return REST
        if step < first:
            return CLICK
        return notes[(step - first) % len(notes)]

    def words(self, bar: Bar) -> str | None:
        """A part's name over the bar where its first stroke sounds, unless
        the staff is named after it."""
        if self.named:
            return None
        for part in self.parts:
            if part.step + part.score.count_in == bar.step:
                return escape_controls(part.name)
        return None


def _pass_notes(part: Part) -> tuple[Note, ...]:
    """The notes of one pass of *part*, from the one schedule
    (:func:`guji.timing.events.pass_onsets`: what sounds, minus-one applied
    there): each stroke with its source glyph, a muted one a rest or (ghost)
    a click. Every pass sounds alike, so the staff repeats this one."""
    made: dict[tuple, Note] = {}
    out = []
    for onset in pass_onsets(part):
        voice, stroke = onset.voice, onset.event.stroke
        if voice in DRUMS:
            key = (voice, stroke.raw)
            out.append(made.setdefault(key, Note(voice, escape_controls(stroke.raw))))
        else:
            out.append(CLICK if voice is Voice.CLICK else REST)
    return tuple(out)


def _measure(bar: Bar, lines: list[_Line]) -> Measure:
    """The measure of one bar of the timing, every staff's notes in it."""
    steps = range(bar.step, bar.end)
    return Measure(bar.beats, tuple(tuple(line.note(s) for s in steps) for line in lines),
                   rehearsal=HALF_MARK if bar.half else None,
                   words=tuple(line.words(bar) for line in lines))


def _folded(raw: list[Measure], folds: list[Run]) -> list[Measure]:
    """*raw* with each run written once between repeat signs."""
    out: list[Measure] = []
    i = 0
    for run in folds + [Run(len(raw), 0, 0)]:
        out += raw[i:run.start]
        if run.span:
            group = raw[run.start:run.start + run.span]
            group[0] = replace(group[0], left="repeat-start")
            group[-1] = replace(group[-1], right="repeat-end", repeat_times=run.times)
            out += group
        i = run.end
    return out


def _bar_lines(measures: list[Measure]) -> tuple[Measure, ...]:
    """A double bar line before 半 and a final one at the end (where no
    repeat sign stands already)."""
    for i in range(1, len(measures)):
        if measures[i].rehearsal == HALF_MARK and measures[i - 1].right == "regular":
            measures[i - 1] = replace(measures[i - 1], right="double")
    if measures[-1].right in ("regular", "double"):
        measures[-1] = replace(measures[-1], right="final")
    return tuple(measures)


def _written_out(performance: Performance, timing_bars: tuple[Bar, ...],
                 folds: list[Run]) -> tuple[str, ...]:
    """A notice for each part of several passes whose passes could not be
    folded into repeat signs (its second pass is written)."""
    starts = [b.step for b in timing_bars]
    folded = [(run.start + run.span, run.end) for run in folds]
    out = []
    for part in performance.parts:
        score = part.score
        if score.repeat < 2:
            continue
        second = part.step + score.count_in + score.per_pass
        bar = bisect.bisect_right(starts, second) - 1
        if not any(a <= bar < b for a, b in folded):
            out.append(escape_controls(
                f"{part.name}: its passes do not line up with those of the patterns sounding "
                "with it, so they are written as they sound (repeat signs only where all of "
                "them repeat)"))
    return tuple(out)

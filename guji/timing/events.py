"""The one schedule: every stroke, click and cue of a performance, in time order.

Sinks are told what sounds instead of working it out each on its own: the
MIDI file writer, live MIDI, the live player's announcements, the terminal
display and ``guji play --json`` all read :func:`events` (or
:func:`loop_events`, endless), and the renderer's onsets and the sheet's notes
are held to it by the tests (``tests/test_schedule.py``). Each
:class:`Onset` says

* **when**: its grid step (:attr:`Onset.step`, a whole number, or an exact
  :class:`~fractions.Fraction` for a cue half-way between two strokes) on a
  grid of :attr:`Onset.interval` seconds; seconds, ticks and samples are
  worked out from the step at each sink's edge (:attr:`Onset.time`,
  :meth:`Onset.sample`: ``round((step + i) × interval × rate)``);
* **what the score says** (:attr:`Onset.written`: 鼙, 鼓, the count-in click,
  the cue) and **what sounds** (:attr:`Onset.voice`: minus-one applied once,
  here — a muted drum's stroke is ``None``, or the click with ghost clicks);
* **where it comes from**: the part, the score's event (the stroke and its
  place in the source text, the pass, the position in the pass), the cue's
  label; and its place in the stream (:attr:`Onset.number`, counting strokes
  and clicks) and in a loop (:attr:`Onset.loop_pass`).

At one time, parts come in their order and cues after them; a sink that sends
note-offs sends them before the note-ons of that time (:mod:`guji.midi.events`).
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .performance import Cue, Part, Performance, Voice
from .score import Event, grid_time


@dataclass(frozen=True)
class Onset:
    """One stroke, count-in click or cue of a performance (see the module).

    Attributes
    ----------
    step:
        Its grid step (``int``, or an exact ``Fraction`` for a cue between steps).
    interval:
        Seconds of one step of its grid (its part's; the performance's for a cue).
    written:
        What the score says: 鼙, 鼓, the click (count-in), the cue.
    voice:
        What sounds: *written*, the click for a muted drum with ghost clicks,
        ``None`` for a muted drum (silent).
    part:
        The part (``None`` for a cue); *order* is its place in the performance
        (the number of parts for a cue).
    event:
        The score's event: the stroke with its source position, the pass and
        the position in it (``None`` for a cue).
    number:
        Strokes and clicks before it in the stream (``-1`` for a cue).
    loop_pass:
        The pass of a :class:`~guji.timing.loop.Loop` (0 without one).
    label, pan:
        A cue's label and pan.
    """

    step: "int | Fraction"
    interval: float
    written: Voice
    voice: Voice | None
    part: Part | None
    order: int
    event: Event | None = None
    number: int = -1
    loop_pass: int = 0
    label: str = ""
    pan: float | None = None

    @property
    def time(self) -> float:
        """Seconds from the start: ``step × interval``."""
        return grid_time(self.step, self.interval)

    @property
    def end(self) -> float:
        """Seconds of the next grid step, where a note of it ends."""
        return grid_time(self.step + 1, self.interval)

    def sample(self, rate: int) -> int:
        """The sample it starts on: ``round(step × interval × rate)``."""
        return round(self.time * rate)

    @property
    def is_cue(self) -> bool:
        return self.part is None

    @property
    def sounds(self) -> bool:
        """Whether anything sounds (not a muted drum's stroke)."""
        return self.voice is not None

    def to_json(self) -> dict:
        """The line of ``guji play --json``: ``index`` (:attr:`number`), ``stroke``
        (the glyph, ○ or □; ``null`` for a count-in click), ``drum`` (鼙, 鼓 or
        ``click``: what the score says), ``time`` (scheduled seconds from the
        start), ``part``, ``pass`` (of the part's ``--repeat``, from 1;
        ``null`` in the count-in), ``position`` (in the pass, from 1) and
        ``loop`` (the pass of ``--loop``, from 1)."""
        stroke = self.event.stroke if self.event else None
        return {"index": self.number, "stroke": stroke.glyph if stroke else None,
                "drum": self.written.value, "time": round(self.time, 6),
                "part": self.part.name if self.part else None,
                "pass": None if stroke is None else self.event.pass_index + 1,
                "position": self.event.position + 1 if self.event else None,
                "loop": self.loop_pass + 1}


def part_onsets(part: Part, order: int = 0, loop_pass: int = 0) -> Iterator[Onset]:
    """The onsets of *part*, in order (unnumbered: :func:`events` numbers them)."""
    score = part.score
    for event in score:
        written = Voice.of(event.drum)
        yield Onset(score.step + event.index, score.interval, written, part.sounding(written),
                    part, order, event, loop_pass=loop_pass)


def pass_onsets(part: Part, pass_index: int = 0) -> list[Onset]:
    """The onsets of pass *pass_index* of *part* (every pass sounds alike: the
    renderer and the sheet repeat one)."""
    score = part.score
    first = score.count_in + pass_index * score.per_pass
    return list(itertools.islice(part_onsets(part), first, first + score.per_pass))


def cue_onsets(performance: Performance, loop_pass: int = 0) -> Iterator[Onset]:
    """The cues of *performance*, on its grid, in time order."""
    grid = performance.interval
    order = len(performance.parts)
    for cue in performance.cues:
        yield Onset(cue.step_on(grid), grid, Voice.CUE, Voice.CUE, None, order,
                    loop_pass=loop_pass, label=cue.label, pan=cue.pan)


def events(performance: Performance, *, cues: bool = True, number: int = 0,
           loop_pass: int = 0) -> Iterator[Onset]:
    """Every stroke, click and (with *cues*) cue of *performance*, lazily, by
    time (at one time: parts in order, cues last); strokes and clicks
    numbered from *number*, in pass *loop_pass* of a loop."""
    sources = [part_onsets(p, k, loop_pass) for k, p in enumerate(performance.parts)]
    if cues:
        sources.append(cue_onsets(performance, loop_pass))
    merged = heapq.merge(*sources, key=lambda o: (o.time, o.order))
    for onset in merged:
        if onset.part is None:
            yield onset
            continue
        yield _numbered(onset, number)
        number += 1


def _numbered(onset: Onset, number: int) -> Onset:
    return Onset(onset.step, onset.interval, onset.written, onset.voice, onset.part,
                 onset.order, onset.event, number, onset.loop_pass, onset.label, onset.pan)


def loop_events(loop, *, cues: bool = True) -> Iterator[Onset]:
    """Every onset of *loop*, endless, pass after pass (each pass from its own
    grid steps: :meth:`Loop.passes <guji.timing.loop.Loop.passes>`)."""
    number = 0
    pass_index = 0
    while True:
        for onset in events(loop.passes(pass_index, 1), cues=cues, number=number,
                            loop_pass=pass_index):
            yield onset
            if onset.part is not None:
                number += 1
        pass_index += 1


def schedule(what, *, cues: bool = True) -> Iterator[Onset]:
    """:func:`loop_events` of a :class:`~guji.timing.loop.Loop`, else :func:`events`
    of a performance."""
    from .loop import Loop
    if isinstance(what, Loop):
        return loop_events(what, cues=cues)
    return events(what, cues=cues)


__all__ = ["Onset", "Cue", "events", "loop_events", "part_onsets", "pass_onsets", "cue_onsets",
           "schedule"]

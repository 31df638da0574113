"""Metre in a guji MIDI file: time signatures on the bar lines, and a bar for the ring.

The sources have no bars; guji's bars are the sections of the piece
(:func:`guji.timing.bars.bars`: a count-in bar, a bar per pass, or two in
the 射禮 split at 半, a bar of rests between patterns), the same bar lines
as guji's sheet music. One stroke is one quarter note, so a bar of *n*
strokes is *n*/4: the conductor track gets a ``time_signature`` wherever the
bar length changes, and notation programs, DAWs and midi2ly show the
sections as bars instead of guessing 4/4.

The ring
--------
The last stroke rings on (a 鼓 for seconds). After the last bar of music
the file holds one bar of rest, at least :data:`PAD_SECONDS` long and a
whole number of grid steps, and ends on its bar line: a notation program
shows it as one rest bar, and the file ends on a whole bar.

Where there is no metre
-----------------------
Bar lines are written in beats (``ticks_per_beat`` ticks each), so they need
a stroke to be a whole number of beats (the tempo of
:func:`~guji.midi.ticks.tempo_for`; a tempo given by hand may not be) and
the parts on one grid (:func:`~guji.timing.bars.on_one_grid`). Otherwise
the file has no time signature and ends :data:`PAD_SECONDS` after its last
note. A bar of more than 255 beats (MIDI's largest numerator: a very long
gap) is written as several bars.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..timing.bars import bars, on_one_grid
from ..timing.performance import Performance
from .ticks import TickGrid

#: Seconds of silence, at least, after the last note ends, for the ring.
PAD_SECONDS = 2.0

#: The largest numerator of a MIDI time signature.
MAX_NUMERATOR = 255


@dataclass(frozen=True)
class Metre:
    """The bar lines of a file.

    Attributes
    ----------
    bars:
        ``(tick, beats)`` of every bar, music and ring bar, in order: a
        ``beats``/4 bar starting at ``tick``.
    end_tick:
        Where the file ends: the ring bar's closing bar line.
    """

    bars: tuple[tuple[int, int], ...]
    end_tick: int

    def signatures(self) -> list[tuple[int, int]]:
        """``(tick, numerator)`` where the time signature changes (the first bar's too)."""
        out: list[tuple[int, int]] = []
        for tick, beats in self.bars:
            if not out or out[-1][1] != beats:
                out.append((tick, beats))
        return out


def beats_per_step(interval: float, tempo: int) -> int | None:
    """Beats in one grid step of *interval* seconds at *tempo* microseconds a
    beat: 1 at guji's tempo (2, 3 … for strokes slower than MIDI's slowest
    tempo), ``None`` when a step is not a whole number of beats."""
    ratio = interval * 1_000_000 / tempo
    whole = round(ratio)
    # tempo_for rounds the tempo down to a whole microsecond: a ratio a hair
    # over a whole number (at most 1/5,000 over, at 5 ms a stroke)
    if whole < 1 or abs(ratio / whole - 1) > 1e-3:
        return None
    return whole


def _split(beats: int) -> list[int]:
    """A bar of *beats* as bars MIDI can state: at most :data:`MAX_NUMERATOR`
    beats each, as even as can be."""
    pieces = -(-beats // MAX_NUMERATOR)
    base, extra = divmod(beats, pieces)
    return [base + 1] * extra + [base] * (pieces - extra)


def metre(performance: Performance, grid: TickGrid, last_tick: int) -> Metre | None:
    """The bars of *performance* in *grid*'s ticks, ending with a ring bar
    that reaches :data:`PAD_SECONDS` past *last_tick* (the last note's end);
    ``None`` where there is no metre (see the module docstring)."""
    if not performance.parts or not on_one_grid(performance):
        return None
    per_step = beats_per_step(performance.interval, grid.tempo)
    if per_step is None:
        return None
    tpb = grid.ticks_per_beat
    out: list[tuple[int, int]] = []
    beat = 0
    for bar in bars(performance):
        for beats in _split(bar.beats * per_step):
            out.append((beat * tpb, beats))
            beat += beats
    wanted = max(last_tick, beat * tpb) + grid.tick(PAD_SECONDS)
    ring_steps = max(1, math.ceil((wanted - beat * tpb) / (per_step * tpb)))
    for beats in _split(ring_steps * per_step):
        out.append((beat * tpb, beats))
        beat += beats
    return Metre(tuple(out), beat * tpb)

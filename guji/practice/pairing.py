"""Hits paired with the strokes they play: on time, wrong drum, missing, extra.

The first hit anchors time: it plays the performance's first event (the first
count-in click, or the first stroke). Every later hit is then placed on the
grid step nearest its time, after taking off the player's current offset —
the median deviation of the last :data:`TRACK` strokes paired, carried on
along the line through them (their trend, a straight line fitted to their
deviations by step, :func:`offset`) — so a player who drifts slowly away
from the tempo, or rushes a passage, keeps being paired stroke by stroke
instead of falling a step behind or ahead. A hit on a step the performance plays is
that event's (the nearer one, when two fall on one step: the other is
extra); a hit on a step it does not play, before or after it, or further
than :data:`REACH` of an interval from any step, is extra;
a stroke no hit fell on is missing.

The result is an :class:`~guji.text.collation.align.Alignment` of the strokes (A) with
the hits (B), in the words of ``guji diff``: ``match`` (the right drum),
``sub`` (the wrong drum), ``del`` (a stroke missing), ``ins`` (a hit extra),
and the deviation of every hit paired with a stroke.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..text.collation.align import DEL, INS, MATCH, SUB, Alignment, Op
from ..text.reading.notation import Drum
from .expected import Expected
from .transcribe import Hit

#: Strokes whose median deviation is the player's current offset.
TRACK = 8
#: A hit further than this (a fraction of the interval) from its step, after
#: the offset, plays no stroke: it is extra (and the stroke, if no other hit
#: plays it, missing). Half-way between two steps is no stroke's.
REACH = 0.4


@dataclass(frozen=True)
class Pairing:
    """Strokes (A: the performance's drum strokes, clicks left out) and hits
    (B: every hit heard, count-in clicks left out) aligned; *deviation[k]*
    is hit *k*'s deviation in seconds from its stroke (``None`` for an extra hit);
    *anchor* the recording's time of the performance's time 0."""

    strokes: tuple[Expected, ...]
    hits: tuple[Hit, ...]
    alignment: Alignment
    deviation: tuple[float | None, ...]
    anchor: float


def pair(events: tuple[Expected, ...], hits: tuple[Hit, ...], interval: float,
         anchor: float | None = None) -> Pairing:
    """Pair *hits* with *events* (module docstring); *anchor*, when given, is the
    recording's time of the performance's time 0 instead of the first hit's."""
    if not events:
        return _build((), (), {}, 0.0)
    if anchor is None:
        anchor = (hits[0].time - events[0].time) if hits else 0.0
    by_step = {e.step: k for k, e in enumerate(events)}
    taken: dict[int, tuple[int, float]] = {}          # event → (hit, deviation)
    recent: list[tuple[int, float]] = []              # (step, deviation) paired
    for h, hit in enumerate(hits):
        t = hit.time - anchor
        off = offset(recent[-TRACK:], t, interval)
        step = int(np.floor((t - off) / interval + 0.5))
        k = by_step.get(step)
        if k is None or abs(t - off - events[k].time) > REACH * interval:
            continue
        d = t - events[k].time
        if k in taken and abs(taken[k][1]) <= abs(d):
            continue
        taken[k] = (h, d)
        recent.append((events[k].step, d))
    return _build(events, hits, taken, anchor)


def offset(recent: list[tuple[int, float]], t: float, interval: float) -> float:
    """The player's offset (s) expected at time *t*, from the (step, deviation)
    pairs *recent*: their median deviation, carried along their trend (the
    slope of a straight line through them, at most :data:`STEEPEST` of an
    interval a step) to the step *t* is near."""
    if not recent:
        return 0.0
    steps = np.array([s for s, _ in recent], dtype=np.float64)
    devs = np.array([d for _, d in recent])
    base = float(np.median(devs))
    if len(recent) < TRACK or steps.max() == steps.min():
        return base
    slope = float(np.clip(np.polyfit(steps, devs, 1)[0], -STEEPEST * interval,
                          STEEPEST * interval))
    centre = float(np.median(steps))
    ahead = max(0.0, (t - base) / interval - centre)
    return base + slope * ahead


#: The steepest trend (a fraction of the interval per step) the offset follows.
STEEPEST = 0.25


def _build(events, hits, taken, anchor: float) -> Pairing:
    """The :class:`Pairing` of *taken* (event → (hit, deviation)): strokes and
    hits renumbered without the clicks, ops in time order."""
    clicks_hits = {h for k, (h, _) in taken.items() if events[k].is_click}
    stroke_ids = [k for k, e in enumerate(events) if not e.is_click]
    hit_ids = [h for h in range(len(hits)) if h not in clicks_hits]
    a_of = {k: i for i, k in enumerate(stroke_ids)}
    b_of = {h: j for j, h in enumerate(hit_ids)}
    paired = {h: k for k, (h, _) in taken.items() if not events[k].is_click}
    deviation = tuple(taken[paired[h]][1] if h in paired else None for h in hit_ids)
    rows = []                     # (time, order, op)
    for k in stroke_ids:
        e = events[k]
        if k in taken:
            h = taken[k][0]
            right = (e.drum is Drum.BIG) == hits[h].big
            rows.append((e.time, 0, Op(MATCH if right else SUB, a_of[k], b_of[h])))
        else:
            rows.append((e.time, 0, Op(DEL, a_of[k], None)))
    for h in hit_ids:
        if h not in paired:
            rows.append((hits[h].time - anchor, 1, Op(INS, None, b_of[h])))
    rows.sort(key=lambda r: (r[0], r[1]))
    ops = tuple(r[2] for r in rows)
    count = {kind: sum(op.op == kind for op in ops) for kind in (SUB, INS, DEL)}
    return Pairing(tuple(events[k] for k in stroke_ids), tuple(hits[h] for h in hit_ids),
                   Alignment(ops, count[SUB], count[INS], count[DEL]), deviation, anchor)

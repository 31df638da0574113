"""The tempo a recording was played at, when the player does not say it.

Without ``--interval``/``--bpm``, ``guji check`` finds the interval from the
hits themselves (:func:`find_tempo`), in three steps:

1. **a first guess** — the median time between consecutive hits among the
   first :data:`FIRST_HITS` (the score's strokes are one grid step apart, and
   a few extra or missing strokes do not move a median), refined by taking
   every gap that is close to a whole number (1 … 4) of the guess as that
   many intervals;
2. **pairing** — the hits paired with the score at the guess
   (:func:`guji.practice.pairing.pair`: it follows a player who drifts);
3. **the fit** — through the paired strokes' (grid step, time heard), a
   straight line: its slope is the interval, the player's mean (the least
   noisy figure: a jittery player's first strokes say little of the tempo),
   fitted again without the strokes far off it (:func:`_trimmed`).
   With :data:`CURVE_STROKES` paired strokes or more, a curve
   ``t = a + b·s + c·s²`` too: *b* is the interval the player set out at,
   *b + 2c·S* the one at the last step *S* (both said in the report; whether
   that change is rushing or dragging is the report's:
   :func:`guji.practice.report.drift`). Steps 2 and 3 are done twice.

Under :data:`MIN_HITS` hits there is nothing to find: :func:`find_tempo`
returns ``None`` and the caller uses the default interval (and says so).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .expected import Expected
from .pairing import pair
from .transcribe import Hit

MIN_HITS = 4
FIRST_HITS = 32
CURVE_STROKES = 12


@dataclass(frozen=True)
class Tempo:
    """The interval found (s): the player's mean, and at the start and the end."""

    interval: float
    start_interval: float
    end_interval: float


def first_guess(times: np.ndarray) -> float:
    """Step 1 of the module docstring (at least two *times*)."""
    gaps = np.diff(times[:FIRST_HITS])
    guess = float(np.median(gaps))
    for _ in range(2):
        k = np.rint(gaps / guess)
        near = (k >= 1) & (k <= 4) & (np.abs(gaps / guess - k) < 0.25)
        if near.any():
            guess = float(gaps[near].sum() / k[near].sum())
    return guess


def find_tempo(events: tuple[Expected, ...], hits: tuple[Hit, ...]) -> Tempo | None:
    """The :class:`Tempo` of *hits* playing *events* (module docstring), or
    ``None`` with fewer than :data:`MIN_HITS` hits. *events*' times may be at
    any interval: only their steps are used."""
    if len(hits) < MIN_HITS or not events:
        return None
    interval = first_guess(np.array([h.time for h in hits]))
    if not interval > 0:
        return None
    last = max(e.step for e in events)
    tempo = Tempo(interval, interval, interval)
    for _ in range(2):
        p = pair(tuple(replace(e, time=e.step * interval) for e in events), hits, interval)
        s, t = _paired(p)
        if len(s) < 3 or s.max() == s.min():
            break
        s, t = _trimmed(s, t)
        slope = float(np.polyfit(s, t, 1)[0])
        if not slope > 0:
            break
        interval = slope
        start = end = slope
        if len(s) >= CURVE_STROKES:
            c2, c1, _ = np.polyfit(s - s.min(), t, 2)
            start, end = float(c1), float(c1 + 2 * c2 * (last - s.min()))
        tempo = Tempo(interval, start if start > 0 else interval, end if end > 0 else interval)
    return tempo


def _at(e: Expected, interval: float) -> Expected:
    """*e* with its time on a grid of *interval*."""
    return replace(e, time=e.step * interval)


def _trimmed(s: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points (*s*, *t*) without those far off a straight line through them
    (over :data:`OUTLIER` robust standard deviations, and over 2 ms: one
    stroke played much late must not move the tempo)."""
    residual = t - np.polyval(np.polyfit(s, t, 1), s)
    mad = float(np.median(np.abs(residual - np.median(residual)))) * 1.4826
    keep = np.abs(residual - np.median(residual)) <= max(OUTLIER * mad, 0.002)
    return (s[keep], t[keep]) if keep.sum() >= 3 else (s, t)


#: Robust standard deviations off the line past which a stroke is left out of the fit.
OUTLIER = 3.0


def _paired(p) -> tuple[np.ndarray, np.ndarray]:
    """(grid steps, hit times) of the strokes *p* paired with a hit."""
    s, t = [], []
    for op in p.alignment.ops:
        if op.a is not None and op.b is not None:
            s.append(p.strokes[op.a].step)
            t.append(p.hits[op.b].time)
    return np.array(s, dtype=np.float64), np.array(t, dtype=np.float64)


__all__ = ["Tempo", "find_tempo", "first_guess"]

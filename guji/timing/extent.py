"""How long a piece may be: the longest piece, and times every sink can place exactly.

Every sink turns a stroke's time into an integer position — a sample
(``round(t × rate)``) or a MIDI tick — computed in floating point from the
absolute time. So a piece is checked for its length before any work
(:func:`check_length`), when it is laid out: every
:class:`~guji.timing.performance.Performance` (what every sink takes) checks
its own, and :func:`guji.timing.layout.alternate` checks before it makes a
part of each pass. A :class:`~guji.timing.score.Score` stays a lazy value of
any length (only its interval is held to :data:`HARD_LONGEST`).

* The longest piece guji takes on is :attr:`guji.limits.Limits.longest`
  (24 h; ``--force`` lifts it).
* :data:`HARD_LONGEST` (2³¹ s, 68 years) is never lifted: beyond it, a sample
  position at the highest rate (192 kHz) would pass 2⁵³ and stop being an
  exact integer in floating point.
"""

from __future__ import annotations

import math

from ..i18n import _
from ..limits import LimitError, current, duration_text

#: The longest piece whatever the limits: 2**31 s (68 years). Sample
#: positions at 192 kHz stay below 2**53 (4e14 < 9e15), exact in float64 and int64.
HARD_LONGEST = float(2 ** 31)


def check_length(seconds: float, what: str = "the piece", *, least: bool = False) -> float:
    """*seconds* if a piece that long may be made, else :class:`~guji.limits.LimitError`
    naming the length and the limit it passes (*least*: the length is the
    least the piece can last)."""
    check_exact(seconds, what, least=least)
    lasts = f"would last {'at least ' if least else ''}{duration_text(seconds)}"
    longest = current().longest
    if seconds > longest:
        raise LimitError(_("{what} {lasts}: over guji's limit of {value}").format(what=what, lasts=lasts, value=duration_text(longest)))
    return seconds


def check_exact(seconds: float, what: str = "the piece", *, least: bool = False) -> float:
    """*seconds* if it is within :data:`HARD_LONGEST` (the hard limit only,
    which ``--force`` does not lift), else :class:`~guji.limits.LimitError`."""
    if not math.isfinite(seconds) or seconds > HARD_LONGEST:
        lasts = f"would last {'at least ' if least else ''}{duration_text(seconds)}"
        raise LimitError(_('{what} {lasts}: more than the {value} any piece can last (beyond it, sample positions are no longer exact)').format(what=what, lasts=lasts, value=duration_text(HARD_LONGEST)),
                         forcible=False)
    return seconds


def seconds_of(steps: int, interval: float) -> float:
    """*steps* grid steps of *interval* seconds (``inf`` past float's range:
    a whole number may have thousands of digits)."""
    try:
        return float(steps) * interval
    except OverflowError:
        return math.inf


def check_steps(steps: int, interval: float, what: str = "the piece") -> None:
    """Check a piece of at least *steps* grid steps of *interval* seconds
    (:func:`check_length`, *least*), before anything of that size is made."""
    check_length(seconds_of(steps, interval), what, least=True)


def check_parts(count: int, what: str = "parts and cues") -> None:
    """Check that a performance of *count* parts and cues may be made
    (:attr:`guji.limits.Limits.parts`), before they are."""
    most = current().parts
    if count > most:
        raise LimitError(_("{count:,} {what} in one performance: over guji's limit of {most:,.0f}").format(count=count, what=what, most=most))

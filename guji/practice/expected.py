"""What the recording should hold: every event of a performance, on its grid step.

:func:`expected_events` lists the events of a
:class:`~guji.timing.performance.Performance` (count-in clicks and strokes
of every part) in time order, each with its grid step — an integer, the
performance's time in units of its interval — and what a report calls it:
the part, the pass, the place in the pass and the source glyph.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..errors import UsageError
from ..text.reading.notation import Drum
from ..timing.performance import Performance


@dataclass(frozen=True)
class Expected:
    """One event the performance plays.

    Attributes
    ----------
    step:
        Its grid step (time ÷ interval, an integer).
    time:
        Its time in seconds from the performance's start.
    drum:
        The drum, ``None`` for a count-in click.
    part:
        The part's name.
    pass_index, position:
        Which pass (0-based; −1 in the count-in) and where in the pass.
    glyph:
        The source glyph of the stroke (○, □, 囗 …), ``""`` for a click.
    """

    step: int
    time: float
    drum: Drum | None
    part: str
    pass_index: int
    position: int
    glyph: str

    @property
    def is_click(self) -> bool:
        return self.drum is None


def expected_events(performance: Performance) -> tuple[Expected, ...]:
    """Every event of *performance* in time order (module docstring);
    :class:`UsageError` when two parts play on one grid step (stacked patterns:
    one hit cannot be told from two)."""
    out: list[Expected] = []
    for part in performance.parts:
        score = part.score
        for event in score.events():
            glyph = event.stroke.glyph if event.stroke is not None else ""
            out.append(Expected(part.step + event.index, event.time, event.drum, part.name,
                                event.pass_index, event.position, glyph))
    out.sort(key=lambda e: e.step)
    for a, b in zip(out, out[1:]):
        if a.step == b.step:
            raise UsageError(_('two strokes on one grid step (stacked patterns): check one pattern at a time'))
    return tuple(out)

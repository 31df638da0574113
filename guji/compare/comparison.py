"""The values of a comparison: what :mod:`guji.compare.modes` builds.

A :class:`Comparison` holds a :class:`~guji.timing.performance.Performance`
(what every sink takes: the renderer, the MIDI writer, the player) and what a
person reads beside it: the schedule (:class:`Entry` lines, "12.60 s  B
薛鼓 2 lijing-benyi …"), and in ``diff`` mode the marked differences
(:class:`Mark`) and notes. All are frozen values; times are in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import Words, _
from ..text.reading.notation import Pattern
from ..timing.performance import Cue, Part, Performance, Timing


def _shown(text: str | Words) -> str:
    return text.shown() if isinstance(text, Words) else text


@dataclass(frozen=True)
class Entry:
    """One line of the schedule: from *time* to *end* seconds, *text* (English,
    the data) and *words* (the same, said in the user's language by :meth:`line`)."""

    time: float
    end: float
    text: str
    words: Words | None = None

    @classmethod
    def said(cls, time: float, end: float, words: Words) -> Entry:
        return cls(time, end, words.english, words)

    def line(self) -> str:
        return _("{time} s  {text}").format(time=f"{self.time:7.2f}", text=_shown(self.words or self.text))


@dataclass(frozen=True)
class Mark:
    """A stroke of A where another reading differs (``diff`` mode).

    Attributes
    ----------
    time:
        When the bell sounds (seconds), or ``None`` when the rite does not
        play the place (a difference before 半 in 投壺).
    pass_index:
        Which pass of A (0-based), ``None`` when unheard.
    kind:
        ``sub`` (the other reading strikes the other drum), ``del`` (it has
        no stroke here), ``ins`` (it has an extra stroke between two of A's).
    variant:
        The other reading's letter and id (``B lu:1@wuli-tongkao``).
    a_index:
        Index of A's stroke (for ``ins``: of the stroke the extra one comes
        before; ``len(A.strokes)`` when it comes after the last).
    text:
        One line saying what differs.
    """

    time: float | None
    pass_index: int | None
    kind: str
    variant: str
    a_index: int
    text: str
    words: Words | None = None

    def line(self) -> str:
        text = _shown(self.words or self.text)
        if self.time is None:
            return _("  unheard  {text}").format(text=text)
        return _("{time} s  {text}").format(time=f"{self.time:7.2f}", text=text)


@dataclass(frozen=True)
class Comparison:
    """A comparison ready to play or write.

    Attributes
    ----------
    mode:
        One of :data:`guji.compare.modes.MODES`.
    patterns:
        The variants, A first.
    performance:
        What sinks take (``write_audio(path, performance)``,
        ``write_midi(path, performance)``, ``play(performance)``).
    schedule:
        What plays when, in time order.
    marks:
        ``diff`` mode: the marked differences (heard and unheard).
    notes:
        Remarks for the listener (e.g. differences the rite does not play).
    """

    mode: str
    patterns: tuple[Pattern, ...]
    timing: Timing
    performance: Performance
    schedule: tuple[Entry, ...] = ()
    marks: tuple[Mark, ...] = ()
    notes: tuple[str | Words, ...] = field(default=())

    @property
    def parts(self) -> tuple[Part, ...]:
        return self.performance.parts

    @property
    def cues(self) -> tuple[Cue, ...]:
        return self.performance.cues

    @property
    def duration(self) -> float:
        """Seconds until the last part's grid ends (or the last cue's slot)."""
        return self.performance.duration

    def schedule_text(self) -> str:
        """The schedule (and, in ``diff``, the marks and notes) as lines."""
        lines = [e.line() for e in self.schedule]
        heard = [m for m in self.marks if m.time is not None]
        unheard = [m for m in self.marks if m.time is None]
        if heard:
            lines.append(_("marked (a bell on the stroke):"))
            lines += ["  " + m.line() for m in heard]
        if unheard:
            lines.append(_("not played in {chinese} ({rite}):").format(
                chinese=self.timing.rite.chinese, rite=self.timing.rite.value))
            lines += ["  " + m.line() for m in unheard]
        lines += [_shown(n) for n in self.notes]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "duration": self.duration,
            "rite": self.timing.rite.value,
            "interval": self.timing.interval,
            "repeat": self.timing.repeat,
            "count_in": self.timing.count_in,
            "patterns": [p.id for p in self.patterns],
            "parts": [{"name": p.name, "pattern": p.score.pattern.id, "start": p.score.start,
                       "end": p.score.duration, "pan": p.pan} for p in self.parts],
            "cues": [{"time": c.time, "label": c.label} for c in self.cues],
            "schedule": [{"time": e.time, "end": e.end, "text": e.text} for e in self.schedule],
            "marks": [{"time": m.time, "pass": m.pass_index, "kind": m.kind,
                       "variant": m.variant, "a_index": m.a_index, "text": m.text}
                      for m in self.marks],
        }

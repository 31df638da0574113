"""The report of a check: per stroke and overall, as text or JSON.

Per stroke (:class:`Row`): the expected time, the played time, the deviation
in ms (played − expected: positive is late), and what happened — ``ok``
(the right drum), ``wrong drum``, ``missing``, ``extra``. Overall
(:class:`Summary`): strokes right (played, on the right drum), the mean and
spread (standard deviation) of the deviation, the drift over the piece
(:func:`drift`: against a tempo given, a straight line through the
deviations; against a tempo found from the recording, the change of tempo),
with its standard error — negative is *rushing* (coming earlier and
earlier), positive *dragging*, and either only when it is over
:data:`STEADY_MS` and :data:`SURE` standard errors — and the worst places
(the largest deviations).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import display_width
from ..i18n import N_, _, ngettext
from ..text.collation.align import DEL, INS, MATCH, SUB
from .pairing import Pairing

#: A drift smaller than this over the whole piece (ms) is "steady".
STEADY_MS = 10.0
#: How many worst places a report names.
WORST = 3

_WORDS = {MATCH: "ok", SUB: "wrong drum", DEL: "missing", INS: "extra"}
#: The kinds and tempo words as shown (the English ones are data: JSON, the picture's data-kind).
SHOWN = {"ok": N_("ok"), "wrong drum": N_("wrong drum"), "missing": N_("missing"),
         "extra": N_("extra"), "steady": N_("steady"), "rushing": N_("rushing"),
         "dragging": N_("dragging"), "—": "—"}


def shown_word(word: str) -> str:
    """*word* (a row's kind, a summary's tempo) in the language in use."""
    return _(SHOWN[word]) if word in SHOWN else word


@dataclass(frozen=True)
class Row:
    """One line of the report: a stroke (with its hit, if any) or an extra hit."""

    kind: str
    stroke: int | None
    part: str | None
    pass_index: int | None
    position: int | None
    glyph: str | None
    expected: float | None
    played: float | None
    deviation_ms: float | None
    played_drum: str | None
    confidence: float | None

    def to_json(self) -> dict:
        return {k: (round(v, 6) if isinstance(v, float) else v)
                for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Summary:
    strokes: int
    right: int
    wrong_drum: int
    missing: int
    extra: int
    mean_ms: float | None
    spread_ms: float | None
    drift_ms_per_min: float | None
    drift_ms: float | None
    drift_error_ms: float | None
    tempo: str
    worst: tuple[int, ...]

    def to_json(self) -> dict:
        return {k: (round(v, 3) if isinstance(v, float) else list(v) if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()}


def rows(p: Pairing) -> tuple[Row, ...]:
    """The rows of *p*, in time order."""
    out = []
    for op in p.alignment.ops:
        s = p.strokes[op.a] if op.a is not None else None
        h = p.hits[op.b] if op.b is not None else None
        d = p.deviation[op.b] if op.b is not None else None
        out.append(Row(_WORDS[op.op], op.a,
                       s.part if s else None, s.pass_index if s else None,
                       s.position if s else None, s.glyph if s else None,
                       p.anchor + s.time if s else None, h.time if h else None,
                       d * 1000 if d is not None else None,
                       ("鼓" if h.big else "鼙") if h else None,
                       h.confidence if h else None))
    return tuple(out)


def summarise(p: Pairing, table: tuple[Row, ...], curve: bool = False) -> Summary:
    """The :class:`Summary` of the rows *table* of *p*; *curve*: the tempo was
    found from the recording (:func:`drift`)."""
    timed = [r for r in table if r.deviation_ms is not None]
    dev = np.array([r.deviation_ms for r in timed])
    mean = spread = slope = total = error = None
    tempo = "—"
    if len(dev):
        mean, spread = float(dev.mean()), float(dev.std())
    t = np.array([r.expected for r in timed])
    measured = drift(t, dev, curve)
    if measured is not None:
        total, error = measured
        slope = total / (float(t.max() - t.min()) / 60.0)
        tempo = ("steady" if abs(total) < max(STEADY_MS, SURE * error)
                 else "rushing" if total < 0 else "dragging")
    order = sorted(range(len(timed)), key=lambda i: -abs(timed[i].deviation_ms))[:WORST]
    a = p.alignment
    return Summary(len(p.strokes), a.matches, a.substitutions, a.deletions,
                   a.insertions, mean, spread, slope, total, error, tempo,
                   tuple(timed[i].stroke for i in order))


#: A drift is called rushing or dragging only when it is this many standard
#: errors (of its fit) from none: a jittery player's deviations wander (at 3,
#: one of the twelve steady 40 ms-jittered performances of the test set was
#: called dragging, at 3.3 standard errors).
SURE = 4.0


def drift(t: np.ndarray, dev: np.ndarray, curve: bool) -> tuple[float, float] | None:
    """(drift over the piece in ms, its standard error) of deviations *dev* (ms)
    at expected times *t*, or ``None`` with too few. Against a tempo given: a
    straight line's rise from the first stroke to the last. Against a tempo
    found from the recording (the player's mean: no straight line is left in
    the deviations), the change of tempo: a parabola ``α + βt + γt²``, and how
    far the last stroke stands from the tempo the player set out at, ``γT²``."""
    degree = 2 if curve else 1
    if len(dev) < degree + 3 or t.max() <= t.min():
        return None
    u = t - t.min()
    span = float(u.max())
    coeffs, cov = np.polyfit(u / span, dev, degree, cov=True)
    error = float(np.sqrt(max(cov[0, 0], 0.0)))
    return float(coeffs[0]), error


@dataclass(frozen=True)
class TempoUsed:
    """The tempo a check was made at: *how* — ``given`` (--interval/--bpm),
    ``found`` (from the recording, :mod:`guji.practice.tempo`) or ``default``
    (too few hits to find it) — the *interval* (s) and, when found, the
    *start_interval* the player set out at and the *end_interval* they had
    come to by the last stroke."""

    how: str
    interval: float
    start_interval: float
    end_interval: float

    @property
    def found(self) -> bool:
        return self.how == "found"

    def to_json(self) -> dict:
        return {"how": self.how, "interval": round(self.interval, 6),
                "bpm": round(60 / self.interval, 3), "start_bpm": round(60 / self.start_interval, 3),
                "end_bpm": round(60 / self.end_interval, 3)}

    def text(self) -> str:
        bpm = _("{bpm:.1f} bpm ({interval:.3f} s a stroke)").format(
            bpm=60 / self.interval, interval=self.interval)
        if self.how == "found":
            return _("tempo found from the recording: {bpm} on average; {start:.1f} bpm at the "
                     "start, {end:.1f} at the end").format(
                bpm=bpm, start=60 / self.start_interval, end=60 / self.end_interval)
        if self.how == "default":
            return _("tempo: the default {bpm} (too few hits to find it)").format(bpm=bpm)
        return _("tempo: {bpm}, as given").format(bpm=bpm)


def report_json(p: Pairing, recording: str, ids: list[str],
                tempo: TempoUsed | None = None) -> dict:
    table = rows(p)
    out = {"recording": recording, "ids": ids, "anchor": round(p.anchor, 6)}
    if tempo is not None:
        out["tempo"] = tempo.to_json()
    curve = tempo is not None and tempo.found
    out.update(summary=summarise(p, table, curve).to_json(), strokes=[r.to_json() for r in table])
    return out


def report_text(p: Pairing, recording: str, tempo: TempoUsed | None = None) -> str:
    table = rows(p)
    s = summarise(p, table, tempo is not None and tempo.found)
    lines = [summary_text(s, recording)]
    if tempo is not None:
        lines.append(tempo.text())
    if s.mean_ms is not None:
        lines.append(deviation_text(s))
    if s.worst:
        by_stroke = {r.stroke: r for r in table if r.deviation_ms is not None}
        lines.append(_("worst: {places}").format(places=_(", ").join(
            _("stroke {number} {glyph} {ms:+.1f} ms").format(
                number=k + 1, glyph=by_stroke[k].glyph, ms=_shown(by_stroke[k].deviation_ms, 1))
            for k in s.worst)))
    lines.append("")
    lines.append(" ".join([_pad("#", 5), _pad(_("pass"), 4), _pad("", 2), _pad(_("expected"), 9),
                           _pad(_("played"), 9), _pad(_("ms"), 7)]) + "  " + _("drum"))
    part = None
    for r in table:
        if r.part is not None and r.part != part:
            part = r.part
            lines.append(part)
        lines.append(_row_text(r))
    return "\n".join(lines) + "\n"


def summary_text(s: Summary, recording: str) -> str:
    """The first line of a report: the strokes right, wrong, missing, extra."""
    return ngettext("{recording}: {right} of {strokes} stroke right ({wrong} wrong drum, "
                    "{missing} missing, {extra} extra)",
                    "{recording}: {right} of {strokes} strokes right ({wrong} wrong drum, "
                    "{missing} missing, {extra} extra)", s.strokes).format(
        recording=recording, right=s.right, strokes=s.strokes, wrong=s.wrong_drum,
        missing=s.missing, extra=s.extra)


def deviation_text(s: Summary) -> str:
    """The deviation's mean and spread, and the drift (rushing, dragging) when measured."""
    text = _("deviation: mean {mean:+.1f} ms, spread {spread:.1f} ms").format(
        mean=_shown(s.mean_ms, 1), spread=s.spread_ms)
    if s.drift_ms is not None:
        text += _("; {tempo} ({drift:+.0f} ± {error:.0f} ms over the piece)").format(
            tempo=shown_word(s.tempo), drift=_shown(s.drift_ms, 0), error=s.drift_error_ms)
    return text


def _pad(text: str, width: int) -> str:
    """*text* right-aligned in *width* terminal columns (a CJK character takes two)."""
    return " " * max(0, width - display_width(text)) + text


def _shown(value: float, places: int) -> float:
    """*value* rounded to *places*, with no "-0" left."""
    return round(value, places) + 0.0


def _row_text(r: Row) -> str:
    num = f"{r.stroke + 1:>5}" if r.stroke is not None else f"{'':>5}"
    passes = f"{r.pass_index + 1:>4}" if r.pass_index is not None else f"{'':>4}"
    exp = f"{_shown(r.expected, 3):9.3f}" if r.expected is not None else f"{'':>9}"
    played = f"{_shown(r.played, 3):9.3f}" if r.played is not None else f"{'':>9}"
    ms = f"{_shown(r.deviation_ms, 1):+7.1f}" if r.deviation_ms is not None else f"{'':>7}"
    said = shown_word(r.kind) if r.kind == "missing" else f"{r.played_drum} {shown_word(r.kind)}"
    return f"{num} {passes} {r.glyph or '':2} {exp} {played} {ms}  {said}"

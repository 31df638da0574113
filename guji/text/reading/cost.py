"""What reading a text will cost, measured before it is read: :func:`check_reading`.

The scanner's memory and time do not follow a text's bytes: a chapter of
prose costs nearly nothing (the prefilter skips it), a text dense with
diagrams costs for every stroke it makes (a token, a stroke, a place in the
source) and every label (a token, a place in a chain of labels). So the
cost is counted, with :meth:`str.count` (C speed, a few milliseconds for a
large text), from what the scanner will read (the whole text, or the
windows the prefilter keeps) before a single token is made:

* every stroke glyph (:data:`~guji.text.reading.notation.ROUND_GLYPHS`,
  :data:`~guji.text.reading.notation.SQUARE_GLYPHS`): about
  :data:`STROKE_BYTES` of memory and :data:`STROKE_SECONDS` of time;
* every 鼓 and 鼔 (the last character of every label and heading):
  :data:`LABEL_BYTES` and :data:`LABEL_SECONDS`;
* every 半 (at most one pattern each): :data:`PATTERN_BYTES`;
* every character read: :data:`CHAR_BYTES`.

A 口 or a 鼓 of the prose counts as if it were a stroke or a label, so the
figure errs high, never low. Over :attr:`guji.limits.Limits.reading` the text
is refused in one line with the figure (``--force`` lifts the limit); at the
limit (1 GB) reading takes about 18 s of one core. The figures are measured
in ``bench/bench_reading_cost.py`` and given in ``docs/bounded.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...i18n import _
from ...limits import DEFAULT, LimitError, current, duration_text, past_default, size_text
from .notation import HALF, ROUND_GLYPHS, SQUARE_GLYPHS

#: Memory a stroke costs while it is read and once it is in a pattern (its
#: token, its :class:`~guji.text.reading.notation.Stroke` and place).
STROKE_BYTES = 400
#: Memory a label costs (its token, its place in a chain of labels).
LABEL_BYTES = 220
#: Memory a pattern costs beyond its strokes (the pattern, its lines, its 半).
PATTERN_BYTES = 600
#: Memory a character read costs beyond the text itself (the lines' starts).
CHAR_BYTES = 2
#: Time a stroke and a label cost, on one core.
STROKE_SECONDS = 7e-6
LABEL_SECONDS = 7e-6

_STROKE_GLYPHS = (*ROUND_GLYPHS, *SQUARE_GLYPHS)
_LABEL_ENDS = ("鼓", "鼔")


@dataclass(frozen=True)
class ReadingCost:
    """What the scanner will meet in a text: characters read, strokes,
    labels (and headings) and 半, each counted from the characters."""

    chars: int
    strokes: int
    labels: int
    halves: int

    @property
    def memory(self) -> int:
        """Bytes of memory reading it takes, about (erring high)."""
        return (self.strokes * STROKE_BYTES + self.labels * LABEL_BYTES
                + self.halves * PATTERN_BYTES + self.chars * CHAR_BYTES)

    @property
    def seconds(self) -> float:
        """Seconds of one core reading it takes, about."""
        return self.strokes * STROKE_SECONDS + self.labels * LABEL_SECONDS


def reading_cost(pieces: Iterable[tuple[str, int, int]]) -> ReadingCost:
    """The :class:`ReadingCost` of the ``(text, start, end)`` stretches the
    scanner will read."""
    chars = strokes = labels = halves = 0
    for text, start, end in pieces:
        chars += end - start
        strokes += sum(text.count(g, start, end) for g in _STROKE_GLYPHS)
        labels += sum(text.count(c, start, end) for c in _LABEL_ENDS)
        halves += text.count(HALF, start, end)
    return ReadingCost(chars, strokes, labels, halves)


#: The most a character read can cost (a 半: a pattern): a text too short to
#: reach the limit even if every character were one is not counted.
MOST_PER_CHAR = max(STROKE_BYTES, LABEL_BYTES, PATTERN_BYTES) + CHAR_BYTES


def check_reading(pieces: Iterable[tuple[str, int, int]], name: str | None,
                  said: bool = True) -> ReadingCost | None:
    """:func:`reading_cost` of *pieces* (the text of *name*), or
    :class:`~guji.limits.LimitError` when its memory is over
    :attr:`guji.limits.Limits.reading`: one line with the figures. Past the
    default limit lifted by ``--force``, the figures are said before the work
    (:func:`guji.limits.past_default`; not if *said* is False: the whole text's
    figures were said already). None, without counting, for a text too short
    to reach the limit."""
    pieces = list(pieces)
    most = current().reading
    if sum(end - start for _text, start, end in pieces) * MOST_PER_CHAR <= min(most, DEFAULT.reading):
        return None
    cost = reading_cost(pieces)
    _check(cost, name, most, said)
    return cost


def check_hits(hits: Iterable, chars: int, name: str | None) -> None:
    """Before a big file's windows are chosen (:mod:`guji.text.reading.bigfile`):
    :class:`~guji.limits.LimitError` when its *hits* (arrays of the code points
    of its strokes, 半 and the 鼓 of labels and headings, from its first
    pass) are over the limit already."""
    import numpy as np
    strokes = labels = halves = 0
    stroke_points = np.array([ord(g) for g in _STROKE_GLYPHS])
    label_points = np.array([ord(c) for c in _LABEL_ENDS])
    for points in hits:
        strokes += int(np.isin(points, stroke_points).sum())
        labels += int(np.isin(points, label_points).sum())
        halves += int((points == ord(HALF)).sum())
    _check(ReadingCost(chars, strokes, labels, halves), name, current().reading, said=False)


def _check(cost: ReadingCost, name: str | None, most: float, said: bool = True) -> None:
    """:class:`~guji.limits.LimitError` for a *cost* over *most*; past the
    default limit (lifted by ``--force``), said before the work (if *said*)."""
    figures = dict(name=name or "<text>", memory=size_text(cost.memory),
                   time=duration_text(cost.seconds), strokes=cost.strokes, labels=cost.labels,
                   halves=cost.halves)
    if cost.memory > most:
        raise LimitError(_(
            "{name}: reading it would take about {memory} and {time} ({strokes:,} strokes, "
            "{labels:,} labels, {halves:,} 半): over guji's limit of {most} for reading a text"
        ).format(most=size_text(most), **figures))
    if said and cost.memory > DEFAULT.reading:
        past_default(_(
            "{name}: reading it takes about {memory} and {time} ({strokes:,} strokes, "
            "{labels:,} labels, {halves:,} 半), past guji's limit of {most} (--force)"
        ).format(most=size_text(DEFAULT.reading), **figures))

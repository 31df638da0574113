"""A prefilter that cannot miss: the windows of a text the scanner must read.

Nearly every byte of a library holds no pattern. :func:`windows` finds, with
compiled regular expressions (C speed), the few stretches of a text where the
scanner (:func:`guji.text.reading.scan.scan`) could find anything, and
:func:`prefiltered_scan` reads only those with the full scanner, at their
real offsets, lines and columns. The result equals :func:`scan`'s on the
whole text (``tests/test_prefilter.py`` proves it on random texts and on
every test corpus).

How it decides
--------------
*Hits* are the characters the scanner acts on: strokes (every glyph of
:data:`~guji.text.reading.notation.ROUND_GLYPHS` / :data:`~guji.text.reading.notation.SQUARE_GLYPHS`),
半, and the last character of every label and heading (鼓, 鼔). Two hits
next to each other are *separated* when the text between them holds a
*break*: five ideographs in a row (none of them a hit nor the first
character of a label or heading), outside every note (:mod:`guji.text.reading.notespans`)
and every markup tag. The scanner reads such a run as prose of five
characters or more, which ends every segment (:mod:`guji.text.reading.segments`),
every chain of typos (:data:`guji.text.reading.typos.MAX_TYPO_CHARS` is 4) and every
chain of labels (:mod:`guji.text.reading.labels`). Hits not separated form a
*cluster*. A cluster matters when it holds a label, or 半 and a stroke, or
six strokes (the shortest run the scanner warns about); notes inside it are
part of it, so a note holding strokes and 半 (a quoted diagram) or a label
is passed to the scanner too. A lone section mark ○, a 口 in prose, a 半
without strokes near it, a heading alone: skipped.

Each cluster that matters becomes a window: from the start of the line of
the break before it to the end of the line of the break after it (or the
text's ends), widened until it cuts no note, and windows that touch are
merged. Every decision of the scanner about a pattern — its label, a
heading before it, the captions on its lines, a section mark glued to it,
its variant notes, a typo — looks no further than a break, so it is taken
inside one window as in the whole text; decisions about the whole text
(diagram numbers, the convention of the first diagram read, "more than two
diagrams") are taken over all the windows' tokens at once. (No decision
looks at the whole text for strokes any more: the windows once took every
cluster with a stroke or a 半 when labels were read but no window held a
stroke, for a notice "labels and 半 but no ○ or □ at all" that lost symbols,
below, replaced.)

Lost symbols
------------
The scanner names a stretch of score labels and lone 半 standing where
strokes were (:func:`guji.text.reading.hidden.lost_symbols`). It cannot be
missed:

1. Between two words of a stretch stands no stroke and no prose token of
   :data:`~guji.text.reading.hidden.PROSE_BREAK` (5) characters or more: the
   stretch's looks (three tokens each way) stop at either. A break lies in
   such a token: its :data:`~guji.text.reading.slicemap.BREAK_LENGTH` (5)
   ideographs, outside notes and tags, are word characters that start no
   label, heading, stroke or 半, so the lexer reads them inside one prose
   token (never dropped as a list marker: those are four characters at
   most). So no break stands between two words of a stretch: its 半 and
   labels are hits of one cluster.
2. A stretch is named only when it holds a label, outside every note (a
   label token is never inside one): its cluster holds a label and matters.
3. Its window runs from the line of the break before the cluster to the
   line of the break after it (or the text's ends), and holds both breaks'
   tokens whole (a prose token never spans a line). Every look of the
   stretch — three tokens each way, and whether a stroke stands beside a
   word — stops at those tokens at the latest, so it sees the tokens the
   whole text has there.
4. A window also holds, on those lines, hits of clusters that are not read
   (no label in them, else they would be read). A 半 among them starts a
   stretch that stops at the window's break, or at the next window's
   first break, before it meets a label: nothing named, and the stretches
   named after it start past that break, where the tokens are the whole
   text's.

So every stretch named in the whole text is named from the windows, at the
same place with the same words, and no other is.
"""

from __future__ import annotations

import bisect
import re
from array import array

import numpy as np

from ...errors import Location
from .cost import check_reading
from .labels import LABEL_MODES, LabelMode
from .lexer import _LINE_BREAK, SourceText, paused_collector, tokenize
from .notation import HALF, HEADINGS, LABELS, ROUND_GLYPHS, SQUARE_GLYPHS
from .notespans import TextMap, find, text_map
from .slicemap import BREAK_LENGTH, classes
from .parser import ScanResult
from .scan import read_tokens, scan
from .sieve import may_matter, run_pattern

_STROKES = "".join(ROUND_GLYPHS) + "".join(SQUARE_GLYPHS)
_WORDS = tuple(LABELS) + HEADINGS
#: Characters the scanner acts on (see the module documentation).
HIT_CHARS = _STROKES + HALF + "".join(sorted({w[-1] for w in _WORDS}))
#: Characters that may start a label or heading glued to the hit after them.
_WORD_STARTS = "".join(sorted({c for w in _WORDS for c in w[:-1]}))
_HITS = re.compile("[" + re.escape(HIT_CHARS) + "]")
#: Ideographs that are prose wherever they stand (CJK Unified Ideographs and Extension A).
_IDEOGRAPHS = [(0x3400, 0x4DB5), (0x4E00, 0x9FEF)]
_TABLE = None


def _table():
    global _TABLE
    if _TABLE is None:
        _TABLE = classes(HIT_CHARS, _IDEOGRAPHS, _WORD_STARTS)
    return _TABLE


def prefiltered_scan(text: str, filename: str | None = None, edition: str | None = None,
                     labels: LabelMode = "auto",
                     spans: list[tuple[int, int]] | None = None,
                     read_bracketed: bool = False) -> ScanResult:
    """:func:`guji.text.reading.scan.scan` of *text*, reading only its :func:`windows`
    (*spans*, if they were found already): the same patterns, notices and
    errors, at the same places. With *read_bracketed* (patterns inside notes
    read as patterns: the text changes), the whole text is scanned."""
    if labels not in LABEL_MODES:
        raise ValueError(f"labels must be one of {LABEL_MODES}, not {labels!r}")
    if read_bracketed:
        return scan(text, filename, edition, labels, read_bracketed=True)
    with paused_collector():
        if spans is None:
            check_reading([(text, 0, len(text))], filename)     # (mapping a dense text costs too)
            spans = windows(text)
        if not spans:
            return ScanResult((), ())   # no token: nothing found, nothing said
        check_reading([(text, a, b) for a, b in spans], filename, said=False)   # (said: the whole's)
        src = WindowSource(text, filename, spans)
        return read_tokens(src, tokenize(src, spans), edition, labels)


def windows(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the stretches of *text* the scanner must
    read, in order, each from a line's start to a line's start (or the text's
    ends) and cutting no note (see the module documentation)."""
    return windows_of_each([text])[0]


def windows_of_each(texts: list[str]) -> list[list[tuple[int, int]]]:
    """:func:`windows` of each of *texts* (many small files mapped at once: a
    line break joins them, and nothing is paired, clustered or widened
    across two)."""
    out: list[list[tuple[int, int]]] = [[] for _ in texts]
    chosen = [k for k, t in enumerate(texts) if _may_hold(t)]
    if not chosen:
        return out
    joined = "\n".join(texts[k] for k in chosen)
    bounds = [0]
    for k in chosen[:-1]:
        bounds.append(bounds[-1] + len(texts[k]) + 1)
    ends = [b + len(texts[k]) for b, k in zip(bounds, chosen)]
    tm = text_map(joined, _table(), bounds)
    for span in _spans(joined, tm, np.array(bounds), np.array(ends)):
        k = int(np.searchsorted(bounds, span[0], side="right")) - 1
        out[chosen[k]].append((span[0] - bounds[k], span[1] - bounds[k]))
    return out


def _spans(text, tm: TextMap, bounds: np.ndarray, ends: np.ndarray):
    """The windows of the texts joined into *text* (offsets of *text*; *text*
    a str, or a :class:`Lines` of a text not held whole)."""
    lines = text if isinstance(text, Lines) else Lines(text)
    hits = tm.hits
    if not len(hits):
        return []
    kinds = _kinds(tm)
    note = tm.inside(hits)
    out = note < 0
    which = np.searchsorted(bounds, hits, side="right") - 1      # each hit's text
    # clusters: a new one after every gap holding a break, and at every new text
    bs = tm.break_starts
    gaps = np.searchsorted(bs, hits[1:]) - np.searchsorted(bs, hits[:-1], side="right") > 0
    gaps |= which[1:] != which[:-1]
    cluster = np.concatenate(([0], np.cumsum(gaps)))
    n = int(cluster[-1]) + 1
    count = {k: np.bincount(cluster, weights=(kinds == k) & out, minlength=n) for k in "SHL"}
    strokes = count["S"]
    matters = (count["L"] > 0) | ((count["H"] > 0) & (strokes > 0)) | (strokes >= 6)
    matters |= _noted(lines, tm, kinds, note, cluster, strokes, n)
    first = np.searchsorted(cluster, np.arange(n))
    last = np.searchsorted(cluster, np.arange(n), side="right") - 1
    owner = which[first]
    spans = []
    for c in np.flatnonzero(matters).tolist():
        k = int(owner[c])
        lo, hi = int(bounds[k]), int(ends[k])
        start, end = _reach(lines, tm, int(hits[first[c]]), int(hits[last[c]]), lo, hi)
        spans.append(_widen(lines, tm, start, end, hi))
    return _merge(lines, tm, spans, bounds, ends)


_BREAK = run_pattern(_IDEOGRAPHS, HIT_CHARS + _WORD_STARTS, BREAK_LENGTH)


def _may_hold(text: str) -> bool:
    """A quick look at the whole text (:func:`guji.text.reading.sieve.may_matter`):
    could any cluster of it matter? If not, nothing needs mapping."""
    return may_matter(text, _BREAK)


def _noted(lines: "Lines", tm: TextMap, kinds, note, cluster, strokes, n: int):
    """Clusters that matter for a note inside them: a note holding a label,
    or strokes and 半 (a quoted diagram); a note ``(半)`` among strokes."""
    inside = note >= 0
    out = np.zeros(n, dtype=bool)
    if not inside.any():
        return out
    k = note[inside]
    m = int(k.max()) + 1
    per = {c: np.bincount(k, weights=kinds[inside] == c, minlength=m) for c in "SHL"}
    quoted = (per["L"] > 0) | ((per["S"] > 0) & (per["H"] > 0))
    half = np.zeros(m, dtype=bool)
    for j in np.flatnonzero((per["H"] > 0) & (per["S"] == 0)).tolist():
        half[j] = lines.is_half(int(tm.note_starts[j]) + 1, int(tm.note_ends[j]) - 1)
    where = cluster[inside]
    out[where[quoted[k] | (half[k] & (strokes[where] > 0))]] = True
    return out


def _kind_tables():
    kind = np.zeros(0x110000, dtype=np.uint8)
    for c in _STROKES:
        kind[ord(c)] = 1
    kind[ord(HALF)] = 2
    first = np.zeros(0x110000, dtype=bool)
    last = np.zeros(0x110000, dtype=bool)
    for w in LABELS:
        first[ord(w[0])] = last[ord(w[1])] = True
    # every first character with every last one is a label: the tables say exactly which
    assert {(a, b) for a in {w[0] for w in LABELS} for b in {w[1] for w in LABELS}} \
        == {(w[0], w[1]) for w in LABELS}
    return kind, first, last


_KIND, _LABEL_FIRST, _LABEL_LAST = _kind_tables()


def _kinds(tm: TextMap) -> np.ndarray:
    """Each hit's kind: S (a stroke), H (半), L (the end of a label) or W (of a heading)."""
    kinds = np.array(["W", "S", "H"])[_KIND[tm.codes]]
    kinds[_LABEL_FIRST[tm.before] & _LABEL_LAST[tm.codes]] = "L"
    return kinds


def _reach(lines: "Lines", tm: TextMap, first: int, last: int, lo: int, hi: int
           ) -> tuple[int, int]:
    """A cluster's window before widening: from the line of the last break
    before its *first* hit to the line of the first break after its *last*
    (its text, ``text[lo:hi]``, where there is none)."""
    bs, be = tm.break_starts, tm.break_ends
    j = find(bs, first) - 1
    start = lo if j < 0 or bs[j] < lo else lines.start(int(bs[j]))
    j = find(bs, last, "right")
    end = hi if j == len(bs) or be[j] > hi else min(hi, lines.after(int(be[j])))
    return start, end


class Lines:
    """Where the lines of a text start, and what a note holds, for
    :func:`_spans`: read from the text itself (a subclass answers for a
    text not held whole: :mod:`guji.text.reading.bigfile`)."""

    def __init__(self, text: str):
        self.text = text

    def start(self, at: int) -> int:
        """The start of the line holding *at* (lines end at ``\\r\\n``, ``\\r`` or ``\\n``)."""
        nl = self.text.rfind("\n", 0, at)
        return max(nl, self.text.rfind("\r", nl + 1, at)) + 1

    def after(self, at: int) -> int:
        """The start of the line after the one holding ``text[at - 1]``."""
        m = _LINE_BREAK.search(self.text, at)
        return len(self.text) if m is None else m.end()

    def is_half(self, start: int, end: int) -> bool:
        """Is ``text[start:end]`` (a note's inside) 半 alone, but for white space?"""
        return "".join(self.text[start:end].split()) == HALF


def _widen(lines: "Lines", notes: TextMap, start: int, end: int, hi: int) -> tuple[int, int]:
    """*start*, *end* moved out until they cut no note and stand at line
    starts (or *hi*, the end of their text)."""
    while True:
        moved = False
        note = notes.crossing(start)
        if note is not None:
            start, moved = lines.start(note[0]), True
        note = notes.crossing(end)
        if note is not None:
            end, moved = min(hi, lines.after(note[1])), True
        if not moved:
            return start, end


def _merge(lines: "Lines", notes: TextMap, spans: list[tuple[int, int]], bounds, ends
           ) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            k = int(np.searchsorted(bounds, start, side="right")) - 1
            out[-1] = _widen(lines, notes, out[-1][0], max(end, out[-1][1]), int(ends[k]))
        else:
            out.append((start, end))
    return out


class WindowSource(SourceText):
    """A :class:`SourceText` whose lines are counted only inside *spans*
    (the rest of a book is never split into lines), with the real line and
    column of every offset there."""

    def __init__(self, text: str, filename: str | None, spans: list[tuple[int, int]]):
        self.text = text
        self.filename = filename
        starts, numbers = array("q"), array("q")
        line, done = 1, 0
        for start, end in spans:
            line += _breaks(text, done, start)
            starts.append(start)
            numbers.append(line)
            for m in _LINE_BREAK.finditer(text, start, end):
                line += 1
                starts.append(m.end())
                numbers.append(line)
            done = starts[-1]
        self._lines: int | None = None
        self._starts, self._numbers = starts, numbers
        self._last_line = (-1, 0)

    @property
    def line_count(self) -> int:
        if self._lines is None:
            self._lines = _breaks(self.text, 0, len(self.text)) + 1
        return self._lines

    def line_start(self, line: int) -> int:
        k = bisect.bisect_left(self._numbers, line)
        if k < len(self._numbers) and self._numbers[k] == line:
            return self._starts[k]
        raise ValueError(f"line {line} is outside the windows read")

    def line_of(self, offset: int) -> int:
        return self.location(offset).line

    def location(self, offset: int) -> Location:
        k = bisect.bisect_right(self._starts, offset) - 1
        return Location(offset, self.line_number(k, self._numbers), offset - self._starts[k] + 1)

    def read_line(self, line: int) -> str:
        start = self.line_start(line)
        m = _LINE_BREAK.search(self.text, start)
        return self.text[start:m.start() if m else len(self.text)]


def _breaks(text: str, start: int, end: int) -> int:
    """Line breaks in ``text[start:end]`` (``\\r\\n`` counts once)."""
    lf = text.count("\n", start, end)
    cr = text.count("\r", start, end)
    return lf + cr - (text.count("\r\n", start, end) if cr else 0)

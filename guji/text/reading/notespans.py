"""A text's map for the prefilter, made at C speed: :func:`text_map`.

The prefilter (:mod:`guji.text.reading.prefilter`) needs, for a whole text (a
book of a library: millions of characters, nearly none of them notation):

* the *hits*, the characters the scanner acts on, with their kind;
* the *notes* (注): the outermost closed notes, as
  :func:`guji.text.reading.lexer.match_notes` pairs the brackets — a note may start
  pages before a pattern (a stray ``(`` that a ``)`` far later closes);
* the *breaks*: runs of five ideographs or more outside every note and
  every markup tag, which the scanner reads as prose that ends everything.

All three are found over the text's code points as numpy arrays (the text
is turned into numbers a slice at a time, so a big text costs little
memory). The notes of a text with one kind of bracket (Kanripo's ``( )``)
are paired at once: the stack of open notes is a walk of +1 (opener) and −1
(closer, ignored on an empty stack), and the brackets where the number of
open notes that will still be closed rises from 0 and falls back to 0 are
the outermost notes' ends. A text with two kinds of brackets is paired by
:func:`match_notes`'s own rule, one bracket at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lexer import NOTE_BRACKETS
from .slicemap import Workspace, piece_map

#: Characters turned into numbers at a time (bounds the memory of a big text).
SLICE = 1 << 18

@dataclass(frozen=True)
class TextMap:
    """Hits, notes and breaks of one text (offsets are the text's)."""

    hits: np.ndarray            #: offsets of the hits, in order
    codes: np.ndarray           #: their code points
    before: np.ndarray          #: the code points of the characters before them (0 at a line's start)
    note_starts: np.ndarray     #: outermost closed notes: opener offsets
    note_ends: np.ndarray       #: … and offsets just past their closers
    break_starts: np.ndarray    #: breaks (see the module), in order: those :func:`_kept_breaks` keeps
    break_ends: np.ndarray

    def inside(self, offsets: np.ndarray) -> np.ndarray:
        """The index of the outermost note holding each offset, −1 for none."""
        if not len(self.note_starts):
            return np.full(len(offsets), -1)
        k = np.searchsorted(self.note_starts, offsets, side="right") - 1
        held = (k >= 0) & (offsets < self.note_ends[np.maximum(k, 0)])
        return np.where(held, k, -1)

    def crossing(self, offset: int) -> tuple[int, int] | None:
        """The outermost note a cut just before *offset* would cut, if any."""
        k = int(find(self.note_starts, offset - 1, "right")) - 1
        if k >= 0 and self.note_starts[k] < offset < self.note_ends[k]:
            return int(self.note_starts[k]), int(self.note_ends[k])
        return None


def find(a: np.ndarray, x: int, side: str = "left") -> int:
    """``np.searchsorted(a, x)`` with *x* of *a*'s own width (a 32-bit array
    searched for a Python int would be copied to 64 bits on every call)."""
    return int(np.searchsorted(a, a.dtype.type(x), side=side))


def text_map(text: str, table: np.ndarray, bounds: list[int] | None = None) -> TextMap:
    """The :class:`TextMap` of *text*, classes of code points from *table*
    (:func:`classes`). With *bounds* (the offsets where texts joined into
    *text* start, the first 0), each text's notes are paired on their own."""
    if not text:
        empty = np.zeros(0, dtype=np.int64)
        return TextMap(empty, empty, empty, empty, empty, empty, empty)
    work = Workspace()
    raw = [piece_map(piece, base, table, work) for base, piece in _slices(text)]
    return finish(raw, bounds or [0], len(text))


def finish(raw: list, bounds: list[int], size: int) -> TextMap:
    """The :class:`TextMap` of the raw maps of a text's slices, in order (see
    :func:`text_map`; *size* the text's length)."""
    parts = [[list(p) for p in r] for r in raw]
    raw.clear()

    def joined(i: int, j: int) -> np.ndarray:
        out = np.concatenate([r[i][j] for r in parts])
        for r in parts:
            r[i][j] = None                              # each slice's array freed once joined
        return out
    note_starts, note_ends = _notes_of_each(joined(2, 0), joined(2, 1), bounds, size)
    tags = joined(3, 0), joined(3, 1)
    rs, re_ = joined(1, 0), joined(1, 1)
    hits = joined(0, 0)

    def free(starts: np.ndarray) -> np.ndarray:
        """Which runs starting at *starts* stand outside every note and tag."""
        out = ~_in_tags(*tags, starts)
        if len(note_starts):
            k = np.searchsorted(note_starts, starts, side="right") - 1
            out &= ~((k >= 0) & (starts < note_ends[np.maximum(k, 0)]))
        return out
    kept = _kept_breaks(hits, rs, free)
    return TextMap(hits, joined(0, 1), joined(0, 2), note_starts, note_ends, rs[kept], re_[kept])


#: Runs looked at one by one from each end of a stretch between hits before
#: all of the stretch's runs are (see :func:`_kept_breaks`).
LOOKS = 4


def _kept_breaks(hits: np.ndarray, rs: np.ndarray, free) -> np.ndarray:
    """The indices (in order) of the runs at *rs* kept as breaks: in each
    stretch of text before, between and after the *hits*, the first and the
    last run that *free* passes (with perhaps some more free ones). Only
    those are ever asked about: the prefilter asks whether a stretch between
    two hits holds a break, and for the last break before a hit and the
    first after one (:func:`guji.text.reading.prefilter._spans`, ``_reach``),
    so its answers are those all the free runs would give; and *free* is
    asked about a few runs a stretch, not about all of a book's."""
    if not len(rs):
        return np.zeros(0, dtype=np.int64)
    lo = np.concatenate(([0], np.searchsorted(rs, hits, side="right")))
    hi = np.concatenate((np.searchsorted(rs, hits), [len(rs)]))
    found = []
    for step, cur in ((1, lo.copy()), (-1, hi - 1)):
        active = np.flatnonzero(lo < hi)          # stretches holding a run, not yet resolved
        for _ in range(LOOKS):
            if not len(active):
                break
            ok = free(rs[cur[active]])
            found.append(cur[active][ok])
            active = active[~ok]
            cur[active] += step
            active = active[(cur[active] >= lo[active]) & (cur[active] < hi[active])]
        if len(active):                           # the rest of these stretches, all at once
            a = np.where(step > 0, cur[active], lo[active])
            b = np.where(step > 0, hi[active], cur[active] + 1)
            rest = _ranges(a, b)
            found.append(rest[free(rs[rest])])
    kept = np.sort(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
    if not len(kept):
        return kept
    return kept[np.concatenate(([True], kept[1:] != kept[:-1]))]   # each run once


def _ranges(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The integers of every range ``[a[k], b[k])``, one range after another."""
    lengths = b - a
    total = int(lengths.sum())
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(total) - offsets + np.repeat(a, lengths)


def _slices_starts(text: str):
    start, n = 0, len(text)
    while start < n:
        end = start + SLICE
        if end < n:
            cut = text.find("\n", end)
            end = n if cut < 0 else cut + 1
        yield start, end
        start = end


def _slices(text: str):
    """``(offset, piece)`` slices of *text* of about :data:`SLICE` characters, cut
    after a line break (no run of ideographs is cut)."""
    n = len(text)
    for start, end in _slices_starts(text):
        yield start, text[start:end] if (start, end) != (0, n) else text


def _in_tags(lt: np.ndarray, ends: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Which of the runs at *starts* might stand inside a markup tag
    (:func:`_tags`): those after a ``<`` with no ``>`` nor line break between."""
    if not len(lt) or not len(starts):
        return np.zeros(len(starts), dtype=bool)
    j = np.searchsorted(lt, starts) - 1
    return (j >= 0) & (starts < ends[np.maximum(j, 0)])


def _notes_of_each(at: np.ndarray, codes: np.ndarray, bounds: list[int], size: int):
    """:func:`_notes` of each text joined into one (starting at *bounds*)."""
    cuts = np.searchsorted(at, bounds + [size]).tolist()
    starts, ends = [], []
    for k in range(len(bounds)):
        a, b = cuts[k], cuts[k + 1]
        if a < b:
            s, e = _notes(at[a:b], codes[a:b])
            starts.append(s)
            ends.append(e)
    if not starts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(starts), np.concatenate(ends)


def _notes(at: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The outermost closed notes of one text (see the module): opener offsets,
    end offsets; *at* the offsets of its brackets, *codes* their code points.
    A closer whose opener the text never uses closes nothing: only the kinds
    opened count."""
    empty = np.zeros(0, dtype=np.int64)
    used = [(o, c) for o, c in NOTE_BRACKETS.items() if (codes == ord(o)).any()]
    if not len(at) or not used:
        return empty, empty
    if len(used) > 1:
        return _several(at, codes, used)
    return _walk(at, codes, *used[0])


def _walk(at: np.ndarray, codes: np.ndarray, opener: str, closer: str):
    """The outermost closed notes of the brackets *opener*/*closer* among *at*
    (the others ignored), paired at once (see the module)."""
    o = ord(opener)
    mine = (codes == o) | (codes == ord(closer))
    at, codes = at[mine], codes[mine]
    if not len(at):
        return at, at
    walk = np.cumsum(np.where(codes == o, 1, -1))
    depth = walk - np.minimum(np.minimum.accumulate(walk), 0)   # the stack; stray closers ignored
    future = np.minimum.accumulate(depth[::-1])[::-1]          # the lowest it will be again
    closed = depth - future                                    # open notes that will be closed
    before = np.concatenate(([0], closed[:-1]))
    return at[(before == 0) & (closed > 0)], at[(before > 0) & (closed == 0)] + 1


def _several(at: np.ndarray, codes: np.ndarray, used: list[tuple[str, str]]):
    """Several kinds of bracket: the most used kind paired at once, the few
    others one by one — when no bracket of one stands inside a note of the
    other, they cannot meet on the stack, and the pairing is the union —
    else every bracket one by one (:func:`_paired`)."""
    main = max(used, key=lambda k: int(((codes == ord(k[0])) | (codes == ord(k[1]))).sum()))
    mine = (codes == ord(main[0])) | (codes == ord(main[1]))
    rest_at, rest_codes = at[~mine], codes[~mine]
    if len(rest_at) * 8 > len(at):
        return _paired(at.tolist(), codes.tolist())
    ms, me = _walk(at, codes, *main)
    rs, re_ = _paired(rest_at.tolist(), rest_codes.tolist())
    if _any_inside(rest_at, ms, me) or _any_inside(at[mine], rs, re_):
        return _paired(at.tolist(), codes.tolist())
    starts = np.concatenate((ms, rs))
    order = np.argsort(starts, kind="stable")
    return starts[order], np.concatenate((me, re_))[order]


def _any_inside(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    if not len(points) or not len(starts):
        return False
    k = np.searchsorted(starts, points, side="right") - 1
    return bool(((k >= 0) & (points < ends[np.maximum(k, 0)])).any())


_CLOSER_OF = {ord(o): ord(c) for o, c in NOTE_BRACKETS.items()}


def _paired(at: list[int], codes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The outermost closed notes, brackets paired one by one exactly as
    :func:`~guji.text.reading.lexer.match_notes` pairs them (for texts with several
    kinds of bracket; ``tests/test_prefilter.py`` holds the two together)."""
    ends: dict[int, int] = {}
    stack: list[tuple[int, int]] = []
    closer_of = _CLOSER_OF
    for pos, code in zip(at, codes):
        want = closer_of.get(code)
        if want is not None:
            stack.append((pos, want))
        elif stack and code == stack[-1][1]:
            ends[stack.pop()[0]] = pos + 1
    outer_s: list[int] = []
    outer_e: list[int] = []
    for start in sorted(ends):
        if not outer_e or start >= outer_e[-1]:
            outer_s.append(start)
            outer_e.append(ends[start])
    return np.array(outer_s, dtype=np.int64), np.array(outer_e, dtype=np.int64)

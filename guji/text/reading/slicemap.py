"""One slice of a text turned into numbers: :func:`piece_map` (for
:mod:`guji.text.reading.notespans`).

Every code point of the slice gets its class from a table (:func:`classes`:
a hit, an ideograph that may stand in a break, a note bracket, a mark of a
tag or a line), and numpy finds where the hits, the brackets, the tags' ``<``
and the line feeds stand, and where the runs of :data:`BREAK_LENGTH`
ideographs or more start and end. The arrays it works in are kept from
slice to slice (:class:`Workspace`).
"""

from __future__ import annotations

import sys

import numpy as np

from .lexer import NOTE_BRACKETS

HIT, RUN, OPEN, CLOSE, LT, GT, EOL = 1, 2, 3, 4, 5, 6, 7
#: How many ideographs in a row make a break: one more than a typo may be
#: (:data:`guji.text.reading.typos.MAX_TYPO_CHARS`).
BREAK_LENGTH = 5


def classes(hits: str, run_ranges: list[tuple[int, int]], skip: str) -> np.ndarray:
    """The class of every code point: :data:`HIT` for the characters of *hits*,
    :data:`RUN` for those of *run_ranges* not in *skip*, :data:`OPEN` /
    :data:`CLOSE` for note brackets, 0 for the rest."""
    table = np.zeros(0x110000, dtype=np.uint8)
    for lo, hi in run_ranges:
        table[lo:hi + 1] = RUN
    for ch in skip:
        table[ord(ch)] = 0
    for ch in hits:
        table[ord(ch)] = HIT
    for o, c in NOTE_BRACKETS.items():
        table[ord(o)], table[ord(c)] = OPEN, CLOSE
    table[ord("<")], table[ord(">")], table[ord("\n")] = LT, GT, EOL
    return table


#: Bytes of the block :func:`roomy_heap` allocates and frees.
ROOMY = 16 << 20


def roomy_heap() -> None:
    """Let the C heap keep the memory a text's slices free again, for the
    next slice. glibc gives freed memory at the heap's top back to the
    system once more than twice its mmap threshold is free (128 KiB at
    start), so every slice's arrays came on fresh pages (page faults: 52,000
    for a 100 MB file); the threshold rises to the size of any block it
    mapped that is freed (mallopt(3), "dynamic mmap threshold"), and one
    such block of :data:`ROOMY` bytes, never touched, raises it for the rest
    of the process (12,000 page faults). Other allocators are not changed by it."""
    try:
        np.empty(ROOMY, dtype=np.uint8)
    except MemoryError:
        pass                            # (a hint only: without it the scan is the same)


class Workspace:
    """Arrays the slices of a text are mapped in, kept from slice to slice
    (one allocation for a whole text, not fresh pages for every slice)."""

    def __init__(self):
        self._arrays: dict[str, np.ndarray] = {}

    def array(self, name: str, n: int, dtype) -> np.ndarray:
        """The first *n* items of the array called *name* (its contents are left over)."""
        have = self._arrays.get(name)
        if have is None or len(have) < n:
            have = self._arrays[name] = np.empty(n, dtype=dtype)
        return have[:n]


def piece_map(piece: str, base: int, table: np.ndarray, work: Workspace | None = None):
    """The raw map of one slice of a text starting at offset *base* and
    ending after a line feed (or at the text's end): hits (offsets, code
    points, code points before), long runs (starts, ends), brackets (offsets,
    code points), markup tags (see :func:`_tags`), line feeds (offsets).
    The code point before a hit is 0 at a line's start (after a line feed,
    and at the slice's start: so the map is the same however the text is
    sliced). *work* holds the arrays it is made in (none of them is returned)."""
    work = work or Workspace()
    units = code_units(piece)
    lookup = table[:0x10000] if units.dtype == np.uint16 else table
    n = len(units)
    indices = work.array("indices", n, np.intp)         # (intp indices gather fastest)
    np.copyto(indices, units)
    cls = np.take(lookup, indices, out=work.array("classes", n, np.uint8), mode="clip")
    starts, ends = _long_runs(cls, work)
    flags = np.not_equal(cls, RUN, out=work.array("flags", n, bool))
    at = np.flatnonzero(np.logical_and(flags, cls, out=flags))    # hits, brackets, marks
    kind = cls[at]
    h = at[kind == HIT]
    before = units[np.maximum(h - 1, 0)].astype(np.int64)
    if len(h) and h[0] == 0:
        before[0] = 0                                   # the piece starts a line (or the text)
    before[before == 10] = 0                            # … and so does every line feed
    brackets = at[(kind == OPEN) | (kind == CLOSE)]
    feeds = at[kind == EOL]
    starts += base
    ends += base
    return ((h + base, units[h].astype(np.int64), before),
            (starts, ends),
            (brackets + base, units[brackets].astype(np.int64)),
            _tags(at, kind, n, base),
            (feeds + base,))


def _long_runs(cls: np.ndarray, work: Workspace) -> tuple[np.ndarray, np.ndarray]:
    """Where the runs of :data:`BREAK_LENGTH` characters of class :data:`RUN`
    or more start and end (offsets in the slice). A window of that many
    characters of the class begins at each offset where *win* is set; a run of
    L characters holds L − 4 such windows in a row, so the run starts where
    they start and ends 4 characters after they stop (flags of one byte a
    character, made in *work*: no array of offsets as long as the text)."""
    n = len(cls)
    if n < BREAK_LENGTH:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    run = np.equal(cls, RUN, out=work.array("run", n, bool))
    a, b = work.array("pairs", n, bool), work.array("fours", n, bool)
    np.logical_and(run[:-1], run[1:], out=a[:n - 1])            # a[i]: i, i + 1 in a run
    np.logical_and(a[:n - 3], a[2:n - 1], out=b[:n - 3])        # b[i]: i … i + 3
    m = n - BREAK_LENGTH + 1
    win = np.logical_and(b[:m], run[BREAK_LENGTH - 1:], out=a[:m])   # i … i + 4
    edges = np.flatnonzero(np.not_equal(win[1:], win[:-1], out=b[:m - 1])) + 1
    if win[0]:
        edges = np.concatenate(([0], edges))
    if win[m - 1]:
        edges = np.concatenate((edges, [m]))
    return edges[0::2], edges[1::2] + (BREAK_LENGTH - 1)


def _tags(at: np.ndarray, kind: np.ndarray, n: int, base: int):
    """Where markup tags (``<pb:…>``, which cannot span lines) may stand in
    a slice: the offsets of each ``<`` and of the first ``>`` or line feed
    after it (the slice's end, *n*, where there is none: the tag runs on to
    the end of the text, since a slice ends after a line feed or there).
    *at* are the offsets of the slice's marks, *kind* their classes."""
    lt = at[kind == LT]
    if not len(lt):
        return lt + base, lt + base
    other = at[(kind == GT) | (kind == EOL)]            # a tag may hold a carriage return
    k = np.searchsorted(other, lt)
    ends = np.where(k < len(other), other[np.minimum(k, len(other) - 1)], n) \
        if len(other) else np.full(len(lt), n)
    return lt + base, ends + base


def line_starts(piece: str, base: int) -> np.ndarray:
    """Offsets (from *base*) where the lines after the line breaks of *piece*
    start: after ``\\n``, and after ``\\r`` not followed by ``\\n`` (as
    :class:`~guji.text.reading.lexer.SourceText` counts lines)."""
    units = code_units(piece)
    feeds = np.flatnonzero(units == 10)
    if "\r" not in piece:
        return feeds + 1 + base
    returns = np.flatnonzero(units == 13)
    nxt = units[np.minimum(returns + 1, len(units) - 1)]
    alone = returns[(returns + 1 >= len(units)) | (nxt != 10)]
    return np.union1d(feeds, alone) + 1 + base


def code_units(piece: str) -> np.ndarray:
    """The code points of *piece*, one array item a character: UTF-16 units
    (2 bytes each) when every character is in the BMP, else UTF-32."""
    if not _wide(piece):
        raw = piece.encode("utf-16-le", "surrogatepass")
        if len(raw) == 2 * len(piece):                  # (no surrogate pair: one unit a character)
            return np.frombuffer(raw, dtype=np.uint16)
    return np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _wide(piece: str) -> bool:
    """Does *piece* seem to hold characters beyond the BMP? (CPython stores
    such a string 4 bytes a character, so its size tells without a pass
    over it; a guess only, which :func:`code_units` checks: the header's
    size differs between builds.)"""
    return sys.getsizeof(piece) >= 4 * len(piece) + 40 and len(piece) > 64 \
        or (len(piece) <= 64 and any(ord(c) > 0xFFFF for c in piece))

"""A big UTF-8 file scanned without holding its text: :func:`scan_big`.

A 100 MB Kanripo file is 33 million characters, which CPython stores at 4
bytes each as soon as one lies beyond the BMP: holding it whole costs more
than scanning it. :func:`scan_big` reads the file twice, a chunk at a time
(cut after a line break, so a chunk ends where a line ends):

1. each chunk is mapped (:func:`guji.text.reading.slicemap.piece_map`: hits, runs,
   brackets, line marks), and the maps are finished for the whole file at
   once (notes paired over all its brackets), then the windows chosen as
   :mod:`guji.text.reading.prefilter` chooses them (its :class:`~guji.text.reading.prefilter.Lines`
   answered from the line breaks found; a note is taken for ``(半)`` if it
   holds 半 and no stroke, which can only read more);
2. the windows' text is read back — only the chunks holding one, found by
   their byte offsets — with the line number of each window's first line
   (known from the first pass), and the scanner reads the windows' tokens as
   one text (:class:`SparseSource`: real offsets, lines and columns).

The result equals :func:`guji.text.reading.scan.scan` of the whole text
(``tests/test_prefilter.py`` runs it with tiny chunks on every corpus).
"""

from __future__ import annotations

import bisect
import os
from array import array

import numpy as np

from ...i18n import _
from ...errors import EncodingError
from ...files import reason
from .cost import check_hits, check_reading
from .lexer import _LINE_BREAK, SourceText, Token, match_notes, paused_collector, _tokens
from .notespans import find, finish
from .slicemap import Workspace, line_starts, piece_map, roomy_heap
from .parser import ScanResult
from .prefilter import Lines, WindowSource, _spans, _table
from .scan import read_tokens

#: Bytes read at a time.
CHUNK = 512 << 10


def _pieces(path: str, chunk: int, first: int = 0, last: int | None = None):
    """``(offset, piece, byte offset, length, bytes)`` of the UTF-8 text of the
    file's bytes *first* to *last* (all by default; a range starts after a line
    feed), each piece ending after a line feed (or at the range's end), with
    where its bytes stand and the bytes themselves (a view, good until the next
    piece); UnicodeDecodeError if it is not UTF-8. (The bytes are read into one
    buffer, kept from piece to piece, and cut after a line feed before they are
    decoded: a line feed never stands inside a UTF-8 sequence, and no text is
    copied to be cut. What follows the last line feed is moved to the buffer's
    start, and the next bytes are read after it.)"""
    buf = bytearray(chunk)
    base, held, consumed, start = 0, 0, first, first
    with open(path, "rb") as f:
        f.seek(first)
        while True:
            want = chunk if last is None else min(chunk, last - consumed)
            if held + want > len(buf):          # a line longer than a chunk: a bigger buffer
                bigger = bytearray(max(2 * len(buf), held + want))
                bigger[:held] = buf[:held]
                buf = bigger
            got = f.readinto(memoryview(buf)[held:held + want]) if want > 0 else 0
            consumed += got
            end = held + got
            cut = buf.rfind(b"\n", 0, end) + 1 if got else end
            if cut:
                view = memoryview(buf)[:cut]
                piece = str(view, "utf-8")
                yield base, piece, start, cut, view
                base, start = base + len(piece), start + cut
            held = end - cut
            buf[:held] = buf[cut:end]           # (the same length: the buffer keeps its size)
            if not got:
                return


def _map_range(job):
    """The maps of the pieces of one byte range of a file (offsets from the
    range's first character): ``(maps, line starts, pieces, characters)``, or
    None if the range is not UTF-8."""
    path, first, last, chunk = job
    table, work = _table(), Workspace()
    maps, starts, pieces, size = [], [], [], 0
    try:
        for base, piece, at, length, view in _pieces(path, chunk, first, last):
            maps.append(_narrow(piece_map(piece, base, table, work)))
            feeds = _feeds(view, piece, work)
            if feeds is None:
                starts.append(line_starts(piece, base).astype(np.int32))
            else:                               # line feeds only: the map has them already
                starts.append(maps[-1][4][0] + 1)
            pieces.append((base, at, length, feeds))
            size = base + len(piece)
    except UnicodeDecodeError:
        return None
    return maps, starts, pieces, size


def _ranges(path: str, size: int, parts: int) -> list[tuple[int, int]]:
    """*parts* byte ranges of the file, each cut just after a line feed."""
    cuts = [0]
    with open(path, "rb") as f:
        for k in range(1, parts):
            f.seek(max(cuts[-1], size * k // parts))
            ahead = f.read(1 << 20)
            nl = ahead.find(b"\n")
            if nl >= 0:
                cuts.append(f.tell() - len(ahead) + nl + 1)
    cuts.append(size)
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _shifted(raw, by: int):
    """A range's raw map with its offsets moved *by* characters."""
    if not by:
        return raw
    (h, codes, before), (rs, re_), (b, bcodes), (lt, tag_ends), (feeds,) = raw
    return ((h + by, codes, before), (rs + by, re_ + by), (b + by, bcodes),
            (lt + by, tag_ends + by), (feeds + by,))


class _MarkLines(Lines):
    """:class:`Lines` from the line feeds of a text not held whole (and its
    carriage returns, counted as :class:`SourceText` counts them)."""

    def __init__(self, starts: np.ndarray, size: int):
        self.starts = starts          # offsets where lines start, 0 first
        self.size = size

    def start(self, at: int) -> int:
        return int(self.starts[find(self.starts, at, "right") - 1])

    def after(self, at: int) -> int:
        k = find(self.starts, at, "right")
        return self.size if k == len(self.starts) else int(self.starts[k])

    def is_half(self, start: int, end: int) -> bool:
        return True                   # not known without the text: read it (never less)


def _narrow(raw):
    """A slice's raw map in 32-bit numbers (offsets of a text under 2**31
    characters: :data:`guji.limits.Limits.text_bytes` keeps texts far below)."""
    return tuple(tuple(a.astype(np.int32) if a.dtype == np.int64 else a for a in part)
                 for part in raw)


def scan_big(path: str, filename: str | None = None, labels: str = "auto",
             chunk: int = CHUNK, jobs: int = 1) -> ScanResult | None:
    """The scan of the UTF-8 text file *path* (no BOM), or None if it is not
    UTF-8 (then read it whole: its encoding is decided on all of it). With
    *jobs* > 1, the first pass maps byte ranges of the file in that many
    processes."""
    roomy_heap()
    try:
        size_bytes = os.path.getsize(path)
        jobs_list = [(path, a, b, chunk) for a, b in _ranges(path, size_bytes, max(1, jobs))]
        if len(jobs_list) > 1:
            from ...processes import worker_pool      # a stop kills them: never joined busy
            with worker_pool(len(jobs_list)) as pool:
                done = list(pool.map(_map_range, jobs_list))
        else:
            done = [_map_range(j) for j in jobs_list]
    except OSError as e:
        raise EncodingError(_('{path}: cannot read: {value}').format(path=path, value=reason(e))) from None
    if any(d is None for d in done):
        return None
    check_hits((m[0][1] for d in done for m in d[0]), sum(d[3] for d in done), filename or path)
    raw, starts, pieces, size = [], [np.zeros(1, dtype=np.int32)], [], 0
    for maps, lines_at, parts, chars in done:
        raw += [_shifted(m, size) for m in maps]
        starts += [s + size for s in lines_at]
        pieces += [(base + size, at, length, feeds) for base, at, length, feeds in parts]
        size += chars
    if not raw:
        return ScanResult((), ())
    tm = finish(raw, [0], size)
    del raw, done
    lines = _MarkLines(np.concatenate(starts), size)
    del starts
    spans = _spans(lines, tm, np.array([0]), np.array([size]))
    src = SparseSource(path, filename, spans, pieces, lines, size)
    check_reading([(text, 0, len(text)) for _at, text in src.sparse.windows], filename or path)
    with paused_collector():
        return read_tokens(src, src.tokens(), None, labels)


class _Sparse:
    """The text of the windows at their real offsets (``text[a:b]`` inside
    one window; anything else outside them reads as spaces)."""

    def __init__(self, windows: list[tuple[int, str]], size: int):
        self.windows = windows
        self.starts = [w[0] for w in windows]
        self.size = size

    def __len__(self) -> int:
        return self.size

    def find(self, sub: str, start: int = 0) -> int:
        """``str.find`` of a non-blank *sub* inside one window (outside
        them the text reads as spaces, where no such *sub* stands)."""
        k = max(bisect.bisect_right(self.starts, start) - 1, 0)
        for base, text in self.windows[k:]:
            at = text.find(sub, max(start - base, 0))
            if at >= 0:
                return base + at
        return -1

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, _ = key.indices(self.size)
            if stop <= start:
                return ""
            k = bisect.bisect_right(self.starts, start) - 1
            if k >= 0:
                base, text = self.windows[k]
                if stop <= base + len(text):
                    return text[start - base:stop - base]
            return "".join(self[i] for i in range(start, stop))
        if key < 0:
            key += self.size
        k = bisect.bisect_right(self.starts, key) - 1
        if k >= 0 and key < self.starts[k] + len(self.windows[k][1]):
            return self.windows[k][1][key - self.starts[k]]
        if 0 <= key < self.size:
            return " "
        raise IndexError(key)


def _feeds(view, piece: str, work: Workspace | None = None) -> np.ndarray | None:
    """Where the line feeds of a piece's bytes stand (offsets in them), or
    None if the piece holds a carriage return (where lines also end). *work*
    holds the flags found on the way."""
    if "\r" in piece:
        return None
    flags = (work or Workspace()).array("feeds", len(view), bool)
    return np.flatnonzero(np.equal(np.frombuffer(view, dtype=np.uint8), 10, out=flags)
                          ).astype(np.int32)


class _Piece:
    """One piece's text, read back for the windows in it: a window's part,
    from a line start to a line start, is read and decoded alone (its bytes
    found from the piece's line feeds, :func:`_feeds`), not the whole piece
    (which is read whole where a carriage return ends lines too, or a bound
    is not a line start)."""

    def __init__(self, f, where: tuple, base: int, end: int, starts: np.ndarray):
        self.f, (self.at, self.length, self.feeds) = f, where
        self.base, self.end, self.text = base, end, None
        self.first = find(starts, base, "right")         # the first line start after base
        self.starts = starts

    def __getitem__(self, key: slice) -> str:
        a, b = key.start, key.stop
        if self.text is None and self.feeds is not None:
            first, last = self._byte(a), self._byte(b)
            if first is not None and last is not None:
                self.f.seek(self.at + first)
                return self.f.read(last - first).decode("utf-8")
        if self.text is None:
            self.f.seek(self.at)
            self.text = self.f.read(self.length).decode("utf-8")
        return self.text[a - self.base:b - self.base]

    def _byte(self, at: int) -> int | None:
        """The offset in the piece's bytes of *at* if it is the piece's start,
        its end, or a line start in it (the k-th after the start follows the
        k-th line feed); else None."""
        if at == self.base:
            return 0
        if at == self.end:
            return self.length
        k = find(self.starts, at) - self.first
        if 0 <= k < len(self.feeds) and int(self.starts[self.first + k]) == at:
            return int(self.feeds[k]) + 1
        return None


class SparseSource(WindowSource):
    """A :class:`WindowSource` whose text holds only the windows (read back from the file)."""

    def __init__(self, path: str, filename: str | None, spans, pieces, lines: _MarkLines,
                 size: int):
        parts: list[list[str]] = [[] for _ in spans]
        first_lines = [find(lines.starts, a, "right") for a, _ in spans]
        done = 0
        with open(path, "rb") as f:
            for k, (base, at, length, feeds) in enumerate(pieces):
                end = pieces[k + 1][0] if k + 1 < len(pieces) else size
                if done == len(spans) or spans[done][0] >= end:
                    continue                    # no window here: not read again
                text = _Piece(f, (at, length, feeds), base, end, lines.starts)
                for j in range(done, len(spans)):
                    a, b = spans[j]
                    if a >= end:
                        break
                    parts[j].append(text[max(a, base):min(b, end)])
                while done < len(spans) and spans[done][1] <= end:
                    done += 1
        line = len(lines.starts)
        texts = [(a, "".join(p)) for (a, _), p in zip(spans, parts)]
        starts, numbers = array("q"), array("q")
        for (a, text), first in zip(texts, first_lines):
            starts.append(a)
            numbers.append(first)
            for n, m in enumerate(_LINE_BREAK.finditer(text), 1):
                starts.append(a + m.end())
                numbers.append(first + n)
        self.sparse = _Sparse(texts, size)
        self.text = self.sparse                 # type: ignore[assignment]
        self.filename = filename
        self._starts, self._numbers = starts, numbers
        self._last_line = (-1, 0)
        self._lines: int | None = line

    def read_line(self, line: int) -> str:
        start = self.line_start(line)
        k = bisect.bisect_right(self.sparse.starts, start) - 1
        base, text = self.sparse.windows[k]
        m = _LINE_BREAK.search(text, start - base)
        return text[start - base:m.start() if m else len(text)]

    def tokens(self) -> list[Token]:
        """The tokens of every window, at their real offsets (see :func:`tokenize`)."""
        out: list[Token] = []
        for a, text in self.sparse.windows:
            local = SourceText.__new__(SourceText)
            local.text, local.filename = text, self.filename
            ends = match_notes(text)
            for t in _tokens(local, 0, len(text), ends):
                out.append(Token(t.kind, t.offset + a, t.end + a, self, t.drum, t.tradition))
        return out

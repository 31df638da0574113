"""Onsets: on which sample each stroke of a part starts, and with which sound.

Each stroke (and count-in click) starts on exactly sample ``round(t × rate)``,
``t`` being its exact time from :meth:`guji.timing.score.Score.time` —
computed from the stroke's index, never by adding up rounded gaps. A
:class:`Track` answers for one part, by event index and lazily, so a piece
repeated ten thousand times costs no more memory than one pass: the sample
of an event, the sound kind (voice at a pan, an index into the mixer's
one-shots) of a range of events, and the first event at or after a sample.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..timing.score import Score


#: A part's strokes vary over this many passes, then sound again (see
#: :mod:`guji.sound.strokes`): a long piece stays a few distinct blocks.
CYCLE_PASSES = 4


class Track:
    """The onsets of one part: sample positions and sound kinds, by index, lazily.

    Parameters
    ----------
    score:
        The part's score (its times, count-in and pass length).
    rate:
        Samples a second.
    pass_kinds:
        The sound kind of each stroke of one pass, in order.
    click_kind:
        The sound kind of a count-in click.
    lengths:
        The length (frames) of each sound kind's one-shot: how far back a
        stroke may still ring (:attr:`max_length`).
    table, counts, seed:
        The strokes that vary (:mod:`guji.sound.strokes`): row *k* of *table*
        lists the kinds kind *k* sounds as (its first *counts[k]*), one chosen
        by the stroke's grid step and the part's *seed*; ``None``: none varies.
    """

    def __init__(self, score: Score, rate: int, pass_kinds: np.ndarray, click_kind: int,
                 lengths: Sequence[int], table: np.ndarray | None = None,
                 counts: np.ndarray | None = None, seed: int = 0):
        self.score = score
        self.n = len(score)
        self.count_in = score.count_in
        self.per_pass = max(score.per_pass, 1)
        self.step = score.step        # the grid step of event 0 (int, or an exact Fraction)
        self.start = float(score.start)
        self.interval = float(score.interval)
        self.rate = float(rate)
        self.pass_kinds = pass_kinds
        self.click_kind = click_kind
        self.table, self.counts, self.seed = table, counts, seed
        used = set(pass_kinds.tolist()) | ({click_kind} if self.count_in else set())
        if table is not None:
            used = {int(v) for k in used for v in table[k, :counts[k]]}
        self.max_length = int(max((lengths[k] for k in used), default=1))

    def position(self, i: int) -> int:
        """Sample of event *i*: ``round((step + i) × interval × rate)``
        (:meth:`Score.time <guji.timing.score.Score.time>`, then the rate)."""
        return round(self.score.time(i) * self.rate)

    def positions(self, i0: int, i1: int) -> np.ndarray:
        """Samples of events *i0* … *i1*−1, the same arithmetic as
        :meth:`position`: the whole step ``step + i`` (exact in float64 below
        2**53), times the interval, times the rate, rounded half to even."""
        if not isinstance(self.step, int):       # a score put by hand between two steps
            return np.array([self.position(i) for i in range(i0, i1)], dtype=np.int64)
        steps = np.arange(self.step + i0, self.step + i1, dtype=np.float64)
        return np.rint(steps * self.interval * self.rate).astype(np.int64)

    def kinds(self, i0: int, i1: int) -> np.ndarray:
        """Sound kinds of events *i0* … *i1*−1: a click in the count-in, else the stroke's."""
        idx = np.arange(i0, i1, dtype=np.int64)
        if len(self.pass_kinds) == 0:
            return np.full(len(idx), self.click_kind, dtype=np.int64)
        strokes = self.pass_kinds[(idx - self.count_in) % self.per_pass]
        base = np.where(idx < self.count_in, self.click_kind, strokes)
        if self.table is None:
            return base
        from .strokes import choose
        steps = (idx + int(self.step)) % (CYCLE_PASSES * max(self.per_pass, 4))  # its place
        return self.table[base, choose(self.seed, steps, self.counts[base])]

    def first_at_or_after(self, frame: int) -> int:
        """The first event index whose sample is ≥ *frame* (``n`` if none)."""
        n = self.n
        if n == 0:
            return 0
        est = math.ceil((frame / self.rate - self.start) / self.interval)
        i = min(max(est, 0), n)
        while i > 0 and self.position(i - 1) >= frame:
            i -= 1
        while i < n and self.position(i) < frame:
            i += 1
        return i


class TrackSet(Sequence):
    """The tracks of a mix, with where each one starts and ends, so that the
    tracks sounding in a stretch are found at once, not by asking every one:
    a long ``compare alternate`` has thousands of parts, each sounding in a
    few blocks of the whole.
    """

    def __init__(self, tracks: Sequence[Track]):
        self.tracks = list(tracks)
        live = [tr for tr in self.tracks if tr.n]
        self._live = live
        self._first = np.array([tr.position(0) for tr in live], dtype=np.int64)
        self._last = np.array([tr.position(tr.n - 1) for tr in live], dtype=np.int64)

    def __len__(self) -> int:
        return len(self.tracks)

    def __getitem__(self, index):
        return self.tracks[index]

    def __iter__(self):
        return iter(self.tracks)

    def within(self, lo: int, hi: int) -> list[Track]:
        """The tracks with an onset in [*lo*, *hi*), in order (and maybe a few more)."""
        hit = np.flatnonzero((self._first < hi) & (self._last >= lo))
        return [self._live[k] for k in hit.tolist()]

    def next_onset(self, frame: int) -> int | None:
        """The sample of the first onset at or after *frame*, or None."""
        best = None
        for tr in self._started(frame):
            i = tr.first_at_or_after(frame)
            if i < tr.n:
                p = tr.position(i)
                best = p if best is None or p < best else best
        later = self._first[self._first >= frame]
        if later.size:
            p = int(later.min())
            best = p if best is None or p < best else best
        return best

    def _started(self, frame: int) -> list[Track]:
        """Tracks that started before *frame* and have onsets left at or after it."""
        hit = np.flatnonzero((self._first < frame) & (self._last >= frame))
        return [self._live[k] for k in hit.tolist()]


def hits_near(tracks: TrackSet, cue_pos: np.ndarray, cue_kind: np.ndarray, reach: int,
              b0: int, b1: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """(positions, kinds, reach) of every hit sounding in [*b0*, *b1*): track by
    track, then the cues (at *cue_pos*, sounding *cue_kind*); a source's
    *reach* is how far back one of its hits rings (for cues: *reach*)."""
    out = []
    for tr in tracks.within(b0 - reach + 1, b1):
        i0 = tr.first_at_or_after(b0 - tr.max_length + 1)
        i1 = tr.first_at_or_after(b1)
        if i1 > i0:
            out.append((tr.positions(i0, i1), tr.kinds(i0, i1), tr.max_length))
    if len(cue_pos):
        a = int(np.searchsorted(cue_pos, b0 - reach + 1, side="left"))
        b = int(np.searchsorted(cue_pos, b1, side="left"))
        if b > a:
            out.append((cue_pos[a:b], cue_kind[a:b], reach))
    return out


def hits_by_block(tracks: TrackSet, cue_pos: np.ndarray, cue_kind: np.ndarray, reach: int,
                  start: int, stop: int, block_frames: int, per_chunk: int = 256):
    """(b0, b1, [(positions, kinds)…]) of each block of [*start*, *stop*): the
    hits of :func:`hits_near` block by block, found a chunk of blocks at a
    time (one search per source for the whole chunk, not one per block)."""
    for c0 in range(start, stop, block_frames * per_chunk):
        c1 = min(c0 + block_frames * per_chunk, stop)
        starts = np.arange(c0, c1, block_frames, dtype=np.int64)
        ends = np.minimum(starts + block_frames, c1)
        cuts = [(pos, kinds, np.searchsorted(pos, starts - back + 1).tolist(),
                 np.searchsorted(pos, ends).tolist())
                for pos, kinds, back in hits_near(tracks, cue_pos, cue_kind, reach, c0, c1)]
        for j, (b0, b1) in enumerate(zip(starts.tolist(), ends.tolist())):
            yield b0, b1, [(pos[lo[j]:hi[j]], kinds[lo[j]:hi[j]])
                           for pos, kinds, lo, hi in cuts if hi[j] > lo[j]]

"""Headroom: the exact peak of a render, found from a bounded set of windows.

The file's peak is at most :data:`CEILING_DBFS` (−1 dBFS), whatever the tempo
and however the rings overlap. Each output channel gets one fixed gain for
the whole piece: 1 if the channel's peak is already below the ceiling (the
default kit at ordinary tempi), else ``ceiling / peak``
(:func:`channel_gains`). The peak is **exact**, not a bound, and is known
before the first block is made:

Between two consecutive onsets the signal of a channel is a sum of one-shots
fixed by which strokes still ring and how long ago each began. Such a window
is described by a key: its length and the (voice and pan, age) of each
ringing stroke. Because the score is periodic (間若一: one grid, one pattern
repeated), the same keys come back pass after pass.
:class:`~guji.sound.mixer.Mix` walks the onsets (integers only, no audio) a
chunk at a time (:func:`chunk_frames`), picks the first window of each
distinct key (:func:`distinct_windows`), renders just those stretches
(:func:`stretches`) with the renderer itself, and takes the maximum. Every
window of the piece has the same samples as the rendered window with its
key, so this is the peak of the whole render, found without rendering it: a
10-hour piece at an ordinary tempo has a few dozen distinct windows (about
0.1 s of work), a dense one a few hundred. The gain aims :data:`MARGIN_DB`
below the ceiling, which covers the rounding of the gain itself and of
16/24-bit samples (and windows of equal keys whose strokes come from
different parts, summed in another order).

The gain of a channel depends only on what sounds in that channel, and it is
the same for any block size: adding a part panned hard right does not change
the left channel, and the output is identical whatever ``block_frames``.
(When a channel must be turned down and the other need not, the balance of
a centre-panned voice shifts by the ratio of the two gains.) OGG Vorbis is
lossy: the decoded peak can differ from the rendered one by a fraction of a
dB, so OGG files are rendered to aim
:data:`~guji.sound.files.OGG_EXTRA_HEADROOM_DB` lower.

Everything here is integer arithmetic on onset positions, sound kinds and
one-shot lengths (numpy arrays): no audio.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

#: The loudest a rendered sample may be, in dBFS.
CEILING_DBFS = -1.0
#: The mix gain aims this far below the ceiling (float32 and PCM rounding).
MARGIN_DB = 0.02
#: Windows closer than this (frames) are rendered as one stretch.
STRETCH_GAP = 4096


def aim(ceiling_dbfs: float) -> float:
    """The linear peak a gain aims at: :data:`MARGIN_DB` below *ceiling_dbfs*."""
    return 10.0 ** ((ceiling_dbfs - MARGIN_DB) / 20.0)


def channel_gains(peaks: Sequence[float], ceiling_dbfs: float) -> tuple[float, ...]:
    """The gain of each channel: 1.0 unless its peak would pass the ceiling."""
    target = aim(ceiling_dbfs)
    return tuple(1.0 if p <= target else target / p for p in peaks)


def chunk_frames(density: float, tracks: int, max_length: int) -> int:
    """How many frames of onsets to key at a time.

    About 1 M key cells (~25 MB of work arrays) a chunk, however dense:
    *density* is the onsets a frame of all *tracks* together, *max_length*
    the longest one-shot (frames), so a window holds at most about
    ``density × max_length`` ringing strokes.
    """
    width = density * max_length + tracks + 2
    return int(min(1 << 23, max(1 << 12, (1 << 20) / max(density * width, 1e-12))))


@functools.lru_cache(maxsize=16)
def _row_weights(n: int) -> np.ndarray:
    """Fixed odd multipliers of a row hash (wrapping int64 arithmetic), used to
    find repeated windows quickly; a hash clash is detected and handled.

    The multipliers come from SplitMix64 (plain integer arithmetic: no need
    to import numpy's random generators, a fifth of a command's start-up)."""
    mask = (1 << 64) - 1
    x, out = n, []
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(((z ^ (z >> 31)) >> 2) | 1)
    return np.array(out, dtype=np.int64)


def _sorted_unique(x: np.ndarray) -> np.ndarray:
    """``np.unique(x)`` without numpy's masked-array module (whose import
    ``np.unique`` triggers costs more than this whole function)."""
    a = np.sort(x)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


def _first_of_each(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)`` as ``np.unique(h, return_index=True,
    return_inverse=True)`` gives them: the first index of each distinct value,
    in the values' sorted order, and each element's group."""
    order = np.argsort(h, kind="stable")
    hs = h[order]
    new = np.concatenate(([True], hs[1:] != hs[:-1]))
    inverse = np.empty(len(h), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


@dataclass(frozen=True)
class _Windows:
    """The windows starting in one chunk, one row each.

    ``kinds[i]`` and ``ages[i]`` list the strokes that may ring in window
    *i*, latest first; ``active[i]`` says which do (the others are -1 in
    both); ``span[i]`` is how long the window sounds (0: silent).
    """

    starts: np.ndarray
    span: np.ndarray
    kinds: np.ndarray
    ages: np.ndarray
    active: np.ndarray


def _windows(pos: np.ndarray, kind: np.ndarray, lengths: np.ndarray, c0: int, c1: int,
             max_length: int) -> _Windows | None:
    """The windows between the onsets in [c0, c1) and what rings in each.

    *pos*, *kind*: every onset from ``c0 − max_length + 1`` to *c1*, sorted;
    *lengths*: int32 length of each kind's one-shot. ``None`` when nothing
    can ring.
    """
    kind32 = kind.astype(np.int32)
    starts = _sorted_unique(np.concatenate(([c0], pos[pos >= c0])))
    ends = np.append(starts[1:], c1)
    hi = np.searchsorted(pos, starts, side="right")
    lo = np.searchsorted(pos, starts - max_length, side="right")
    W = int((hi - lo).max())
    if W == 0:
        return None
    idx = hi[:, None] - 1 - np.arange(W)[None, :]
    valid = idx >= lo[:, None]
    np.maximum(idx, 0, out=idx)
    age = (starts[:, None] - pos[idx]).astype(np.int32)
    kk = kind32[idx]
    left = lengths[kk] - age
    active = valid & (left > 0)
    left[~active] = 0
    span = np.minimum(ends - starts, left.max(axis=1))
    # a row lists the strokes by (age, kind descending), the silent ones
    # as -1: without the -1s it is the window's canonical key
    kk[~active] = -1
    age[~active] = -1
    return _Windows(starts, span, kk, age, active)


def _first_rows(rows: np.ndarray) -> list[int]:
    """Indices of the first row of each distinct hash of *rows*, and of every
    row whose hash clashes with a different row's (ascending)."""
    h = (rows.astype(np.int64) * _row_weights(rows.shape[1])).sum(axis=1)
    first, inverse = _first_of_each(h)
    clash = np.nonzero(np.any(rows != rows[first[inverse.ravel()]], axis=1))[0]
    return sorted(set(first.tolist()) | set(clash.tolist()))


def distinct_windows(pos: np.ndarray, kind: np.ndarray, lengths: np.ndarray, c0: int, c1: int,
                     max_length: int, seen: set[bytes]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` frames of the windows in [c0, c1) whose key is not in *seen*.

    *pos*, *kind*: every onset from ``c0 − max_length + 1`` to *c1*, sorted by
    (position, kind); *lengths*: int32 length of each kind's one-shot. The
    keys found are added to *seen*, so the chunks of a piece, taken in turn,
    give each distinct window once.
    """
    w = _windows(pos, kind, lengths, c0, c1, max_length)
    if w is None:
        return []
    sel = np.nonzero(w.span > 0)[0]
    if len(sel) == 0:
        return []
    rows = np.concatenate([w.kinds[sel], w.ages[sel], w.span[sel, None].astype(np.int32)], axis=1)
    # first occurrence of each distinct row, via a hash checked for collisions
    found = []
    for r in _first_rows(rows):
        i = int(sel[r])
        used = w.active[i]
        key = (w.kinds[i][used].tobytes() + w.ages[i][used].tobytes()
               + int(w.span[i]).to_bytes(4, "little"))
        if key not in seen:
            seen.add(key)
            found.append((int(w.starts[i]), int(w.starts[i] + w.span[i])))
    return found


def stretches(windows: list[tuple[int, int]], gap: int = STRETCH_GAP) -> list[list[int]]:
    """*windows* sorted and merged into ``[start, stop]`` stretches, those
    less than *gap* frames apart joined (fewer, longer renders)."""
    merged: list[list[int]] = []
    for a, b in sorted(windows):
        if merged and a <= merged[-1][1] + gap:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def exact_peaks(mix, block_frames: int) -> tuple[float, ...]:
    """The exact peak of each channel of *mix* (a :class:`~guji.sound.mixer.Mix`):
    its distinct windows (:func:`mix_windows`), merged into stretches, rendered
    by the mixer itself."""
    peaks = np.zeros(mix.channels)
    for a, b in stretches(mix_windows(mix)):
        for block in mix._blocks(block_frames, a, b, gains=None):
            np.maximum(peaks, np.abs(block).max(axis=0), out=peaks)  # bytes as before
    return tuple(float(p) for p in peaks)


def mix_windows(mix) -> list[tuple[int, int]]:
    """The first window of each distinct key of *mix*, walking its onsets a chunk at a time."""
    lengths32 = mix._lengths.astype(np.int32)
    L = mix._max_length
    density = sum(1.0 / (tr.interval * mix.rate) for tr in mix._tracks)
    chunk = chunk_frames(density, len(mix._tracks), L)
    seen: set[bytes] = set()
    windows: list[tuple[int, int]] = []
    c1 = 0
    while c1 < mix.frames:
        # chunks end on an onset, so every window (but the first) starts on one
        c0, c1 = c1, mix._next_onset(c1 + chunk)
        pos, kind = mix._onsets(c0 - L + 1, c1)
        if len(pos):
            windows += distinct_windows(pos, kind, lengths32, c0, c1, L, seen)
    return windows

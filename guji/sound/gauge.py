"""Measuring a render through the limiter at several gains in one pass over it.

The K-weighting of BS.1770 is linear, and the limiter leaves most frames at
the plain gain *g*: there the K-weighted limited render is *g* times the raw
one, its sums of squares *g*² times the raw ones. Only around the stretches
the limiter turns down (and the K-weighting's ring after each) are the
limited and the raw render weighted afresh, by a short FFT
(:meth:`Weighing.change`). So one pass over the raw render — the room
convolved once, the raw render K-weighted once, the 4× points of its loud
frames found once (:class:`~guji.sound.limiter.Peaks`) — measures it at as
many gains as asked (:func:`measure_at`), each at the cost of its limiter and
of its short transforms. :mod:`guji.sound.level` then takes the gain between
the two measured on either side of the target.

Both the grid's step-at-a-time levelling (:mod:`guji.sound.steady`) and the
streamed one here weigh with :class:`Weighing`.
"""

from __future__ import annotations

import bisect
import functools

import numpy as np

from .limiter import CHUNK_FRAMES, Limiter, raw_peaks
from .loudness import Meter, k_weighting, piece_sums


#: :func:`smooth_size` looks lengths up to this in a table.
SMOOTH_TOP = 1 << 26


@functools.lru_cache(maxsize=1)
def _smooth_table() -> list[int]:
    """The 2^a·3^b·5^c up to :data:`SMOOTH_TOP`, in order (1,041 of them; made on
    first use, ~0.6 ms)."""
    return sorted(p2 * p3 * p5
                  for p5 in (5 ** c for c in range(12)) if p5 <= SMOOTH_TOP
                  for p3 in (3 ** b for b in range(17)) if p3 * p5 <= SMOOTH_TOP
                  for p2 in (1 << a for a in range(27)) if p2 * p3 * p5 <= SMOOTH_TOP)


def smooth_size(n: int) -> int:
    """The least 2^a·3^b·5^c ≥ *n*: an FFT length as quick as a power of two's, and
    often half as long."""
    if 1 <= n <= SMOOTH_TOP:
        table = _smooth_table()
        return table[bisect.bisect_left(table, n)]
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            size = p35 << max(0, (-(-n // p35) - 1).bit_length())
            best = min(best, size)
            p35 *= 3
        p5 *= 5
    return best


class Weighing:
    """The K-weighted sums of squares of a render's pieces (the 100 ms
    sub-blocks' parts), a stretch at a time, by float32 FFTs."""

    def __init__(self, rate: int, channels: int):
        self.rate, self.channels = rate, channels
        self.ir = k_weighting(rate).astype(np.float32)
        self.taps = len(self.ir)
        self._spectra: dict[int, np.ndarray] = {}

    def _spectrum(self, size: int) -> np.ndarray:
        spectrum = self._spectra.get(size)
        if spectrum is None:
            spectrum = self._spectra.setdefault(size, np.fft.rfft(self.ir, size))
        return spectrum

    def weighted(self, shots, gains) -> list[np.ndarray]:
        """Each of *shots* (``(frames, channels)``: a one-shot times its channel
        *gains*) K-weighted, its ring included (``frames + taps − 1`` long,
        float32, read-only): the K-weighting is linear, so a render's is its
        one-shots' pasted where the render pastes them. The loudest channel is
        weighted, the others scaled from it; one transform for each length."""
        out: list = [None] * len(shots)
        by_length: dict[int, list[int]] = {}
        for i, shot in enumerate(shots):
            by_length.setdefault(len(shot), []).append(i)
        for n, which in by_length.items():
            m = n + self.taps - 1
            size = smooth_size(m)                          # the whole ring: no wrap
            loudest = [int(np.argmax(np.abs(gains[i]))) for i in which]
            x = np.stack([np.asarray(shots[i][:, c], dtype=np.float32)
                          for i, c in zip(which, loudest)])
            y = np.fft.irfft(np.fft.rfft(x, size) * self._spectrum(size), size)[:, :m]
            for row, i, c in zip(y, which, loudest):
                g = np.asarray(gains[i], dtype=np.float64)
                scale = g / g[c] if g[c] else np.zeros_like(g)
                k = (row[:, None] * scale[None, :]).astype(np.float32)
                k.setflags(write=False)
                out[i] = k
        return out

    def sums(self, before: np.ndarray, now: np.ndarray, at: int):
        """The sums of stretch *now* (from frame *at*; *before*: at least the
        taps − 1 frames before it) and whether the last ends a sub-block."""
        taps = self.taps
        x = np.ascontiguousarray(np.concatenate([before[-(taps - 1):], now]).T)
        size = smooth_size(len(now) + taps - 1)      # the outputs needed never wrap
        y = np.fft.irfft(np.fft.rfft(x, size) * self._spectrum(size), size)
        power = np.square(y[:, taps - 1:taps - 1 + len(now)], dtype=np.float64).sum(axis=0)
        return piece_sums(power, at, self.rate)

    def change(self, prev, now, out, spans, at: int, g2: float):
        """What the limiter changed in the sums of stretch *now*'s pieces: *out* is
        *now* limited (at gain² *g2*), *spans* its stretches turned down; *prev*
        (raw, limited, spans) the stretch before. The limited and the raw
        stretch are weighed afresh around each span (and the previous stretch's
        ring into this one): the difference of their sums, or 0.0."""
        taps, n = self.taps, len(now)
        p_raw, p_out, p_spans = prev
        shift = len(p_out) - (taps - 1)   # frames of [previous's last taps − 1, now]
        cat = [(max(0, a - shift), b - shift) for a, b in p_spans if b - shift > 0]
        cat += [(taps - 1 + a, taps - 1 + b) for a, b in spans]
        change = None
        for a, b in _merged(cat, taps):
            r0, r1 = max(0, a - (taps - 1)), min(n, b)      # now's frames the change reaches
            if r1 <= r0:
                continue
            if change is None:
                change = np.zeros(n)
            change[r0:r1] = self._changed(p_raw, now, p_out, out, r0, r1, g2)
        return 0.0 if change is None else piece_sums(change, at, self.rate)[0]

    def _changed(self, p_raw, now, p_out, out, r0: int, r1: int, g2: float):
        """Σ over channels of (K-weighted limited)² − *g2*·(K-weighted raw)², frames
        [*r0*, *r1*) of the stretch."""
        taps, c = self.taps, self.channels
        # frames [r0, r1 + prior) of (the prior ≤ taps - 1 frames before the stretch,
        # the stretch up to r1), raw then limited, a row a channel: copied once
        prior = min(len(p_raw), len(p_out), taps - 1)
        length = r1 - r0 + prior
        x = np.empty((2 * c, length), dtype=np.float64)   # float32 samples, exactly
        for row, before, stretch in ((0, p_raw, now), (c, p_out, out)):
            own = max(0, r0 - prior)                     # the first frame of the stretch's own
            head = length - (r1 - own)                   # frames taken from before it
            if head:
                x[row:row + c, :head] = before[len(before) - head:].T
            x[row:row + c, head:] = stretch[own:r1].T
        size = smooth_size(length)
        # the forward transform in float64, rounded to complex64: what numpy's float32
        # rfft gives (it transforms in float64: the same values, to the bit), quicker
        spectrum = np.fft.rfft(x, size).astype(np.complex64)
        y = np.fft.irfft(spectrum * self._spectrum(size), size)[:, taps - 1:length]
        return (np.square(y[c:], dtype=np.float64).sum(axis=0)
                - g2 * np.square(y[:c], dtype=np.float64).sum(axis=0))


def _merged(spans, gap: int):
    """*spans* (sorted ``(a, b)``) with those less than *gap* apart joined."""
    out: list[list[int]] = []
    for a, b in spans:
        if out and a - out[-1][1] < gap:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def windows(blocks, frames: int, channels: int, context: int, chunk: int = CHUNK_FRAMES):
    """``(window, n)`` for each chunk of *chunk* frames of the stream *blocks*
    (*frames* long), counted from frame 0 as the limiter counts them: the
    chunk's *n* frames with *context* frames either side (silence before the
    first frame and after the last)."""
    buf = np.zeros((context, channels), dtype=np.float32)
    start, done = -context, 0
    blocks = iter(blocks)
    while done < frames:
        end = min(frames, done + chunk)
        parts = [buf]
        have = start + len(buf)
        while have < end + context:
            block = next(blocks, None)
            if block is None:
                parts.append(np.zeros((end + context - have, channels), dtype=np.float32))
                have = end + context
                break
            parts.append(block)
            have += len(block)
        buf = np.concatenate(parts) if len(parts) > 1 else buf
        yield buf[done - context - start:end + context - start], end - done
        keep = end - context - start
        buf, start, done = buf[keep:], start + keep, end


def measure_at(mix, gains_db, ceiling_dbfs: float, frames: int | None = None,
               tick=None) -> tuple[float, list[float]]:
    """The integrated loudness of *mix*'s render as it is, and through the limiter
    at each of *gains_db*: one pass over the raw render (its room convolved
    once); of its first *frames* only, if given. *tick*: called with the
    frames of each stretch measured."""
    rate, channels = mix.rate, mix.channels
    frames = mix.frames if frames is None else min(frames, mix.frames)
    weigh = Weighing(rate, channels)
    limiters = [Limiter(rate, channels, frames, 10.0 ** (g / 20.0), ceiling_dbfs)
                for g in gains_db]
    squares = [10.0 ** (g / 10.0) for g in gains_db]
    context = Limiter(rate, channels, frames, 1.0, ceiling_dbfs).context
    floor = min((lim.quiet for lim in limiters), default=np.inf)
    raw_meter = Meter(rate, channels, frames)
    meters = [Meter(rate, channels, frames) for _ in limiters]
    zeros = np.zeros((max(weigh.taps, context), channels), dtype=np.float32)
    carries = [0] * len(limiters)
    prevs = [(zeros, zeros, ())] * len(limiters)
    before, at = zeros, 0
    for window, n in windows(mix.raw_blocks(), frames, channels, context):
        now = window[context:context + n]
        sums, complete = weigh.sums(before, now, at)
        raw_meter.add_pieces(sums, complete)
        peaks = raw_peaks(window, floor) if limiters else None
        for i, limiter in enumerate(limiters):
            out, carries[i], spans = limiter.limit_span(window, carries[i], peaks, weigh.taps)
            meters[i].add_pieces(sums * squares[i]
                                 + weigh.change(prevs[i], now, out, spans, at, squares[i]),
                                 complete)
            prevs[i] = (now, out, spans)
        for meter in [raw_meter, *meters]:
            meter.skip(n)
        before, at = now, at + n
        if tick is not None:
            tick(n)
    found = []
    for meter in [raw_meter, *meters]:
        meter.finish()
        found.append(meter.integrated())
    return found[0], found[1:]

"""A look-ahead true-peak limiter: a gain, then the attacks taken down to the ceiling.

These drums' peaks stand 17.5–21 dB above their loudness (a stroke's first
cycles), so −16 LUFS with the true peak at −1 dBTP cannot come from a gain
alone: :class:`Limiter` multiplies the render by one *gain*, then by a gain
curve that dips just before each peak that would pass the ceiling and
recovers after it:

1. the **true peak** of each frame: the largest of its channels' samples and
   of the values between it and its neighbours at 4× oversampling
   (:func:`between`, a windowed-sinc interpolator, computed only near loud
   samples);
2. the reduction each frame needs (dB, in integer units of 1/:data:`UNITS`
   dB, so every later step is exact integer arithmetic, the same whatever
   the blocks);
3. **look-ahead**: each frame takes the largest reduction of the next
   :attr:`Limiter.ahead` frames (~2.7 ms), so the gain is down when the peak
   arrives;
4. **release**: the reduction falls back by :data:`RELEASE_DB_PER_S` dB a
   second (a running maximum of ``reduction − slope × age``);
5. **smoothing**: the mean reduction of the last :attr:`Limiter.ahead` frames,
   never less than what the peak needs (every frame averaged saw it ahead).

Onsets do not move (the gain curve looks ahead; the signal is not delayed).
Both channels take the same gain (the image stays). The stream is taken in
fixed chunks of :data:`CHUNK_FRAMES` counted from the render's start, each
with the context it needs, so the output does not depend on the blocks it is
fed in. The ceiling is aimed :data:`MARGIN_DB` below the one asked (the
gain curve's own slope and the PCM rounding).
"""

from __future__ import annotations

import functools
import math
import weakref

import numpy as np

#: Frames limited at a time (and the alignment of the chunks).
CHUNK_FRAMES = 65536
#: Reduction units a dB (integers: exact sums and maxima).
UNITS = 1 << 16
#: How fast the gain recovers after a peak.
RELEASE_DB_PER_S = 100.0
#: The limiter aims this far below its ceiling.
MARGIN_DB = 0.25
#: Taps on each side of the 4× interpolator.
HALF_TAPS = 16
#: Frames whose two samples either side of a point stay this far under the aim
#: are not oversampled (dB). A rule of thumb, not a bound: the 4× point may in
#: principle stand up to 7.6 dB over the largest of the 32 samples it is made of
#: (Σ|h| = 2.39 at the half sample); these drums' stand well under 6 dB over
#: their neighbours (the tests check the true peak of renders by scipy's 4×).
QUIET_DB = 6.0


@functools.lru_cache(maxsize=1)
def _phases() -> np.ndarray:
    """The interpolator: ``(2·HALF_TAPS, 3)``, the weights of frames
    ``n − HALF_TAPS + 1 … n + HALF_TAPS`` for the points ``n + k/4``
    (a sinc under a Kaiser window, β 8, each column summing to 1)."""
    j = np.arange(-HALF_TAPS + 1, HALF_TAPS + 1)
    cols = []
    for k in (1, 2, 3):
        t = k / 4.0 - j
        window = np.i0(8.0 * np.sqrt(np.clip(1.0 - (t / HALF_TAPS) ** 2, 0.0, 1.0))) / np.i0(8.0)
        col = np.sinc(t) * window
        cols.append(col / col.sum())
    return np.stack(cols, axis=1)


#: 4× points computed at a time (their working arrays stay in the cache).
BETWEEN_BLOCK = 2048


def between(y: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """The largest magnitude, over channels, of *y* at the points ``n + 1/4``,
    ``n + 1/2``, ``n + 3/4`` for each *frames* n (ascending; ``HALF_TAPS``
    frames of *y* needed on each side).

    Each point is the sum of its 32 products (frame × weight, float64) in one
    fixed order, whatever else is computed: eight partial sums, the *m*-th of
    taps m, m + 8, m + 16, m + 24 added in turn, then joined pairwise,
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`` (numpy's pairwise
    summation of a row of 32, which this function used before: the same
    values to the bit). The frames are taken as runs (those less than 32
    apart as one), each run's samples once: every point of a run is computed
    from slices of them, a tap at a time, never a window gathered per point."""
    taps = 2 * HALF_TAPS
    n = len(frames)
    if n == 0:
        return np.zeros(0)
    frames = np.asarray(frames, dtype=np.int64)
    cut = np.nonzero(np.diff(frames) >= taps)[0]
    first = np.concatenate(([0], cut + 1))           # each run's first frame (of *frames*)
    starts = frames[first]
    ends = frames[np.concatenate((cut, [n - 1]))] + 1
    lengths = ends - starts + taps - 1               # the samples each run needs
    at = np.cumsum(lengths) - lengths                # where each run's samples begin in z
    z = y[np.arange(int(lengths.sum())) + np.repeat(starts - (HALF_TAPS - 1) - at, lengths)]
    z = np.ascontiguousarray(z.T, dtype=np.float64)  # (channels, samples)
    points = z.shape[1] - (taps - 1)                 # point p: samples z[:, p : p + taps]
    h = np.ascontiguousarray(_phases().T)            # (3 phases, taps)
    best = np.empty(points)
    for a in range(0, points, BETWEEN_BLOCK):
        b = min(BETWEEN_BLOCK, points - a)
        # tap j of point a + i: t[c, j, i] = z[c, a + i + j]
        t = np.lib.stride_tricks.sliding_window_view(z[:, a:a + b + taps - 1], b, axis=1)
        r = t[None, :, 0:8] * h[:, None, 0:8, None]          # (phase, channel, m, point)
        for q in (8, 16, 24):
            r += t[None, :, q:q + 8] * h[:, None, q:q + 8, None]
        r = r[:, :, 0::2] + r[:, :, 1::2]                    # r0 + r1, r2 + r3, …
        r = r[:, :, 0::2] + r[:, :, 1::2]
        v = np.abs(r[:, :, 0] + r[:, :, 1])                  # (phase, channel, point)
        m = best[a:a + b]
        np.maximum(v[0], v[1], out=v[0])
        np.maximum(v[0], v[2], out=v[0])
        m[:] = v[0, 0]
        for c in range(1, v.shape[1]):
            np.maximum(m, v[0, c], out=m)
    counts = np.diff(np.concatenate((first, [n])))
    return best[frames + np.repeat(at - starts, counts)]


def sample_peaks(y: np.ndarray) -> np.ndarray:
    """The largest magnitude over channels of each frame of *y* (in *y*'s type)."""
    s = np.abs(y[:, 0])
    for c in range(1, y.shape[1]):       # one channel at a time: numpy reduces a short axis slowly
        np.maximum(s, np.abs(y[:, c]), out=s)
    return s


class Peaks:
    """The 4× points of a window of the unscaled render, where its samples are
    loud (above a *floor*): computed once, used by a limiter at any gain whose
    quiet level (in the unscaled render's units) is at least the floor."""

    def __init__(self, y: np.ndarray, floor: float):
        self.floor = floor
        samples = sample_peaks(y)
        #: the window's sample peaks, for the first :meth:`at` of that same window
        #: (the walk's next call): taken then, never kept with the points
        self._fresh = (weakref.ref(y), samples)
        s = samples.astype(np.float64)
        lo, hi = HALF_TAPS, len(s) - HALF_TAPS - 1
        if hi <= lo:
            self.frames, self.values = np.zeros(0, np.int64), np.zeros(0)
            return
        loud = np.maximum(s[lo:hi], s[lo + 1:hi + 1]) > floor
        self.frames = lo + np.nonzero(loud)[0]
        self.values = between(y, self.frames) if len(self.frames) else np.zeros(0)

    def at(self, y: np.ndarray, quiet: float) -> np.ndarray:
        """The true peak of each frame of *y* (the window these were made of): its
        sample peak, and the 4× points either side of frames whose neighbourhood
        passes *quiet* (≥ the floor)."""
        fresh, self._fresh = self._fresh, None
        s = fresh[1] if fresh is not None and fresh[0]() is y else sample_peaks(y)
        peak = s.astype(np.float64)
        if len(self.frames):
            f = self.frames
            keep = np.maximum(s[f], s[f + 1]) > quiet
            f, b = f[keep], self.values[keep]
            np.maximum.at(peak, f, b)
            np.maximum.at(peak, f + 1, b)
        return peak


def true_peaks(y: np.ndarray, quiet: float) -> np.ndarray:
    """The true peak of each frame of *y* ``(frames, channels)`` float64: the
    frame's largest sample and the 4× points on either side of it. Frames whose
    neighbourhood stays under *quiet* are given their sample peak."""
    return Peaks(y, quiet).at(y, quiet)


def raw_peaks(y: np.ndarray, floor: float) -> Peaks:
    """:class:`Peaks` of the unscaled window *y* above *floor*."""
    return Peaks(y, floor)


def _ahead(r: np.ndarray, width: int) -> np.ndarray:
    """``max(r[n : n + width])`` for each n (width a power of two; *r* padded after)."""
    m = r
    span = 1
    while span < width:
        m = np.maximum(m[:-span], m[span:])
        span *= 2
    return m


class Limiter:
    """Gain *gain*, then the true peak held under *ceiling_dbfs*, for a stream
    of *frames* frames at *rate*. :meth:`feed` blocks in, limited blocks out
    (later: the look-ahead holds back a little), then :meth:`finish`."""

    def __init__(self, rate: int, channels: int, frames: int, gain: float, ceiling_dbfs: float):
        self.rate, self.channels, self.frames = rate, channels, frames
        self.gain = float(gain)
        self.aim = 10.0 ** ((ceiling_dbfs - MARGIN_DB) / 20.0)
        #: the level (of the unscaled render) under which no 4× point is looked for
        self.quiet = self.aim * 10.0 ** (-QUIET_DB / 20.0) / self.gain if self.gain > 0 else math.inf
        self.ahead = 1 << max(4, round(math.log2(rate * 0.0027)))
        self.slope = max(1, round(RELEASE_DB_PER_S * UNITS / rate))
        self.context = self.ahead + HALF_TAPS + 2
        self._buf = np.zeros((self.context, channels), dtype=np.float32)  # before frame 0
        self._start = -self.context          # the frame of _buf[0]
        self._done = 0                       # frames given out
        self._carry = 0                      # the release's reduction before the chunk

    def feed(self, block: np.ndarray) -> list[np.ndarray]:
        self._buf = np.concatenate([self._buf, block])
        out = []
        while self._start + len(self._buf) >= self._done + CHUNK_FRAMES + self.context:
            out.append(self._chunk(self._done + CHUNK_FRAMES))
        return out

    def finish(self) -> list[np.ndarray]:
        """The rest, once all *frames* have been fed."""
        out = []
        while self._done < self.frames:
            end = min(self.frames, self._done + CHUNK_FRAMES)
            need = end + self.context - (self._start + len(self._buf))
            if need > 0:
                self._buf = np.concatenate([self._buf, np.zeros((need, self.channels), np.float32)])
            out.append(self._chunk(end))
        return out

    def _chunk(self, end: int) -> np.ndarray:
        """Frames [done, *end*) limited (the buffer holds ``context`` on each side)."""
        c0, ctx = self._done, self.context
        out, self._carry = self.limit(self._buf[c0 - ctx - self._start:end + ctx - self._start],
                                      self._carry)
        self._done = end
        keep = end - ctx - self._start
        self._buf = self._buf[keep:]
        self._start += keep
        return out

    def limit(self, x: np.ndarray, carry: int) -> tuple[np.ndarray, int]:
        """The frames of *x* but its :attr:`context` on each side, limited, and the
        reduction to carry on; *carry*: the reduction :attr:`ahead` frames before
        them. A function of *x* and *carry* only (every step frame by frame, or
        exact in integers), so any cut of the stream gives the same samples."""
        out, carry, _ = self.limit_span(x, carry)
        return out, carry

    def limit_span(self, x: np.ndarray, carry: int, peaks: "Peaks | None" = None,
                   gap: int = 1):
        """:meth:`limit`, and the stretches ``(lo, hi)`` of the output whose gain is
        turned down (those less than *gap* frames apart as one). *peaks*:
        :func:`raw_peaks` of *x* made before (at a quiet level at most this
        limiter's)."""
        ctx, w = self.context, self.ahead
        n = len(x) - 2 * ctx
        if peaks is None:
            peaks = raw_peaks(x, self.quiet)
        tp = peaks.at(x, self.quiet) * self.gain
        out = x[ctx:ctx + n] * np.float32(self.gain)      # float32: where nothing is turned down
        over = np.nonzero(tp > self.aim)[0]         # the frames that need a reduction
        first = ctx - w + 1          # the smoothing's window: w − 1 frames before the first
        size = n + w - 1             # the reductions' frames (from the window's frame first)
        reach = carry // self.slope + 1 if carry > 0 else 0
        if len(over):
            units = np.ceil(np.log10(tp[over] / self.aim) * (20.0 * UNITS)).astype(np.int64)
            lo = 0 if reach else max(0, int(over[0]) - first - w + 1)
            hi = min(size, int(over[-1]) - first + 1 + int(units.max()) // self.slope + 1)
        elif reach:
            units, lo, hi = np.zeros(0, np.int64), 0, min(size, reach)
        else:
            return out, 0, ()
        hi = max(hi, min(size, reach))
        frames, smooth, carry_out = self._turned_down(over - first, units, lo, hi, reach, carry, n)
        if len(frames) == 0:
            return out, carry_out, ()
        # turned down: the gain and the curve in float64
        out[frames] = x[ctx + frames].astype(np.float64) * (self.gain * 10.0 ** (
            smooth / (-20.0 * w * UNITS)))[:, None]
        cuts = np.nonzero(np.diff(frames) > gap)[0]
        starts = np.concatenate(([frames[0]], frames[cuts + 1]))
        ends = np.concatenate((frames[cuts], [frames[-1]])) + 1
        return out, carry_out, tuple(zip(starts.tolist(), ends.tolist()))

    def _turned_down(self, at: np.ndarray, units: np.ndarray, lo: int, hi: int, reach: int,
                     carry: int, n: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The output frames of :meth:`limit_span` turned down, their smoothed
        reductions (in :data:`UNITS`, summed over the look-ahead) and the
        reduction to carry on: *at* the frames over the aim (from the
        smoothing window's first frame) and their *units*, on [*lo*, *hi*);
        *reach*: the frames the *carry* is released over; *n* output frames."""
        w = self.ahead
        # the reduction on [lo, hi) of the window (0 elsewhere: nothing over, released),
        # worked out on the stretches it can be above 0 only: each frame over the aim
        # from w - 1 frames before it (the look-ahead) until its units are released,
        # the carry from frame 0; stretches less than w apart as one (the smoothing
        # of one never reaches another). Outside them the reduction is 0, and within
        # one nothing before it counts (released), so each is the whole range's
        # integers exactly, and the frames turned down and their curve the same.
        inside = (at >= lo) & (at < hi + w - 1)
        at, units = at[inside], units[inside]
        if len(at) == 0 and not reach:   # over the aim only in the context, out of reach
            return np.zeros(0, np.int64), np.zeros(0, np.int64), 0
        starts = np.maximum(at - (w - 1), lo)
        ends = np.minimum(at + units // self.slope + 1, hi)
        if reach:
            starts = np.concatenate(([0], starts))
            ends = np.concatenate(([min(hi, reach)], ends))
        reached = np.maximum.accumulate(ends)
        new = np.nonzero(starts[1:] >= reached[:-1] + w)[0] + 1
        group_lo = starts[np.concatenate(([0], new))].tolist()
        group_hi = reached[np.concatenate((new, [len(starts)])) - 1].tolist()
        cut = np.searchsorted(at, group_lo).tolist() + [len(at)]
        carry_out = 0
        pad = np.zeros(w - 1, dtype=np.int64)
        frames_in, curve_in = [], []
        for k, (g0, g1) in enumerate(zip(group_lo, group_hi)):
            if g1 <= g0:
                continue
            u = np.zeros(g1 - g0 + w - 1, dtype=np.int64)
            u[at[cut[k]:cut[k + 1]] - g0] = units[cut[k]:cut[k + 1]]
            m = _ahead(u, w)[:g1 - g0]
            steps = self.slope * np.arange(g0, g1, dtype=np.int64)
            r = np.maximum.accumulate(m + steps) - steps     # ≥ m ≥ 0
            if g0 < reach:
                np.maximum(r, carry - (steps + self.slope), out=r)
            if g0 <= n - 1 < g1:
                carry_out = int(r[n - 1 - g0])
            sums = np.cumsum(np.concatenate(([0], pad, r, pad)))
            smooth = sums[w:] - sums[:-w]        # output frames g0 − w + 1 … g1 − 1
            down = np.nonzero(smooth)[0]
            f = down + (g0 - w + 1)
            keep = (f >= 0) & (f < n)
            frames_in.append(f[keep])
            curve_in.append(smooth[down[keep]])
        if not frames_in:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), carry_out
        return np.concatenate(frames_in), np.concatenate(curve_in), carry_out

"""Loudness by ITU-R BS.1770-4: K-weighting, 400 ms gating blocks, the two gates.

:class:`Meter` is fed a render block by block and gives its integrated
loudness (LUFS) with memory flat over any length: the K-weighted signal is
never kept, only the sums of squares of the current 100 ms sub-blocks and a
fixed histogram of the gating blocks' loudness (:data:`BIN_LU` wide), from
which the relative gate (−10 LU below the absolutely gated mean) is applied.

The K-weighting (a high shelf of +4 dB above ~1.7 kHz, the head's effect, then
the RLB high-pass at 38 Hz) is the standard's two biquads, by the
parameters from which its 48 kHz coefficients come (as libebur128 derives them
for any rate: :func:`k_weighting`); the filter is applied as its impulse
response (truncated where its envelope falls below :data:`IR_FLOOR`) by block convolution
(:class:`guji.sound.room.Convolver`): no scipy. Each channel weighs 1 (left,
right, or the one channel of a mono render).

Gating blocks follow the independent meter the tests use (pyloudnorm): block
*j* covers frames ``[j·rate/10, j·rate/10 + 0.4·rate)`` and there are
``round((T − 0.4) / 0.1) + 1`` of them for a render of *T* seconds, the last
padded with silence.
"""

from __future__ import annotations

import functools
import math

import numpy as np

#: Loudness below which a gating block is silence (LUFS).
ABSOLUTE_GATE = -70.0
#: The relative gate, below the absolutely gated loudness (LU).
RELATIVE_GATE = -10.0
#: Width of a histogram bin of block loudness (LU).
BIN_LU = 0.001
#: Where the K-weighting's impulse response is cut: its envelope (the high-pass's
#: pole, ~0.995 at 48 kHz) this far down. The energy left out is under 1e-12 of
#: the response's: no loudness moves by a thousandth of an LU (2,770 taps at 48 kHz).
IR_FLOOR = 1e-6
#: Pieces kept before they are counted.
PENDING_PIECES = 4096
#: The histogram's range (LUFS): blocks above the top are counted in the top bin.
TOP_LUFS = 30.0


def _biquads(rate: int) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The shelf and the high-pass of the K-weighting at *rate*, ``(b, a)`` each."""
    f0, gain, q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
    k = math.tan(math.pi * f0 / rate)
    vh = 10.0 ** (gain / 20.0)
    vb = vh ** 0.4996667741545416
    a0 = 1.0 + k / q + k * k
    shelf = (np.array([(vh + vb * k / q + k * k) / a0, 2.0 * (k * k - vh) / a0,
                       (vh - vb * k / q + k * k) / a0]),
             np.array([1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]))
    f0, q = 38.13547087602444, 0.5003270373238773
    k = math.tan(math.pi * f0 / rate)
    a0 = 1.0 + k / q + k * k
    high_pass = (np.array([1.0, -2.0, 1.0]),
                 np.array([1.0, 2.0 * (k * k - 1.0) / a0, (1.0 - k / q + k * k) / a0]))
    return shelf, high_pass


@functools.lru_cache(maxsize=8)
def k_weighting(rate: int) -> np.ndarray:
    """The K-weighting's impulse response at *rate* (float64, read-only), from
    its frequency response on a grid long enough that the response has died
    (the high-pass's pole, nearest the unit circle, sets how long)."""
    shelf, high_pass = _biquads(rate)
    radius = math.sqrt(high_pass[1][2])
    taps = int(math.ceil(math.log(IR_FLOOR) / math.log(radius)))
    n = 1 << (4 * taps).bit_length()
    z = np.exp(-1j * np.pi * np.arange(n // 2 + 1) / (n // 2))
    h = np.ones(len(z), dtype=complex)
    for b, a in (shelf, high_pass):
        h *= (b[0] + b[1] * z + b[2] * z * z) / (a[0] + a[1] * z + a[2] * z * z)
    ir = np.fft.irfft(h, n)[:taps]
    ir.setflags(write=False)
    return ir


def block_count(frames: int, rate: int) -> int:
    """How many 400 ms gating blocks a render of *frames* has (at least 0)."""
    return max(0, int(np.round((frames / rate - 0.4) / 0.1)) + 1)


class Meter:
    """Integrated loudness of a stream of ``(frames, channels)`` blocks.

    :meth:`feed` each block in order, then :meth:`integrated` (LUFS;
    ``-inf`` for silence or a render shorter than one gating block).
    """

    def __init__(self, rate: int, channels: int, frames: int):
        from .room import Convolver
        self.rate, self.channels, self.frames = rate, channels, frames
        ir = k_weighting(rate)
        self._filter = Convolver(np.repeat(ir[:, None], channels, axis=1).astype(np.float32), 32768)
        self._acc = 0.0                     # the current sub-block's sum so far
        self._at = 0                        # frames of the K-weighted signal summed
        self._sub = np.zeros(0)             # the last three sub-blocks' sums of squares
        self._pending: list = []            # pieces not yet counted, and whether each ends
        self._pending_pieces = 0
        self._index = 0                     # the next sub-block
        self._blocks = block_count(frames, rate)
        bins = int(round((TOP_LUFS - ABSOLUTE_GATE) / BIN_LU)) + 1
        self._count = np.zeros(bins, dtype=np.int64)
        self._energy = np.zeros(bins, dtype=np.float64)

    def feed(self, block: np.ndarray) -> None:
        """Add the next *block* of the render."""
        step = self._filter.block
        for a in range(0, len(block), step):
            self._weighed(self._filter.feed(block[a:a + step]))

    def _weighed(self, y: np.ndarray) -> None:
        """Sum the K-weighted frames *y* (the next ones) into sub-blocks."""
        power = np.square(y, dtype=np.float64).sum(axis=1)
        sums, last_complete = piece_sums(power, self._at, self.rate)
        self._at += len(power)
        self.add_pieces(sums, last_complete)

    def add_pieces(self, sums, last_complete: bool) -> None:
        """Add the sums of squares of the next pieces of the K-weighted render:
        each piece but the last ends on a sub-block's edge; the last does if
        *last_complete*. (Kept, and counted many at a time.)"""
        if len(sums):
            self._pending.append((sums, last_complete))
            self._pending_pieces += len(sums)
            if self._pending_pieces >= PENDING_PIECES:
                self._flush()

    def _flush(self) -> None:
        """Count the pieces kept: joined into sub-blocks, the sub-blocks into gating blocks."""
        if not self._pending:
            return
        pieces = np.concatenate([np.asarray(p, dtype=np.float64) for p, _ in self._pending])
        ends = np.ones(len(pieces), dtype=bool)        # whether a piece ends a sub-block
        lasts = np.cumsum([len(p) for p, _ in self._pending]) - 1
        ends[lasts[~np.array([c for _, c in self._pending])]] = False
        self._pending, self._pending_pieces = [], 0
        pieces[0] += self._acc
        starts = np.concatenate(([0], np.nonzero(ends[:-1])[0] + 1))
        energies = np.add.reduceat(pieces, starts)
        if ends[-1]:
            self._acc = 0.0
        else:
            self._acc, energies = float(energies[-1]), energies[:-1]
        if len(energies):
            self._sub_blocks(energies)

    def skip(self, frames: int) -> None:
        """Count *frames* more of the K-weighted render as summed (by :meth:`add_pieces`)."""
        self._at += frames

    def _sub_blocks(self, energies: np.ndarray) -> None:
        """The next complete sub-blocks' sums of squares: each four in a row are a
        gating block (the first three wait for the next)."""
        room = self._blocks + 3 - self._index
        if room <= 0:
            return
        energies = energies[:room]
        run = np.concatenate([self._sub, energies])
        j0 = self._index - len(self._sub)          # the gating block that starts run[0]
        self._index += len(energies)
        self._sub = run[-3:]
        if len(run) < 4:
            return
        z = (run[:-3] + run[1:-2] + run[2:-1] + run[3:]) / (0.4 * self.rate)
        z = z[:max(0, self._blocks - j0)]          # the blocks the render has
        z = z[z > 0.0]
        level = -0.691 + 10.0 * np.log10(z)
        keep = level >= ABSOLUTE_GATE
        z, level = z[keep], level[keep]
        bins = np.minimum(len(self._count) - 1, ((level - ABSOLUTE_GATE) / BIN_LU).astype(np.int64))
        np.add.at(self._count, bins, 1)
        np.add.at(self._energy, bins, z)

    def finish(self) -> None:
        """The render has ended: the last block's padding counted (the filter's
        ring past the end is not: the render is measured as it is, *frames* long)."""
        pad = max(0, (self._blocks + 3) * self.rate // 10 - self._at)
        if pad:
            self._weighed(np.zeros((pad, self.channels), dtype=np.float32))
        self._flush()

    def integrated(self) -> float:
        """The gated loudness of everything fed, LUFS (call :meth:`finish` first)."""
        n = int(self._count.sum())
        if n == 0:
            return -math.inf
        gate = -0.691 + 10.0 * math.log10(float(self._energy.sum()) / n) + RELATIVE_GATE
        first = max(0, int(math.floor((gate - ABSOLUTE_GATE) / BIN_LU)) + 1)
        count = int(self._count[first:].sum())
        if count == 0:
            return -math.inf
        return -0.691 + 10.0 * math.log10(float(self._energy[first:].sum()) / count)


def piece_sums(power: np.ndarray, at: int, rate: int) -> tuple[np.ndarray, bool]:
    """*power* (frames from *at* on) summed between the 100 ms sub-blocks' edges
    (frame ``j·rate // 10``): the sums, and whether the last piece ends on an edge."""
    end = at + len(power)
    j0 = -(-(at + 1) * 10 // rate)                 # the first edge after *at* (or one more)
    while j0 > 0 and (j0 - 1) * rate // 10 > at:
        j0 -= 1
    while j0 * rate // 10 <= at:
        j0 += 1
    edges = []
    j = j0
    while j * rate // 10 < end:
        edges.append(j * rate // 10 - at)
        j += 1
    if len(power) == 0:
        return np.zeros(0), False
    sums = np.add.reduceat(power, np.array([0] + edges, dtype=np.int64))
    return sums, j * rate // 10 == end


def measure(blocks, rate: int, channels: int, frames: int) -> float:
    """The integrated loudness of the render *blocks* (*frames* long), LUFS."""
    meter = Meter(rate, channels, frames)
    for block in blocks:
        meter.feed(block)
    meter.finish()
    return meter.integrated()

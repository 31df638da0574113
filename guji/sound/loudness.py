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
response (truncated below 1e-10 of its peak) by the room's block convolution
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
    taps = int(math.ceil(math.log(1e-10) / math.log(radius)))
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
        self._sub: list[float] = []         # the last three sub-blocks' sums of squares
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
        *last_complete*."""
        last = len(sums) - 1
        for i, energy in enumerate(sums):
            self._acc += float(energy)
            if i < last or last_complete:
                self._sub_block(self._acc)
                self._acc = 0.0

    def skip(self, frames: int) -> None:
        """Count *frames* more of the K-weighted render as summed (by :meth:`add_pieces`)."""
        self._at += frames

    def _sub_block(self, energy: float) -> None:
        if self._index >= self._blocks + 3:
            return
        self._sub.append(energy)
        self._index += 1
        if len(self._sub) == 4:
            j = self._index - 4
            if j < self._blocks:
                z = sum(self._sub) / (0.4 * self.rate)
                self._count_block(z)
            self._sub.pop(0)

    def _count_block(self, z: float) -> None:
        if z <= 0.0:
            return
        level = -0.691 + 10.0 * math.log10(z)
        if level < ABSOLUTE_GATE:
            return
        i = min(len(self._count) - 1, int((level - ABSOLUTE_GATE) / BIN_LU))
        self._count[i] += 1
        self._energy[i] += z

    def finish(self) -> None:
        """The render has ended: the last block's padding counted (the filter's
        ring past the end is not: the render is measured as it is, *frames* long)."""
        pad = max(0, (self._blocks + 3) * self.rate // 10 - self._at)
        if pad:
            self._weighed(np.zeros((pad, self.channels), dtype=np.float32))

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

"""Loudness on the grid: the limiter and the meter a grid step at a time, each distinct step once.

On a grid of whole-sample steps a dry render is a few distinct blocks
(間若一: :mod:`guji.sound.blocks`; the mixer gives a recurring block as the
same read-only array). The limited step *k* is a function of the raw steps
*k − 1*, *k*, *k + 1* (the limiter looks :attr:`~guji.sound.limiter.Limiter.context`
frames either side, less than a step) and of the release carried in
(:meth:`~guji.sound.limiter.Limiter.limit`): it is made once for each such
quadruple. The K-weighted sums of squares of step *k*'s 100 ms pieces are a
function of the limited steps *k − 1* and *k* (the K-weighting's response is
shorter than a step) and of where the pieces' edges fall in it: made once for
each. So a 10-hour piece is limited and measured at the cost of its distinct
steps. The samples are the streaming limiter's, and the loudness its meter's
to float rounding (``tests/test_loudness.py``).
"""

from __future__ import annotations

import numpy as np

from .limiter import Limiter
from .loudness import Meter, k_weighting, piece_sums

#: Bytes of limited steps kept to give again.
STEADY_MEMORY = 32 * 2**20


def smooth_size(n: int) -> int:
    """The least 2^a·3^b·5^c ≥ *n*: an FFT length as quick as a power of two's, and
    often half as long."""
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


def step_of(mix) -> int | None:
    """The grid step (frames) when *mix* can be levelled a step at a time, else ``None``."""
    step = mix.step_frames()
    if mix.room is not None or step is None:
        return None
    taps = len(k_weighting(mix.rate))
    limiter = Limiter(mix.rate, mix.channels, 1, 1.0, 0.0)
    return step if step > max(taps, limiter.context) else None


def limited_steps(mix, step: int, gain_db: float, ceiling_dbfs: float):
    """The render of *mix* gained and limited, a step at a time (a recurring step
    given again as the same read-only array; the others writeable)."""
    limiter = Limiter(mix.rate, mix.channels, mix.frames, 10.0 ** (gain_db / 20.0), ceiling_dbfs)
    ctx = limiter.context
    silence = np.zeros((ctx, mix.channels), dtype=np.float32)
    memo: dict[tuple, tuple] = {}
    room = STEADY_MEMORY
    carry = 0
    raw = mix._blocks(step, 0, mix.frames, None, True)
    before, now = silence, next(raw, None)
    while now is not None:
        after = next(raw, None)
        ahead = silence if after is None else after
        key = (id(before), id(now), id(ahead), carry)
        hit = memo.get(key)
        if hit is not None and hit[0] is before and hit[1] is now and hit[2] is ahead:
            out, carry = hit[3], hit[4]
        else:
            tail = ahead[:ctx]
            if len(tail) < ctx:
                tail = np.concatenate([tail, silence[:ctx - len(tail)]])
            window = np.concatenate([before[-ctx:], now, tail])
            out, carry_out = limiter.limit(window, carry)
            if room >= out.nbytes and not (before.flags.writeable or now.flags.writeable
                                           or ahead.flags.writeable):
                out.setflags(write=False)      # read-only: given again (and memoised after)
                memo[key] = (before, now, ahead, out, carry_out)
                room -= out.nbytes
            carry = carry_out
        yield out
        before, now = now, after


def measure_steps(mix, steps, step: int) -> float:
    """The integrated loudness of *steps* (the levelled render of *mix*, a step each)."""
    meter = Meter(mix.rate, mix.channels, mix.frames)
    ir = k_weighting(mix.rate).astype(np.float32)      # float32 FFTs: ample for a sum of squares
    taps = len(ir)
    size = smooth_size(step + taps - 1)       # the needed outputs never wrap around
    spectrum = np.fft.rfft(ir, size)
    silence = np.zeros((taps, mix.channels), dtype=np.float32)
    memo: dict[tuple, tuple] = {}
    before, at = silence, 0
    for now in steps:
        key = (id(before), id(now), at % (mix.rate // 10 if mix.rate % 10 == 0 else mix.rate))
        hit = memo.get(key)
        if hit is not None and hit[0] is before and hit[1] is now:
            sums, complete = hit[2], hit[3]
        else:
            x = np.ascontiguousarray(np.concatenate([before[-(taps - 1):], now]).T)
            y = np.fft.irfft(np.fft.rfft(x, size) * spectrum, size)
            power = np.square(y[:, taps - 1:taps - 1 + len(now)], dtype=np.float64).sum(axis=0)
            sums, complete = piece_sums(power, at, mix.rate)
            if not (before.flags.writeable or now.flags.writeable):
                memo[key] = (before, now, sums, complete)
        meter.add_pieces(sums, complete)
        meter.skip(len(now))
        at += len(now)
        before = now if len(now) >= taps - 1 else np.concatenate([before, now])[-(taps - 1):]
    meter.finish()
    return meter.integrated()

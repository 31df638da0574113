"""The level of a render: ``--loudness LUFS`` (default −16) or ``--loudness off``.

With a target (``Kit.loudness``, LUFS), :class:`~guji.sound.mixer.Mix` plans
one gain for the whole render before its first block (:func:`plan`) and gives
every block through the true-peak limiter (:func:`levelled`): the render
measured by ITU-R BS.1770 (:mod:`guji.sound.loudness`) comes out at the
target, its true peak at most the mix's ceiling (−1 dBTP; OGG −2). The gain is
found by measuring: the render as it is, then limited at a guessed gain, the
next guess by the secant through the last two measurements, until the
loudness is within :data:`TOLERANCE_LU` of the target (at most
:data:`MAX_PASSES` limited passes; each pass renders the piece without
keeping it, so memory stays flat; a room's render is convolved each time).

A render whose loudness cannot be measured (silence, or shorter than one
400 ms gating block) keeps the peak rule of ``--loudness off``
(:mod:`guji.sound.headroom`). So does a loop's probe when no target is set.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from .limiter import CHUNK_FRAMES, Limiter
from .loudness import measure
from .steady import Steady, step_of

#: The loudness a render is made to by default (LUFS: streaming platforms' level).
TARGET_LUFS = -16.0
#: How near the target the planned gain brings the loudness (LU).
TOLERANCE_LU = 0.15
#: Limited measuring passes at most.
MAX_PASSES = 5
#: The first guess at what the limiter takes off (LU): these drums lose about 1.3.
GUESSED_LOSS_DB = 1.0
#: The largest gain the plan gives (dB): a near-silent render is not blown up.
MAX_GAIN_DB = 40.0


@dataclass(frozen=True)
class Level:
    """A planned level: the target, the gain (dB) found, the loudness measured at it."""

    target: float
    gain_db: float
    loudness: float
    ceiling_dbfs: float

    @property
    def gain(self) -> float:
        return 10.0 ** (self.gain_db / 20.0)


def limited(blocks, mix, gain_db: float, ceiling_dbfs: float):
    """*blocks* (the whole unscaled render of *mix*, from frame 0) gained and
    limited, in chunks of :data:`~guji.sound.limiter.CHUNK_FRAMES`."""
    limiter = Limiter(mix.rate, mix.channels, mix.frames, 10.0 ** (gain_db / 20.0), ceiling_dbfs)
    for block in blocks:
        yield from limiter.feed(block)
    yield from limiter.finish()


def plan(mix, target: float) -> Level | None:
    """The gain that brings *mix* (a :class:`~guji.sound.mixer.Mix`) to *target*
    LUFS through the limiter; ``None`` when its loudness cannot be measured."""
    step = step_of(mix)
    state = mix._steady = Steady(mix, step) if step is not None else None

    def loudness(gain_db: float | None) -> float:
        if state is not None:           # a step at a time, each distinct one once
            return (state.raw_loudness() if gain_db is None
                    else state.limited_loudness(gain_db, mix.ceiling_dbfs))
        raw = mix.raw_blocks()
        blocks = raw if gain_db is None else limited(raw, mix, gain_db, mix.ceiling_dbfs)
        return measure(blocks, mix.rate, mix.channels, mix.frames)

    before = loudness(None)
    if not math.isfinite(before):
        return None
    g0, l0 = 0.0, before
    gain = min(MAX_GAIN_DB, target - before + GUESSED_LOSS_DB)
    for _ in range(MAX_PASSES):
        found = loudness(gain)
        if abs(found - target) <= TOLERANCE_LU or gain >= MAX_GAIN_DB:
            break
        slope = (found - l0) / (gain - g0) if gain != g0 else 1.0
        slope = min(1.0, max(0.05, slope))
        g0, l0 = gain, found
        gain = min(MAX_GAIN_DB, gain + (target - found) / slope)
    else:
        gain = g0          # the last gain measured
        found = l0
    return Level(float(target), float(gain), float(found), float(mix.ceiling_dbfs))


def levelled(mix, level: Level, block_frames: int, start: int, stop: int):
    """The frames [*start*, *stop*) of *mix* at *level*, in blocks of *block_frames*
    (the last shorter): the whole render limited from frame 0, cut (the
    limiter's chunks are counted from the start, so the samples do not depend
    on the blocks)."""
    from .room import reblocked
    step = step_of(mix)
    if step is None:
        chunks = limited(mix.raw_blocks(), mix, level.gain_db, level.ceiling_dbfs)
    else:
        state = getattr(mix, "_steady", None) or Steady(mix, step)
        chunks = state.limited_steps(level.gain_db, level.ceiling_dbfs)
        if block_frames == step and start % step == 0 and stop == mix.frames:
            yield from itertools.islice(chunks, start // step, None)   # recurring arrays kept
            return
    yield from reblocked(chunks, 0, start, stop, block_frames)


__all__ = ["CHUNK_FRAMES", "Level", "MAX_PASSES", "TARGET_LUFS", "TOLERANCE_LU", "levelled",
           "limited", "plan"]

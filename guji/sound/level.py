"""The level of a render: ``--loudness LUFS`` (default −16) or ``--loudness off``.

With a target (``Kit.loudness``, LUFS), :class:`~guji.sound.mixer.Mix` plans
one gain for the whole render before its first block (:func:`plan`) and gives
every block through the true-peak limiter (:func:`levelled`): the render
measured by ITU-R BS.1770 (:mod:`guji.sound.loudness`) comes out at the
target, its true peak at most the mix's ceiling (−1 dBTP; OGG −2). The gain is
found by measuring, in one of two ways:

* on the grid, dry (:mod:`guji.sound.steady`): the render as it is, then
  limited at a guessed gain (the loudness wanted, and
  :data:`GUESSED_LOSS_DB` for the limiter), the next guess along
  :data:`GUESSED_SLOPE`, then by the secant through the last two
  measurements, until the loudness is within
  :data:`TOLERANCE_LU` of the target (at most :data:`MAX_PASSES` limited
  passes). A pass costs its distinct steps; the render gives the last
  pass's limited steps again.
* otherwise (a room, a tempo off the whole samples: :mod:`guji.sound.gauge`):
  one pass over the raw render measures it through the limiter at the
  :data:`SPREAD_DB` gains around a guess (the loudness wanted over that of
  the render's first minute, or its first twentieth up to five minutes, and
  :data:`STREAMED_LOSS_DB`), and the gain is taken between the two on
  either side of the target (the loudness is smooth in the gain: the
  straight line between gains 1 dB apart is off by hundredths of an LU). A
  guess that brackets nothing is moved and measured again. Memory stays flat:
  no pass keeps the render.

A render whose loudness cannot be measured (silence, or shorter than one
400 ms gating block) keeps the peak rule of ``--loudness off``
(:mod:`guji.sound.headroom`). So does a loop's probe when no target is set.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from .gauge import measure_at
from .limiter import CHUNK_FRAMES, Limiter
from .steady import Steady, step_of

#: The loudness a render is made to by default (LUFS: streaming platforms' level).
TARGET_LUFS = -16.0
#: How near the target the planned gain brings the loudness (LU).
TOLERANCE_LU = 0.15
#: Limited measuring passes at most.
MAX_PASSES = 5
#: The first guess at what the limiter takes off (LU): these drums lose 1.8–2.2 at
#: −16 LUFS (``lu``, ``lu`` mono ×4, ``xue:2 she`` ×60; ``xue she`` ×3: 1.2).
GUESSED_LOSS_DB = 1.9
#: The first guess at how the loudness follows the gain through the limiter (LU a
#: dB) near −16 LUFS: 0.60–0.72 for the same renders (then the secant).
GUESSED_SLOPE = 0.65
#: The guess off the grid at what the limiter takes off (LU): less in a room (its
#: reverberation raises the loudness, not the peaks): hall 0.1, court 0.4–0.8, dry
#: off the grid 1.3 (``lu``, ``xue``, ``xue:2 she`` at 16 kHz); the spread covers ±2.
STREAMED_LOSS_DB = 0.8
#: The gains measured at once off the grid, around the guess (dB).
SPREAD_DB = (-2.0, -1.0, 0.0, 1.0, 2.0)
#: Off the grid the guess comes from this much of the render's start, at least (s).
GUESS_SECONDS = 60
#: … and its twentieth, up to this much (s): a 10-hour render is not convolved half an hour more.
GUESS_MOST_SECONDS = 300
#: The largest gain the plan gives (dB): a near-silent render is not blown up.
MAX_GAIN_DB = 40.0


@dataclass(frozen=True)
class Level:
    """A planned level: the target, the gain (dB) found, the loudness measured at it
    (off the grid: read on the line between the two gains measured either side)."""

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


class _Measuring:
    """The progress of the measuring passes, for *report* (``None``: nobody asks):
    frames walked over frames to walk (*passes* whole renders, one more when
    the walk goes past them)."""

    def __init__(self, report, frames: int, passes: float):
        self.report, self.frames, self.passes, self.done = report, frames, passes, 0

    def tick(self, n: int) -> None:
        self.done += n
        while self.done > self.frames * self.passes:
            self.passes += 1
        self.report(self.done, int(self.frames * self.passes))

    def end(self, level):
        self.report(self.done, self.done)
        return level


def plan(mix, target: float, measuring=None) -> Level | None:
    """The gain that brings *mix* (a :class:`~guji.sound.mixer.Mix`) to *target*
    LUFS through the limiter; ``None`` when its loudness cannot be measured.
    *measuring*: called as ``measuring(frames_measured, frames_to_measure)``."""
    step = step_of(mix)
    if step is None:
        progress = _Measuring(measuring, mix.frames, 1 + _prefix(mix) / mix.frames) \
            if measuring else None
        level = _plan_streamed(mix, target, progress and progress.tick)
        return progress.end(level) if progress else level
    progress = _Measuring(measuring, mix.frames, 2) if measuring else None
    level = _plan_steps(mix, target, step, progress and progress.tick)
    return progress.end(level) if progress else level


def _plan_steps(mix, target: float, step: int, tick) -> Level | None:
    """:func:`plan` on the grid: a pass a guess, the secant to the next."""
    state = mix._steady = Steady(mix, step)
    before = state.raw_loudness(tick)
    if not math.isfinite(before):
        return None
    g0 = l0 = None
    gain = min(MAX_GAIN_DB, target - before + GUESSED_LOSS_DB)
    for _ in range(MAX_PASSES):
        found = state.limited_loudness(gain, mix.ceiling_dbfs, tick)
        if abs(found - target) <= TOLERANCE_LU or gain >= MAX_GAIN_DB:
            break
        slope = GUESSED_SLOPE if g0 is None or gain == g0 else (found - l0) / (gain - g0)
        slope = min(1.0, max(0.05, slope))
        g0, l0 = gain, found
        gain = min(MAX_GAIN_DB, gain + (target - found) / slope)
    else:
        gain = g0          # the last gain measured
        found = l0
    return Level(float(target), float(gain), float(found), float(mix.ceiling_dbfs))


def _prefix(mix) -> int:
    """Frames of the render's start whose loudness makes the first guess off the grid."""
    return min(mix.frames, max(GUESS_SECONDS * mix.rate,
                               min(mix.frames // 20, GUESS_MOST_SECONDS * mix.rate)))


def _plan_streamed(mix, target: float, tick) -> Level | None:
    """:func:`plan` off the grid: several gains measured in each pass, the gain
    found between two of them."""
    before, _ = measure_at(mix, (), mix.ceiling_dbfs, _prefix(mix), tick)   # its first minute
    guess = target - (before if math.isfinite(before) else target) + STREAMED_LOSS_DB
    for _ in range(MAX_PASSES):
        gains = sorted({min(MAX_GAIN_DB, guess + d) for d in SPREAD_DB})
        raw, found = measure_at(mix, gains, mix.ceiling_dbfs, tick=tick)
        if not math.isfinite(raw):
            return None
        for (g0, l0), (g1, l1) in zip(zip(gains, found), zip(gains[1:], found[1:])):
            if l0 <= target <= l1 and l1 > l0:
                gain = g0 + (target - l0) * (g1 - g0) / (l1 - l0)
                return Level(float(target), float(gain), float(target), float(mix.ceiling_dbfs))
        near = min(range(len(gains)), key=lambda i: abs(found[i] - target))
        if abs(found[near] - target) <= TOLERANCE_LU or gains[-1] >= MAX_GAIN_DB:
            break
        slope = (found[-1] - found[0]) / (gains[-1] - gains[0]) if len(gains) > 1 else 1.0
        guess = gains[near] + (target - found[near]) / min(1.0, max(0.05, slope))
    return Level(float(target), float(gains[near]), float(found[near]), float(mix.ceiling_dbfs))


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

"""Loudness on the grid: the limiter and the meter a grid step at a time, each distinct step once.

On a grid of whole-sample steps a dry render is a few distinct blocks
(間若一: :mod:`guji.sound.blocks`; the mixer gives a recurring block as the
same read-only array). The limited step *k* is a function of the raw steps
*k − 1*, *k*, *k + 1* (the limiter looks :attr:`~guji.sound.limiter.Limiter.context`
frames either side, less than a step) and of the release carried in
(:meth:`~guji.sound.limiter.Limiter.limit_span`): it is made once for each
such quadruple. :class:`Steady` keeps what does not depend on the gain across
the measuring passes of one render: the raw steps, the 4× points of their loud
frames (:class:`~guji.sound.limiter.Peaks`), the K-weighted sums of squares
of each raw step's 100 ms pieces; and the last pass's limited steps, which
the render then gives again instead of limiting them once more. Only what
comes of steps the mixer keeps (and gives again as the same array) is kept.

The raw render's K-weighting is its one-shots' K-weighted (once each, by
one transform a length) and pasted where the mixer pastes them: a distinct
step costs a paste, not a transform of its own.

The K-weighting is linear: where the limiter leaves a step at the plain gain
*g* (most of it), the K-weighted limited step is *g* times the raw one's, so
its sums of squares are *g*² times the raw ones; only around the stretch the
limiter turned down (and the K-weighting's ring after it) is the limited step
weighted afresh, by a short FFT. So a measuring pass costs a short transform
per distinct step, a 10-hour piece the cost of its distinct steps. The samples
are the streaming limiter's, the loudness its meter's to float rounding
(``tests/test_loudness.py``).
"""

from __future__ import annotations

import copy

import numpy as np

from .blocks import add_hits
from .gauge import Weighing
from .limiter import Limiter
from .loudness import Meter, k_weighting, piece_sums
from .onsets import TrackSet, hits_near

#: Bytes of limited steps kept to give again.
STEADY_MEMORY = 32 * 2**20
#: When a pass needs a step's 4× points further down than an earlier pass, they
#: are looked for this far (×) under its quiet level: a later pass up to 2 dB
#: higher again needs them no more.
PEAK_SPARE = 10.0 ** (-2.0 / 20.0)
#: Loud frames' 4× points kept across passes (their count, all steps together: 8 MB).
PEAK_FRAMES = 500_000


def step_of(mix) -> int | None:
    """The grid step (frames) when *mix* can be levelled a step at a time, else ``None``."""
    step = mix.step_frames()
    if mix.room is not None or step is None:
        return None
    taps = len(k_weighting(mix.rate))
    limiter = Limiter(mix.rate, mix.channels, 1, 1.0, 0.0)
    return step if step > max(taps, limiter.context) else None


def _fixed(*arrays) -> bool:
    """Whether every one of *arrays* is read-only (a limited step kept in a pass's
    memo, or a given step the walk kept: each recurs as the same array)."""
    return not any(a.flags.writeable for a in arrays)


class Steady:
    """One mix's levelling a step at a time: its caches across passes."""

    def __init__(self, mix, step: int, steps=None):
        from .blocks import BLOCK_MEMORY, block_peaks
        self.mix, self.step, self._steps = mix, step, steps
        if steps is None and mix._made_frames != step:   # the distinct raw steps, made once
            _, mix._made = block_peaks(mix, step, BLOCK_MEMORY)
            mix._made_frames = step
        #: the raw steps that recur as the same array: the mixer's kept blocks (every
        #: raw step is read-only, but the others are made afresh each time, and a
        #: cache holding them would hold the whole render)
        self._kept = None if steps is not None else {id(b) for b in mix._made.values()}
        self._order: list | None = None     # every raw step in turn, when all recur
        self._weighted: tuple | None = None  # the one-shots K-weighted, and their tracks
        self.weigh = Weighing(mix.rate, mix.channels)
        self.taps = self.weigh.taps
        #: the silence before the first step and after the last (one array: kept with them)
        context = Limiter(mix.rate, mix.channels, 1, 1.0, 0.0).context
        self.silence = np.zeros((max(self.taps, context), mix.channels), dtype=np.float32)
        self.silence.setflags(write=False)
        if self._kept is not None:
            self._kept.add(id(self.silence))
        self.raw_sums: dict[tuple, tuple] = {}
        self.peaks: dict[tuple, tuple] = {}
        self._peak_room = PEAK_FRAMES
        self.last: tuple | None = None          # (gain_db, ceiling, memo) of the last pass
        self.align = mix.rate // 10 if mix.rate % 10 == 0 else mix.rate

    def _recurring(self, *raw) -> bool:
        """Whether the raw steps *raw* recur as these same arrays (worth keeping what
        is worked out from them)."""
        if self._kept is None:
            return _fixed(*raw)
        return all(id(a) in self._kept for a in raw)

    # -- the raw render --------------------------------------------------------
    def raw(self):
        """The raw steps (unscaled, a recurring one the same read-only array). When
        every step recurs, the first walk notes their order and the later ones
        take it (the mixer's search of each step's hits, made once)."""
        if self._steps is not None:
            return self._steps
        if self._order is not None:
            return iter(self._order)
        return self._noted(self.mix._blocks(self.step, 0, self.mix.frames, None, True))

    def _noted(self, steps):
        order: list | None = []
        for now in steps:
            if order is not None and id(now) in self._kept:
                order.append(now)
            else:
                order = None                # a step made afresh: the order is not kept
            yield now
        self._order = order

    def _raw_sums(self, before, now, at: int):
        """The K-weighted sums of squares of raw step *now*'s pieces (after *before*)."""
        key = (id(before), id(now), at % self.align)
        hit = self.raw_sums.get(key)
        if hit is not None and hit[0] is before and hit[1] is now:
            return hit[2], hit[3]
        if self._kept is None:
            sums, complete = self.weigh.sums(before, now, at)
        else:
            sums, complete = self._pasted_sums(at, len(now))
        if self._recurring(before, now):
            self.raw_sums[key] = (before, now, sums, complete)
        return sums, complete

    def _pasted_sums(self, at: int, n: int):
        """The K-weighted sums of the raw render's frames [*at*, *at* + *n*): the
        mixer's one-shots K-weighted (once), pasted where it pastes them. (A
        pair of raw steps (before, now) fixes these hits: the rings reach back
        less than a step further than the raw shots.)"""
        mix = self.mix
        if self._weighted is None:
            shots = self._weighted_shots()
            tracks = [copy.copy(tr) for tr in mix._tracks]
            for tr in tracks:
                tr.max_length += self.taps - 1
            self._weighted = shots, TrackSet(tracks)
        shots, tracks = self._weighted
        buf = np.zeros((n, mix.channels), dtype=np.float32)
        for positions, kinds, _ in hits_near(tracks, mix._cue_pos, mix._cue_kind,
                                             mix._max_length + self.taps - 1, at, at + n):
            add_hits(buf, at, at + n, positions, kinds, shots)
        power = np.square(buf[:, 0], dtype=np.float64)
        for c in range(1, mix.channels):
            power += np.square(buf[:, c], dtype=np.float64)
        return piece_sums(power, at, mix.rate)

    def _weighted_shots(self) -> list[np.ndarray]:
        """The mixer's one-shots K-weighted: each voice's hit weighted (once, and
        kept: :func:`~guji.sound.oneshot.weighted_one_shot`), times its channel gains."""
        from .oneshot import weighted_one_shot
        from .strokes import stroke_params
        mix = self.mix
        shots: list = [None] * len(mix._shots)
        for (voice, gains, variant), i in mix._kind_ids.items():
            if voice is None:
                weighted = np.zeros(self.taps, dtype=np.float32)
            else:
                params = mix.kit[voice]
                params = params if variant is None else stroke_params(params, variant)
                weighted = weighted_one_shot(params, mix.rate)
            shots[i] = weighted[:, None] * np.array(gains, dtype=np.float32)[None, :]
        return shots

    def raw_loudness(self, tick=None) -> float:
        """The integrated loudness of the render as it is (no gain, no limiter);
        *tick*: called with the frames of each step measured."""
        mix = self.mix
        meter = Meter(mix.rate, mix.channels, mix.frames)
        before, at = self.silence, 0
        for now in self.raw():
            sums, complete = self._raw_sums(before, now, at)
            meter.add_pieces(sums, complete)
            meter.skip(len(now))
            at += len(now)
            before = now
            if tick is not None:
                tick(len(now))
        self._weighted = None         # (15 MB at 48 kHz) made again only for a step not kept
        meter.finish()
        return meter.integrated()

    # -- limited ---------------------------------------------------------------
    def _peaks_of(self, before, now, ahead, window, quiet: float):
        """The :class:`~guji.sound.limiter.Peaks` of a step's window, kept across passes."""
        from .limiter import raw_peaks
        key = (id(before), id(now), id(ahead))
        hit = self.peaks.get(key)
        if hit is not None and hit[0] is before and hit[1] is now and hit[2] is ahead \
                and hit[3].floor <= quiet:
            return hit[3]
        peaks = raw_peaks(window, quiet if hit is None else quiet * PEAK_SPARE)
        if self._recurring(before, now, ahead) and self._peak_room >= len(peaks.frames):
            self._peak_room -= len(peaks.frames) - (len(hit[3].frames) if hit else 0)
            self.peaks[key] = (before, now, ahead, peaks)
        return peaks

    def walk(self, gain_db: float, ceiling_dbfs: float, memo: dict):
        """(raw step, limited step, its stretches turned down) of each step at *gain_db*,
        each distinct quadruple limited once (kept in *memo*, read-only)."""
        mix = self.mix
        limiter = Limiter(mix.rate, mix.channels, mix.frames, 10.0 ** (gain_db / 20.0),
                          ceiling_dbfs)
        ctx = limiter.context
        silence = self.silence
        room = STEADY_MEMORY - sum(v[3].nbytes for v in memo.values())
        carry = 0
        raw = self.raw()
        before, now = silence, next(raw, None)
        while now is not None:
            after = next(raw, None)
            ahead = silence if after is None else after
            key = (id(before), id(now), id(ahead), carry)
            hit = memo.get(key)
            if hit is not None and hit[0] is before and hit[1] is now and hit[2] is ahead:
                out, carry, spans = hit[3:]
            else:
                tail = ahead[:ctx]
                if len(tail) < ctx:
                    tail = np.concatenate([tail, silence[:ctx - len(tail)]])
                window = np.concatenate([before[-ctx:], now, tail])
                peaks = self._peaks_of(before, now, ahead, window, limiter.quiet)
                out, carry_out, spans = limiter.limit_span(window, carry, peaks, self.taps)
                if room >= out.nbytes and self._recurring(before, now, ahead):
                    out.setflags(write=False)      # read-only: given again (and memoised after)
                    memo[key] = (before, now, ahead, out, carry_out, spans)
                    room -= out.nbytes
                carry = carry_out
            yield now, out, spans
            before, now = now, after

    def limited_steps(self, gain_db: float, ceiling_dbfs: float):
        """The render gained and limited, a step at a time (a recurring step given
        again as the same read-only array): the last pass's steps when it was at
        this gain."""
        last = self.last
        memo = last[2] if last is not None and last[:2] == (gain_db, ceiling_dbfs) else {}
        for _, out, _ in self.walk(gain_db, ceiling_dbfs, memo):
            yield out

    def limited_loudness(self, gain_db: float, ceiling_dbfs: float, tick=None) -> float:
        """The integrated loudness of the render at *gain_db* through the limiter
        (*tick*: as for :meth:`raw_loudness`)."""
        mix = self.mix
        memo: dict = {}
        self.last = None
        g2 = 10.0 ** (gain_db / 10.0)
        meter = Meter(mix.rate, mix.channels, mix.frames)
        known: dict[tuple, tuple] = {}
        prev = (self.silence, self.silence, ())
        at = 0
        for now, out, spans in self.walk(gain_db, ceiling_dbfs, memo):
            key = (id(prev[1]), id(out), at % self.align)
            hit = known.get(key)
            if hit is not None and hit[0] is prev[1] and hit[1] is out:
                sums, complete = hit[2], hit[3]
            else:
                sums, complete = self._raw_sums(prev[0], now, at)
                sums = sums * g2 + self.weigh.change(prev, now, out, spans, at, g2)
                if _fixed(prev[1], out):
                    known[key] = (prev[1], out, sums, complete)
            meter.add_pieces(sums, complete)
            meter.skip(len(out))
            at += len(out)
            prev = (now, out, spans)
            if tick is not None:
                tick(len(out))
        meter.finish()
        self.last = (gain_db, ceiling_dbfs, memo)
        return meter.integrated()


def limited_steps(mix, step: int, gain_db: float, ceiling_dbfs: float):
    """The render of *mix* gained and limited, a step at a time (a recurring step
    given again as the same read-only array; the others writeable)."""
    return Steady(mix, step).limited_steps(gain_db, ceiling_dbfs)


def measure_steps(mix, steps, step: int) -> float:
    """The integrated loudness of *steps* (the levelled render of *mix*, a step each),
    each distinct (step before, step) weighted once."""
    return Steady(mix, step, steps).raw_loudness()

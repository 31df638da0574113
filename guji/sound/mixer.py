"""Rendering performances to sound: the block renderer.

The one renderer, :class:`Mix`, serves files
(:func:`guji.sound.files.write_audio`), arrays (:func:`render_array`) and live
playback (:mod:`guji.sound.play`). It yields the signal in blocks
(:func:`render_blocks`), so memory stays flat however long the piece:
``--repeat 10000`` never holds the whole signal, and playback starts as soon
as the first block is made.

Onsets
------
Each stroke (and count-in click, and cue) starts on exactly sample
``round(t × rate)``, ``t`` being its exact time from
:meth:`guji.timing.score.Score.time` — computed from the stroke's index,
never by adding up rounded gaps (:mod:`guji.sound.onsets`). One hit is the
voice's one-shot (:func:`guji.sound.kit.one_shot`), whose first sample is the
onset.

Minus-one, pan and strokes
--------------------------
A part's muted drum (:attr:`Part.muted <guji.timing.performance.Part.muted>`)
is silent, or sounds the click with ghost clicks. ``Part.pan`` ``None`` gives
each voice the kit's pan; a number pans the whole part, constant-power
(:func:`pan_gains`); a mono render ignores pan. Each stroke of a drum sounds
one of the drum's variants, chosen by its place (:mod:`guji.sound.strokes`;
``Kit.strike`` ``"exact"``: the kit's own hit).

Headroom and loudness
---------------------
``Kit.loudness`` ``None`` (``--loudness off``): the file's peak is at most
:data:`~guji.sound.headroom.CEILING_DBFS` (−1 dBFS), each channel one fixed
gain from its exact peak, found before the first block from the distinct
windows between onsets (:mod:`guji.sound.headroom`). A number (LUFS, the
command line's default −16): one gain and a look-ahead true-peak limiter,
planned by measuring (:mod:`guji.sound.level`). The output is identical
whatever ``block_frames``.

Determinism
-----------
Seeded noise and strokes, one fixed order of summing whatever the block size,
and a file writer that writes nothing varying: the same command, the same bytes.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

import numpy as np

from ..i18n import _
from ..defaults import RATE
from ..errors import UsageError
from ..timing.performance import DRUMS, Cue, Part, Performance, Voice, as_performance
from ..timing.events import pass_onsets
from ..timing.score import Event
from .headroom import CEILING_DBFS, channel_gains, exact_peaks
from .kit import Kit, default_kit, one_shot
from .oneshot import check_rate
from .blocks import BLOCK_MEMORY, add_hits, block_key, block_peaks
from .onsets import Track, TrackSet, hits_by_block
from .room import room_response, wet_blocks, wet_peaks
from .pan import pan_gains  # noqa: F401 (re-exported)
from .level import Level, levelled, plan as plan_level
from .strokes import part_seed, variant_count, variant_table

#: Default block length of the renderer, in frames.
BLOCK_FRAMES = 65536


class Mix:
    """A performance ready to render: parts and cues, a kit, a rate, channels.

    Making a :class:`Mix` computes everything fixed about the output — the
    one-shot of each (voice, pan), the total length, the exact peak and gain
    of each channel (see :mod:`guji.sound.headroom`) — but no audio beyond the
    distinct windows needed for the peak. :meth:`blocks` then renders.

    Parameters
    ----------
    performance:
        A :class:`~guji.timing.performance.Performance` (or what
        :func:`~guji.timing.performance.as_performance` accepts: a score, a
        part, or a sequence of them).
    cues:
        More :class:`~guji.timing.performance.Cue` bells, sounded with
        ``Voice.CUE`` like the performance's own.
    kit:
        The voices (default :func:`guji.sound.kit.default_kit`).
    rate:
        Samples a second.
    channels:
        1 (mono: pan ignored) or 2 (stereo).
    ceiling_dbfs:
        The highest peak allowed (default
        :data:`~guji.sound.headroom.CEILING_DBFS`).
    gains:
        The gain of each channel, given instead of found from the peak
        (then :attr:`peaks` is empty): the passes of a loop, rendered a
        few at a time, share the gains of the loop's steady state
        (:mod:`guji.sound.feed`).
    level:
        A loudness plan to use (a loop's segments share their probe's),
        instead of finding one for ``kit.loudness``.
    measuring:
        Called as ``measuring(frames_measured, frames_to_measure)`` while the
        plan measures (:func:`guji.sound.level.plan`).

    Attributes
    ----------
    frames:
        Length of the render: until the last ring has ended, and at least
        until the end of the last part's grid.
    peaks, gains:
        The exact peak of each channel before the gain; the gain applied to
        each (1.0 unless the peak would pass the ceiling).
    """

    def __init__(self, performance, cues: Iterable[Cue] = (), *, kit: Kit | None = None,
                 rate: int = RATE, channels: int = 2, ceiling_dbfs: float = CEILING_DBFS,
                 gains: Sequence[float] | None = None, level: Level | None = None,
                 measuring=None):
        self.rate = check_rate(rate)
        if isinstance(channels, bool) or channels not in (1, 2):
            raise UsageError(_('channels must be 1 (mono) or 2 (stereo), not {channels}').format(channels=repr(channels)))
        self.channels = int(channels)
        self.performance: Performance = as_performance(performance, cues)
        self.parts: tuple[Part, ...] = self.performance.parts
        self.kit = kit if kit is not None else default_kit(self.rate)
        self.cues: tuple[Cue, ...] = self.performance.cues
        self._kind_ids: dict[tuple, int] = {}
        self._made: dict[bytes, np.ndarray] = {}       # unscaled blocks the peak search made
        self._made_frames = 0
        self._shots: list[np.ndarray] = []
        self._voices: list[Voice | None] = []
        for part in self.parts:
            part.score.require_resolution(self.rate, "audio sample")
        tracks = []
        for part in self.parts:
            # what sounds in a pass, from the one schedule: a muted drum's strokes
            # are silence, or the click (every pass sounds alike)
            pass_kinds = np.array([self._kind(o.voice, part.pan) for o in pass_onsets(part)],
                                  dtype=np.int64)
            click = self._kind(Voice.CLICK, part.pan)
            tracks.append((part.score, pass_kinds, click, part_seed(part.name)))
        cue_pos, cue_kind = [], []
        for cue in self.cues:
            cue_pos.append(round(cue.time * self.rate))
            cue_kind.append(self._kind(Voice.CUE, cue.pan))
        table, counts = self._variants()
        self._lengths = np.array([len(s) for s in self._shots], dtype=np.int64)
        self._tracks = TrackSet([Track(score, self.rate, pk, ck, self._lengths, table, counts, seed)
                                 for score, pk, ck, seed in tracks])
        order = np.argsort(np.array(cue_pos, dtype=np.int64), kind="stable")
        self._cue_pos = np.array(cue_pos, dtype=np.int64)[order]
        self._cue_kind = np.array(cue_kind, dtype=np.int64)[order]
        self._max_length = int(self._lengths.max())
        self.frames = self.dry_frames = self._total_frames()
        self.room = room_response(self.kit.room, self.rate, self.channels)
        if self.room is not None:          # the reverberation rings to its end
            self.frames += len(self.room) - 1
        self.ceiling_dbfs = float(ceiling_dbfs)
        #: the loudness plan (:mod:`guji.sound.level`): given, or found for ``Kit.loudness``
        self.level = level
        self.peaks: tuple[float, ...] = ()
        if gains is not None:
            self.gains: tuple[float, ...] = tuple(float(g) for g in gains)
            return
        if self.room is None:          # first: its distinct blocks are the plan's too
            self.peaks = self._exact_peaks()
        if level is None and self.kit.loudness is not None:
            self.level = plan_level(self, self.kit.loudness, measuring)
        if self.level is None and self.room is not None:   # a room's peak costs a whole render
            self.peaks = wet_peaks(self, self.room)
        self.gains = channel_gains(self.peaks, self.ceiling_dbfs) if self.peaks else \
            (1.0,) * self.channels

    # -- set-up ------------------------------------------------------------
    def _kind(self, voice: Voice | None, pan: float | None) -> int:
        """Id of a sound kind: one voice at one pan (its one-shot, scaled per
        channel); ``None`` is silence (a muted drum's stroke: one zero sample)."""
        if voice is None:
            gains: tuple[float, ...] = (0.0,) * self.channels
        else:
            gains = pan_gains(self.kit[voice].pan if pan is None else pan)
        if self.channels == 1 and voice is not None:
            gains = (1.0,)
        return self._sound(voice, gains)

    def _sound(self, voice: Voice | None, gains: tuple[float, ...], variant: int | None = None) -> int:
        """Id of *voice* at channel *gains* as stroke *variant* (``None``: the kit's)."""
        key = (voice, gains, variant)
        if key not in self._kind_ids:
            shot = (np.zeros(1, dtype=np.float32) if voice is None
                    else one_shot(self.kit, voice, self.rate, variant))
            scaled = shot[:, None] * np.array(gains, dtype=np.float32)[None, :]
            scaled.setflags(write=False)
            self._kind_ids[key] = len(self._shots)
            self._shots.append(scaled)
            self._voices.append(voice)
        return self._kind_ids[key]

    def _variants(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The kinds each kind sounds as, and how many (:mod:`guji.sound.strokes`);
        ``None`` when every stroke is the kit's own hit (``--strike exact``)."""
        if self.kit.strike == "exact":
            return None, None
        rows = []
        for voice, gains, _ in list(self._kind_ids):
            n = variant_count(self.kit[voice], self.kit.strike) if voice in DRUMS else 1
            rows.append([self._sound(voice, gains, v) for v in range(n)] if n > 1
                        else [self._kind_ids[(voice, gains, None)]])
        return variant_table(rows)

    def _total_frames(self) -> int:
        end = round(max((p.score.duration for p in self.parts), default=0.0) * self.rate)
        for tr in self._tracks:
            if tr.n == 0:
                continue
            lo = tr.first_at_or_after(tr.position(tr.n - 1) - tr.max_length + 1)
            ends = tr.positions(lo, tr.n) + self._lengths[tr.kinds(lo, tr.n)]
            end = max(end, int(ends.max()))
        if len(self._cue_pos):
            end = max(end, int((self._cue_pos + self._lengths[self._cue_kind]).max()))
        return max(int(end), 1)

    def _onsets(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions and kinds of every onset in [lo, hi), sorted by (position, kind)."""
        pos, kinds = [], []
        for tr in self._tracks.within(lo, hi):
            i0, i1 = tr.first_at_or_after(lo), tr.first_at_or_after(hi)
            if i1 > i0:
                pos.append(tr.positions(i0, i1))
                kinds.append(tr.kinds(i0, i1))
        if len(self._cue_pos):
            a, b = np.searchsorted(self._cue_pos, [lo, hi], side="left")
            pos.append(self._cue_pos[a:b])
            kinds.append(self._cue_kind[a:b])
        if not pos:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        p, k = np.concatenate(pos), np.concatenate(kinds)
        order = np.lexsort((k, p))
        return p[order], k[order]

    def _next_onset(self, frame: int) -> int:
        """The first onset at or after *frame*, or the end of the render."""
        first = self._tracks.next_onset(frame)
        best = self.frames if first is None else min(self.frames, first)
        a = int(np.searchsorted(self._cue_pos, frame, side="left"))
        if a < len(self._cue_pos):
            best = min(best, int(self._cue_pos[a]))
        return min(best, self.frames)

    def _exact_peaks(self) -> tuple[float, ...]:
        """The exact peak of each channel: of its distinct windows
        (:func:`~guji.sound.headroom.exact_peaks`), or, when strokes vary on a
        grid of whole blocks, of its distinct blocks, kept for the render
        (:func:`~guji.sound.blocks.block_peaks`)."""
        step = self.step_frames()
        if self.kit.strike != "exact" and step is not None:
            peaks, self._made, self._made_frames = *block_peaks(self, step, BLOCK_MEMORY), step
            return peaks
        return exact_peaks(self, BLOCK_FRAMES)

    def sound_of(self, part_index: int, event_index: int) -> np.ndarray:
        """The one-shot event *event_index* of part *part_index* sounds, ``(frames,
        channels)``, scaled by its pan (not by the gains): its variant of the drum."""
        return self._shots[int(self._tracks[part_index].kinds(event_index, event_index + 1)[0])]

    # -- rendering -----------------------------------------------------------
    def blocks(self, block_frames: int | None = None, start: int = 0,
               stop: int | None = None) -> Iterator[np.ndarray]:
        """Yield the signal from frame *start* to *stop* in blocks.

        Each block is a read-only float32 array of shape ``(frames,
        channels)``, *block_frames* long (the last one shorter); by default
        one grid step when a step is a whole number of samples
        (:meth:`step_frames`), else :data:`BLOCK_FRAMES`. The samples do not
        depend on *block_frames*.

        Blocks whose onsets stand in the same places (relative to the block)
        with the same sounds are the same samples: such a block is made once
        and given again (間若一: one grid and one pattern make a long piece
        of few distinct blocks, so a long render is mostly copying).
        """
        if block_frames is None:
            block_frames = self.step_frames() or BLOCK_FRAMES
        if isinstance(block_frames, bool) or not isinstance(block_frames, int) or block_frames < 1:
            raise ValueError(f"block_frames must be a positive whole number, not {block_frames!r}")
        stop = self.frames if stop is None else min(stop, self.frames)
        if self.level is not None:
            return levelled(self, self.level, block_frames, max(0, start), stop)
        if self.room is not None:
            return wet_blocks(self, self.room, block_frames, max(0, start), stop, self.gains)
        # blocks can repeat only when they start on grid steps
        remember = block_frames == self.step_frames() and (max(0, start) % block_frames == 0)
        return self._blocks(block_frames, max(0, start), stop, self.gains, remember)

    def raw_blocks(self) -> Iterator[np.ndarray]:
        """The whole render from frame 0, unscaled (no gain, no limiter)."""
        if self.room is not None:
            return wet_blocks(self, self.room, BLOCK_FRAMES, 0, self.frames, None)
        step = self.step_frames()
        return self._blocks(step or BLOCK_FRAMES, 0, self.frames, None, step is not None)

    def step_frames(self) -> int | None:
        """Samples in one grid step when every part's step is the same whole
        number of samples (0.6 s at 48 kHz: 28,800), between 1,024 and
        :data:`BLOCK_FRAMES` × 4; else ``None``."""
        steps = {p.score.interval * self.rate for p in self.parts}
        if len(steps) != 1:
            return None
        step = steps.pop()
        whole = round(step)
        # a block length only (the samples do not depend on it: the blocks remembered
        # are keyed by their exact onsets), so near-whole is whole enough here
        if abs(step - whole) > 1e-9 * max(1.0, step) or not 1024 <= whole <= 4 * BLOCK_FRAMES:
            return None
        return whole

    def _blocks(self, block_frames: int, start: int, stop: int,
                gains: Sequence[float] | None, remember: bool = False) -> Iterator[np.ndarray]:
        """The blocks of [start, stop), scaled by *gains* (``None``: not scaled);
        with *remember*, a block made once is given again where it recurs."""
        scale = gains is not None and any(g != 1.0 for g in gains)
        gains = np.array(gains if scale else [1.0] * self.channels, dtype=np.float32)
        made: dict[bytes, np.ndarray] = {}
        room = BLOCK_MEMORY if remember else 0
        before = self._made if remember and block_frames == self._made_frames else {}
        for b0, b1, hits in hits_by_block(self._tracks, self._cue_pos, self._cue_kind,
                                          self._max_length, start, stop, block_frames):
            key = block_key(b0, b1, hits) if remember else b""
            buf = made.get(key) if remember else None
            if buf is None:
                buf = before.get(key)                       # made by the peak search
                if buf is None or scale:
                    buf = np.zeros((b1 - b0, self.channels), dtype=np.float32) if buf is None \
                        else buf.copy()
                    if key not in before:
                        for positions, kinds in hits:
                            add_hits(buf, b0, b1, positions, kinds, self._shots)
                    if scale:
                        buf *= gains
                buf.setflags(write=False)
                if room >= buf.nbytes:
                    made[key] = buf
                    room -= buf.nbytes
            yield buf

    def array(self, block_frames: int = BLOCK_FRAMES) -> np.ndarray:
        """The whole signal, ``(frames, channels)`` float32."""
        out = np.empty((self.frames, self.channels), dtype=np.float32)
        at = 0
        for block in self.blocks(block_frames):
            out[at:at + len(block)] = block
            at += len(block)
        return out

    # -- what sounds when ----------------------------------------------------
    def onset_frame(self, part_index: int, event_index: int) -> int:
        """The sample on which event *event_index* of part *part_index* starts."""
        return self._tracks[part_index].position(event_index)

    def event_at(self, frame: int) -> tuple[int, Event] | None:
        """The latest stroke or click started at or before *frame*, as
        ``(part index, event)``; ``None`` before the first."""
        best: tuple[int, int, int] | None = None
        for k, tr in enumerate(self._tracks):
            i = tr.first_at_or_after(frame + 1) - 1
            if i < 0:
                continue
            p = tr.position(i)
            if best is None or p > best[0]:
                best = (p, k, i)
        if best is None:
            return None
        _, k, i = best
        return k, self.parts[k].score.event(i)

    @property
    def duration(self) -> float:
        """Seconds of the render."""
        return self.frames / self.rate


def render_blocks(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = RATE,
                  channels: int = 2, block_frames: int = BLOCK_FRAMES) -> Iterator[np.ndarray]:
    """Render *parts* (and *cues*) block by block; memory stays flat.

    Yields float32 arrays of shape ``(frames, channels)``, *block_frames*
    long except the last. The samples do not depend on *block_frames*. Bad
    arguments raise at the call, not at the first block. See :class:`Mix`.
    """
    return Mix(parts, cues, kit=kit, rate=rate, channels=channels).blocks(block_frames)


def render_array(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = RATE,
                 channels: int = 2, block_frames: int = BLOCK_FRAMES) -> np.ndarray:
    """The whole signal as one ``(frames, channels)`` float32 array (short pieces, tests)."""
    return Mix(parts, cues, kit=kit, rate=rate, channels=channels).array(block_frames)

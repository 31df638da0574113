"""Rendering scores to sound: the block renderer and the audio file writer.

The one renderer, :class:`Mix`, serves files (:func:`write_audio`), arrays
(:func:`render_array`) and live playback (:mod:`guji.play`). It yields the
signal in blocks (:func:`render_blocks`), so memory stays flat however long
the piece: ``--repeat 10000`` never holds the whole signal, and playback
starts as soon as the first block is made.

Onsets
------
Each stroke (and count-in click, and cue) starts on exactly sample
``round(t × rate)``, ``t`` being its exact time from
:meth:`guji.score.Score.time` — computed from the stroke's index, never by
adding up rounded gaps. One hit is the voice's one-shot
(:func:`guji.voices.one_shot`), whose first sample is the onset.

Pan
---
``Part.pan`` ``None`` gives each voice the kit's pan; a number pans the whole
part. The pan law is constant-power, ``left = sin((1 − pan)·π/4)``,
``right = sin((1 + pan)·π/4)``: −1 puts the full signal (gain exactly 1.0)
in the left channel and nothing in the right, +1 the reverse, 0 puts
0.707 in each. A mono render (``channels=1``) ignores pan: every voice has
gain 1.0 — so the left channel of a render panned hard left equals the mono
render of the same part, sample for sample.

Headroom: the exact peak, found from a bounded set of windows
--------------------------------------------------------------
The file's peak is at most :data:`CEILING_DBFS` (−1 dBFS), whatever the tempo
and however the rings overlap. Each output channel gets one fixed gain for
the whole piece: 1 if the channel's peak is already below the ceiling (the
default kit at ordinary tempi), else ``ceiling / peak``. The peak is
**exact**, not a bound, and is known before the first block is made:

Between two consecutive onsets the signal of a channel is a sum of one-shots
fixed by which strokes still ring and how long ago each began. Such a window
is described by a key: its length and the (voice and pan, age) of each
ringing stroke. Because the score is periodic (間若一: one grid, one pattern
repeated), the same keys come back pass after pass. :class:`Mix` walks the
onsets (integers only, no audio), picks the first window of each distinct
key, renders just those stretches with the renderer itself, and takes the
maximum. Every window of the piece has the same samples as the rendered
window with its key, so this is the peak of the whole render, found without
rendering it: a 10-hour piece at an ordinary tempo has a few dozen distinct
windows (about 0.1 s of work), a dense one a few hundred. The gain aims
:data:`MARGIN_DB` below the ceiling, which covers the rounding of the gain
itself and of 16/24-bit samples (and windows of equal keys whose strokes
come from different parts, summed in another order).

The gain of a channel depends only on what sounds in that channel, and it is
the same for any block size: adding a part panned hard right does not change
the left channel, and the output is identical whatever ``block_frames``.
(When a channel must be turned down and the other need not, the balance of
a centre-panned voice shifts by the ratio of the two gains.) OGG Vorbis is
lossy: the decoded peak can differ from the rendered one by a fraction of a
dB, so OGG files are rendered to aim :data:`OGG_EXTRA_HEADROOM_DB` lower.

Determinism
-----------
The noise of the voices is seeded, the mix is summed in one fixed order
(part by part, stroke by stroke, then cues) whatever the block size, and
the file writer removes the two varying things libsndfile would write (the
time stamp of a float WAV's PEAK chunk, the random serial number of an Ogg
stream): the same command gives the same bytes.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from ..errors import UsageError, escape_controls
from ..timing.performance import Cue, Part, Performance, Voice, as_performance
from ..timing.score import Event, Score
from ..cli.terminal import unescaped
from ..files import atomic_path
from .voices import Kit, _check_rate, default_kit, one_shot

#: The loudest a rendered sample may be, in dBFS.
CEILING_DBFS = -1.0
#: The mix gain aims this far below the ceiling (float32 and PCM rounding).
MARGIN_DB = 0.02
#: Extra headroom for OGG Vorbis, whose decoded peaks can overshoot.
OGG_EXTRA_HEADROOM_DB = 1.0
#: Default block length of the renderer, in frames.
BLOCK_FRAMES = 65536


def pan_gains(pan: float) -> tuple[float, float]:
    """Constant-power pan law: ``(left, right)`` gains for *pan* in −1 … +1.

    −1 → ``(1.0, 0.0)`` exactly, +1 → ``(0.0, 1.0)`` exactly, 0 →
    ``(0.7071…, 0.7071…)``.
    """
    pan = float(pan)
    if not -1.0 <= pan <= 1.0:
        raise UsageError(f"pan must be between -1 (left) and 1 (right), not {pan:g}")
    return math.sin((1.0 - pan) * math.pi / 4.0), math.sin((1.0 + pan) * math.pi / 4.0)


@functools.lru_cache(maxsize=16)
def _row_weights(n: int) -> np.ndarray:
    """Fixed odd multipliers of a row hash (wrapping int64 arithmetic), used to
    find repeated windows quickly; a hash clash is detected and handled."""
    return np.random.default_rng(n).integers(1, 2 ** 62, size=n, dtype=np.int64) | 1


def _aim(ceiling_dbfs: float) -> float:
    return 10.0 ** ((ceiling_dbfs - MARGIN_DB) / 20.0)


class _Track:
    """The onsets of one part: sample positions and sound kinds, by index, lazily."""

    def __init__(self, score: Score, rate: int, pass_kinds: np.ndarray, click_kind: int,
                 lengths: Sequence[int]):
        self.score = score
        self.n = len(score)
        self.count_in = score.count_in
        self.per_pass = max(score.per_pass, 1)
        self.start = float(score.start)
        self.interval = float(score.interval)
        self.rate = float(rate)
        self.pass_kinds = pass_kinds
        self.click_kind = click_kind
        used = set(pass_kinds.tolist()) | ({click_kind} if self.count_in else set())
        self.max_length = int(max((lengths[k] for k in used), default=1))

    def position(self, i: int) -> int:
        """Sample of event *i*: ``round(score.time(i) × rate)``."""
        return round(self.score.time(i) * self.rate)

    def positions(self, i0: int, i1: int) -> np.ndarray:
        """Samples of events *i0* … *i1*−1 (the same arithmetic as :meth:`position`)."""
        idx = np.arange(i0, i1, dtype=np.float64)
        return np.rint((self.start + idx * self.interval) * self.rate).astype(np.int64)

    def kinds(self, i0: int, i1: int) -> np.ndarray:
        idx = np.arange(i0, i1, dtype=np.int64)
        if len(self.pass_kinds) == 0:
            return np.full(len(idx), self.click_kind, dtype=np.int64)
        strokes = self.pass_kinds[(idx - self.count_in) % self.per_pass]
        return np.where(idx < self.count_in, self.click_kind, strokes)

    def first_at_or_after(self, frame: int) -> int:
        """The first event index whose sample is ≥ *frame* (``n`` if none)."""
        n = self.n
        if n == 0:
            return 0
        est = math.ceil((frame / self.rate - self.start) / self.interval)
        i = min(max(est, 0), n)
        while i > 0 and self.position(i - 1) >= frame:
            i -= 1
        while i < n and self.position(i) < frame:
            i += 1
        return i


class Mix:
    """A performance ready to render: parts and cues, a kit, a rate, channels.

    Making a :class:`Mix` computes everything fixed about the output — the
    one-shot of each (voice, pan), the total length, the exact peak and gain
    of each channel (see the module docstring) — but no audio beyond the
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
        The voices (default :func:`guji.voices.default_kit`).
    rate:
        Samples a second.
    channels:
        1 (mono: pan ignored) or 2 (stereo).
    ceiling_dbfs:
        The highest peak allowed (default :data:`CEILING_DBFS`).

    Attributes
    ----------
    frames:
        Length of the render: until the last ring has ended, and at least
        until the end of the last part's grid.
    peaks:
        The exact peak of each channel before the gain.
    gains:
        The gain applied to each channel (1.0 unless the peak would pass the
        ceiling).
    """

    def __init__(self, performance, cues: Iterable[Cue] = (), *, kit: Kit | None = None,
                 rate: int = 48000, channels: int = 2, ceiling_dbfs: float = CEILING_DBFS):
        self.rate = _check_rate(rate)
        if isinstance(channels, bool) or channels not in (1, 2):
            raise UsageError(f"channels must be 1 (mono) or 2 (stereo), not {channels!r}")
        self.channels = int(channels)
        self.performance: Performance = as_performance(performance, cues)
        self.parts: tuple[Part, ...] = self.performance.parts
        self.kit = kit if kit is not None else default_kit(self.rate)
        self.cues: tuple[Cue, ...] = self.performance.cues
        self._kind_ids: dict[tuple[Voice, tuple[float, ...]], int] = {}
        self._shots: list[np.ndarray] = []
        self._voices: list[Voice] = []
        for part in self.parts:
            part.score.require_resolution(self.rate, "audio sample")
        tracks = []
        for part in self.parts:
            pass_kinds = np.array([self._kind(Voice.of(s.drum), part.pan)
                                   for s in part.score.played], dtype=np.int64)
            click = self._kind(Voice.CLICK, part.pan)
            tracks.append((part.score, pass_kinds, click))
        cue_pos, cue_kind = [], []
        for cue in self.cues:
            cue_pos.append(round(cue.time * self.rate))
            cue_kind.append(self._kind(Voice.CUE, cue.pan))
        self._lengths = np.array([len(s) for s in self._shots], dtype=np.int64)
        self._tracks = [_Track(score, self.rate, pk, ck, self._lengths) for score, pk, ck in tracks]
        order = np.argsort(np.array(cue_pos, dtype=np.int64), kind="stable")
        self._cue_pos = np.array(cue_pos, dtype=np.int64)[order]
        self._cue_kind = np.array(cue_kind, dtype=np.int64)[order]
        self._max_length = int(self._lengths.max())
        self.frames = self._total_frames()
        self.ceiling_dbfs = float(ceiling_dbfs)
        self.peaks: tuple[float, ...] = self._exact_peaks()
        aim = _aim(self.ceiling_dbfs)
        self.gains: tuple[float, ...] = tuple(1.0 if p <= aim else aim / p for p in self.peaks)

    # -- set-up ------------------------------------------------------------
    def _kind(self, voice: Voice, pan: float | None) -> int:
        """Id of a sound kind: one voice at one pan (its one-shot, scaled per channel)."""
        gains: tuple[float, ...] = pan_gains(self.kit[voice].pan if pan is None else pan)
        if self.channels == 1:
            gains = (1.0,)
        key = (voice, gains)
        if key not in self._kind_ids:
            shot = one_shot(self.kit, voice, self.rate)
            scaled = shot[:, None] * np.array(gains, dtype=np.float32)[None, :]
            scaled.setflags(write=False)
            self._kind_ids[key] = len(self._shots)
            self._shots.append(scaled)
            self._voices.append(voice)
        return self._kind_ids[key]

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
        for tr in self._tracks:
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
        best = self.frames
        for tr in self._tracks:
            i = tr.first_at_or_after(frame)
            if i < tr.n:
                best = min(best, tr.position(i))
        a = int(np.searchsorted(self._cue_pos, frame, side="left"))
        if a < len(self._cue_pos):
            best = min(best, int(self._cue_pos[a]))
        return min(best, self.frames)

    def _exact_peaks(self) -> tuple[float, ...]:
        """The exact peak of each channel, from the distinct windows between onsets."""
        lengths32 = self._lengths.astype(np.int32)
        peaks = np.zeros(self.channels)
        seen: set[bytes] = set()
        windows: list[tuple[int, int]] = []
        L = self._max_length
        # chunk length: about 1 M key cells (~25 MB of work arrays) a chunk, however dense
        density = sum(1.0 / (tr.interval * self.rate) for tr in self._tracks)
        width = density * L + len(self._tracks) + 2
        chunk = int(min(1 << 23, max(1 << 12, (1 << 20) / max(density * width, 1e-12))))
        c1 = 0
        while c1 < self.frames:
            # chunks end on an onset, so every window (but the first) starts on one
            c0, c1 = c1, self._next_onset(c1 + chunk)
            pos, kind = self._onsets(c0 - L + 1, c1)
            if len(pos) == 0:
                continue
            kind32 = kind.astype(np.int32)
            starts = np.unique(np.concatenate(([c0], pos[pos >= c0])))
            ends = np.append(starts[1:], c1)
            hi = np.searchsorted(pos, starts, side="right")
            lo = np.searchsorted(pos, starts - L, side="right")
            W = int((hi - lo).max())
            if W == 0:
                continue
            idx = hi[:, None] - 1 - np.arange(W)[None, :]
            valid = idx >= lo[:, None]
            np.maximum(idx, 0, out=idx)
            age = (starts[:, None] - pos[idx]).astype(np.int32)
            kk = kind32[idx]
            left = lengths32[kk] - age
            active = valid & (left > 0)
            left[~active] = 0
            span = np.minimum(ends - starts, left.max(axis=1))
            # a row lists the strokes by (age, kind descending), the silent ones
            # as -1: without the -1s it is the window's canonical key
            kk[~active] = -1
            age[~active] = -1
            sel = np.nonzero(span > 0)[0]
            if len(sel) == 0:
                continue
            rows = np.concatenate([kk[sel], age[sel], span[sel, None].astype(np.int32)], axis=1)
            # first occurrence of each distinct row, via a hash checked for collisions
            h = (rows.astype(np.int64) * _row_weights(rows.shape[1])).sum(axis=1)
            _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
            clash = np.nonzero(np.any(rows != rows[first[inverse.ravel()]], axis=1))[0]
            for r in sorted(set(first.tolist()) | set(clash.tolist())):
                i = int(sel[r])
                used = active[i]
                key = (kk[i][used].tobytes() + age[i][used].tobytes()
                       + int(span[i]).to_bytes(4, "little"))
                if key not in seen:
                    seen.add(key)
                    windows.append((int(starts[i]), int(starts[i] + span[i])))
        # render the windows (merged into stretches) with the renderer itself
        windows.sort()
        stretches: list[list[int]] = []
        for a, b in windows:
            if stretches and a <= stretches[-1][1] + 4096:
                stretches[-1][1] = max(stretches[-1][1], b)
            else:
                stretches.append([a, b])
        for a, b in stretches:
            for block in self._blocks(BLOCK_FRAMES, a, b, gains=None):
                np.maximum(peaks, np.abs(block).max(axis=0), out=peaks)
        return tuple(float(p) for p in peaks)

    # -- rendering -----------------------------------------------------------
    def blocks(self, block_frames: int = BLOCK_FRAMES, start: int = 0,
               stop: int | None = None) -> Iterator[np.ndarray]:
        """Yield the signal from frame *start* to *stop* in blocks.

        Each block is a new float32 array of shape ``(frames, channels)``,
        *block_frames* long (the last one shorter). The samples do not
        depend on *block_frames*.
        """
        if isinstance(block_frames, bool) or not isinstance(block_frames, int) or block_frames < 1:
            raise ValueError(f"block_frames must be a positive whole number, not {block_frames!r}")
        stop = self.frames if stop is None else min(stop, self.frames)
        return self._blocks(block_frames, max(0, start), stop, self.gains)

    def _blocks(self, block_frames: int, start: int, stop: int,
                gains: Sequence[float] | None) -> Iterator[np.ndarray]:
        """The blocks of [start, stop), scaled by *gains* (``None``: not scaled)."""
        scale = gains is not None and any(g != 1.0 for g in gains)
        gains = np.array(gains if scale else [1.0] * self.channels, dtype=np.float32)
        shots = self._shots
        for b0 in range(start, stop, block_frames):
            b1 = min(b0 + block_frames, stop)
            buf = np.zeros((b1 - b0, self.channels), dtype=np.float32)
            for tr in self._tracks:
                i0 = tr.first_at_or_after(b0 - tr.max_length + 1)
                i1 = tr.first_at_or_after(b1)
                if i1 > i0:
                    self._add(buf, b0, b1, tr.positions(i0, i1), tr.kinds(i0, i1), shots)
            if len(self._cue_pos):
                a = int(np.searchsorted(self._cue_pos, b0 - self._max_length + 1, side="left"))
                b = int(np.searchsorted(self._cue_pos, b1, side="left"))
                if b > a:
                    self._add(buf, b0, b1, self._cue_pos[a:b], self._cue_kind[a:b], shots)
            if scale:
                buf *= gains
            yield buf

    @staticmethod
    def _add(buf: np.ndarray, b0: int, b1: int, positions: np.ndarray, kinds: np.ndarray,
             shots: list[np.ndarray]) -> None:
        for p, k in zip(positions.tolist(), kinds.tolist()):
            shot = shots[k]
            a = p if p > b0 else b0
            e = p + len(shot)
            if e > b1:
                e = b1
            if e > a:
                buf[a - b0:e - b0] += shot[a - p:e - p]

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


def render_blocks(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = 48000,
                  channels: int = 2, block_frames: int = BLOCK_FRAMES) -> Iterator[np.ndarray]:
    """Render *parts* (and *cues*) block by block; memory stays flat.

    Yields float32 arrays of shape ``(frames, channels)``, *block_frames*
    long except the last. The samples do not depend on *block_frames*. Bad
    arguments raise at the call, not at the first block. See :class:`Mix`.
    """
    return Mix(parts, cues, kit=kit, rate=rate, channels=channels).blocks(block_frames)


def render_array(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = 48000,
                 channels: int = 2, block_frames: int = BLOCK_FRAMES) -> np.ndarray:
    """The whole signal as one ``(frames, channels)`` float32 array (short pieces, tests)."""
    return Mix(parts, cues, kit=kit, rate=rate, channels=channels).array(block_frames)


# -- files -----------------------------------------------------------------------

#: Container formats, by the name ``--format`` takes.
FORMATS = {"wav": "WAV", "flac": "FLAC", "ogg": "OGG"}
#: File extensions that decide the format when none is given.
EXTENSIONS = {".wav": "WAV", ".wave": "WAV", ".flac": "FLAC", ".ogg": "OGG", ".oga": "OGG"}
#: Sample formats each container accepts (the first is the default).
SUBTYPES = {"WAV": ("PCM_16", "PCM_24", "FLOAT"), "FLAC": ("PCM_16", "PCM_24"), "OGG": ("VORBIS",)}
#: Short names of sample formats (``--bits``).
SUBTYPE_NAMES = {"16": "PCM_16", "24": "PCM_24", "float": "FLOAT", "pcm_16": "PCM_16",
                 "pcm_24": "PCM_24", "vorbis": "VORBIS"}
#: Serial number written in every Ogg page (libsndfile picks a random one).
OGG_SERIAL = 0x67756A69   # "guji"


def audio_format(path: str | os.PathLike, format: str | None = None,
                 subtype: str | None = None) -> tuple[str, str]:
    """The ``(format, subtype)`` to write *path* with, as libsndfile names them.

    *format* (``wav``, ``flac``, ``ogg``) defaults to the extension of
    *path*; *subtype* (``16``, ``24``, ``float`` or a libsndfile name)
    defaults to 16-bit (WAV, FLAC) or Vorbis (OGG). Raise
    :class:`UsageError` for what cannot be written.
    """
    ext = Path(path).suffix.lower()
    if format is None:
        if ext not in EXTENSIONS:
            raise UsageError(f"{path}: cannot tell the audio format from the extension "
                             f"{ext or '(none)'!s}: use .wav, .flac or .ogg, or --format")
        fmt = EXTENSIONS[ext]
    else:
        key = str(format).lower()
        if key not in FORMATS:
            raise UsageError(f"unknown audio format {format!r}: use wav, flac or ogg")
        fmt = FORMATS[key]
        if ext in EXTENSIONS and EXTENSIONS[ext] != fmt:
            raise UsageError(f"{path}: the extension says {EXTENSIONS[ext]} but --format says {fmt}")
    if subtype is None:
        sub = SUBTYPES[fmt][0]
    else:
        sub = SUBTYPE_NAMES.get(str(subtype).lower(), str(subtype).upper())
        if sub not in SUBTYPES[fmt]:
            allowed = ", ".join({"PCM_16": "16", "PCM_24": "24", "FLOAT": "float",
                                 "VORBIS": "vorbis"}[s] for s in SUBTYPES[fmt])
            raise UsageError(f"{fmt} cannot hold {subtype} samples (it takes: {allowed})")
    return fmt, sub


def _encode(block: np.ndarray, subtype: str) -> np.ndarray:
    """Samples as libsndfile will store them unchanged (fast, exact PCM rounding)."""
    if subtype == "PCM_16":
        return np.rint(block * 32767.0).astype(np.int16)
    if subtype == "PCM_24":   # libsndfile keeps the top 24 bits of int32 data
        return np.rint(block.astype(np.float64) * 8388607.0).astype(np.int32) << 8
    return block


def write_audio(path: str | os.PathLike, parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None,
                rate: int = 48000, channels: int = 2, format: str | None = None,
                subtype: str | None = None,
                progress: Callable[[int, int], None] | None = None,
                block_frames: int = BLOCK_FRAMES) -> Path:
    """Render *parts* (and *cues*) into the audio file *path*; return its path.

    Parameters
    ----------
    path:
        Where to write. The file appears only when complete: it is written
        under a temporary name beside it and renamed; on any error, Ctrl-C
        included, nothing is left behind and an existing file is untouched.
    parts, cues, kit, rate, channels:
        As for :class:`Mix`.
    format:
        ``wav``, ``flac`` or ``ogg``; default from the extension.
    subtype:
        ``16``, ``24`` or ``float`` (WAV), ``16`` or ``24`` (FLAC); default 16.
    progress:
        Called as ``progress(frames_done, frames_total)`` after each block.
    block_frames:
        Frames rendered at a time (memory use, not output, depends on it).
    """
    import soundfile as sf

    fmt, sub = audio_format(path, format, subtype)
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{target}: is a directory")
    if not (target.parent if str(target.parent) else Path(".")).is_dir():
        raise UsageError(f"{target}: no such directory {target.parent}")
    ceiling = CEILING_DBFS - (OGG_EXTRA_HEADROOM_DB if fmt == "OGG" else 0.0)
    mix = Mix(parts, cues, kit=kit, rate=rate, channels=channels, ceiling_dbfs=ceiling)
    try:
        with atomic_path(target) as tmp:
            with sf.SoundFile(tmp, "w", mix.rate, mix.channels, sub, format=fmt) as f:
                if fmt == "WAV" and sub == "FLOAT":
                    _no_peak_chunk(f)
                done = 0
                for block in mix.blocks(block_frames):
                    f.write(_encode(block, sub))
                    done += len(block)
                    if progress is not None:
                        progress(done, mix.frames)
            if fmt == "OGG":
                fix_ogg_serial(tmp)
    except (OSError, sf.LibsndfileError) as e:
        reason = getattr(e, "strerror", None) or str(e).splitlines()[0]
        raise UsageError(f"{target}: cannot write: {reason}") from None
    return target


def _no_peak_chunk(f) -> None:
    """Stop libsndfile writing a PEAK chunk (it holds the time of writing)."""
    import soundfile as sf
    SFC_SET_ADD_PEAK_CHUNK = 0x1050
    sf._snd.sf_command(f._file, SFC_SET_ADD_PEAK_CHUNK, sf._ffi.NULL, 0)


_REVERSE_BITS = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def ogg_crc(page: bytes) -> int:
    """The CRC of an Ogg page (CRC-32, polynomial 0x04C11DB7, not reflected,
    initial value 0), computed with :func:`zlib.crc32` on bit-reversed bytes."""
    raw = zlib.crc32(page.translate(_REVERSE_BITS), 0xFFFFFFFF) ^ 0xFFFFFFFF
    return int(f"{raw:032b}"[::-1], 2)


def fix_ogg_serial(path: str | os.PathLike, serial: int = OGG_SERIAL) -> int:
    """Give every page of the Ogg file *path* the stream serial number *serial*
    (recomputing each page's CRC); return the number of pages.

    libsndfile gives each Ogg stream a serial number drawn from the clock, so
    two renders of one command would differ in those bytes only.
    """
    pages = 0
    with open(path, "r+b") as f:
        at = 0
        while True:
            f.seek(at)
            header = f.read(27)
            if len(header) < 27:
                break
            if header[:4] != b"OggS":
                raise ValueError(f"{path}: not an Ogg page at byte {at}")
            table = f.read(header[26])
            body = f.read(sum(table))
            page = bytearray(header + table + body)
            page[14:18] = serial.to_bytes(4, "little")
            page[22:26] = b"\0\0\0\0"
            page[22:26] = ogg_crc(bytes(page)).to_bytes(4, "little")
            f.seek(at)
            f.write(page[:27])
            at += len(page)
            pages += 1
    return pages


# -- progress ---------------------------------------------------------------------

class ProgressBar:
    """A progress bar on a terminal, for :func:`write_audio`'s *progress*.

    Nothing is drawn unless *stream* is a terminal, and nothing before the
    work has taken *delay* seconds (short renders stay quiet). :meth:`close`
    ends the line if a bar was drawn.

    Parameters
    ----------
    label:
        Text before the bar.
    stream:
        Where to draw (default ``sys.stderr``).
    delay:
        Seconds of work before the bar appears.
    clock:
        A monotonic clock (tests pass their own).
    rate:
        Frames a second, to show progress in seconds of audio.
    """

    def __init__(self, label: str = "rendering", stream=None, delay: float = 0.5,
                 clock: Callable[[], float] = time.monotonic, rate: int | None = None,
                 width: int = 30):
        self.label = escape_controls(label)
        self.stream = unescaped(stream if stream is not None else sys.stderr)
        self.delay = delay
        self.clock = clock
        self.rate = rate
        self.width = width
        self.started = clock()
        self.shown = False
        self._last_draw = -1.0
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.enabled = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.shown and done < total and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        self.shown = True
        frac = min(1.0, done / total) if total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        extra = ""
        if self.rate:
            extra = f" {_clock(done / self.rate)}/{_clock(total / self.rate)}"
        self.stream.write(f"\r{self.label} [{bar}] {frac * 100:3.0f}%{extra}")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"

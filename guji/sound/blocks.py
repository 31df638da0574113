"""Blocks of a render: adding hits into one, its key, and the peak of a piece's distinct blocks.

On the grid a long piece is a few distinct blocks (間若一: one grid and one
pattern; strokes that vary, :mod:`guji.sound.strokes`, recur after a few
passes): two blocks whose onsets stand in the same places relative to the
block, with the same sounds, are the same samples (:func:`block_key`).
:func:`block_peaks` walks every block of a piece, makes each distinct one
once and takes its peak: the exact peak of the whole, and the blocks it made,
which the render then gives again instead of making them twice.
"""

from __future__ import annotations

import numpy as np

from .onsets import hits_by_block

#: Bytes of distinct blocks a render keeps to give again (see :meth:`guji.sound.mixer.Mix.blocks`).
BLOCK_MEMORY = 32 * 2**20


def block_key(b0: int, b1: int, hits) -> bytes:
    """What makes block [*b0*, *b1*) what it is: each source's onsets relative
    to *b0* and their sounds, and the block's length."""
    return b"".join(len(p).to_bytes(8, "little") + (p - b0).tobytes() + k.tobytes()
                    for p, k in hits) + (b1 - b0).to_bytes(8, "little")


def add_hits(buf: np.ndarray, b0: int, b1: int, positions: np.ndarray, kinds: np.ndarray,
             shots: list[np.ndarray]) -> None:
    """Add the one-shots *kinds* starting at *positions* into *buf*, frames [*b0*, *b1*)."""
    for p, k in zip(positions.tolist(), kinds.tolist()):
        shot = shots[k]
        a = p if p > b0 else b0
        e = p + len(shot)
        if e > b1:
            e = b1
        if e > a:
            buf[a - b0:e - b0] += shot[a - p:e - p]


def channel_peaks(buf: np.ndarray) -> np.ndarray:
    """``np.abs(buf).max(axis=0)`` of a ``(frames, channels)`` block, ten times
    quicker (numpy reduces across a short axis slowly: each channel is taken
    as one strided run, its maximum and minimum)."""
    t = np.ascontiguousarray(buf.T)
    return np.maximum(t.max(axis=1), -t.min(axis=1))


def block_peaks(mix, step: int, memory: int) -> tuple[tuple[float, ...], dict[bytes, np.ndarray]]:
    """The exact peak of each channel of *mix* (a :class:`~guji.sound.mixer.Mix`),
    from its distinct blocks of *step* frames, and those blocks (unscaled,
    read-only; at most *memory* bytes of them kept)."""
    peaks = np.zeros(mix.channels)
    made: dict[bytes, np.ndarray] = {}
    room = memory
    for b0, b1, hits in hits_by_block(mix._tracks, mix._cue_pos, mix._cue_kind,
                                      mix._max_length, 0, mix.dry_frames, step):
        key = block_key(b0, b1, hits)
        if key in made:
            continue
        buf = np.zeros((b1 - b0, mix.channels), dtype=np.float32)
        for positions, kinds in hits:
            add_hits(buf, b0, b1, positions, kinds, mix._shots)
        np.maximum(peaks, channel_peaks(buf), out=peaks)
        buf.setflags(write=False)
        if room >= buf.nbytes:
            made[key] = buf
            room -= buf.nbytes
    return tuple(float(p) for p in peaks), made

"""WAV and RF64 files, written by guji: the header first, then the samples.

libsndfile writes a WAV's header last, seeking back to the start: it cannot
write one to a pipe, and past 4 GiB it writes a broken header (a RIFF size
of 0xFFFFFFFF that readers take for the end of the file). guji knows how
many frames a render has before it starts (:attr:`guji.sound.mixer.Mix.frames`),
so it writes the header once, at the start, and the samples after it, in
order: the same bytes to a file, a device or a pipe.

Layout
------
Up to 4 GiB, a WAV exactly as libsndfile writes one (the same bytes)::

    RIFF <size> WAVE
    fmt  (16 bytes) format 1 (PCM) or 3 (IEEE float), channels, rate,
                    bytes a second, bytes a frame, bits a sample
    fact (4 bytes)  frames                          float only
    PAD  (8 + 8 a   zeros: where libsndfile would   float only
         channel)   put its PEAK chunk
    data <size>     the samples, little-endian; 24-bit as three bytes;
                    a zero byte after them if their size is odd (RIFF's
                    chunks are padded to an even size)

Beyond, RF64 (EBU Tech 3306, read by libsndfile, FFmpeg, SoX, Audacity and
most DAWs; not by Python's :mod:`wave`): ``RF64`` in place of ``RIFF``, a
``ds64`` chunk first holding the 64-bit sizes (file, data, frames), and
0xFFFFFFFF in each 32-bit size field it replaces. :func:`is_rf64` says which.
"""

from __future__ import annotations

import io
import os
import struct
from dataclasses import dataclass

import numpy as np

#: The largest size a RIFF header can state (its fields are 32 bits).
RIFF_MAX = 0xFFFFFFFF

#: Blocks handed to one ``os.writev`` call at most (POSIX's IOV_MAX is at least 16; Linux's 1,024).
IOV_MOST = 16

#: Bytes a sample takes, by sample format.
SAMPLE_BYTES = {"PCM_16": 2, "PCM_24": 3, "FLOAT": 4}
_FORMAT_TAG = {"PCM_16": 1, "PCM_24": 1, "FLOAT": 3}


def _chunk(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("<I", len(body)) + body


def _fmt_chunks(channels: int, rate: int, subtype: str, fact_frames: int) -> bytes:
    width = SAMPLE_BYTES[subtype]
    fmt = struct.pack("<HHIIHH", _FORMAT_TAG[subtype], channels, rate, rate * channels * width,
                      channels * width, width * 8)
    out = _chunk(b"fmt ", fmt)
    if subtype == "FLOAT":   # PAD: the room of libsndfile's PEAK chunk (8 bytes a channel more)
        out += (_chunk(b"fact", struct.pack("<I", fact_frames))
                + _chunk(b"PAD ", bytes(8 + 8 * channels)))
    return out


def data_bytes(frames: int, channels: int, subtype: str) -> int:
    """Bytes of the samples of *frames* frames."""
    return frames * channels * SAMPLE_BYTES[subtype]


def is_rf64(frames: int, channels: int, subtype: str) -> bool:
    """Whether *frames* frames are too many for a WAV (RIFF) header: the file
    is then written as RF64."""
    head = 12 + len(_fmt_chunks(channels, 48000, subtype, 0)) + 8
    size = data_bytes(frames, channels, subtype)
    return head + size + size % 2 - 8 > RIFF_MAX


def header(frames: int, channels: int, rate: int, subtype: str) -> bytes:
    """The header of a WAV (or, past 4 GiB, RF64) file of *frames* frames;
    the samples follow it."""
    size = data_bytes(frames, channels, subtype)
    if not is_rf64(frames, channels, subtype):
        body = b"WAVE" + _fmt_chunks(channels, rate, subtype, frames)
        return (b"RIFF" + struct.pack("<I", len(body) + 8 + size + size % 2) + body
                + b"data" + struct.pack("<I", size))
    fmt = _fmt_chunks(channels, rate, subtype, min(frames, RIFF_MAX))
    ds64_length = 8 + 28
    riff_size = 4 + ds64_length + len(fmt) + 8 + size + size % 2
    ds64 = _chunk(b"ds64", struct.pack("<QQQI", riff_size, size, frames, 0))
    assert len(ds64) == ds64_length
    return (b"RF64" + struct.pack("<I", RIFF_MAX) + b"WAVE" + ds64 + fmt
            + b"data" + struct.pack("<I", RIFF_MAX))


def sample_bytes(encoded: np.ndarray, subtype: str) -> memoryview | bytes:
    """The bytes of a block of *encoded* samples (int16 for PCM_16, int32
    holding 24-bit values for PCM_24, float32 for FLOAT), little-endian."""
    if subtype == "PCM_24":
        wide = np.ascontiguousarray(encoded, dtype="<i4").view(np.uint8).reshape(-1, 4)
        return wide[:, :3].tobytes()
    kind = "<i2" if subtype == "PCM_16" else "<f4"
    return memoryview(np.ascontiguousarray(encoded, dtype=kind)).cast("B")


def _descriptor(file) -> int | None:
    """The descriptor of *file* when its blocks can go by ``os.writev`` (not on
    Windows, nor for a file object without one)."""
    if not hasattr(os, "writev"):
        return None
    try:
        return file.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return None


class WaveWriter:
    """The samples of a WAV file, after its :func:`header`, to a binary file.

    :meth:`write` takes encoded blocks (:func:`sample_bytes`); :meth:`close`
    checks that exactly the frames the header states were written and adds
    the pad byte of an odd-sized data chunk.
    """

    def __init__(self, file, frames: int, channels: int, rate: int, subtype: str):
        self.file = file
        self.frames = frames
        self.subtype = subtype
        self.pad = data_bytes(frames, channels, subtype) % 2
        self.written = 0
        file.write(header(frames, channels, rate, subtype))

    def write(self, encoded: np.ndarray) -> None:
        self.file.write(sample_bytes(encoded, self.subtype))
        self.written += len(encoded)

    def write_all(self, blocks: list[np.ndarray]) -> None:
        """:meth:`write` each of *blocks*, in order: by one ``os.writev`` call for
        as many as it takes (no copy into one buffer) when the file has a
        descriptor."""
        fd = _descriptor(self.file)
        if fd is None:
            for block in blocks:
                self.write(block)
            return
        self.file.flush()                       # the header (and anything before) first
        views = [memoryview(sample_bytes(b, self.subtype)).cast("B") for b in blocks]
        while views:
            done = os.writev(fd, views[:IOV_MOST])
            while views and done >= len(views[0]):
                done -= len(views[0])
                views.pop(0)
            if views and done:                  # a short write (a pipe): the rest of it next
                views[0] = views[0][done:]
        self.written += sum(len(b) for b in blocks)

    def close(self) -> None:
        if self.written != self.frames:
            raise RuntimeError(f"the header says {self.frames} frames, "
                               f"{self.written} were written")
        if self.pad:
            self.file.write(b"\0")
        self.file.flush()


@dataclass(frozen=True)
class WaveInfo:
    """What a WAV or RF64 file's header says: as :func:`soundfile.info` names it."""

    frames: int
    samplerate: int
    channels: int
    subtype: str            # PCM_16, PCM_24 or FLOAT
    format: str             # WAV or RF64


def read_info(path) -> WaveInfo | None:
    """The :class:`WaveInfo` of the WAV (or RF64) file at *path*, read from
    its header without libsndfile; ``None`` for any other file, or a WAV of
    another kind (compressed, extensible, 8- or 32-bit integer)."""
    with open(path, "rb") as f:
        head = f.read(12)
        if len(head) < 12 or head[:4] not in (b"RIFF", b"RF64") or head[8:] != b"WAVE":
            return None
        fmt = data_size = None
        while True:
            chunk = f.read(8)
            if len(chunk) < 8:
                return None
            kind, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if kind == b"data":
                break
            body = f.read(size + size % 2)
            if kind == b"fmt " and size >= 16:
                fmt = struct.unpack("<HHIIHH", body[:16])
            elif kind == b"ds64" and size >= 16:
                data_size = struct.unpack("<Q", body[8:16])[0]
    if fmt is None:
        return None
    tag, channels, rate, _, frame_bytes, bits = fmt
    subtype = {(1, 16): "PCM_16", (1, 24): "PCM_24", (3, 32): "FLOAT"}.get((tag, bits))
    if subtype is None or not channels or frame_bytes != channels * bits // 8:
        return None
    if head[:4] == b"RIFF" or data_size is None:
        data_size = size
    return WaveInfo(data_size // frame_bytes, rate, channels, subtype,
                    "RF64" if head[:4] == b"RF64" else "WAV")

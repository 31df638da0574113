"""Audio files: the formats guji writes, and writing a render to one.

:func:`write_audio` renders a performance block by block (:class:`~guji.sound.mixer.Mix`)
into a WAV (16-bit, 24-bit or float), FLAC (16 or 24-bit) or OGG Vorbis file,
chosen by :func:`audio_format` from ``--format``/``--bits`` or the file's
extension. The file appears only when complete (written under a temporary
name and renamed).

Determinism
-----------
The same command gives the same bytes. libsndfile would write two varying
things, and both are removed: the time stamp of a float WAV's PEAK chunk
(the chunk is not written) and the random serial number of an Ogg stream
(every page is given :data:`OGG_SERIAL`, its CRC recomputed:
:func:`fix_ogg_serial`). OGG Vorbis is lossy: the decoded peak can differ
from the rendered one by a fraction of a dB, so OGG files are rendered to aim
:data:`OGG_EXTRA_HEADROOM_DB` lower (see :mod:`guji.sound.headroom`).
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ..errors import UsageError
from ..files import check_target, writing
from ..timing.performance import Cue
from .headroom import CEILING_DBFS
from .kit import Kit
from .mixer import BLOCK_FRAMES, Mix

#: Extra headroom for OGG Vorbis, whose decoded peaks can overshoot.
OGG_EXTRA_HEADROOM_DB = 1.0
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


class _BlockWriter:
    """Writes a render's blocks to an open sound file, encoded as libsndfile
    will store them unchanged (exact PCM rounding).

    Three things make a long render as quick as writing silence: the blocks
    are gathered into batches of about :data:`WRITE_FRAMES` before each write
    (one call a batch, not a block); a block the renderer gives again (the
    same read-only array: see :meth:`guji.sound.mixer.Mix.blocks`) is encoded
    once; and the work buffers are kept from batch to batch — fresh
    half-megabyte arrays every block cost more in page faults than the
    arithmetic itself.
    """

    def __init__(self, f, subtype: str, channels: int, block_frames: int,
                 batch_frames: int = 0):
        self.f = f
        self.subtype = subtype
        pcm = {"PCM_16": (np.int16, np.float32, 32767.0),
               "PCM_24": (np.int32, np.float64, 8388607.0)}.get(subtype)
        self._kind, self._work_type, self._scale = pcm or (np.float32, np.float32, None)
        frames = max(block_frames, batch_frames)
        self._batch = np.empty((frames, channels), self._kind)
        self._work = np.empty((block_frames, channels), self._work_type)
        self._fill = 0
        self._memo: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _encode(self, block: np.ndarray) -> np.ndarray:
        if self._scale is None:
            return block
        work = self._work[:len(block)]
        np.copyto(work, block)
        # 16-bit is scaled in float32 (ample for 16 bits), 24-bit in float64
        np.multiply(work, self._work_type(self._scale), out=work)
        np.rint(work, out=work)
        out = np.empty(work.shape, self._kind)
        np.copyto(out, work, casting="unsafe")
        if self.subtype == "PCM_24":   # libsndfile keeps the top 24 bits of int32 data
            np.left_shift(out, 8, out=out)
        return out

    def write(self, block: np.ndarray) -> None:
        """Add *block* (read-only blocks are remembered and encoded once)."""
        memo = self._memo.get(id(block))
        if memo is not None and memo[0] is block:
            encoded = memo[1]
        else:
            encoded = self._encode(block)
            if not block.flags.writeable:
                self._memo[id(block)] = (block, encoded)
        n = len(encoded)
        if self._fill + n > len(self._batch):
            self.flush()
        if n > len(self._batch):
            self.f.write(encoded)
            return
        self._batch[self._fill:self._fill + n] = encoded
        self._fill += n

    def flush(self) -> None:
        if self._fill:
            self.f.write(self._batch[:self._fill])
            self._fill = 0


#: Frames gathered before each write to the file.
WRITE_FRAMES = 4 * 65536


def write_audio(path: str | os.PathLike, parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None,
                rate: int = 48000, channels: int = 2, format: str | None = None,
                subtype: str | None = None,
                progress: Callable[[int, int], None] | None = None,
                block_frames: int | None = None) -> Path:
    """Render *parts* (and *cues*) into the audio file *path*; return its path.

    Parameters
    ----------
    path:
        Where to write. The file appears only when complete: it is written
        under a temporary name beside it and renamed; on any error, Ctrl-C
        included, nothing is left behind and an existing file is untouched.
    parts, cues, kit, rate, channels:
        As for :class:`~guji.sound.mixer.Mix`.
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
    target = check_target(path)
    ceiling = CEILING_DBFS - (OGG_EXTRA_HEADROOM_DB if fmt == "OGG" else 0.0)
    mix = Mix(parts, cues, kit=kit, rate=rate, channels=channels, ceiling_dbfs=ceiling)
    with writing(target, errors=(sf.LibsndfileError,)) as tmp:
        with sf.SoundFile(tmp, "w", mix.rate, mix.channels, sub, format=fmt) as f:
            if fmt == "WAV" and sub == "FLOAT":
                _no_peak_chunk(f)
            done = 0
            if fmt == "OGG":    # Vorbis packets follow the writes: keep one size, one call a block
                size, batch = block_frames or BLOCK_FRAMES, 0
            else:
                size, batch = block_frames or mix.step_frames() or BLOCK_FRAMES, WRITE_FRAMES
            out = _BlockWriter(f, sub, mix.channels, size, batch)
            for block in mix.blocks(size):
                out.write(block)
                done += len(block)
                if progress is not None:
                    progress(done, mix.frames)
            out.flush()
        if fmt == "OGG":
            fix_ogg_serial(tmp)
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

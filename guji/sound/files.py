"""Audio files: the formats guji writes, and writing a render to one.

:func:`write_audio` renders a performance block by block (:class:`~guji.sound.mixer.Mix`)
into a WAV (16-bit, 24-bit or float), FLAC (16 or 24-bit) or OGG Vorbis file,
chosen by :func:`audio_format` from ``--format``/``--bits`` or the file's
extension. A file appears only when complete (written under a temporary
name and renamed); a device or a pipe is written directly, in order
(:func:`guji.files.writing`).

Who writes what
---------------
WAV is written by guji (:mod:`guji.sound.riff`): the header first, from the
render's known length, then the samples, so a WAV can go to a pipe, and one
over 4 GiB is written as RF64 instead of with a broken header. FLAC and OGG
are libsndfile's, written through :class:`guji.sound.vio.SinkIO`.

Determinism
-----------
The same command gives the same bytes. libsndfile would write two varying
things, and both are removed: the time stamp of a float WAV's PEAK chunk
(guji's own WAV has none) and the random serial number of an Ogg stream
(every page is given :data:`OGG_SERIAL`, its CRC recomputed, as it is
written: :mod:`guji.sound.vio`). OGG Vorbis is lossy: the decoded peak can
differ from the rendered one by a fraction of a dB, so OGG files are
rendered to aim :data:`OGG_EXTRA_HEADROOM_DB` lower (see
:mod:`guji.sound.headroom`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from ..i18n import _
from ..defaults import RATE
from ..errors import UsageError
from ..files import destination, writing
from ..stops import check, held, requested
from ..timing.performance import Cue
from .headroom import CEILING_DBFS
from .kit import Kit
from .mixer import BLOCK_FRAMES, BLOCK_MEMORY, Mix
from .riff import WaveWriter
from .vio import OGG_SERIAL, SinkIO, fix_ogg_serial, ogg_crc  # noqa: F401 (re-exported)

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


def audio_format(path: str | os.PathLike, format: str | None = None,
                 subtype: str | None = None, *, streamed: bool = False) -> tuple[str, str]:
    """The ``(format, subtype)`` to write *path* with, as libsndfile names them.

    *format* (``wav``, ``flac``, ``ogg``) defaults to the extension of
    *path*, or WAV for a name without one (``out``, ``/dev/null``, ``-``; a
    *streamed* destination, :func:`guji.files.destination`, or a file alike); *subtype* (``16``, ``24``,
    ``float`` or a libsndfile name) defaults to 16-bit (WAV, FLAC) or Vorbis
    (OGG). Raise :class:`UsageError` for what cannot be written.
    """
    ext = Path(path).suffix.lower() if os.fspath(path) != "-" else ""
    if format is None and not ext:
        format = "wav"
    if format is None:
        if ext not in EXTENSIONS:
            raise UsageError(_('{path}: cannot tell the audio format from the extension {value}: use .wav, .flac or .ogg, or --format').format(path=path, value=str(ext or '(none)')))
        fmt = EXTENSIONS[ext]
    else:
        key = str(format).lower()
        if key not in FORMATS:
            raise UsageError(_('unknown audio format {format}: use wav, flac or ogg').format(format=repr(format)))
        fmt = FORMATS[key]
        if ext in EXTENSIONS and EXTENSIONS[ext] != fmt:
            raise UsageError(_('{path}: the extension says {value} but --format says {fmt}').format(path=path, value=EXTENSIONS[ext], fmt=fmt))
    if subtype is None:
        sub = SUBTYPES[fmt][0]
    else:
        sub = SUBTYPE_NAMES.get(str(subtype).lower(), str(subtype).upper())
        if sub not in SUBTYPES[fmt]:
            allowed = ", ".join({"PCM_16": "16", "PCM_24": "24", "FLOAT": "float",
                                 "VORBIS": "vorbis"}[s] for s in SUBTYPES[fmt])
            raise UsageError(_('{fmt} cannot hold {subtype} samples (it takes: {allowed})').format(fmt=fmt, subtype=subtype, allowed=allowed))
    return fmt, sub


class _BlockWriter:
    """Writes a render's blocks to *sink* (a function taking encoded
    blocks), encoded exactly: PCM rounded as libsndfile would store it.

    Three things make a long render as quick as writing silence: the blocks
    are gathered into batches of about :data:`WRITE_FRAMES` before each write
    (one call a batch, not a block); a block the renderer gives again (the
    same read-only array: see :meth:`guji.sound.mixer.Mix.blocks`) is encoded
    once — the first :data:`~guji.sound.mixer.BLOCK_MEMORY` bytes of them, as
    many as the mixer keeps to give again (every block is read-only, and a
    long piece whose blocks seldom recur would otherwise be held whole); and
    the work buffers are kept from batch to batch — fresh
    half-megabyte arrays every block cost more in page faults than the
    arithmetic itself. 24-bit samples are int32 values in −2²³…2²³−1, moved
    to the top 24 bits when *sink* is libsndfile's (*shift24*).
    """

    def __init__(self, sink, subtype: str, channels: int, block_frames: int,
                 batch_frames: int = 0, shift24: bool = True, gather=None):
        self.sink = sink
        self.subtype = subtype
        self.shift24 = shift24
        #: takes a batch as a list of encoded blocks (no copy into one array), if given
        self.gather = gather
        self._gathered: list[np.ndarray] = []
        self._batch_frames = max(block_frames, batch_frames)
        pcm = {"PCM_16": (np.int16, np.float32, 32767.0),
               "PCM_24": (np.int32, np.float64, 8388607.0)}.get(subtype)
        self._kind, self._work_type, self._scale = pcm or (np.float32, np.float32, None)
        frames = max(block_frames, batch_frames) if gather is None else 0
        self._batch = np.empty((frames, channels), self._kind)
        self._work = np.empty((block_frames, channels), self._work_type)
        self._fill = 0
        self._memo: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._room = BLOCK_MEMORY        # bytes of blocks the memo may still hold

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
        if self.subtype == "PCM_24" and self.shift24:   # libsndfile keeps the top 24 bits
            np.left_shift(out, 8, out=out)
        return out

    def write(self, block: np.ndarray) -> None:
        """Add *block* (read-only blocks are remembered and encoded once)."""
        memo = self._memo.get(id(block))
        if memo is not None and memo[0] is block:
            encoded = memo[1]
        else:
            encoded = self._encode(block)
            if not block.flags.writeable and self._room >= block.nbytes:
                self._memo[id(block)] = (block, encoded)
                self._room -= block.nbytes
        n = len(encoded)
        if self.gather is not None:
            self._gathered.append(encoded)
            self._fill += n
            if self._fill >= self._batch_frames:
                self.flush()
            return
        if self._fill + n > len(self._batch):
            self.flush()
        if n > len(self._batch):
            self.sink(encoded)
            return
        self._batch[self._fill:self._fill + n] = encoded
        self._fill += n

    def flush(self) -> None:
        if self._fill and self.gather is not None:
            self.gather(self._gathered)
            self._gathered, self._fill = [], 0
        elif self._fill:
            self.sink(self._batch[:self._fill])
            self._fill = 0


#: Frames gathered before each write to the file.
WRITE_FRAMES = 4 * 65536


def write_audio(path, parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None,
                rate: int = RATE, channels: int = 2, format: str | None = None,
                subtype: str | None = None,
                progress: Callable[[int, int], None] | None = None,
                block_frames: int | None = None,
                measuring: Callable[[int, int], None] | None = None) -> Path:
    """Render *parts* (and *cues*) into the audio file *path*; return its path.

    Parameters
    ----------
    path:
        Where to write, as :func:`guji.files.writing` decides: a file appears
        only when complete (it is written under a temporary name beside it
        and renamed; on any error, Ctrl-C included, nothing is left behind
        and an existing file is untouched); a device or a pipe (or ``-``,
        standard output) is written directly, in order. Checked before any
        work.
    parts, cues, kit, rate, channels:
        As for :class:`~guji.sound.mixer.Mix`.
    format:
        ``wav``, ``flac`` or ``ogg``; default from the extension (WAV for
        a stream without one). A WAV over 4 GiB is written as RF64
        (:mod:`guji.sound.riff`).
    subtype:
        ``16``, ``24`` or ``float`` (WAV), ``16`` or ``24`` (FLAC); default 16.
    progress:
        Called as ``progress(frames_done, frames_total)`` after each block.
    block_frames:
        Frames rendered at a time (memory use, not output, depends on it).
    measuring:
        Called as ``measuring(frames_measured, frames_to_measure)`` while the
        loudness is measured, before the first block (``kit.loudness``: the
        passes of :func:`guji.sound.level.plan`; the total grows when the plan
        needs another pass).
    """
    where = destination(path)
    fmt, sub = audio_format(where.name if where.path is not None else "-", format, subtype,
                            streamed=where.streamed)
    ceiling = CEILING_DBFS - (OGG_EXTRA_HEADROOM_DB if fmt == "OGG" else 0.0)
    mix = Mix(parts, cues, kit=kit, rate=rate, channels=channels, ceiling_dbfs=ceiling,
              measuring=measuring)
    if fmt == "OGG":    # Vorbis packets follow the writes: keep one size, one call a block
        size, batch = block_frames or BLOCK_FRAMES, 0
    else:
        size, batch = block_frames or mix.step_frames() or BLOCK_FRAMES, WRITE_FRAMES
    with writing(path) as out:
        if fmt == "WAV":
            wave = WaveWriter(out.open(), mix.frames, mix.channels, mix.rate, sub)
            _render(mix, _BlockWriter(wave.write, sub, mix.channels, size, batch, shift24=False,
                                      gather=wave.write_all), size, progress)
            wave.close()
        else:
            _write_sndfile(out, mix, fmt, sub, size, batch, progress)
    return Path(out.name)


def _render(mix: Mix, writer: _BlockWriter, size: int,
            progress: Callable[[int, int], None] | None) -> None:
    done = 0
    for block in mix.blocks(size):
        check()               # a stop whose exception Python swallowed is raised here
        writer.write(block)
        done += len(block)
        if progress is not None:
            progress(done, mix.frames)
    writer.flush()


def _write_sndfile(out, mix: Mix, fmt: str, sub: str, size: int, batch: int,
                   progress: Callable[[int, int], None] | None) -> None:
    """FLAC or OGG through libsndfile, which writes to a :class:`~guji.sound.vio.SinkIO`
    (a file-system error stays an :class:`OSError` with its errno, raised as
    soon as libsndfile meets it). Signals are held while libsndfile works
    (:func:`guji.stops.held`): one that arrives makes the next write fail,
    and the stop is raised once libsndfile has returned."""
    import soundfile as sf
    sink = SinkIO(out.open(), seekable=not out.streamed and fmt != "OGG", ogg=fmt == "OGG",
                  flac_frames=mix.frames if fmt == "FLAC" else None)
    try:
        with held(), sf.SoundFile(sink, "w", mix.rate, mix.channels, sub, format=fmt) as f:
            def put(block: np.ndarray) -> None:
                f.write(block)
                if sink.error is not None or requested():
                    raise sink.error or InterruptedError("stopped by a signal")
            _render(mix, _BlockWriter(put, sub, mix.channels, size, batch), size, progress)
        sink.close()
    except Exception as e:     # libsndfile's error, or soundfile's assertion on a short write
        if sink.error is not None:
            raise sink.error from None
        if isinstance(e, sf.LibsndfileError):
            raise OSError(0, e.error_string) from None    # not "Error opening <SinkIO …>"
        raise
    if sink.error is not None:
        raise sink.error

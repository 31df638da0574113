"""A recording transcribed: every hit's time and drum, read block by block.

:func:`transcribe` reads a WAV, FLAC or OGG file (any rate, mono or stereo,
folded to mono) in blocks of :data:`BLOCK_SECONDS`, so memory stays flat
however long the recording; each block is read with :data:`MARGIN` seconds of
its neighbours on either side, so that a hit near a block's edge is found
and classified with the same samples around it as anywhere else. Its length
is measured from the file's header before anything is read, against
:attr:`guji.limits.Limits.longest`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

import numpy as np

from ..i18n import _
from .. import limits
from ..errors import UsageError
from ..files import reason as cause
from ..limits import LimitError, duration_text
from .drums import classify, low_share, threshold_for
from .onsets import MIN_GAP, find_hits

BLOCK_SECONDS = 30.0
MARGIN = 0.1


@dataclass(frozen=True)
class Hit:
    """One hit heard: *time* (seconds from the recording's start), *big*
    (a 鼓, else a 鼙), the *confidence* of that call (0…1) and the *share* of
    low energy it was made from (:func:`guji.practice.drums.low_share`)."""

    time: float
    big: bool
    confidence: float
    share: float

    def to_json(self) -> dict:
        return {"time": round(self.time, 6), "drum": "鼓" if self.big else "鼙",
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class Transcription:
    """The hits of a recording, in time order, with its rate and length."""

    hits: tuple[Hit, ...]
    rate: int
    seconds: float


def hits_in(x: np.ndarray, rate: float, offset: float = 0.0,
            accept: tuple[float, float] | None = None) -> list[Hit]:
    """The hits of the mono signal *x* (times + *offset*), those with a time
    (before the offset) in *accept* only."""
    out = []
    for t in find_hits(x, rate):
        if accept is not None and not (accept[0] <= t < accept[1]):
            continue
        share = low_share(x, t * rate, rate)
        big, confidence = classify(share)
        out.append(Hit(float(t + offset), big, confidence, share))
    return out


def transcribe_array(samples: np.ndarray, rate: int) -> Transcription:
    """The :class:`Transcription` of samples (mono, or frames × channels) in memory."""
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim == 2:
        x = folded(x)
    hits = _merged(hits_in(x, rate))
    return Transcription(tuple(hits), int(rate), len(x) / rate)


def check_recording(path: str | os.PathLike) -> None:
    """What :func:`transcribe` says of a recording it cannot hear (no such file,
    not a recording, too long, empty), from its header only: a command checks
    it before any other work (``guji check``: before the texts are read)."""
    _opened(os.fspath(path)).close()


def _opened(p: str):
    """The recording *p* opened, its header checked (see :func:`check_recording`)."""
    import soundfile as sf
    try:
        mode = os.stat(p).st_mode
    except FileNotFoundError:
        raise UsageError(_('{p}: no such recording').format(p=p)) from None
    except OSError as e:                     # a loop of links, no permission …
        raise UsageError(_('{value}: cannot read: {value2}').format(value=p, value2=cause(e))) from None
    if stat.S_ISDIR(mode):
        raise UsageError(_('{p}: a folder, not a recording').format(p=p))
    if not stat.S_ISREG(mode):               # a FIFO with no writer would wait forever
        raise UsageError(_('{p}: not a file').format(p=p))
    try:
        f = sf.SoundFile(p)
    except Exception as e:  # libsndfile: RuntimeError / LibsndfileError / TypeError
        words = getattr(e, "error_string", None) or str(e)     # not "Error opening 'NAME': …"
        reason = words.splitlines()[0] if words else type(e).__name__
        raise UsageError(_('{p}: cannot read this recording ({reason}); use WAV, FLAC or OGG').format(p=p, reason=reason)) \
            from None
    rate, frames = f.samplerate, f.frames
    seconds = frames / rate if rate else 0.0
    if seconds > limits.current().longest:
        f.close()
        raise LimitError(_("{p}: the recording is {value} long, over guji's limit of {value2}").format(p=p, value=duration_text(seconds), value2=duration_text(limits.current().longest)))
    if frames == 0:
        f.close()
        raise UsageError(_('{p}: the recording is empty').format(p=p))
    return f


def transcribe(path: str | os.PathLike) -> Transcription:
    """The hits of the recording at *path* (module docstring); :class:`UsageError`
    naming the file when it cannot be read, :class:`LimitError` when too long."""
    p = os.fspath(path)
    with _opened(p) as f:
        rate, frames = f.samplerate, f.frames
        seconds = frames / rate if rate else 0.0
        hits = _read_blocks(f, p, rate)
    return Transcription(tuple(_merged(hits)), int(rate), seconds)


def transcribe_reader(reader, name: str, rate: int, frames: int) -> Transcription:
    """The :class:`Transcription` of *frames* frames read from *reader* (what
    has ``read(frames, dtype=, always_2d=)`` as a sound file has: a live
    capture, :meth:`guji.sound.capture.Capture.reader`), a block at a time;
    *name* names it in errors."""
    hits = _read_blocks(reader, name, rate) if frames else []
    return Transcription(tuple(_merged(hits)), int(rate), frames / rate)


def _read_blocks(f, path: str, rate: int) -> list[Hit]:
    block = int(BLOCK_SECONDS * rate)
    margin = int(MARGIN * rate)
    hits: list[Hit] = []
    carry = np.zeros(0)
    start = 0                     # the absolute frame of buf[0]
    while True:
        try:
            data = f.read(block, dtype="float32", always_2d=True)
        except Exception as e:
            raise UsageError(_('{path}: cannot read this recording ({e})').format(path=path, e=e)) from None
        fresh = folded(data)
        if not np.all(np.isfinite(fresh)):
            raise UsageError(_('{path}: the recording holds invalid samples (NaN or infinity)').format(path=path))
        buf = np.concatenate((carry, fresh))
        last = len(data) < block
        lo = -np.inf if start == 0 else margin / rate
        hi = len(buf) / rate if last else (len(buf) - margin) / rate
        hits += hits_in(buf, rate, start / rate, (lo, hi))
        if last:
            return hits
        keep = min(2 * margin, len(buf))
        carry = buf[len(buf) - keep:]
        start += len(buf) - keep


def folded(data: np.ndarray) -> np.ndarray:
    """Frames × channels folded to mono (float64): the channels' mean, summed a
    channel at a time (numpy's mean across a row of two is ten times slower)."""
    out = np.array(data[:, 0], dtype=np.float64)
    for c in range(1, data.shape[1]):
        out += data[:, c]
    if data.shape[1] > 1:
        out /= data.shape[1]
    return out


def _merged(hits: list[Hit]) -> list[Hit]:
    """*hits* in time order, one of any two closer than :data:`MIN_GAP` dropped
    (a hit seen from both sides of a block's edge), each drum told again at
    the recording's own threshold (:func:`guji.practice.drums.threshold_for`)."""
    out: list[Hit] = []
    for h in sorted(hits, key=lambda h: h.time):
        if out and h.time - out[-1].time < MIN_GAP:
            continue
        out.append(h)
    threshold = threshold_for([h.share for h in out])
    return [Hit(h.time, *classify(h.share, threshold), h.share) for h in out]


__all__ = ["Hit", "Transcription", "transcribe", "transcribe_array", "transcribe_reader",
           "hits_in"]

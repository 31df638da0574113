"""Recordings of one hit: reading, trimming, resampling.

A voice whose :class:`~guji.sound.synth.VoiceParams` names a ``sample`` is
played from a recording instead of being synthesised. A recording is any
file libsndfile reads (a kit directory is searched for
:data:`RECORDING_EXTENSIONS`), at any sample rate, mono or stereo:

* only its first :data:`READ_SECONDS` are decoded, measured from its header
  before any sample is (rate, channels, frames; a 30-minute file of eight
  channels costs no more than 30 s of it), a block at a time;
* it is folded to mono (the kit's pan places it);
* the silence before the attack and after the ring is cut
  (:data:`ONSET_THRESHOLD_DB`, :data:`TAIL_THRESHOLD_DB`), so its first
  sample is the onset;
* what is longer than :data:`~guji.sound.synth.MAX_RECORDING_SECONDS` is
  cut, with a fade;
* it is resampled to the rate of the render (:func:`resample`), faded out
  over the voice's ``fade`` and scaled so that its peak is the voice's
  ``level`` (:func:`recorded`).

A file is read once for each (path, modification time, size): editing a
recording between two renders is seen, reading it twice costs nothing.
"""

from __future__ import annotations

import functools
import math
import os

import numpy as np

from ..i18n import _
from ..errors import UsageError
from .synth import MAX_RECORDING_SECONDS, VoiceParams, shape

#: Audio file extensions a kit directory is searched for (any format
#: libsndfile reads is accepted in a kit file's ``sample``).
RECORDING_EXTENSIONS = (".wav", ".flac", ".ogg", ".oga")

#: Recordings are trimmed of the silence before the attack: the hit starts at
#: the first sample this loud (dB relative to the recording's peak)...
ONSET_THRESHOLD_DB = -40.0
#: ... and ends at the last sample this loud.
TAIL_THRESHOLD_DB = -50.0
#: Only the first seconds of a recording are decoded: its hit must start in
#: them (the rest could never be played: a hit keeps at most
#: MAX_RECORDING_SECONDS from its onset). Measured from the header first.
READ_SECONDS = 3 * MAX_RECORDING_SECONDS
#: Sample rates and channels a recording's header may give.
MIN_RECORDING_RATE = 1000
MAX_RECORDING_RATE = 384000
MAX_CHANNELS = 64


def resample(x: np.ndarray, source_rate: int, rate: int) -> np.ndarray:
    """Band-limited resampling of a mono signal (float64) from *source_rate* to *rate*.

    FFT method: the signal, padded with silence so its end cannot wrap
    onto its start (to a length that makes the rate ratio exact), is taken to the frequency domain, its spectrum cut (or
    padded) to the new Nyquist frequency with a short raised-cosine taper
    over the top 4 % of the band (less ringing than a brick wall), and
    brought back. The output has ``round(len(x) × rate / source_rate)``
    samples and the same start: sample 0 stays the onset.
    """
    x = np.asarray(x, dtype=np.float64)
    if source_rate == rate or len(x) == 0:
        return x.copy()
    n = len(x)
    # pad to a length whose resampled length is a whole number: the ratio is exact
    step = source_rate // math.gcd(source_rate, rate)
    n_in = -(-(n + max(256, n // 8)) // step) * step
    n_out = n_in * rate // source_rate
    spectrum = np.fft.rfft(x, n_in)
    keep = min(len(spectrum), n_out // 2 + 1)
    bins = np.arange(keep)
    edge = 0.96 * (keep - 1)
    taper = np.ones(keep)
    top = bins > edge
    if np.any(top):
        taper[top] = 0.5 + 0.5 * np.cos(np.pi * (bins[top] - edge) / max(keep - 1 - edge, 1e-9))
    out_spec = np.zeros(n_out // 2 + 1, dtype=complex)
    out_spec[:keep] = spectrum[:keep] * taper
    y = np.fft.irfft(out_spec, n_out) * (n_out / n_in)
    return y[: int(round(n * rate / source_rate))]


@functools.lru_cache(maxsize=32)
def _read_recording(path: str, mtime_ns: int, size: int) -> tuple[np.ndarray, int]:
    import soundfile as sf
    raw = None
    try:
        with open(path, "rb") as raw, sf.SoundFile(raw) as f:    # any name
            frames, source_rate = _measured(path, f)
            mono = _read_mono(f, frames)
    except UsageError:
        raise
    except Exception as e:  # libsndfile's errors are RuntimeError / LibsndfileError / TypeError
        reason = sndfile_reason(e, raw) if str(e) else type(e).__name__
        raise UsageError(_('{path}: cannot read this recording ({reason}); use WAV, FLAC or OGG').format(path=path, reason=reason)) from None
    if len(mono) == 0:
        raise UsageError(_('{path}: the recording is empty').format(path=path))
    if not np.all(np.isfinite(mono)):
        raise UsageError(_('{path}: the recording holds invalid samples (NaN or infinity)').format(path=path))
    peak = float(np.max(np.abs(mono)))
    if peak == 0:
        raise UsageError(_('{path}: the recording is silent').format(path=path))
    level = np.abs(mono)
    first = int(np.argmax(level >= peak * 10 ** (ONSET_THRESHOLD_DB / 20)))
    last = int(np.nonzero(level >= peak * 10 ** (TAIL_THRESHOLD_DB / 20))[0][-1])
    mono = mono[first: last + 1]
    if len(mono) < max(2, source_rate // 1000):
        raise UsageError(_('{path}: its sound lasts {value} ({value2:.2g} ms): too short for a hit (at least 1 ms)').format(path=path, value=_samples(len(mono)), value2=len(mono) / source_rate * 1000))
    limit = int(MAX_RECORDING_SECONDS * source_rate)
    if len(mono) > limit:
        mono = mono[:limit].copy()
        shape(mono, 0.0, 0.05, source_rate)
    mono.setflags(write=False)
    return mono, int(source_rate)


def sndfile_reason(error: Exception, opened) -> str:
    """The first line of libsndfile's *error* on the file object *opened*,
    without the object's Python repr (``Error opening <_io.BufferedReader
    name='x.wav'>: ``) that soundfile puts before the reason: the caller
    names the file itself."""
    return str(error).splitlines()[0].replace(f"Error opening {opened!r}: ", "")


def _samples(n: int) -> str:
    return f"{n} sample" if n == 1 else f"{n} samples"


def _measured(path: str, f) -> tuple[int, int]:
    """The frames to read of the open recording *f* and its rate, from its
    header, before any sample is decoded (:data:`READ_SECONDS` at most)."""
    rate, channels, frames = int(f.samplerate), int(f.channels), int(f.frames)
    if not MIN_RECORDING_RATE <= rate <= MAX_RECORDING_RATE:
        raise UsageError(_('{path}: its header gives a sample rate of {rate:,} Hz: guji reads recordings at {min_recording_rate:,}–{max_recording_rate:,} Hz').format(path=path, rate=rate, min_recording_rate=MIN_RECORDING_RATE, max_recording_rate=MAX_RECORDING_RATE))
    if not 1 <= channels <= MAX_CHANNELS:
        raise UsageError(_('{path}: its header gives {channels:,} channels: guji reads recordings of 1–{max_channels} channels').format(path=path, channels=channels, max_channels=MAX_CHANNELS))
    return max(0, min(frames, int(READ_SECONDS * rate))), rate


def _read_mono(f, frames: int) -> np.ndarray:
    """The first *frames* frames of *f*, folded to mono (float64), read a block at
    a time (about 16 MB whatever the channels)."""
    mono = np.empty(frames, dtype=np.float64)
    block = max(1024, 2 ** 21 // f.channels)
    done = 0
    while done < frames:
        data = f.read(min(block, frames - done), dtype="float32", always_2d=True)
        if len(data) == 0:
            break
        mono[done: done + len(data)] = data.mean(axis=1, dtype=np.float64)
        done += len(data)
    return mono[:done]


def read_recording(path: str | os.PathLike) -> tuple[np.ndarray, int]:
    """Read a recording of one hit: ``(mono float64 samples, sample rate)``.

    Stereo (or more) is folded to mono by averaging; the silence before the
    attack (below :data:`ONSET_THRESHOLD_DB`) and after the ring (below
    :data:`TAIL_THRESHOLD_DB`) is cut, so sample 0 is the onset; at most :data:`MAX_RECORDING_SECONDS` are kept.
    Raise :class:`UsageError` naming the file when it cannot be used.
    """
    p = os.fspath(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise UsageError(_('{p}: no such recording').format(p=p)) from None
    except OSError as e:
        raise UsageError(_('{p}: cannot read: {strerror}').format(p=p, strerror=e.strerror)) from None
    if not os.path.isfile(p):
        raise UsageError(_('{p}: not a file').format(p=p))
    return _read_recording(p, st.st_mtime_ns, st.st_size)


def recorded(params: VoiceParams, rate: int) -> np.ndarray:
    """The recording *params* names, as one hit at *rate*: float64, peak = ``params.gain``.

    Read (:func:`read_recording`), resampled to *rate*, faded out over
    ``params.fade`` (at most its whole length). Raise :class:`UsageError`
    naming the file when it cannot be used.
    """
    data, source_rate = read_recording(params.sample)
    x = resample(data, source_rate, rate)     # always a new, writable array
    shape(x, 0.0, min(params.fade, len(x) / rate), rate)
    peak = float(np.max(np.abs(x)))
    if peak == 0:
        raise UsageError(_('{sample}: the recording is silent').format(sample=params.sample))
    return x * (params.gain / peak)

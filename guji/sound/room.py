"""A room: the dry render convolved with an impulse response, block by block, memory flat.

``--room dry`` (the default) is the drums as recorded close, in no room: the
notation's strokes and their timing, nothing blurred (the 鼙's damped 榻榻 stays
flat and dry at fast tempi). ``--room hall`` and ``--room court`` place them in
the rite's two places (堂上, 庭中: the hall and its courtyard); ``--room FILE``
uses a recorded impulse response (WAV/FLAC/OGG, mono or stereo, any rate).

The two rooms' impulse responses are made here (:func:`impulse_response`),
seeded, from documented parameters (:class:`RoomParams`):

* ``hall`` — a timber hall: RT60 1.8 s (the highs 0.9 s: air and wood absorb
  them), pre-delay 22 ms, eight early reflections within 60 ms, the reverb's
  energy 3 dB below the direct sound's.
* ``court`` — an open courtyard walled by buildings: RT60 0.7 s (highs 0.45 s),
  pre-delay 12 ms, twelve early reflections within 90 ms (the walls), the
  reverb 9 dB below the direct sound.

Each response starts with the direct sound (1.0 on sample 0, so every onset
stays on its exact sample and the dry render is inside the wet one), then the
early reflections (a tap each, its own per channel), then exponentially
decaying noise in two bands, independent per channel (a wide, decorrelated
stereo tail), to −90 dB. The render lasts until the last stroke's ring *and*
its reverberation have ended: the tail is rendered to its end.

Convolution is overlap-add with FFTs (:class:`Convolver`): each block of the
dry render is transformed once, multiplied by the response's spectrum, and its
output overlapped with the last block's tail. Memory is the response's
spectrum and one tail, whatever the length of the piece.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import UsageError
from ..i18n import _
from .blocks import channel_peaks

#: The rooms by name (``dry``: none).
ROOM_NAMES = ("dry", "hall", "court")
#: Frames of output given at a time; the FFT is at least twice as long.
CONVOLVE_FRAMES = 65536
#: The longest impulse response used, in seconds (a longer file is cut, faded).
MAX_IR_SECONDS = 10.0


@dataclass(frozen=True)
class RoomParams:
    """A synthesised room: reverberation time, pre-delay, early reflections, level."""

    rt60: float            # seconds for the low band to fall 60 dB
    rt60_high: float       # the same for the high band (above ~2 kHz)
    predelay: float        # seconds from the direct sound to the first reflection
    early: int             # number of early reflections
    early_span: float      # seconds over which they arrive (after the pre-delay)
    reverb_db: float       # energy of everything after the direct sound, dB re the direct
    seed: int


ROOMS = {
    "hall": RoomParams(rt60=1.8, rt60_high=0.9, predelay=0.022, early=8, early_span=0.06,
                       reverb_db=-3.0, seed=11),
    "court": RoomParams(rt60=0.7, rt60_high=0.45, predelay=0.012, early=12, early_span=0.09,
                        reverb_db=-9.0, seed=12),
}


@functools.lru_cache(maxsize=8)
def impulse_response(name: str, rate: int, channels: int) -> np.ndarray:
    """The response of room *name* at *rate*: float32 ``(frames, channels)``, read-only."""
    p = ROOMS[name]
    rng = np.random.default_rng(p.seed)
    n = int(math.ceil(p.rt60 * 1.5 * rate))                # to -90 dB
    t = np.arange(n) / rate
    out = np.zeros((n, channels))
    for c in range(channels):
        noise = rng.standard_normal(n)
        low = np.convolve(noise, np.hanning(11) / np.hanning(11).sum(), mode="same")
        high = noise - low
        late = (low * np.exp(-6.9078 * t / p.rt60) + high * np.exp(-6.9078 * t / p.rt60_high))
        start = int(p.predelay * rate)
        late[:start + int(p.early_span * rate * 0.5)] *= np.linspace(0, 1, start + int(
            p.early_span * rate * 0.5)) ** 2        # the tail builds up after the reflections
        taps = start + np.sort(rng.integers(0, int(p.early_span * rate), p.early))
        early = np.zeros(n)
        early[taps] = rng.choice([-1.0, 1.0], p.early) * np.exp(-6.9078 * t[taps] / p.rt60) * 0.5
        tail = late * 0.08 + early
        tail[0] = 0.0
        tail *= math.sqrt(10 ** (p.reverb_db / 10) / float(np.sum(tail ** 2)))
        tail[0] = 1.0                                       # the direct sound
        out[:, c] = tail
    out = out.astype(np.float32)
    out.setflags(write=False)
    return out


def room_response(room: str | None, rate: int, channels: int) -> np.ndarray | None:
    """The response of ``--room`` *room* (a name or a file), ``None`` for dry."""
    if room is None or room == "dry":
        return None
    if room in ROOMS:
        return impulse_response(room, rate, channels)
    return _file_response(str(room), rate, channels)


def _file_response(path: str, rate: int, channels: int) -> np.ndarray:
    from .recordings import resample, sndfile_reason
    if not Path(path).is_file():
        raise UsageError(_("--room {path}: not dry, hall, court or an impulse response file")
                         .format(path=path))
    import soundfile as sf
    f = None
    try:
        with open(path, "rb") as f, sf.SoundFile(f) as s:
            source_rate = s.samplerate
            data = s.read(min(s.frames, int(MAX_IR_SECONDS * source_rate)), dtype="float64",
                          always_2d=True)
    except (sf.LibsndfileError, RuntimeError, OSError) as e:
        raise UsageError(_("--room {path}: not a readable WAV, FLAC or OGG file ({reason})")
                         .format(path=path, reason=sndfile_reason(e, f))) from None
    cols = [resample(np.ascontiguousarray(data[:, min(c, data.shape[1] - 1)]), source_rate, rate)
            for c in range(channels)]
    out = np.stack(cols, axis=1)
    peak = float(np.max(np.abs(out)))
    if peak == 0:
        raise UsageError(_("--room {path}: the impulse response is silent").format(path=path))
    return (out / peak).astype(np.float32)


class Convolver:
    """Overlap-add convolution of a stream of blocks with *ir* ``(taps, channels)``.

    :meth:`feed` takes a block (at most :attr:`block` frames) and returns as
    many output frames; :meth:`tail` the rest once the input has ended.
    """

    def __init__(self, ir: np.ndarray, frames: int = CONVOLVE_FRAMES):
        self.taps, self.channels = ir.shape
        # an FFT at least twice the response: each transform gives half its length
        # or more in output (a hall: 2^18 points, 132,544 frames a block; four
        # times would be a third quicker and take 10 MB more)
        self.size = max(1 << (2 * self.taps - 1).bit_length(), 2 * frames)
        self.block = self.size - self.taps + 1
        # channels first: each FFT runs over contiguous samples, in float32
        self.spectrum = np.fft.rfft(np.ascontiguousarray(ir.T, dtype=np.float32), self.size)
        self.carry = np.zeros((self.channels, self.size), dtype=np.float32)

    def feed(self, x: np.ndarray) -> np.ndarray:
        n = len(x)
        xs = np.ascontiguousarray(x.T, dtype=np.float32)
        self.carry += np.fft.irfft(np.fft.rfft(xs, self.size) * self.spectrum, self.size)
        out = self.carry[:, :n].T.copy()
        self.carry[:, :-n] = self.carry[:, n:]
        self.carry[:, -n:] = 0.0
        return out

    def tail(self) -> np.ndarray:
        """The taps − 1 frames that ring on after the last block."""
        return self.carry[:, :self.taps - 1].T.copy()


def wet_blocks(mix, ir: np.ndarray, block_frames: int, start: int, stop: int, gains):
    """The blocks of [*start*, *stop*) of *mix*'s dry render convolved with *ir*,
    scaled by *gains* (``None``: not scaled): *block_frames* each, the last shorter."""
    conv = Convolver(ir)
    first = max(0, start - len(ir) + 1)      # the dry frames still ringing at *start*

    def chunks():
        for dry in mix._blocks(conv.block, first, mix.dry_frames, None):
            yield conv.feed(dry)
        yield conv.tail()

    scale = None if gains is None else np.array(gains, dtype=np.float32)
    for block in reblocked(chunks(), first, start, stop, block_frames):
        yield block * scale if scale is not None else block


def reblocked(chunks, first: int, start: int, stop: int, size: int):
    """The frames [*start*, *stop*) of a stream of *chunks* that begins at frame
    *first*, in blocks of *size* (the last shorter)."""
    buf, at = None, first
    for y in chunks:
        buf = y if buf is None else np.concatenate([buf, y])
        if at < start:
            drop = min(start - at, len(buf))
            buf, at = buf[drop:], at + drop
        while len(buf) >= size and at < stop:
            n = min(size, stop - at)
            yield buf[:n]
            buf, at = buf[n:], at + n
        if at >= stop:
            return
    if buf is not None and len(buf) and at < stop:
        yield buf[:stop - at]


def wet_peaks(mix, ir: np.ndarray) -> tuple[float, ...]:
    """The exact peak of each channel of *mix* in the room (a whole render, not written)."""
    peaks = np.zeros(mix.channels)
    for block in wet_blocks(mix, ir, CONVOLVE_FRAMES, 0, mix.frames, None):
        np.maximum(peaks, channel_peaks(block), out=peaks)
    return tuple(float(p) for p in peaks)

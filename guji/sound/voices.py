"""The voices: synthesised 鼙 and 鼓, the count-in click, the cue bell, and kits.

Every sound guji makes is one of four voices (:class:`guji.score.Voice`):

* ``Voice.SMALL`` — the 鼙, the small drum (○);
* ``Voice.BIG`` — the 鼓, the big drum (□);
* ``Voice.CLICK`` — the neutral count-in click (not in the sources);
* ``Voice.CUE`` — a soft bell marking places outside any pattern (not in
  the sources).

Each voice is described by one :class:`VoiceParams`; the four together, with
their pans and levels, make a :class:`Kit`. :func:`one_shot` turns a voice into
the samples of one hit.

Modal synthesis
---------------
A struck drum head rings in its modes. For an ideal circular membrane the
mode frequencies stand in the ratios of the zeros of the Bessel functions,
j\\ :sub:`mn` / j\\ :sub:`01`: 1, 1.59, 2.14, 2.30, 2.65, 2.92, 3.16, 3.50 …
(:data:`MEMBRANE_RATIOS`). One hit is the sum, for each mode *k*, of::

    gain_k · exp(−ln(1000) · t / decay_k) · sin(phase_k(t))

where ``decay_k`` is the time the mode takes to fall by 60 dB, and the
frequency starts ``pitch_fall`` above its resting value and relaxes with the
time constant ``pitch_fall_time`` (the head is stretched tighter by the
stick, then settles)::

    f_k(t) = fundamental · ratio_k · (1 + pitch_fall · exp(−t / pitch_fall_time))

To this is added the stick: a burst of white noise, low-passed, decaying with
time constant ``noise_decay``. The noise comes from a seeded generator
(``seed``), so the same voice always gives the same samples, and the same
command the same bytes. The hit is then shaped by an optional attack ramp
and a fade at its end, and scaled so that its peak is ``level`` dBFS.

Timbre: which reading the defaults follow
-----------------------------------------
陸德明 (釋文): ○ 鼙 — 其聲下，其音榻榻然; □ 鼓 — 其聲高，其音鏜鏜然. 榻榻 is a
flat, damped "ta-ta"; 鏜鏜 the booming of a big drum (詩·擊鼓: 擊鼓其鏜). 聲高 /
聲下 can be read as pitch or as loudness (高聲 is a loud voice). The defaults
follow the **loudness** reading: the 鼓 is 6 dB louder than the 鼙 and rings
for seconds, low and booming (78 Hz, a slight pitch fall); the 鼙 is softer,
higher (as a small drum is) and damped within a quarter of a second, with
more stick noise — flat and dry. A user who prefers the pitch reading gives
the 鼓 a higher ``fundamental`` than the 鼙 in a kit file.

Kit files
---------
A kit file is TOML with one table per voice (``[small]`` or ``["鼙"]``,
``[big]`` or ``["鼓"]``, ``[click]``, ``[cue]``; TOML wants the Chinese
names quoted); each key is a :class:`VoiceParams` field, and what a table
leaves out keeps the default::

    name = "my kit"
    ["鼓"]
    fundamental = 110.0
    level = -3.0
    pan = 0.5
    ["鼙"]
    sample = "recordings/pi.flac"   # a recording instead of synthesis

``python -m guji.voices --write-samples DIR`` writes the default kit as such a
file (``default-kit.toml``, every parameter with its meaning) beside the
one-shot WAV of each voice.

A directory of recordings is a kit too: ``small.wav`` (or ``鼙.*``, ``pi.*``)
and ``big.wav`` (or ``鼓.*``, ``gu.*``), optionally ``click.*`` and ``cue.*``;
WAV, FLAC or OGG, any sample rate (resampled), mono or stereo (folded to
mono; the kit's pan places it).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UsageError
from ..timing.performance import VOICE_NAMES, Voice

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Mode frequencies of an ideal circular membrane relative to the lowest
#: (zeros of the Bessel functions j_mn / j_01): modes (0,1) (1,1) (2,1) (0,2)
#: (3,1) (1,2) (4,1) (2,2).
MEMBRANE_RATIOS: tuple[float, ...] = (1.0, 1.5933, 2.1355, 2.2954, 2.6531, 2.9173, 3.1555, 3.5001)

#: Audio file extensions a kit directory is searched for (any format
#: libsndfile reads is accepted in a kit file's ``sample``).
RECORDING_EXTENSIONS = (".wav", ".flac", ".ogg", ".oga")

#: A recording longer than this (seconds, after trimming silence) is cut, with
#: a fade: every stroke costs render time in proportion to its length.
MAX_RECORDING_SECONDS = 10.0

#: Recordings are trimmed of the silence before the attack: the hit starts at
#: the first sample this loud (dB relative to the recording's peak)...
ONSET_THRESHOLD_DB = -40.0
#: ... and ends at the last sample this loud.
TAIL_THRESHOLD_DB = -50.0

#: Sample rates guji renders and plays at.
MIN_RATE = 8000
MAX_RATE = 192000

_LN1000 = math.log(1000.0)


@dataclass(frozen=True)
class VoiceParams:
    """Every parameter of one voice.

    A voice is synthesised (modal membrane + stick noise, see the module
    docstring) unless ``sample`` names a recording, in which case only
    ``level``, ``pan`` and ``fade`` apply to it.

    Parameters
    ----------
    fundamental:
        Frequency of the lowest mode, in Hz.
    mode_ratios:
        Frequency of each mode relative to ``fundamental``. The drums use
        the circular membrane's :data:`MEMBRANE_RATIOS`; the bell its own.
    mode_gains:
        Amplitude of each mode at the strike, relative (one per ratio).
    mode_decays:
        Seconds each mode takes to fall by 60 dB (one per ratio): long for a
        ringing 鼓, short for a damped 鼙.
    pitch_fall:
        How far above its resting frequency each mode starts, as a fraction
        (0.06 = 6 % sharp); 0 for none.
    pitch_fall_time:
        Time constant of that fall, in seconds.
    noise_level:
        Peak amplitude of the stick's noise burst, in the units of
        ``mode_gains``; 0 for none.
    noise_decay:
        Time constant of the burst's decay, in seconds.
    noise_cutoff:
        Cut-off of a one-pole low-pass on the burst, in Hz (lower is a duller
        thud); 0 leaves the noise white.
    attack:
        Seconds of a raised-cosine rise at the start (0: the hit starts at
        full strength on its first sample).
    length:
        Seconds of the one-shot (synthesis only; a recording keeps its own).
    fade:
        Seconds of a raised-cosine fade at the end of the one-shot.
    level:
        Peak of one hit, in dBFS, as a mono render of a lone stroke has it.
    pan:
        Place in a stereo render, −1 (left) … 0 (centre) … +1 (right). A
        part with its own pan overrides it (see :mod:`guji.render`).
    seed:
        Seed of the noise generator (same seed, same noise, same bytes).
    sample:
        Path of a recording to use instead of synthesis, or ``None``.
    """

    fundamental: float
    mode_ratios: tuple[float, ...]
    mode_gains: tuple[float, ...]
    mode_decays: tuple[float, ...]
    pitch_fall: float = 0.0
    pitch_fall_time: float = 0.05
    noise_level: float = 0.0
    noise_decay: float = 0.005
    noise_cutoff: float = 0.0
    attack: float = 0.0
    length: float = 1.0
    fade: float = 0.05
    level: float = -6.0
    pan: float = 0.0
    seed: int = 0
    sample: str | None = None

    def __post_init__(self) -> None:
        for name in ("mode_ratios", "mode_gains", "mode_decays"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise ValueError(f"{name} must be a list of numbers")
            object.__setattr__(self, name, tuple(_number(name, v) for v in value))
        for name in ("fundamental", "pitch_fall", "pitch_fall_time", "noise_level", "noise_decay",
                     "noise_cutoff", "attack", "length", "fade", "level", "pan"):
            object.__setattr__(self, name, _number(name, getattr(self, name)))
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a whole number, 0 or more, not {self.seed!r}")
        n = len(self.mode_ratios)
        if n == 0:
            raise ValueError("mode_ratios must list at least one mode")
        for name in ("mode_gains", "mode_decays"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} needs {n} values, one per mode ratio, "
                                 f"not {len(getattr(self, name))}")
        _check(self.fundamental > 0, "fundamental must be a positive frequency in Hz")
        _check(all(r > 0 for r in self.mode_ratios), "mode_ratios must be positive")
        _check(all(g >= 0 for g in self.mode_gains), "mode_gains must be 0 or more")
        _check(all(d > 0 for d in self.mode_decays), "mode_decays must be positive seconds")
        _check(self.pitch_fall > -1, "pitch_fall must be more than -1")
        _check(self.pitch_fall_time > 0, "pitch_fall_time must be positive seconds")
        _check(self.noise_level >= 0, "noise_level must be 0 or more")
        _check(self.noise_decay > 0, "noise_decay must be positive seconds")
        _check(self.noise_cutoff >= 0, "noise_cutoff must be 0 (white) or a frequency in Hz")
        _check(self.attack >= 0, "attack must be 0 or more seconds")
        _check(0 < self.length <= MAX_RECORDING_SECONDS,
               f"length must be more than 0 and at most {MAX_RECORDING_SECONDS:g} seconds")
        _check(self.fade >= 0, "fade must be 0 or more seconds")
        _check(self.attack + self.fade <= self.length, "attack + fade must fit in length")
        _check(-90 <= self.level <= 0, "level must be between -90 and 0 dBFS")
        _check(-1 <= self.pan <= 1, "pan must be between -1 (left) and 1 (right)")
        _check(self.sample is None or isinstance(self.sample, str),
               "sample must be the path of a recording")
        if self.sample is None:
            _check(sum(self.mode_gains) > 0 or self.noise_level > 0,
                   "the voice makes no sound: every mode gain and noise_level is 0")

    @property
    def gain(self) -> float:
        """``level`` as a linear peak amplitude."""
        return 10.0 ** (self.level / 20.0)

    def replace(self, **changes: Any) -> "VoiceParams":
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, not {value}")
    return value


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


# -- the defaults: every number of the default sound is here ---------------

#: 鼙, the small drum: softer (−10 dBFS), higher (196 Hz, a small head),
#: damped within about a quarter of a second, with a bright stick slap —
#: 陸德明's flat, damped 榻榻 ("ta-ta").
DEFAULT_SMALL = VoiceParams(
    fundamental=196.0,
    mode_ratios=MEMBRANE_RATIOS,
    mode_gains=(1.0, 0.7, 0.5, 0.35, 0.3, 0.2, 0.15, 0.1),
    mode_decays=(0.24, 0.16, 0.12, 0.1, 0.08, 0.07, 0.06, 0.05),
    pitch_fall=0.03,
    pitch_fall_time=0.03,
    noise_level=0.9,
    noise_decay=0.008,
    noise_cutoff=4000.0,
    length=0.45,
    fade=0.1,
    level=-10.0,
    pan=-0.3,
    seed=1,
)

#: 鼓, the big drum: louder (−4 dBFS), low (78 Hz) and booming, the fundamental
#: ringing 1.8 s to −60 dB, with a slight pitch fall after the strike and a
#: dull stick thud — 陸德明's 鏜鏜 ("tang-tang").
DEFAULT_BIG = VoiceParams(
    fundamental=78.0,
    mode_ratios=MEMBRANE_RATIOS,
    mode_gains=(1.0, 0.55, 0.38, 0.22, 0.25, 0.16, 0.12, 0.08),
    mode_decays=(1.8, 1.1, 0.8, 0.7, 0.55, 0.45, 0.38, 0.3),
    pitch_fall=0.06,
    pitch_fall_time=0.08,
    noise_level=0.35,
    noise_decay=0.006,
    noise_cutoff=2500.0,
    length=2.0,
    fade=0.25,
    level=-4.0,
    pan=0.3,
    seed=2,
)

#: The count-in click: short, high and neutral (a wood-block tick), like
#: neither drum.
DEFAULT_CLICK = VoiceParams(
    fundamental=1800.0,
    mode_ratios=(1.0, 2.71),
    mode_gains=(1.0, 0.4),
    mode_decays=(0.03, 0.02),
    noise_level=0.3,
    noise_decay=0.002,
    noise_cutoff=8000.0,
    length=0.06,
    fade=0.02,
    level=-14.0,
    pan=0.0,
    seed=3,
)

#: The cue: a soft bell (A5 with bell partials), rising over 5 ms.
DEFAULT_CUE = VoiceParams(
    fundamental=880.0,
    mode_ratios=(1.0, 2.0, 2.76, 4.07, 5.40),
    mode_gains=(1.0, 0.3, 0.25, 0.1, 0.08),
    mode_decays=(1.6, 1.0, 0.8, 0.5, 0.4),
    attack=0.005,
    length=1.8,
    fade=0.3,
    level=-12.0,
    pan=0.0,
    seed=4,
)

_FIELD = {Voice.SMALL: "small", Voice.BIG: "big", Voice.CLICK: "click", Voice.CUE: "cue"}


@dataclass(frozen=True)
class Kit:
    """The four voices, each with its own parameters, pan and level.

    Index a kit by voice: ``kit[Voice.BIG].pan``.

    Attributes
    ----------
    small, big, click, cue:
        The :class:`VoiceParams` of 鼙, 鼓, the count-in click and the cue bell.
    rate:
        The sample rate the kit was prepared for (recordings are checked by
        resampling to it when the kit is loaded; :func:`one_shot` renders
        any rate).
    name:
        A name to show (the kit file's, or ``"default"``).
    """

    small: VoiceParams = DEFAULT_SMALL
    big: VoiceParams = DEFAULT_BIG
    click: VoiceParams = DEFAULT_CLICK
    cue: VoiceParams = DEFAULT_CUE
    rate: int = 48000
    name: str = "default"

    def __getitem__(self, voice: Voice) -> VoiceParams:
        return getattr(self, _FIELD[Voice(voice)])

    def with_voice(self, voice: Voice, params: VoiceParams) -> "Kit":
        """A copy with *voice* replaced by *params*."""
        return dataclasses.replace(self, **{_FIELD[voice]: params})

    def to_toml(self) -> str:
        """The kit as a kit file (TOML), every parameter with its meaning."""
        return kit_to_toml(self)


def default_kit(rate: int = 48000) -> Kit:
    """The synthesised kit (see :data:`DEFAULT_SMALL`, :data:`DEFAULT_BIG` …)."""
    return Kit(rate=_check_rate(rate))


def _check_rate(rate: Any) -> int:
    if isinstance(rate, bool) or not isinstance(rate, (int, np.integer)):
        raise UsageError(f"sample rate must be a whole number of Hz, not {rate!r}")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise UsageError(f"sample rate {rate} Hz is out of range ({MIN_RATE}–{MAX_RATE} Hz)")
    return int(rate)


# -- synthesis -------------------------------------------------------------

def synthesize(params: VoiceParams, rate: int) -> np.ndarray:
    """One synthesised hit of *params* at *rate*: float64, peak = ``params.gain``.

    Modes whose frequency would reach 0.45 × *rate* are left out (no aliasing).
    """
    n = max(1, int(round(params.length * rate)))
    t = np.arange(n, dtype=np.float64) / rate
    out = np.zeros(n)
    # phase of a mode whose frequency falls from f·(1+fall) towards f
    warp = t + params.pitch_fall * params.pitch_fall_time * (1.0 - np.exp(-t / params.pitch_fall_time))
    top = 1.0 + max(params.pitch_fall, 0.0)
    for ratio, gain, decay in zip(params.mode_ratios, params.mode_gains, params.mode_decays):
        f = params.fundamental * ratio
        if gain == 0 or f * top >= 0.45 * rate:
            continue
        out += gain * np.exp(-_LN1000 * t / decay) * np.sin(2.0 * np.pi * f * warp)
    if params.noise_level > 0:
        m = min(n, int(math.ceil(8 * params.noise_decay * rate)) + 1)
        rng = np.random.default_rng(params.seed)
        noise = rng.random(m) * 2.0 - 1.0
        if 0 < params.noise_cutoff < rate / 2:
            noise = _one_pole_lowpass(noise, params.noise_cutoff, rate)
            noise /= np.max(np.abs(noise)) or 1.0
        out[:m] += params.noise_level * noise * np.exp(-t[:m] / params.noise_decay)
    _shape(out, params.attack, params.fade, rate)
    peak = float(np.max(np.abs(out)))
    if peak == 0:
        raise ValueError("the voice is silent at this sample rate (every mode above 0.45 × rate)")
    return out * (params.gain / peak)


def _one_pole_lowpass(x: np.ndarray, cutoff: float, rate: int) -> np.ndarray:
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff / rate)
    y = np.empty_like(x)
    acc = 0.0
    for i, v in enumerate(x.tolist()):
        acc += a * (v - acc)
        y[i] = acc
    return y


def _shape(x: np.ndarray, attack: float, fade: float, rate: int) -> None:
    """Raised-cosine attack and fade, in place."""
    n = len(x)
    a = min(n, int(round(attack * rate)))
    if a > 0:
        x[:a] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(a) / a)
    f = min(n, int(round(fade * rate)))
    if f > 0:
        x[n - f:] *= 0.5 + 0.5 * np.cos(np.pi * (np.arange(f) + 1) / f)


# -- recordings --------------------------------------------------------------

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
    try:
        data, source_rate = sf.read(path, dtype="float64", always_2d=True)
    except Exception as e:  # libsndfile's errors are RuntimeError / LibsndfileError / TypeError
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UsageError(f"{path}: cannot read this recording ({reason}); "
                         "use WAV, FLAC or OGG") from None
    if data.shape[0] == 0:
        raise UsageError(f"{path}: the recording is empty")
    mono = data.mean(axis=1)
    if not np.all(np.isfinite(mono)):
        raise UsageError(f"{path}: the recording holds invalid samples (NaN or infinity)")
    peak = float(np.max(np.abs(mono)))
    if peak == 0:
        raise UsageError(f"{path}: the recording is silent")
    level = np.abs(mono)
    first = int(np.argmax(level >= peak * 10 ** (ONSET_THRESHOLD_DB / 20)))
    last = int(np.nonzero(level >= peak * 10 ** (TAIL_THRESHOLD_DB / 20))[0][-1])
    mono = mono[first: last + 1]
    limit = int(MAX_RECORDING_SECONDS * source_rate)
    if len(mono) > limit:
        mono = mono[:limit].copy()
        _shape(mono, 0.0, 0.05, source_rate)
    mono.setflags(write=False)
    return mono, int(source_rate)


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
        raise UsageError(f"{p}: no such recording") from None
    except OSError as e:
        raise UsageError(f"{p}: cannot read: {e.strerror}") from None
    if not os.path.isfile(p):
        raise UsageError(f"{p}: not a file")
    return _read_recording(p, st.st_mtime_ns, st.st_size)


def _recorded(params: VoiceParams, rate: int) -> np.ndarray:
    data, source_rate = read_recording(params.sample)
    x = resample(data, source_rate, rate)     # always a new, writable array
    _shape(x, 0.0, min(params.fade, len(x) / rate), rate)
    peak = float(np.max(np.abs(x)))
    if peak == 0:
        raise UsageError(f"{params.sample}: the recording is silent")
    return x * (params.gain / peak)


# -- one hit -------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _one_shot_cached(params: VoiceParams, rate: int, stamp: tuple) -> np.ndarray:
    x = _recorded(params, rate) if params.sample is not None else synthesize(params, rate)
    out = x.astype(np.float32)
    out.setflags(write=False)
    return out


def voice_one_shot(params: VoiceParams, rate: int) -> np.ndarray:
    """The samples of one hit of *params* at *rate* (read-only float32, mono)."""
    rate = _check_rate(rate)
    stamp: tuple = ()
    if params.sample is not None:
        try:
            st = os.stat(params.sample)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = ("missing",)
    try:
        return _one_shot_cached(params, rate, stamp)
    except ValueError as e:
        raise UsageError(f"voice: {e}") from None


def one_shot(kit: Kit | None, voice: Voice, rate: int) -> np.ndarray:
    """The sound of one hit of *voice* in *kit* at *rate*: mono float32, read-only.

    Its first sample is the onset (a render puts it on sample
    ``round(t × rate)``); its peak is the voice's ``level``. The result is
    cached: asking again costs nothing.
    """
    kit = kit if kit is not None else default_kit()
    return voice_one_shot(kit[Voice(voice)], rate)


# -- kit files -----------------------------------------------------------------

_FIELDS = {f.name for f in dataclasses.fields(VoiceParams)}


def load_kit(path_or_dir: str | os.PathLike, rate: int = 48000) -> Kit:
    """Load a kit: a TOML kit file, or a directory of recordings.

    Parameters
    ----------
    path_or_dir:
        A ``.toml`` kit file (see the module docstring: one table per voice,
        keys are :class:`VoiceParams` fields, ``sample`` paths relative to the
        file), or a directory holding ``small.*`` / ``鼙.*`` / ``pi.*`` and
        ``big.*`` / ``鼓.*`` / ``gu.*`` recordings (WAV, FLAC, OGG),
        optionally ``click.*`` and ``cue.*``.
    rate:
        The sample rate the kit will be used at; every recording is read and
        resampled once now, so a bad one is reported at once.

    Raises
    ------
    UsageError
        Naming the file, when the kit cannot be used: no such path, bad TOML,
        an unknown voice or parameter, a bad value, an unreadable or silent
        recording, a directory without a 鼙 and a 鼓.
    """
    rate = _check_rate(rate)
    p = Path(path_or_dir)
    if p.is_dir():
        kit = _kit_from_directory(p, rate)
    elif p.is_file():
        kit = _kit_from_toml(p, rate)
    elif not p.exists():
        raise UsageError(f"{p}: no such kit (give a kit file .toml or a directory of recordings)")
    else:
        raise UsageError(f"{p}: not a kit file or directory")
    for voice in Voice:
        if kit[voice].sample is not None:
            one_shot(kit, voice, rate)   # read and check every recording now
    return kit


def _kit_from_toml(path: Path, rate: int) -> Kit:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: a kit file must be UTF-8 TOML") from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {e.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not a valid kit file: {e}") from None
    kit = Kit(rate=rate, name=path.stem)
    for key, value in data.items():
        if key == "name":
            if not isinstance(value, str):
                raise UsageError(f"{path}: name must be a string")
            kit = dataclasses.replace(kit, name=value)
            continue
        try:
            voice = Voice.from_name(key)
        except UsageError as e:
            raise UsageError(f"{path}: {e}") from None
        if not isinstance(value, dict):
            raise UsageError(f"{path}: [{key}] must be a table of voice parameters")
        unknown = sorted(set(value) - _FIELDS)
        if unknown:
            raise UsageError(f"{path}: [{key}] unknown parameter {unknown[0]!r} "
                             f"(known: {', '.join(sorted(_FIELDS))})")
        changes = dict(value)
        if "sample" in changes:
            sample = changes["sample"]
            if not isinstance(sample, str) or not sample:
                raise UsageError(f"{path}: [{key}] sample must be the path of a recording")
            changes["sample"] = str((path.parent / Path(sample).expanduser()).resolve())
        for name in ("mode_ratios", "mode_gains", "mode_decays"):
            if name in changes and not isinstance(changes[name], list):
                raise UsageError(f"{path}: [{key}] {name} must be a list of numbers")
        try:
            params = kit[voice].replace(**changes)
        except (ValueError, TypeError) as e:
            raise UsageError(f"{path}: [{key}] {e}") from None
        kit = kit.with_voice(voice, params)
    return kit


def _kit_from_directory(directory: Path, rate: int) -> Kit:
    kit = Kit(rate=rate, name=directory.name or str(directory))
    entries = sorted(directory.iterdir())
    for voice, names in VOICE_NAMES.items():
        found = [e for e in entries if e.is_file() and e.suffix.lower() in RECORDING_EXTENSIONS
                 and e.stem.lower() in names]
        if len(found) > 1:
            raise UsageError(f"{directory}: more than one recording of {voice.value}: "
                             f"{', '.join(f.name for f in found)}")
        if not found:
            if voice in (Voice.SMALL, Voice.BIG):
                wanted = " or ".join(f"{n}.wav" for n in names)
                raise UsageError(f"{directory}: no recording of the {voice.value} "
                                 f"({wanted}; .flac and .ogg also do)")
            continue
        kit = kit.with_voice(voice, kit[voice].replace(sample=str(found[0].resolve())))
    return kit


#: One line on each parameter, for the comments of a written kit file.
PARAMETER_HELP: dict[str, str] = {
    "fundamental": "Hz of the lowest mode",
    "mode_ratios": "frequency of each mode / fundamental (membrane: Bessel zeros j_mn/j_01)",
    "mode_gains": "amplitude of each mode at the strike (relative)",
    "mode_decays": "seconds each mode takes to fall by 60 dB",
    "pitch_fall": "the modes start this fraction sharp (0.06 = 6 %) ...",
    "pitch_fall_time": "... and relax with this time constant (s)",
    "noise_level": "stick noise burst: peak amplitude, in mode_gains units",
    "noise_decay": "stick noise burst: decay time constant (s)",
    "noise_cutoff": "stick noise burst: one-pole low-pass cut-off (Hz; 0 = white)",
    "attack": "raised-cosine rise at the start (s)",
    "length": "seconds of one hit (synthesis)",
    "fade": "raised-cosine fade at the end (s)",
    "level": "peak of one hit, dBFS",
    "pan": "-1 left .. 0 centre .. +1 right",
    "seed": "seed of the noise: same seed, same bytes",
    "sample": "a recording (WAV/FLAC/OGG) to use instead of synthesis",
}

_TITLES = {Voice.SMALL: "鼙, the small drum (○): 其聲下，其音榻榻然 — soft, damped, flat",
           Voice.BIG: "鼓, the big drum (□): 其聲高，其音鏜鏜然 — loud, ringing, booming",
           Voice.CLICK: "the count-in click (not in the sources)",
           Voice.CUE: "the cue bell (not in the sources)"}


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        import json
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def kit_to_toml(kit: Kit) -> str:
    """*kit* as a kit file: one commented table per voice, every parameter."""
    lines = ["# A guji kit file: one table per voice; every key is a voice parameter.",
             "# Load it with --kit FILE. Keys left out keep the default.",
             "# Regenerate: python -m guji.voices --write-samples samples/",
             "",
             f"name = {_toml_value(kit.name)}"]
    width = max(len(n) for n in _FIELDS)
    for voice in Voice:
        params = kit[voice]
        lines += ["", f"# {_TITLES[voice]}", f"[{_FIELD[voice]}]"]
        for f in dataclasses.fields(VoiceParams):
            value = getattr(params, f.name)
            if value is None:
                continue
            lines.append(f"{f.name:<{width}} = {_toml_value(value)}"
                         f"  # {PARAMETER_HELP[f.name]}")
    return "\n".join(lines) + "\n"


# -- samples/ -----------------------------------------------------------------------

#: The one-shot files of samples/: voice → file name.
SAMPLE_FILES = {Voice.SMALL: "small.wav", Voice.BIG: "big.wav", Voice.CLICK: "click.wav",
                Voice.CUE: "cue.wav"}
SAMPLE_RATE = 48000
SAMPLE_SUBTYPE = "PCM_24"
KIT_FILE = "default-kit.toml"


def write_samples(directory: str | os.PathLike, kit: Kit | None = None) -> list[Path]:
    """Write the one-shot WAV of each voice (48 kHz, 24-bit, mono) and the kit file.

    This is how ``samples/`` is made: ``python -m guji.voices --write-samples
    samples/``. The same code writes the same bytes.
    """
    import soundfile as sf
    from ..files import atomic_path

    kit = kit or default_kit(SAMPLE_RATE)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for voice, name in SAMPLE_FILES.items():
        target = out / name
        with atomic_path(target) as tmp:
            sf.write(tmp, one_shot(kit, voice, SAMPLE_RATE), SAMPLE_RATE,
                     subtype=SAMPLE_SUBTYPE, format="WAV")
        written.append(target)
    target = out / KIT_FILE
    with atomic_path(target) as tmp:
        Path(tmp).write_text(kit_to_toml(kit), encoding="utf-8")
    written.append(target)
    return written


def _main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m guji.voices",
        description="Write the default one-shot samples and kit file (the samples/ directory).")
    parser.add_argument("--write-samples", metavar="DIR", required=True,
                        help="directory to write small.wav big.wav click.wav cue.wav "
                             f"{KIT_FILE} into")
    args = parser.parse_args(argv)
    for path in write_samples(args.write_samples):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())

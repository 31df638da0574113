"""The voices and their synthesis: :class:`VoiceParams`, the default 鼙, 鼓, click and cue.

Every sound guji makes is one of four voices (:class:`guji.timing.performance.Voice`):

* ``Voice.SMALL`` — the 鼙, the small drum (○);
* ``Voice.BIG`` — the 鼓, the big drum (□);
* ``Voice.CLICK`` — the neutral count-in click (not in the sources);
* ``Voice.CUE`` — a soft bell marking places outside any pattern (not in
  the sources).

Each voice is described by one :class:`VoiceParams`; the four together, with
their pans and levels, make a :class:`guji.sound.kit.Kit`. This module holds
the parameters, their defaults (:data:`DEFAULT_SMALL`, :data:`DEFAULT_BIG`,
:data:`DEFAULT_CLICK`, :data:`DEFAULT_CUE`) and :func:`synthesize`, which
turns parameters into the samples of one hit. A voice may name a recording
instead (:mod:`guji.sound.recordings`); :func:`guji.sound.oneshot.voice_one_shot`
picks one or the other and caches the result, and
:func:`guji.sound.kit.one_shot` asks it for a voice of a kit.

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
and a fade at its end, its mean taken out (:func:`without_dc`: every hit
sums to zero, so no render carries a DC offset however densely the hits
overlap), and scaled so that its peak is ``level`` dBFS.

Timbre: which reading the defaults follow
-----------------------------------------
陸德明 (釋文): ○ 鼙 — 其聲下，其音榻榻然; □ 鼓 — 其聲高，其音鏜鏜然. 榻榻 is a
flat, damped "ta-ta"; 鏜鏜 the booming of a big drum (詩·擊鼓: 擊鼓其鏜). 聲高 /
聲下 can be read as pitch or as loudness (高聲 is a loud voice). The defaults
follow the **loudness** reading: the 鼓 is 6 dB louder than the 鼙 and rings
for seconds, low and booming (78 Hz, a slight pitch fall); the 鼙 is softer,
higher (as a small drum is) and damped within a quarter of a second, with
more stick noise — flat and dry. A user who prefers the pitch reading gives
the 鼓 a higher ``fundamental`` than the 鼙 in a kit file
(:mod:`guji.sound.kit`).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .shaping import _one_pole_lowpass, shape, without_dc

#: Mode frequencies of an ideal circular membrane relative to the lowest
#: (zeros of the Bessel functions j_mn / j_01): modes (0,1) (1,1) (2,1) (0,2)
#: (3,1) (1,2) (4,1) (2,2).
MEMBRANE_RATIOS: tuple[float, ...] = (1.0, 1.5933, 2.1355, 2.2954, 2.6531, 2.9173, 3.1555, 3.5001)

#: The longest one hit may be, in seconds: the most a synthesised voice's
#: ``length`` may be, and where a recording (after trimming silence) is cut,
#: with a fade: every stroke costs render time in proportion to its length.
MAX_RECORDING_SECONDS = 10.0
#: The most modes a synthesised voice may have (the drums have 4–6).
MAX_MODES = 64

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
        part with its own pan overrides it (see :mod:`guji.sound.mixer`).
    seed:
        Seed of the noise generator (same seed, same noise, same bytes).
    sample:
        Path of a recording to use instead of synthesis, or ``None``.
    more_samples:
        More recordings of the same drum, taken with ``sample`` as its
        strokes' variants (:mod:`guji.sound.strokes`).
    variants, force_spread, strike_position, position_spread:
        How strokes vary (:mod:`guji.sound.strokes`): how many different
        strokes, ± dB of force, the radius (fraction, from the centre) where
        ``mode_gains`` are heard, ± radius of the strike.
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
    more_samples: tuple[str, ...] = ()
    variants: int = 1
    force_spread: float = 0.0
    strike_position: float = 0.7
    position_spread: float = 0.0

    def __post_init__(self) -> None:
        for name in ("mode_ratios", "mode_gains", "mode_decays"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise ValueError(f"{name} must be a list of numbers")
            object.__setattr__(self, name, tuple(_number(name, v) for v in value))
        for name in ("fundamental", "pitch_fall", "pitch_fall_time", "noise_level", "noise_decay",
                     "noise_cutoff", "attack", "length", "fade", "level", "pan", "force_spread",
                     "strike_position", "position_spread"):
            object.__setattr__(self, name, _number(name, getattr(self, name)))
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a whole number, 0 or more, not {self.seed!r}")
        _variation_checks(self)
        n = len(self.mode_ratios)
        if n == 0:
            raise ValueError("mode_ratios must list at least one mode")
        if n > MAX_MODES:          # each mode is a pass over every sample of the hit
            raise ValueError(f"mode_ratios lists {n:,} modes: at most {MAX_MODES}")
        for name in ("mode_gains", "mode_decays"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} needs {n} values, one per mode ratio, "
                                 f"not {len(getattr(self, name))}")
        for name, (low, above, high, unit) in RANGES.items():
            for value in _values(getattr(self, name)):
                _check(low < value <= high if above else low <= value <= high,
                       f"{name} must be {'more than' if above else 'from'} {low:g} "
                       f"{'and at most' if above else 'to'} {high:g}{unit}, not {value:g}")
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


#: The range of each number of a voice: ``(low, above, high, unit)``, the
#: value more than *low* (*above*) or from *low*, and at most *high*. The
#: synthesis computes with them in floating point (a noise burst
#: ``8 × noise_decay × rate`` samples long, modes summed at their gains), so
#: each is bounded well inside what it can take: a kit's ``1e308`` is refused
#: here, in one line, instead of overflowing there.
RANGES: dict[str, tuple[float, bool, float, str]] = {
    "fundamental": (0, True, 20_000, " Hz"),
    "mode_ratios": (0, True, 100, ""),
    "mode_gains": (0, False, 1000, ""),
    "mode_decays": (0, True, 1000, " seconds"),
    "pitch_fall": (-1, True, 10, ""),
    "pitch_fall_time": (0, True, 10, " seconds"),
    "noise_level": (0, False, 1000, ""),
    "noise_decay": (0, True, 10, " seconds"),
    "noise_cutoff": (0, False, 100_000, " Hz"),
    "attack": (0, False, MAX_RECORDING_SECONDS, " seconds"),
    "length": (0, True, MAX_RECORDING_SECONDS, " seconds"),
    "fade": (0, False, MAX_RECORDING_SECONDS, " seconds"),
}


def _values(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _variation_checks(p: VoiceParams) -> None:
    more = p.more_samples
    if isinstance(more, (str, bytes)) or not all(isinstance(m, str) for m in more):
        raise ValueError("more_samples must be a list of paths of recordings")
    object.__setattr__(p, "more_samples", tuple(more))
    _check(not isinstance(p.variants, bool) and isinstance(p.variants, int)
           and 1 <= p.variants <= 64, "variants must be a whole number from 1 to 64")
    _check(0 <= p.force_spread <= 12, "force_spread must be 0 to 12 dB")
    _check(0 < p.strike_position < 1, "strike_position must be between 0 (centre) and 1 (rim)")
    _check(0 <= p.position_spread < 0.5, "position_spread must be 0 or more, below 0.5")


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    try:
        value = float(value)
    except OverflowError:                    # an integer past the float range (2 ** 1024)
        raise ValueError(f"{name} must be finite, not an integer past 1.8e308") from None
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
    variants=8,
    force_spread=2.0,
    strike_position=0.7,
    position_spread=0.08,
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
    variants=8,
    force_spread=2.0,
    strike_position=0.7,
    position_spread=0.08,
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
    shape(out, params.attack, params.fade, rate)
    out = without_dc(out)
    peak = float(np.max(np.abs(out)))
    if peak == 0:
        raise ValueError("the voice is silent at this sample rate (every mode above 0.45 × rate)")
    return out * (params.gain / peak)

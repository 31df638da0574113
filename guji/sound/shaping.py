"""The shaping of one hit: its mean taken out, its attack and fade, a low-pass on its noise.

Used on every synthesised hit (:func:`guji.sound.synth.synthesize`) and on
recordings (:mod:`guji.sound.recordings`, :mod:`guji.sound.oneshot`);
:mod:`guji.sound.synth` gives these names too.
"""

from __future__ import annotations

import math

import numpy as np


def without_dc(x: np.ndarray) -> np.ndarray:
    """*x* with its mean taken out as a smooth bump, so the hit sums to zero.

    A struck membrane's decaying modes and the stick noise leave a hit with a
    small mean (4·10⁻⁴ of full scale for the default 鼓), and hits that
    overlap add it up into an offset of the whole render (2.5·10⁻³ at a
    0.15 s interval). Subtracting a constant would put a step at the hit's
    end; subtracting ``k`` times a Hann window over the whole hit (zero at
    both ends, its energy below 1 Hz) takes out exactly the sum and leaves
    nothing audible. float64 in, float64 out.
    """
    n = len(x)
    if n < 2:
        return x
    window = np.sin(np.pi * (np.arange(n) + 0.5) / n) ** 2
    return x - (float(np.sum(x, dtype=np.float64)) / float(window.sum())) * window


def _one_pole_lowpass(x: np.ndarray, cutoff: float, rate: int) -> np.ndarray:
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff / rate)
    y = np.empty_like(x)
    acc = 0.0
    for i, v in enumerate(x.tolist()):
        acc += a * (v - acc)
        y[i] = acc
    return y


def shape(x: np.ndarray, attack: float, fade: float, rate: int) -> None:
    """Raised-cosine attack and fade, in place.

    The first *attack* seconds of *x* rise from 0, the last *fade* seconds
    fall to 0 (each cut to the length of *x*). Used on every synthesised hit
    and on recordings (:mod:`guji.sound.recordings`).
    """
    n = len(x)
    a = min(n, int(round(attack * rate)))
    if a > 0:
        x[:a] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(a) / a)
    f = min(n, int(round(fade * rate)))
    if f > 0:
        x[n - f:] *= 0.5 + 0.5 * np.cos(np.pi * (np.arange(f) + 1) / f)

"""Strokes that vary as a player's do: force and strike position, seeded from the stroke's place.

A drummer never strikes twice alike: one stroke is a little harder (louder,
brighter, the head stretched a little sharper), the next lands a little
nearer the rim (the membrane's modes sound in other proportions). Sample
libraries answer with round robins and velocity layers, physical models with
the strike position. guji does both, without leaving the grid:

* Each drum (鼙, 鼓) has ``variants`` strokes (:class:`~guji.sound.synth.VoiceParams`),
  made once by :func:`stroke_params`: variant *v*'s force and strike position
  come from a generator seeded with the voice's ``seed`` and *v* — the same
  kit gives the same strokes on every machine.
* Force: ±``force_spread`` dB on the hit's level; the higher modes rise with
  it (a harder stroke is brighter: mode *k* of *n* gets ``force^(k/(n−1))``
  more), the stick's noise and the pitch fall grow in proportion.
* Strike position: ``strike_position`` ± ``position_spread`` (fractions of the
  radius from the centre). An ideal circular membrane struck at radius *r*
  excites mode (m, n) in proportion to J\\ :sub:`m`\\ (j\\ :sub:`mn` · r)
  (:func:`bessel_j`); a voice whose modes are :data:`~guji.sound.synth.MEMBRANE_RATIOS`
  has each mode's gain scaled by J(j·r) / J(j·r₀) (r₀ = ``strike_position``,
  where the kit's ``mode_gains`` are heard), bounded to ¼ … 4.
* A recorded drum takes its recordings in turn as its variants (``small-1.wav``,
  ``small-2.wav`` … in a directory kit: ``sample`` and ``more_samples``), each
  with its own force.

Which variant a stroke sounds is a hash (SplitMix64) of the part's name and the
stroke's grid step (:func:`choose`): its place in the performance, never a global
random generator. The same command gives the same bytes; a loop's passes stand on
other steps and so differ; an onset stays on its exact sample (only the sound
changes, not when it starts). ``--strike exact`` (``Kit.strike``) gives every
stroke of a drum the kit's own hit, as before.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .synth import MEMBRANE_RATIOS, RANGES, VoiceParams

#: (m, n) of each mode of :data:`MEMBRANE_RATIOS`, and j_mn, the n-th zero of J_m.
MEMBRANE_MODES: tuple[tuple[int, float], ...] = (
    (0, 2.404826), (1, 3.831706), (2, 5.135622), (0, 5.520078),
    (3, 6.380162), (1, 7.015587), (4, 7.588342), (2, 8.417244))

#: The strike modes: ``vary`` (default) and ``exact`` (every stroke the kit's own hit).
STRIKES = ("vary", "exact")


def bessel_j(m: int, x: float) -> float:
    """J_m(x) by Bessel's integral (1/π)∫₀^π cos(mτ − x sin τ) dτ (trapezoidal
    rule on a periodic integrand: exact to ~1e-12 for x < 20)."""
    tau = np.linspace(0.0, np.pi, 257)
    f = np.cos(m * tau - x * np.sin(tau))
    return float((f.sum() - 0.5 * (f[0] + f[-1])) / 256)


def _position_factors(params: VoiceParams, r: float) -> tuple[float, ...]:
    """The factor of each mode's gain struck at radius *r* instead of ``strike_position``."""
    if tuple(params.mode_ratios[:len(MEMBRANE_RATIOS)]) != MEMBRANE_RATIOS[:len(params.mode_ratios)]:
        return (1.0,) * len(params.mode_ratios)
    out = []
    for k in range(len(params.mode_ratios)):
        if k >= len(MEMBRANE_MODES):
            out.append(1.0)
            continue
        m, j = MEMBRANE_MODES[k]
        here, there = abs(bessel_j(m, j * r)), abs(bessel_j(m, j * params.strike_position))
        out.append(min(4.0, max(0.25, here / there)) if there > 1e-6 else 1.0)
    return tuple(out)


def variant_count(params: VoiceParams, strike: str) -> int:
    """How many different strokes *params* has under *strike*."""
    if strike == "exact":
        return 1
    recordings = 1 + len(params.more_samples) if params.sample is not None else 1
    return max(params.variants, recordings)


@functools.lru_cache(maxsize=256)
def stroke_params(params: VoiceParams, variant: int) -> VoiceParams:
    """The parameters of stroke *variant* of *params* (see the module docstring)."""
    u_force, u_place, seed = _draws(params.seed, variant, params.variants)
    db = params.force_spread * (2.0 * u_force - 1.0)
    force = 10.0 ** (db / 20.0)
    level = min(0.0, max(-90.0, params.level + db))       # within the level's range
    if params.sample is not None:
        recordings = (params.sample,) + tuple(params.more_samples)
        return params.replace(sample=recordings[variant % len(recordings)], level=level)
    r = params.strike_position + params.position_spread * (2.0 * u_place - 1.0)
    r = min(0.95, max(0.05, r))
    n = len(params.mode_gains)
    place = _position_factors(params, r)
    gains = tuple(g * p * force ** (k / max(n - 1, 1))
                  for k, (g, p) in enumerate(zip(params.mode_gains, place)))
    noise = params.noise_level * force
    most, top = max(*gains, noise), RANGES["mode_gains"][2]
    if most > top:      # within range; scaled together, the hit is the same (its peak is level)
        gains = tuple(min(top, g * (top / most)) for g in gains)
        noise = min(top, noise * (top / most))
    fall = params.pitch_fall * math.sqrt(force)          # within (-1, 10]
    fall = max(min(fall, RANGES["pitch_fall"][2]), min(params.pitch_fall, -0.99))
    return params.replace(mode_gains=gains, level=level, seed=seed, noise_level=noise,
                          pitch_fall=fall)


def _draws(seed: int, variant: int, variants: int) -> tuple[float, float, int]:
    """Variant *variant*'s force and place (0 … 1 each) and noise seed: the force
    in strata (variant *v* of *n* within the *v*-th *n*-th of the spread, jittered
    by a quarter of it), so that no two variants are struck alike; the place
    and the noise seeded freely. SplitMix64 of (seed, variant): plain integer
    arithmetic (importing numpy's random generators would cost every command a
    fifth of its start-up)."""
    jitter, place, noise = (_splitmix(seed * 0x10001 + variant * 0x101 + k) for k in range(3))
    return ((variant % variants + 0.375 + jitter / 2**66) / variants, place / 2**64,
            1 + noise % (2**31 - 1))


def _splitmix(x: int) -> int:
    """One SplitMix64 output for the state *x* (a 64-bit unsigned number)."""
    x = (x + 0x9E3779B97F4A7C15) & _M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M
    return x ^ (x >> 31)


def part_seed(name: str) -> int:
    """The seed of a part's strokes: FNV-1a (64-bit) of its name's UTF-8 bytes, the
    same on every machine and in every run (Python's own ``hash`` of a string is not)."""
    h = 0xCBF29CE484222325
    for byte in name.encode("utf-8", "surrogatepass"):
        h = ((h ^ byte) * 0x100000001B3) & _M
    return h


def variant_table(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """*rows* (the kinds a kind sounds as) as one int64 table, padded, and each row's length."""
    width = max(len(r) for r in rows)
    table = np.array([r + r[:1] * (width - len(r)) for r in rows], dtype=np.int64)
    return table, np.array([len(r) for r in rows], dtype=np.int64)


_M = (1 << 64) - 1


def choose(seed: int, steps: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The variant of each stroke: SplitMix64 of (*seed*, grid step) modulo its
    voice's *counts* (int64 arrays, one per stroke)."""
    with np.errstate(over="ignore"):
        x = steps.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(seed & _M)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return (x % counts.astype(np.uint64)).astype(np.int64)


__all__ = ["MEMBRANE_MODES", "STRIKES", "bessel_j", "choose", "part_seed", "stroke_params",
           "variant_count", "variant_table"]

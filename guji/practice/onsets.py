"""Hits in a recording: when each stroke starts (to a fraction of a sample).

A stroke's attack is sudden; the ring of a 鼓 (big drum) is low and slow,
and the noise of a room is spread over every frequency. So the signal is
split in two bands (:func:`bands`, zero-phase, by FFT): the **low** band
(:data:`LOW_BAND`), where the 鼓 sounds and little noise does, and the
**mid** band (:data:`MID_BAND`), where every stick's attack sounds and the
鼓's ring does not. Then:

1. **coarse** — in each band, every :data:`HOP` seconds the mean energy of a
   short window just after the point (:data:`WINDOW`) is compared with the
   mean energy of the stretch just before it (:data:`HISTORY`); where the
   rise is at least :data:`RISE_DB` in either band, and that band's short
   window is louder than :data:`FLOOR_DB` below its loudest one, a hit
   begins; points closer than :data:`MIN_GAP` are one hit (the largest rise);
2. **fine** — near the coarse point, the first sample of the **high** band
   (:data:`HIGH_BAND`: the stick, above every drum's ring, so the band's
   edges leak nothing of the drum's start before it) whose
   magnitude reaches :data:`ONSET_FRACTION` of the attack's peak (and stands
   well above the noise before it), the crossing placed between two samples
   by linear interpolation: the onset in seconds, not in hops.

Plain functions on numpy arrays, no state: :func:`find_hits` takes a mono
block and returns onset times (seconds from the block's first sample).
"""

from __future__ import annotations

import numpy as np

HOP = 0.0005
WINDOW = 0.002
HISTORY = 0.02
RISE_DB = 15.0
FLOOR_DB = -40.0
MIN_GAP = 0.03
#: The onset: where the differenced signal first reaches this fraction of the attack's peak.
ONSET_FRACTION = 0.2
#: ... and this many times the noise level before the attack.
NOISE_MARGIN = 4.0
#: Digital silence: short windows quieter than this (mean square, full scale 1) hold no hit.
SILENCE = 1e-10
#: Hz: the 鼓's band, the band where every stroke rises, the band that times an attack.
LOW_BAND = (30.0, 300.0)
MID_BAND = (300.0, 5000.0)
HIGH_BAND = (1000.0, 6000.0)
#: A hit's short window stands at least this far (dB) over the band's median one.
OVER_MEDIAN_DB = 10.0


def bands(x: np.ndarray, rate: float, which=(LOW_BAND, MID_BAND, HIGH_BAND)) -> list[np.ndarray]:
    """*x* band-passed to each band of *which* (default [low, mid, high]:
    :data:`LOW_BAND`, :data:`MID_BAND`, :data:`HIGH_BAND`; FFT, raised-cosine
    edges a quarter of the edge wide: no phase shift), at *x*'s rate."""
    return [b for b, _ in decimated_bands(x, rate, which, decimate=False)]


def decimated_bands(x: np.ndarray, rate: float, which, decimate: bool = True
                    ) -> list[tuple[np.ndarray, float]]:
    """(band, its rate) for each band of *which*, as :func:`bands`; with
    *decimate*, each band comes back at the least quick FFT rate that holds
    it (its top edge, twice, with room; never under :data:`LEAST_RATE`): the
    inverse FFT of the spectrum cut there, far fewer samples to look at."""
    n = len(x)
    size = fast_length(n + int(0.05 * rate))    # silence after: no wrap of the end onto the start
    spectrum = np.fft.rfft(x, size)
    out = []
    for lo, hi in which:
        small = size
        if decimate:
            need = max(LEAST_RATE, 2.0 * (hi + hi / 8) * 1.05)
            small = min(size, fast_length(int(np.ceil(size * need / rate))))
        bins = small // 2 + 1
        freqs = np.arange(bins) * (rate / size)
        gain = _edge(freqs, lo, lo / 4) * (1.0 - _edge(freqs, hi, hi / 4))
        band = np.fft.irfft(spectrum[:bins] * gain, small) * (small / size)
        out.append((band[:int(np.ceil(n * small / size))], rate * small / size))
    return out


#: Hz: a decimated band is never slower than this (its 2 ms window keeps 8 samples).
LEAST_RATE = 4000.0


def _refined(x: np.ndarray, coarse: int, rate: float) -> float:
    """:func:`refine` in the high band of *x*, filtered around *coarse* only
    (:data:`LOCAL` seconds either side: the band's edges ring for a few ms)."""
    reach = int(round(LOCAL * rate))
    lo = max(coarse - reach, 0)
    (high,) = bands(x[lo:coarse + reach], rate, (HIGH_BAND,))
    return lo + refine(high, coarse - lo, rate)


#: Seconds either side of a coarse onset filtered to find its fine onset.
LOCAL = 0.08


def fast_length(n: int) -> int:
    """The least length ≥ *n* with no prime factor over 5 (a quick FFT)."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _edge(freqs: np.ndarray, at: float, width: float) -> np.ndarray:
    """0 below *at* − *width*/2, 1 above *at* + *width*/2, a raised cosine between
    (*freqs* ascending: the cosine is taken only where it is neither)."""
    a, b = np.searchsorted(freqs, (at - width / 2, at + width / 2))
    out = np.zeros(len(freqs))
    out[b:] = 1.0
    u = (freqs[a:b] - (at - width / 2)) / width
    out[a:b] = 0.5 - 0.5 * np.cos(np.pi * u)
    return out


def rise(e: np.ndarray, rate: float, times: np.ndarray) -> np.ndarray:
    """The rise in dB of the band *e* (at *rate*) at each of *times* (s), where
    it is loud enough; −inf elsewhere (and where the windows do not fit)."""
    w = max(1, int(round(WINDOW * rate)))
    b = max(1, int(round(HISTORY * rate)))
    cumulative = np.concatenate(([0.0], np.cumsum(e * e)))
    points = np.rint(times * rate).astype(np.int64)
    fits = (points >= b) & (points + w <= len(e))
    points = np.clip(points, b, max(b, len(e) - w))
    after = (cumulative[points + w] - cumulative[points]) / w
    before = (cumulative[points] - cumulative[points - b]) / b
    db = 10.0 * np.log10((after + 1e-20) / (before + 1e-20))
    inside = after[fits]
    top = inside.max() if len(inside) else 0.0
    floor = max(top * 10.0 ** (FLOOR_DB / 10.0), SILENCE,
                float(np.median(inside)) * 10.0 ** (OVER_MEDIAN_DB / 10.0) if len(inside) else 0.0)
    return np.where(fits & (after >= floor), db, -np.inf)


def coarse_onsets(low: tuple[np.ndarray, float], mid: tuple[np.ndarray, float],
                  seconds: float) -> np.ndarray:
    """Times (s, on the :data:`HOP` grid) where hits begin, from the two bands
    (each a (signal, rate) pair) of a signal *seconds* long."""
    times = np.arange(HISTORY, seconds - WINDOW, HOP)
    if len(times) == 0:
        return np.zeros(0)
    rise_db = np.maximum(rise(*low, times), rise(*mid, times))
    candidates = np.flatnonzero(rise_db >= RISE_DB)
    if len(candidates) == 0:
        return np.zeros(0)
    gap = max(1, int(round(MIN_GAP / HOP)))
    breaks = np.flatnonzero(np.diff(candidates) >= gap) + 1
    onsets = [g[int(np.argmax(rise_db[g]))] for g in np.split(candidates, breaks)]
    return times[np.array(onsets, dtype=np.int64)]


def refine(e: np.ndarray, coarse: int, rate: float) -> float:
    """The onset near sample *coarse* of *e*, in (fractional) samples: the first
    crossing of the threshold (module docstring), linearly interpolated."""
    pre = int(round(0.003 * rate))
    lo = max(coarse - pre, 0)
    hi = min(coarse + int(round(0.006 * rate)), len(e))
    mag = np.abs(e[lo:hi])
    if len(mag) == 0:
        return float(coarse)
    quiet = np.abs(e[max(lo - int(round(HISTORY * rate)), 0):lo])
    noise = float(np.sqrt(np.mean(quiet * quiet))) if len(quiet) else 0.0
    threshold = max(ONSET_FRACTION * float(mag.max()), NOISE_MARGIN * noise)
    above = np.flatnonzero(mag >= threshold)
    k = int(above[0]) if len(above) else int(np.argmax(mag))
    if k == 0:
        return float(lo)
    a, b = mag[k - 1], mag[k]
    frac = (threshold - a) / (b - a) if b > a else 1.0
    return lo + k - 1 + float(np.clip(frac, 0.0, 1.0))


def find_hits(x: np.ndarray, rate: float) -> np.ndarray:
    """Onset times (seconds from the first sample, ascending) of the hits in the
    mono signal *x* (see the module docstring)."""
    pad = int(round((HISTORY + 0.01) * rate))      # silence before the first sample
    padded = np.concatenate((np.zeros(pad), np.asarray(x, dtype=np.float64)))
    low, mid = decimated_bands(padded, rate, (LOW_BAND, MID_BAND))
    coarse = coarse_onsets(low, mid, len(padded) / rate)
    onsets = [_refined(padded, int(round(t * rate)), rate) - pad for t in coarse]
    return np.array(onsets, dtype=np.float64) / rate

"""An energy-rise onset detector, for testing rendered audio against a score.

Plain functions on numpy arrays, no state, no dependency beyond numpy, so
any test that renders sound (MIDI through FluidSynth, guji's own audio
renderer, a recorded stream) can check *when* strokes sound:

    >>> import numpy as np
    >>> rate = 48000
    >>> x = np.zeros(rate)
    >>> for t in (0.2, 0.5):                     # two clicks of decaying noise
    ...     i = int(t * rate)
    ...     x[i:i + 2400] = np.random.default_rng(1).normal(size=2400) * np.exp(-np.arange(2400) / 400)
    >>> [round(float(t), 3) for t in detect_onsets(x, rate)]
    [0.2, 0.5]

How it works
------------
1. :func:`to_mono` averages the channels. With ``emphasis`` the signal is
   first differenced (``x[n] − x[n−1]``, a gentle high-pass): a stroke's
   attack is broadband, but the ring of a big drum (鼓) is low, so the
   difference makes a soft stroke stand out of a loud drum's ring.
2. At every *hop* (0.5 ms) the mean energy of a short window just *after*
   the point (``window``, 2 ms) is compared with the mean energy of a longer
   stretch just *before* it (``history``, 20 ms): :func:`energy_rise` gives
   their ratio in dB. At a stroke's onset the ratio peaks: the window after
   holds the attack, the stretch before does not yet.
3. :func:`detect_onsets` keeps the points where the rise is at least
   ``rise_db`` and the short window is louder than ``floor_db`` below the
   loudest short window of the whole signal (so reverb tails and
   near-silence count for nothing); a run of such points closer together
   than ``min_gap`` is one onset, placed at the point of the largest rise.

The time found is where the attack begins, to within a hop or two: a
synthesiser's own latency (FluidSynth renders a drum sample 1–2 ms after
its note-on) shows up as a small constant offset, which tests should
measure and report rather than subtract.

:func:`match_onsets` pairs detected onsets with scheduled times.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def to_mono(samples: np.ndarray) -> np.ndarray:
    """A 1-D float64 signal: *samples* as is, or frames × channels averaged."""
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim == 2:
        x = x.mean(axis=1)
    elif x.ndim != 1:
        raise ValueError(f"expected samples or frames × channels, not shape {x.shape}")
    return x


def emphasise(x: np.ndarray) -> np.ndarray:
    """First difference ``y[n] = x[n] − x[n−1]`` (``y[0] = x[0]``): a
    6 dB/octave high-pass that keeps attacks and damps low rings."""
    x = np.asarray(x, dtype=np.float64)
    return np.diff(x, prepend=0.0)


def energy_rise(x: np.ndarray, rate: float, *, hop: float = 0.0005, window: float = 0.002,
                history: float = 0.02, eps: float = 1e-20) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The energy rise of a mono signal, point by point.

    Parameters
    ----------
    x:
        Mono signal.
    rate:
        Samples a second.
    hop:
        Seconds between the points examined.
    window:
        Seconds of the short window after each point.
    history:
        Seconds of the stretch before each point.
    eps:
        Added to both energies, so silence gives 0 dB, not NaN.

    Returns
    -------
    times, rise_db, energy
        Each point's time in seconds; ``10·log10((after + eps) / (before + eps))``;
        and the mean energy (mean square) of the window after the point.
    """
    x = np.asarray(x, dtype=np.float64)
    h = max(1, int(round(hop * rate)))
    w = max(1, int(round(window * rate)))
    b = max(1, int(round(history * rate)))
    cumulative = np.concatenate(([0.0], np.cumsum(x * x)))
    points = np.arange(0, max(0, len(x) - w) + 1, h)
    after = (cumulative[points + w] - cumulative[points]) / w
    start = np.maximum(points - b, 0)
    span = np.maximum(points - start, 1)
    before = (cumulative[points] - cumulative[start]) / span
    rise = 10.0 * np.log10((after + eps) / (before + eps))
    return points / rate, rise, after


def detect_onsets(samples: np.ndarray, rate: float, *, rise_db: float = 15.0,
                  floor_db: float = -40.0, min_gap: float = 0.03, emphasis: bool = True,
                  hop: float = 0.0005, window: float = 0.002,
                  history: float = 0.02) -> np.ndarray:
    """Times (seconds) of the onsets in *samples*.

    Parameters
    ----------
    samples:
        Mono samples, or frames × channels (averaged).
    rate:
        Samples a second.
    rise_db:
        Least rise of the short window's energy over the stretch before it.
    floor_db:
        The short window must be louder than this, relative to the loudest
        short window of the signal.
    min_gap:
        Candidate points closer than this belong to one onset.
    emphasis:
        Difference the signal first (see :func:`emphasise`).
    hop, window, history:
        See :func:`energy_rise`.

    Returns
    -------
    numpy.ndarray
        Onset times in seconds, ascending; empty for silence.
    """
    x = to_mono(samples)
    if emphasis:
        x = emphasise(x)
    times, rise, energy = energy_rise(x, rate, hop=hop, window=window, history=history)
    if len(energy) == 0 or energy.max() <= 0:
        return np.zeros(0)
    loud = energy >= energy.max() * 10.0 ** (floor_db / 10.0)
    candidates = np.flatnonzero((rise >= rise_db) & loud)
    if len(candidates) == 0:
        return np.zeros(0)
    onsets = []
    group = [candidates[0]]
    for i in candidates[1:]:
        if times[i] - times[group[-1]] < min_gap:
            group.append(i)
        else:
            onsets.append(group)
            group = [i]
    onsets.append(group)
    return np.array([times[g[int(np.argmax(rise[g]))]] for g in onsets])


@dataclass(frozen=True)
class OnsetMatch:
    """How detected onsets meet scheduled times.

    Attributes
    ----------
    errors:
        For each scheduled time that found an onset within the tolerance,
        detected − scheduled, in seconds (scheduled order).
    matched:
        Indices of those scheduled times.
    missing:
        Scheduled times with no onset within the tolerance.
    extra:
        Detected onsets matched to no scheduled time.
    """

    errors: np.ndarray
    matched: tuple[int, ...]
    missing: tuple[float, ...]
    extra: tuple[float, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra

    def summary(self) -> str:
        """One line: counts and max / mean absolute error in ms, mean offset."""
        if len(self.errors):
            e = np.abs(self.errors) * 1000
            figures = (f"max {e.max():.2f} ms, mean {e.mean():.2f} ms, "
                       f"mean offset {self.errors.mean() * 1000:+.2f} ms")
        else:
            figures = "no match"
        return (f"{len(self.matched)} matched, {len(self.missing)} missing, "
                f"{len(self.extra)} extra; {figures}")


def match_onsets(scheduled, detected, tolerance: float = 0.010) -> OnsetMatch:
    """Pair each scheduled time with at most one detected onset, one to one.

    Both sequences are sorted; a scheduled time takes the nearest unused
    onset within *tolerance* seconds (walking both in order, so each onset
    serves one stroke only).
    """
    s = np.sort(np.asarray(scheduled, dtype=np.float64))
    d = np.sort(np.asarray(detected, dtype=np.float64))
    used = np.zeros(len(d), dtype=bool)
    errors, matched, missing = [], [], []
    j = 0
    for i, t in enumerate(s):
        while j < len(d) and d[j] < t - tolerance:
            j += 1
        best = None
        k = j
        while k < len(d) and d[k] <= t + tolerance:
            if not used[k] and (best is None or abs(d[k] - t) < abs(d[best] - t)):
                best = k
            k += 1
        if best is None:
            missing.append(float(t))
        else:
            used[best] = True
            errors.append(d[best] - t)
            matched.append(i)
    extra = tuple(float(v) for v in d[~used])
    return OnsetMatch(np.array(errors), tuple(matched), tuple(missing), extra)

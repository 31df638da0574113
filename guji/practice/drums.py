"""Which drum a hit is: 鼙 (small, higher, damped) or 鼓 (big, low, ringing).

At each onset the power spectrum of a short window just after it
(:data:`WINDOW`, Hann) is compared with that of the same length just before
it: what the hit *added* (the after spectrum less the before, never below
zero) is what this stroke sounds, not the ring of the strokes before. The
share of that added energy below :data:`LOW_HZ` (of all of it below
:data:`TOP_HZ`) tells the drums apart: guji's 鼓 rings at 78 Hz, its 鼙 at
196 Hz and up. A share over :data:`THRESHOLD` is a 鼓; the confidence is how
far the share stands from the threshold (0 at it, 1 at 0 or 1).
"""

from __future__ import annotations

import numpy as np

WINDOW = 0.04
LOW_HZ = 140.0
TOP_HZ = 3000.0
THRESHOLD = 0.35


def low_share(x: np.ndarray, onset: float, rate: float) -> float:
    """The share of the energy a hit at sample *onset* of *x* added below :data:`LOW_HZ`."""
    n = max(16, int(round(WINDOW * rate)))
    start = int(np.ceil(onset))
    after = x[start:start + n]
    before = x[max(start - n - 1, 0):max(start - 1, 0)]
    window = np.hanning(n)
    spectrum = _power(after, window)
    if len(before):
        spectrum = np.maximum(spectrum - _power(before, window), 0.0)
    freqs = np.fft.rfftfreq(n, 1.0 / rate)
    total = float(spectrum[freqs < TOP_HZ].sum())
    if total <= 0:
        return 0.0
    return float(spectrum[freqs < LOW_HZ].sum()) / total


def _power(x: np.ndarray, window: np.ndarray) -> np.ndarray:
    padded = np.zeros(len(window))
    padded[:len(x)] = x
    return np.abs(np.fft.rfft(padded * window)) ** 2


def classify(share: float) -> tuple[bool, float]:
    """(a 鼓?, confidence 0…1) of a hit whose :func:`low_share` is *share*."""
    big = share >= THRESHOLD
    span = (1.0 - THRESHOLD) if big else THRESHOLD
    return big, min(1.0, abs(share - THRESHOLD) / span)

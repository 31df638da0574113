"""Which drum a hit is: 鼙 (small, higher, damped) or 鼓 (big, low, ringing).

At each onset the power spectrum of a short window just after it
(:data:`WINDOW`, Hann) is compared with that of the same length just before
it: what the hit *added* (the after spectrum less the before, never below
zero) is what this stroke sounds, not the ring of the strokes before. The
share of that added energy below :data:`LOW_HZ` (of all of it below
:data:`TOP_HZ`) tells the drums apart: guji's 鼓 rings at 78 Hz, its 鼙 at
196 Hz and up. A share over the threshold is a 鼓; the confidence is how
far the share stands from the threshold (0 at it, 1 at 0 or 1). The
threshold is the recording's own (:func:`threshold_for`): half-way across
the gap between its two groups of shares, when there are two clear groups
(another kit, a room), else :data:`THRESHOLD` (measured on guji's voices).
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


def classify(share: float, threshold: float = THRESHOLD) -> tuple[bool, float]:
    """(a 鼓?, confidence 0…1) of a hit whose :func:`low_share` is *share*."""
    big = share >= threshold
    span = (1.0 - threshold) if big else threshold
    return big, min(1.0, abs(share - threshold) / span)


def threshold_for(shares) -> float:
    """The threshold between the drums of one recording: where its hits'
    shares fall in two clear groups (:func:`two_groups`), half-way between
    the highest of the lower group and the lowest of the higher; else
    :data:`THRESHOLD`. Another kit (a 鼙 tuned lower, a 鼓 with a bright
    head) or a room's reverb moves both drums' shares, not their order."""
    odds = _logit(np.sort(np.asarray(shares, dtype=np.float64)))
    groups = two_groups(odds)
    if groups is None:
        return THRESHOLD
    low, high = groups
    middle = float((low.max() + high.min()) / 2)
    return float(1.0 / (1.0 + np.exp(-middle)))


def _logit(p: np.ndarray) -> np.ndarray:
    """The log-odds of shares (clipped to 10⁻⁴ … 1 − 10⁻⁴): a share of 0.001
    and one of 0.15 are as far apart as 0.15 and 0.95."""
    q = np.clip(p, 1e-4, 1 - 1e-4)
    return np.log(q / (1 - q))


#: Two groups of shares are "clear" when their means are this far apart (in
#: log-odds: 2 is a factor of e² ≈ 7.4 in the odds) …
LEAST_SEPARATION = 2.0
#: … and this many pooled standard deviations apart (4 left a reverberant
#: room's 鼙 and 鼓 at one threshold in 2 of 12 performances; 3 chosen on
#: that, then checked on seeds it was not chosen on: docs/practice.md).
LEAST_CONTRAST = 3.0


def two_groups(shares: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The sorted values *shares* (log-odds) split in two at the cut that leaves the least spread
    within the two (1-D two-means, every cut tried), if the two are clear
    (:data:`LEAST_SEPARATION`, :data:`LEAST_CONTRAST`) and each holds at
    least two hits; else ``None`` (one drum only, or no clear split)."""
    n = len(shares)
    if n < 4:
        return None
    cumulative = np.cumsum(shares)
    squares = np.cumsum(shares * shares)
    k = np.arange(2, n - 1)                        # the lower group: shares[:k]
    left = squares[k - 1] - cumulative[k - 1] ** 2 / k
    right = (squares[-1] - squares[k - 1]) - (cumulative[-1] - cumulative[k - 1]) ** 2 / (n - k)
    cut = int(k[np.argmin(left + right)])
    low, high = shares[:cut], shares[cut:]
    separation = float(high.mean() - low.mean())
    pooled = float(np.sqrt((low.var() * len(low) + high.var() * len(high)) / n))
    if separation < LEAST_SEPARATION or separation < LEAST_CONTRAST * pooled:
        return None
    return low, high


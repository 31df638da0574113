"""Pan: where a voice stands between the left and right speakers (constant power)."""

from __future__ import annotations

import math

from ..errors import UsageError
from ..i18n import _


def pan_gains(pan: float) -> tuple[float, float]:
    """Constant-power pan law: ``(left, right)`` gains for *pan* in −1 … +1,
    ``left = sin((1 − pan)·π/4)``, ``right = sin((1 + pan)·π/4)``.

    −1 → ``(1.0, 0.0)`` exactly, +1 → ``(0.0, 1.0)`` exactly, 0 →
    ``(0.7071…, 0.7071…)``.
    """
    pan = float(pan)
    if not -1.0 <= pan <= 1.0:
        raise UsageError(_('pan must be between -1 (left) and 1 (right), not {pan:g}').format(pan=pan))
    return math.sin((1.0 - pan) * math.pi / 4.0), math.sin((1.0 + pan) * math.pi / 4.0)

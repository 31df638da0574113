"""One place for guji's defaults, and the checks of what a user gives instead.

* the sample rate: :data:`RATE` (48 kHz), :data:`MIN_RATE` … :data:`MAX_RATE`,
  :func:`check_rate`;
* the output latency of live playback: :data:`LATENCY` (0.2 s, measured:
  :mod:`guji.sound.player`), :func:`check_latency`;
* the interval between strokes: :data:`INTERVAL` (0.6 s, 100 strokes a minute:
  the reasoning in :mod:`guji.timing.score`, which checks an interval) and
  :data:`MIN_INTERVAL`.

The latency
-----------
:data:`LATENCY` is 0.2 s, from measurements on a PulseAudio sink
that runs on the clock as a sound card does (30 strokes, 9 s a run, both
cores of a 2-core machine kept busy, latencies interleaved run by run):
PortAudio's ``'low'`` (8.7 ms) glitched in every run, 20 ms in 8 of 12, 50 ms
in 11 of 13, 0.1 s in 8 of 23, **0.2 s in 2 of 23**, 0.3 s in none of 6;
unloaded, 0.1 and 0.2 s never. A larger latency costs nothing at the start
(the first buffer is heard at once) and nothing in sync (events are
announced by the output clock); only pause and quit take effect up to one
latency later. ``--latency 0.3`` for machines busier still.

Nothing here imports numpy or any stage of guji, so the command line's
options take their defaults and checks from here at no cost.
"""

from __future__ import annotations

import operator
from typing import Any

from .i18n import _
from .errors import UsageError

#: Samples a second when the user says nothing (``--rate``).
RATE = 48000

#: Sample rates guji renders and plays at.
MIN_RATE = 8000
MAX_RATE = 192000

#: Seconds of output buffer asked of PortAudio (``guji play --latency``).
LATENCY = 0.2

#: Seconds between strokes when the user says nothing (``--interval``).
INTERVAL = 0.6

#: The integrated loudness (LUFS, ITU-R BS.1770) of the sound when the user says
#: nothing (``--loudness``): the commands' and the studio's (a library call's kit
#: keeps ``None``, the old peak rule, unless asked).
LOUDNESS_LUFS = -16.0

#: No interval below this (5 ms, 12,000 strokes a minute) is accepted.
MIN_INTERVAL = 0.005


def check_rate(rate: Any) -> int:
    """*rate* as an int, or :class:`UsageError` if it is no whole number of Hz in range
    (numpy's integers are whole numbers too)."""
    try:
        if isinstance(rate, bool):
            raise TypeError
        value = operator.index(rate)
    except TypeError:
        raise UsageError(_('sample rate must be a whole number of Hz, not {rate}').format(rate=repr(rate))) from None
    if not MIN_RATE <= value <= MAX_RATE:
        raise UsageError(_('sample rate {value} Hz is out of range ({min_rate}–{max_rate} Hz)').format(value=value, min_rate=MIN_RATE, max_rate=MAX_RATE))
    return int(value)


def check_latency(latency: Any) -> float:
    """*latency* as seconds between 1 ms and 2 s, or :class:`UsageError`."""
    try:
        value = float(latency)
    except (TypeError, ValueError):
        raise UsageError(_('the latency is a number of seconds, not {latency}').format(latency=repr(latency))) from None
    if not 0.001 <= value <= 2.0:
        raise UsageError(_('the latency must be 0.001–2 seconds, not {value:g}').format(value=value))
    return value

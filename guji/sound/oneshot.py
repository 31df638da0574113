"""One hit of a voice at a sample rate: synthesised or recorded, made once.

:func:`voice_one_shot` turns the :class:`~guji.sound.synth.VoiceParams` of a
voice into the samples of one hit at a rate: :func:`~guji.sound.synth.synthesize`
when it names no recording, else :func:`~guji.sound.recordings.recorded`. The
result is cached (a render asks for each voice once a part, a test many
times): the key is the parameters, the rate and, for a recording, the file's
modification time and size, so an edited recording is read again.

The sample rates guji renders and plays at are checked here
(:data:`MIN_RATE` … :data:`MAX_RATE`, :func:`check_rate`).
:func:`guji.sound.kit.one_shot` asks for a voice of a kit.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ..errors import UsageError
from .recordings import recorded
from .synth import VoiceParams, synthesize

#: Sample rates guji renders and plays at.
MIN_RATE = 8000
MAX_RATE = 192000


def check_rate(rate: Any) -> int:
    """*rate* as an int, or :class:`UsageError` if it is no whole number of Hz in range."""
    if isinstance(rate, bool) or not isinstance(rate, (int, np.integer)):
        raise UsageError(f"sample rate must be a whole number of Hz, not {rate!r}")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise UsageError(f"sample rate {rate} Hz is out of range ({MIN_RATE}–{MAX_RATE} Hz)")
    return int(rate)


@functools.lru_cache(maxsize=64)
def _one_shot_cached(params: VoiceParams, rate: int, stamp: tuple) -> np.ndarray:
    x = recorded(params, rate) if params.sample is not None else synthesize(params, rate)
    out = x.astype(np.float32)
    out.setflags(write=False)
    return out


def voice_one_shot(params: VoiceParams, rate: int) -> np.ndarray:
    """The samples of one hit of *params* at *rate* (read-only float32, mono)."""
    rate = check_rate(rate)
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

"""The loudness limiter leaves no offset and no low-frequency change (guji issue 36).

A drum stroke's sine starts on its first lobe, and its mean (the 0 Hz of its
spectrum) is taken out by a bump under the whole hit (:func:`guji.sound.shaping.without_dc`).
The limiter turns the first cycles down and not the bump, so its change to the
render, ``limited − gain × raw``, has a sum of its own: the render once carried
an offset of −4.8·10⁻⁴ (left) and −7.6·10⁻⁴ (right) where ``--loudness off``
has 2·10⁻⁸, and the change's spectrum its largest part below 20 Hz. Slower gain
ramps do not help (the sum is the first lobe's); the limiter now takes its
change's low part out (a unit-sum triangle ~170 ms wide). Checked: the default
render of every shipped pattern has a mean under 10⁻⁵ a channel; the change
below 2 Hz holds under 10⁻⁶ of the render's energy (it was 1.6·10⁻⁴); the
loudness and true peak stay the issue's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import soundfile as sf

from guji.sound.level import levelled, plan
from guji.sound.mixer import Mix
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.score import Score

from runner import guji

#: The shipped patterns (``guji list``: each score and diagram in each edition).
PATTERNS = [f"{name}:{diagram}@{edition}" for edition in ("liji-zhengyi", "lijing-benyi", "wuli-tongkao")
            for name in ("lu", "xue") for diagram in (1, 2)]


def test_every_shipped_patterns_default_render_has_no_offset(tmp_path):
    listed = guji(["list"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    shown = {line.split()[0] for line in listed.stdout.decode().splitlines()[1:] if line.strip()}
    assert shown == set(PATTERNS)
    for name in PATTERNS:
        run = guji(["render", name, "-o", "x.wav"], tmp_path)
        assert run.returncode == 0, run.stderr
        x, _ = sf.read(tmp_path / "x.wav", dtype="float64")
        assert np.all(np.abs(x.mean(axis=0)) < 1e-5), (name, x.mean(axis=0))


def _band(x: np.ndarray, rate: int, below: float) -> float:
    """The energy of *x* (both channels) below *below* Hz."""
    spectrum = np.fft.rfft(x, axis=0)
    return float(np.sum(np.abs(spectrum[np.fft.rfftfreq(len(x), 1.0 / rate) < below]) ** 2))


@pytest.mark.parametrize("name", ["lu", "xue:2"])
def test_the_limiters_change_has_no_low_frequencies(name):
    rate = 48000
    mix = Mix(Score(load(name), Rite.TOUHU, 0.6), rate=rate)
    raw = mix.array().astype(np.float64)
    level = plan(mix, -16.0)
    limited = np.concatenate(list(levelled(mix, level, rate, 0, mix.frames))).astype(np.float64)
    gain = 10.0 ** (level.gain_db / 20.0)
    change = limited - gain * raw
    total = _band(limited, rate, math.inf)
    # the limiter does work here: its change is a few % of the render's energy ...
    assert _band(change, rate, math.inf) > 0.01 * total
    # ... and nothing of it below 2 Hz (the offset's neighbourhood), little below 5 Hz
    assert _band(change, rate, 2.0) < 1e-6 * total, _band(change, rate, 2.0) / total
    assert _band(change, rate, 5.0) < 5e-5 * total, _band(change, rate, 5.0) / total
    assert np.all(np.abs(change.mean(axis=0)) < 1e-6)

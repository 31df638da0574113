"""guji's onset detector against librosa's, on the practice test set (optional).

Every shipped pattern played by guji's voices (tests/practice_set.py:
jitter 20 ms, 2 wrong, 2 missing, 2 extra strokes, seeds 1000+), without
noise and with white noise at −30 dB; for each detector: F1 of the hits
found within 20 ms of the truth, the median and 95th percentile of
|onset − truth| of the hits matched, and the CPU time. librosa is not a
dependency of guji: run this from an environment that has it
(``pip install librosa``); without it, only guji's figures are printed.

    python bench/bench_detectors.py

librosa: ``onset.onset_detect(units="time", backtrack=True)`` on
``onset_strength`` with hop 128 (2.7 ms at 48 kHz; the default 512 is
10.7 ms), its default peak picking.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from practice_set import f1, perform, shipped_patterns  # noqa: E402

from guji.practice.onsets import find_hits  # noqa: E402

RATE = 48000


def _librosa():
    try:
        import librosa
    except ImportError:
        return None

    def detect(x, rate):
        env = librosa.onset.onset_strength(y=x.astype(np.float32), sr=rate, hop_length=128)
        return librosa.onset.onset_detect(onset_envelope=env, sr=rate, hop_length=128,
                                          units="time", backtrack=True)
    return detect


def _errors(found, truth, tolerance=0.020):
    found, truth = np.sort(found), np.sort(truth)
    out = []
    for t in truth:
        if len(found):
            d = found[np.argmin(np.abs(found - t))] - t
            if abs(d) <= tolerance:
                out.append(d * 1000)
    return out


def main() -> None:
    detectors = {"guji": find_hits}
    lib = _librosa()
    if lib is None:
        print("librosa not installed: only guji's detector measured")
    else:
        import librosa
        detectors[f"librosa {librosa.__version__}"] = lib
    for noise_db in (None, -30.0):
        takes = [perform(p, seed=1000 + i, jitter=0.02, wrong=2, missing=2, extra=2,
                         noise_db=noise_db) for i, p in enumerate(shipped_patterns())]
        for name, detect in detectors.items():
            scores, errors, cpu = [], [], 0.0
            for x, truth in takes:
                c0 = time.process_time()
                found = np.asarray(detect(x, RATE))
                cpu += time.process_time() - c0
                want = [t for t, _ in truth.hits]
                scores.append(f1(list(found), want)[0])
                errors += _errors(found, want)
            seconds = sum(len(x) for x, _ in takes) / RATE
            noise = "none" if noise_db is None else f"{noise_db:g} dB"
            e = np.array(errors)
            lead = float(np.median(e))
            spread = np.abs(e - lead)
            print(f"noise {noise:>7}, {name:>14}: F1 min {min(scores):.3f} mean "
                  f"{np.mean(scores):.4f}; onset − truth median {lead:+.3f} ms; |error − that| "
                  f"median {np.median(spread):.3f} ms, 95th {np.percentile(spread, 95):.3f} ms; "
                  f"CPU {cpu:.2f} s for {seconds:.0f} s of audio", flush=True)


if __name__ == "__main__":
    main()

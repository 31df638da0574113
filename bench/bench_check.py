"""Seconds to check a 10-minute recording (``guji check``'s work, in process).

A seeded performance of 魯鼓 (射禮, the whole pattern) repeated for ten
minutes at the default interval, with Gaussian jitter of 20 ms and noise at
−40 dB, played by guji's own voices (tests/practice_set.py), written as a
48 kHz stereo WAV and a FLAC; then, for each, the time to transcribe it
(read, find the hits, tell the drums) and pair it with the score, best of
three, wall clock and CPU time of the process (the machine is shared: CPU
time is the figure load does not inflate). Target: under 5 s.

    .venv/bin/python bench/bench_check.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from practice_set import perform  # noqa: E402

from guji.practice.expected import expected_events  # noqa: E402
from guji.practice.pairing import pair  # noqa: E402
from guji.practice.report import rows, summarise  # noqa: E402
from guji.practice.transcribe import transcribe  # noqa: E402
from guji.text.reading.editions import load  # noqa: E402
from guji.text.reading.notation import Rite  # noqa: E402
from guji.timing.layout import lay_out  # noqa: E402
from guji.timing.performance import Timing  # noqa: E402


def main() -> None:
    pattern = load("lu")
    per_pass = len(pattern.strokes_for(Rite.SHE)) * 0.6
    repeat = int(np.ceil(600 / per_pass))
    x, truth = perform(pattern, seed=1, jitter=0.02, noise_db=-40.0, repeat=repeat)
    stereo = np.stack([x, x], axis=1)
    events = expected_events(lay_out([pattern], Timing(Rite.SHE, 0.6, repeat)))
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("take.wav", "take.flac"):
            path = Path(tmp) / name
            sf.write(path, stereo, 48000)
            wall = cpu = float("inf")
            for _ in range(3):
                t0, c0 = time.perf_counter(), time.process_time()
                heard = transcribe(path)
                p = pair(events, heard.hits, 0.6)
                s = summarise(p, rows(p))
                wall = min(wall, time.perf_counter() - t0)
                cpu = min(cpu, time.process_time() - c0)
            print(f"{name}: {len(x) / 48000 / 60:.1f} min, {len(events)} strokes, "
                  f"{s.right} right: {wall:.2f} s wall, {cpu:.2f} s CPU (best of 3)")


if __name__ == "__main__":
    main()

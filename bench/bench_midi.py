"""Speed and memory of MIDI export and read-back; FluidSynth onset timing.

Prints figures, asserts nothing. Run: ``.venv/bin/python bench/bench_midi.py``
(``--no-fluidsynth`` to skip rendering).
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from guji.text.reading.editions import load
from guji.midi import read_midi, write_midi
from guji.text.reading.notation import Rite
from guji.timing.score import Score
from guji.timing.performance import Cue

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import onsets  # noqa: E402

SOUNDFONT = "/usr/share/sounds/sf2/TimGM6mb.sf2"


def timed(fn):
    """(result, seconds, peak bytes): timed plainly, then run again under
    tracemalloc for the memory (which slows it down)."""
    t0 = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - t0
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, elapsed, peak


def bench_export(tmp: Path) -> None:
    pattern = load("xue:2")
    print("strokes   write s   peak MB   read s   peak MB   bytes/stroke   last-stroke error (ticks)")
    for strokes in (1_000, 10_000, 33_000, 100_000):
        score = Score(pattern, Rite.SHE, 0.2371, repeat=math.ceil(strokes / len(pattern.strokes)))
        path = tmp / f"b{strokes}.mid"
        _, w, wpeak = timed(lambda: write_midi(path, score))
        reading, r, rpeak = timed(lambda: read_midi(path))
        per_second = reading.ticks_per_beat * 1e6 / reading.tempo
        err = reading.hits[-1].time * per_second - score.end * per_second
        print(f"{score.stroke_count:7d}   {w:7.2f}   {wpeak / 1e6:7.1f}   {r:6.2f}   "
              f"{rpeak / 1e6:7.1f}   {path.stat().st_size / len(score):12.1f}   {err:+.3f}")


def bench_fluidsynth(tmp: Path) -> None:
    if shutil.which("fluidsynth") is None:
        print("fluidsynth not installed: onset timing skipped")
        return
    import soundfile as sf
    print("\nFluidSynth onsets (detected − scheduled, every stroke, click and cue):")
    for pid in ("lu:1", "xue:1", "lu:2", "xue:2"):
        for interval, melodic in ((0.6, False), (0.3, False), (0.2, False), (0.6, True)):
            score = Score(load(pid), Rite.SHE, interval, count_in=2)
            cues = [Cue(score.duration + 0.5, "end")]
            mid = write_midi(tmp / "f.mid", score, cues, melodic=melodic)
            wav = tmp / "f.wav"
            t0 = time.perf_counter()
            subprocess.run(["fluidsynth", "-ni", "-q", "-r", "48000", "-F", str(wav), SOUNDFONT,
                            str(mid)], check=True, capture_output=True)
            render = time.perf_counter() - t0
            x, rate = sf.read(wav)
            found = onsets.detect_onsets(x, rate, rise_db=12.0 if melodic else 15.0)
            m = onsets.match_onsets([e.time for e in score] + [c.time for c in cues], found)
            print(f"  {pid:6s} {'melodic' if melodic else 'GM drums':8s} {interval:4.1f} s: "
                  f"{m.summary()}  (render {render:.2f} s for {len(x) / rate:.1f} s of audio)")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        bench_export(Path(d))
        if "--no-fluidsynth" not in sys.argv:
            bench_fluidsynth(Path(d))

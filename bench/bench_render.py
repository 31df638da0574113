"""Benchmark guji's audio renderer (not a test: it prints figures).

1. Speed: the same 300-second score (魯鼓 1, 射禮, 22 passes, 506 strokes)
   rendered to a 48 kHz stereo 16-bit WAV by guji and by FluidSynth
   (``fluidsynth -ni -q -r 48000 -F out.wav TimGM6mb.sf2 in.mid``, the MIDI
   holding the same events). Wall times are the best of several runs; guji is
   timed in-process (``write_audio``) and as a whole command (``python -m guji
   render``, interpreter start-up included). Goal: at least 10× faster than
   FluidSynth.
2. Memory: the peak resident set (``ru_maxrss`` of the child process, from
   ``os.wait4``) of a 10-hour render written to a WAV file, beside the same
   figure for a child that only imports guji. Goal: under 150 MB.

Run from the repository root::

    .venv/bin/python bench/bench_render.py            # both parts
    .venv/bin/python bench/bench_render.py --hours 1  # a shorter long render

The 10-hour WAV (6.9 GB) is written in a temporary directory and deleted.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from guji.text.editions import load
from guji.text.notation import Rite
from guji.sound.files import write_audio
from guji.timing.score import Score

SOUNDFONT = "/usr/share/sounds/sf2/TimGM6mb.sf2"
RATE = 48000


def score_300s() -> Score:
    pattern = load("lu:1")
    passes = 22
    strokes = passes * len(pattern.strokes)
    return Score(pattern, Rite.SHE, interval=300.0 / strokes, repeat=passes)


def write_mid(path: Path, score: Score) -> None:
    """The score's events as a MIDI file (guji's own writer: the same events)."""
    from guji.midi.write import write_midi
    write_midi(path, score)


def best_of(n: int, run) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return min(times)


def child_maxrss(code: str) -> tuple[float, int]:
    """Run *code* in a fresh interpreter; return (wall seconds, peak RSS in bytes)."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code])
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"child failed: {code}")
    return wall, usage.ru_maxrss * 1024      # Linux reports kilobytes


def bench_speed(runs: int) -> None:
    score = score_300s()
    print(f"score: {score.pattern.id} 射禮, {score.stroke_count} strokes, "
          f"{score.duration:.1f} s, interval {score.interval:.4f} s; 48 kHz stereo 16-bit WAV")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        mid = tmp / "score.mid"
        write_mid(mid, score)
        cold = best_of(1, lambda: write_audio(tmp / "guji.wav", score, rate=RATE))
        guji = best_of(runs, lambda: write_audio(tmp / "guji.wav", score, rate=RATE))
        cli = best_of(runs, lambda: subprocess.run(
            [sys.executable, "-m", "guji", "render", "lu:1", "--rite", "she", "--repeat", "22",
             "--interval", repr(score.interval), "-o", str(tmp / "cli.wav")],
            check=True, stdout=subprocess.DEVNULL))
        fluidsynth = shutil.which("fluidsynth")
        print(f"guji write_audio (in-process) : {guji:7.3f} s   (first call, with synthesis: "
              f"{cold:.3f} s)   {score.duration / guji:7.0f}× real time")
        print(f"guji render (whole command)   : {cli:7.3f} s")
        if fluidsynth is None or not Path(SOUNDFONT).exists():
            print("FluidSynth or TimGM6mb.sf2 not installed: no comparison "
                  "(apt-get install fluidsynth timgm6mb-soundfont)")
            return
        fs = best_of(runs, lambda: subprocess.run(
            [fluidsynth, "-ni", "-q", "-r", str(RATE), "-F", str(tmp / "fs.wav"), SOUNDFONT,
             str(mid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        print(f"fluidsynth -F (whole command) : {fs:7.3f} s")
        print(f"ratio fluidsynth / guji       : {fs / guji:7.1f}× (in-process)   "
              f"{fs / cli:.1f}× (whole command)")


def bench_memory(hours: float) -> None:
    pattern = load("lu:1")
    passes = math.ceil(hours * 3600 / (len(pattern.strokes) * 0.6))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "long.wav"
        code = textwrap.dedent(f"""
            from guji.text.editions import load
            from guji.text.notation import Rite
            from guji.sound.files import write_audio
            from guji.timing.score import Score
            score = Score(load("lu:1"), Rite.SHE, 0.6, repeat={passes})
            write_audio({str(out)!r}, score)
        """)
        _, base = child_maxrss("import numpy, soundfile, guji.sound.files")
        wall, rss = child_maxrss(code)
        size = out.stat().st_size
        print(f"long render: {passes * len(pattern.strokes)} strokes, {passes * len(pattern.strokes) * 0.6 / 3600:.2f} h, "
              f"WAV {size / 1e9:.2f} GB in {wall:.1f} s ({passes * len(pattern.strokes) * 0.6 / wall:.0f}× real time)")
        print(f"peak memory (ru_maxrss)       : {rss / 1e6:7.2f} MB   "
              f"(a child that only imports guji: {base / 1e6:.2f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs (best is kept)")
    parser.add_argument("--hours", type=float, default=10.0, help="length of the long render")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        bench_speed(args.runs)
    if not args.skip_memory:
        bench_memory(args.hours)


if __name__ == "__main__":
    main()

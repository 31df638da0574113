"""Benchmark guji's audio renderer (not a test: it prints figures).

1. Speed, whole commands side by side in one run: the 1,117-second score
   ``xue:2 --rite she --repeat 60`` (1,860 strokes) rendered to a 48 kHz
   stereo 16-bit WAV by ``guji render``, by FluidSynth (``fluidsynth -ni -q -r
   48000 -F out.wav TimGM6mb.sf2 in.mid``, the MIDI of ``guji midi`` with the
   same arguments), and by a Python process that only imports numpy and
   soundfile and writes the same number of stereo 16-bit frames of silence
   in the same blocks (the floor: start-up, imports, disk). Each is run in
   turn, several rounds, after one warm-up round; the best of each is kept.
   Goals: guji at least 15× faster than FluidSynth, at most 1.5× the silence.
   The Python processes run with their bytecode cached (as after ``pip
   install``, which compiles it), whatever ``PYTHONDONTWRITEBYTECODE`` says.
   Also the in-process render time (``write_audio``) of the same score.
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

from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.sound.files import write_audio
from guji.timing.score import Score

from cputime import timed

SOUNDFONT = "/usr/share/sounds/sf2/TimGM6mb.sf2"
RATE = 48000


ARGS = ["xue:2", "--rite", "she", "--repeat", "60"]


def long_score() -> Score:
    """The score of :data:`ARGS` (1,117 s)."""
    return Score(load("xue:2"), Rite.SHE, repeat=60)


SILENCE = textwrap.dedent("""
    import sys
    import numpy as np
    import soundfile as sf
    frames, block = int(sys.argv[2]), 65536
    zeros = np.zeros((block, 2), dtype=np.int16)
    with sf.SoundFile(sys.argv[1], "w", 48000, 2, "PCM_16", format="WAV") as f:
        for at in range(0, frames, block):
            f.write(zeros[:min(block, frames - at)])
""")


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


def _loudness(text: str) -> float | None:
    return None if text == "off" else float(text)


def bench_speed(runs: int, folder: str | None = None, room: str = "dry",
                loudness: str = "-16") -> None:
    import soundfile as sf
    score = long_score()
    args = ARGS + ["--room", room, "--loudness", loudness]
    guji = str(Path(sys.executable).with_name("guji"))
    print(f"score: guji render {' '.join(args)}: {score.stroke_count} strokes, "
          f"{score.duration:.1f} s; 48 kHz stereo 16-bit WAV")
    fluidsynth = shutil.which("fluidsynth")
    if fluidsynth is None or not Path(SOUNDFONT).exists():
        raise SystemExit("FluidSynth or TimGM6mb.sf2 not installed "
                         "(apt-get install fluidsynth timgm6mb-soundfont)")
    print(f"files written in {folder or tempfile.gettempdir()}")
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        tmp = Path(tmp)
        # bytecode as an installed guji has it (pip compiles it at install): a
        # checkout with PYTHONDONTWRITEBYTECODE would compile every module each run
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        subprocess.run([guji, "midi", *ARGS, "-o", str(tmp / "in.mid")], **quiet)
        subprocess.run([guji, "render", *args, "-o", str(tmp / "guji.wav")], **quiet)
        frames = sf.info(str(tmp / "guji.wav")).frames
        commands = {
            "guji render": [guji, "render", *args, "-o", str(tmp / "guji.wav")],
            "fluidsynth -F": [fluidsynth, "-ni", "-q", "-r", str(RATE), "-F", str(tmp / "fs.wav"),
                              SOUNDFONT, str(tmp / "in.mid")],
            "silence writer": [sys.executable, "-c", SILENCE, str(tmp / "zeros.wav"), str(frames)],
        }
        best = {name: float("inf") for name in commands}
        cpu = dict(best)       # user + system seconds: the machine's other load moves them less
        for _ in range(runs + 1):                 # the first round warms the caches
            for name, argv in commands.items():
                wall, seconds = timed(argv, env)
                best[name], cpu[name] = min(best[name], wall), min(cpu[name], seconds)
        import dataclasses
        from guji.sound.kit import default_kit
        kit = dataclasses.replace(default_kit(), room=room, loudness=_loudness(loudness))
        inproc = best_of(runs, lambda: write_audio(tmp / "inproc.wav", score, rate=RATE, kit=kit))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, seconds in best.items():
        print(f"{name:<30}: {seconds:7.3f} s   (CPU {cpu[name]:.3f} s)")
    print(f"{'guji write_audio (in-process)':<30}: {inproc:7.3f} s   "
          f"({score.duration / inproc:,.0f}× real time)")
    print(f"fluidsynth / guji (commands)  : {best['fluidsynth -F'] / best['guji render']:7.1f}×")
    print(f"guji / silence (commands)     : {best['guji render'] / best['silence writer']:7.2f}×")
    print(f"the same in CPU time          : {cpu['fluidsynth -F'] / cpu['guji render']:7.1f}×, "
          f"{cpu['guji render'] / cpu['silence writer']:.2f}×")


def bench_memory(hours: float, room: str = "dry", loudness: str = "-16") -> None:
    pattern = load("lu:1")
    passes = math.ceil(hours * 3600 / (len(pattern.strokes) * 0.6))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "long.wav"
        code = textwrap.dedent(f"""
            from guji.text.reading.editions import load
            from guji.text.reading.notation import Rite
            import dataclasses
            from guji.sound.files import write_audio
            from guji.sound.kit import default_kit
            from guji.timing.score import Score
            score = Score(load("lu:1"), Rite.SHE, 0.6, repeat={passes})
            write_audio({str(out)!r}, score, kit=dataclasses.replace(default_kit(), room={room!r},
                                                                     loudness={_loudness(loudness)!r}))
        """)
        _, base = child_maxrss("import numpy, soundfile, guji.sound.files")
        wall, rss = child_maxrss(code)
        size = out.stat().st_size
        print(f"long render (--room {room} --loudness {loudness}): {passes * len(pattern.strokes)} strokes, {passes * len(pattern.strokes) * 0.6 / 3600:.2f} h, "
              f"WAV {size / 1e9:.2f} GB in {wall:.1f} s ({passes * len(pattern.strokes) * 0.6 / wall:.0f}× real time)")
        print(f"peak memory (ru_maxrss)       : {rss / 1e6:7.2f} MB   "
              f"(a child that only imports guji: {base / 1e6:.2f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs (best is kept)")
    parser.add_argument("--hours", type=float, default=10.0, help="length of the long render")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--room", default="dry", help="the room of the renders (dry, hall, court)")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--loudness", default="-16", help="the renders' --loudness (LUFS or off)")
    parser.add_argument("--dir", help="where the speed test writes its files (e.g. /dev/shm, "
                                      "memory: the disk out of the comparison)")
    args = parser.parse_args()
    if not args.skip_speed:
        bench_speed(args.runs, args.dir, args.room, args.loudness)
    if not args.skip_memory:
        bench_memory(args.hours, args.room, args.loudness)


if __name__ == "__main__":
    main()

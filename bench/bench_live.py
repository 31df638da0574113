"""Benchmark live playback on a real clock (not a test: it prints figures).

Everything runs ``guji play`` as a user would, on a private PulseAudio null
sink (``tests/live/pulse.py``: it runs on the clock as a sound card does),
recording the sink's monitor with ``parec``:

1. **First sound** — from the moment the command is started to the first
   stroke's onset in the recording, ``guji play lu --json``, warm (Python's
   bytecode cached in a temporary folder, one run first to warm the caches);
   with it, how long after its stroke each JSON line arrives, and the
   spacing error of the recorded strokes.
2. **Underruns against latency** — ``guji play lu --repeat 3 --interval
   0.3`` (36 strokes) at each latency, runs interleaved (so drifting load
   hits every latency alike), with *--busy* Python busy loops keeping the
   cores busy. A run is clean when guji reports no underrun, gap or late
   block and every recorded gap is within 2 ms of 0.3 s.

Run from the repository root (needs ``pulseaudio pulseaudio-utils
libasound2-plugins``)::

    .venv/bin/python bench/bench_live.py                    # both, defaults
    .venv/bin/python bench/bench_live.py --first-sound 10 --sweep 0
    .venv/bin/python bench/bench_live.py --first-sound 0 --latencies 0.05,0.1,0.2,0.3 \\
        --busy 2 --sweep 6 --no-realtime      # as a user without real-time rights

The machine's load wobbles (other work): take the best and the medians,
and compare latencies only within one interleaved sweep.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from live.pulse import PulseSink, missing  # noqa: E402
from onsets import detect_onsets  # noqa: E402

RATE = 48000


#: Run a command as a user without real-time rights: root without CAP_SYS_NICE
#: (its RLIMIT_RTPRIO is 0), so guji's threads stay SCHED_OTHER.
NO_REALTIME = ["setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"]
PREFIX: list[str] = []


def play(sink, env, args, record_to):
    """Run ``guji play ARGS --json`` while recording: (stderr, [(arrival, line)],
    recording, spawn time)."""
    rec = sink.record(record_to)
    rec.wait_for_audio()
    spawned = time.monotonic()
    p = subprocess.Popen([*PREFIX, sys.executable, "-m", "guji", "play", *args, "--json"], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    lines = [(time.monotonic(), json.loads(x)) for x in p.stdout]
    err = p.stderr.read()
    p.wait(120)
    time.sleep(0.1)
    rec.stop()
    return err, lines, rec, spawned


def first_sound(sink, env, runs: int, folder: Path) -> None:
    print(f"1. first sound: guji play lu --json, {runs} runs, warm")
    play(sink, env, ["lu", "--interval", "0.2"], folder / "warm.wav")        # warm the caches
    firsts, lates, spacing = [], [], []
    for _ in range(runs):
        err, lines, rec, spawned = play(sink, env, ["lu"], folder / "first.wav")
        onsets = detect_onsets(rec.samples, RATE)
        if err or len(onsets) != 12 or len(lines) != 12:
            print(f"   a run went wrong: {len(onsets)} onsets, {len(lines)} lines, {err.strip()}")
            continue
        heard = rec.t0 + onsets
        firsts.append(heard[0] - spawned)
        lates += list(np.array([t for t, _ in lines]) - heard)
        spacing.append(np.abs(np.diff(onsets) - 0.6).max())
    if not firsts:
        return
    f = np.array(firsts)
    late = np.array(lates) * 1000
    print(f"   command start → first stroke heard: best {f.min():.3f} s, median "
          f"{np.median(f):.3f} s, worst {f.max():.3f} s")
    print(f"   JSON line − its stroke in the recording: {late.min():+.1f} … {late.max():+.1f} ms "
          f"(median {np.median(late):+.1f})")
    print(f"   spacing error of the recorded strokes: max {max(spacing) * 1000:.3f} ms")


def sweep(sink, env, latencies: list[str], rounds: int, busy: int, folder: Path) -> None:
    print(f"2. underruns: guji play lu --repeat 3 --interval 0.3 (36 strokes), {busy} busy "
          f"loop(s), {rounds} round(s) interleaved")
    loops = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(busy)]
    results: dict[str, list[tuple[bool, str]]] = {lat: [] for lat in latencies}
    try:
        time.sleep(0.5)
        for _ in range(rounds):
            for lat in latencies:
                err, lines, rec, _ = play(sink, env, ["lu", "--repeat", "3", "--interval", "0.3",
                                                      "--latency", lat], folder / "sweep.wav")
                gaps = np.diff(detect_onsets(rec.samples, RATE))
                worst = np.abs(gaps - 0.3).max() * 1000 if len(gaps) else float("inf")
                clean = not err and len(lines) == 36 and len(gaps) == 35 and worst <= 2.0
                what = "" if clean else f"{len(gaps) + 1} onsets, worst gap {worst:+.0f} ms; " \
                    f"{err.strip()[:120]}"
                results[lat].append((clean, what))
    finally:
        for loop in loops:
            loop.terminate()
            loop.wait()
    print("   latency  clean runs  the others")
    for lat, runs in results.items():
        clean = sum(ok for ok, _ in runs)
        others = "; ".join(w for ok, w in runs if not ok)
        print(f"   {lat:>7}  {clean:>4} / {len(runs):<4}  {others}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first-sound", type=int, default=8, metavar="RUNS")
    ap.add_argument("--latencies", default="0.05,0.1,0.2")
    ap.add_argument("--sweep", type=int, default=3, metavar="ROUNDS")
    ap.add_argument("--busy", type=int, default=2)
    ap.add_argument("--no-realtime", action="store_true",
                    help="run guji without real-time rights, as an ordinary user does "
                         "(root: CAP_SYS_NICE dropped with setpriv)")
    args = ap.parse_args()
    if args.no_realtime:
        PREFIX[:] = NO_REALTIME
    problem = missing()
    if problem:
        sys.exit(problem)
    with tempfile.TemporaryDirectory(prefix="guji-bench-live-") as tmp, PulseSink("gujibench") as sink:
        env = sink.child_env()
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")    # warm bytecode
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
              + ("; guji without real-time rights" if args.no_realtime else ""))
        if args.first_sound:
            first_sound(sink, env, args.first_sound, Path(tmp))
        if args.sweep:
            sweep(sink, env, args.latencies.split(","), args.sweep, args.busy, Path(tmp))


if __name__ == "__main__":
    main()

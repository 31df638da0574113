"""Benchmark stops: signals at random moments into whole commands (not a test: it prints figures).

Each run starts one command in a fresh process (``python -m guji``, a process
group of its own), sends SIGINT, SIGTERM or SIGHUP (drawn at random) at a
moment drawn between 0 and ``--latest`` seconds after the start (the moment
``Popen`` returns: the interpreter has been executed), and records how it
ended: the exit status, the lines on standard error (a traceback counted
apart), the files left in its folder (the output, a temporary file), whether
any process of its group (a scan's workers, LilyPond) outlived it, and the
stop's latency (from the ``kill`` to the exit). A signal sent before the
kernel shows guji's handlers (``SigCgt``: the interpreter still starting, no
code of guji's run) is counted apart: it does to guji what it does to any
program. A run whose command ended
before its moment is counted as finished, not signalled.

The commands: renders to WAV, FLAC and OGG, MIDI, a PDF (LilyPond), a page,
and a folder scan with two workers (pattern-dense texts, made once in a
temporary folder). Run from the repository root, beside two busy loops::

    .venv/bin/python bench/bench_stops.py --runs 300
    .venv/bin/python bench/bench_stops.py --runs 60 --latest 0.15   # the start-up window
    .venv/bin/python bench/bench_stops.py --runs 20 --only scan
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: Each command (its arguments, the output it writes), long enough that a moment in
#: the first 3 s falls while it works.
COMMANDS = {
    "wav": (["render", "xue:2", "--rite", "she", "--repeat", "200", "--rate", "16000", "-o", "out.wav"], "out.wav"),
    "flac": (["render", "xue:2", "--rite", "she", "--repeat", "120", "--rate", "8000", "-o", "out.flac"], "out.flac"),
    "ogg": (["render", "xue:2", "--rite", "she", "--repeat", "20", "--rate", "8000", "-o", "out.ogg"], "out.ogg"),
    "midi": (["midi", "lu", "--repeat", "2500", "-o", "out.mid"], "out.mid"),
    "pdf": (["sheet", "lu", "--repeat", "2", "-o", "out.pdf"], "out.pdf"),
    "page": (["page", "lu:1", "lu:2", "--rate", "8000", "--repeat", "5", "-o", "site"], "site"),
    "scan": (["scan", "{library}", "--jobs", "2"], None),
}


def pattern_dense(folder: Path, files: int = 3, lines: int = 12_000) -> Path:
    """*files* texts of *lines* pattern-dense lines each (a few seconds of a worker's time)."""
    rng = random.Random(7)
    folder.mkdir(exist_ok=True)
    for k in range(files):
        with open(folder / f"text{k}.txt", "w", encoding="utf-8") as f:
            for _ in range(lines):
                f.write("魯鼓" + "".join(rng.choice("○□") for _ in range(11)) + "半"
                        + "".join(rng.choice("○□") for _ in range(12)) + "\n")
    return folder


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def one_run(name: str, folder: Path, library: Path, moment: float, signum: int) -> dict:
    args, output = COMMANDS[name]
    args = [a.format(library=library) for a in args]
    folder.mkdir()
    env = dict(os.environ, GUJI_LANG="en", PYTHONIOENCODING="utf-8", PYTHONPYCACHEPREFIX=str(library.parent / "pycache"))
    proc = subprocess.Popen([sys.executable, "-m", "guji", *args], cwd=folder, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    started = time.monotonic()
    while time.monotonic() < started + moment and proc.poll() is None:
        time.sleep(min(0.002, max(0.0, started + moment - time.monotonic())))
    finished = proc.poll() is not None
    ready = handlers(proc.pid)
    sent = time.monotonic()
    if not finished:
        proc.send_signal(signum)
    try:
        err = proc.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:    # the pipe held open by a process left behind
        os.killpg(proc.pid, signal.SIGKILL)
        err = proc.communicate()[1] + b"\n(hung: killed)"
    took = time.monotonic() - sent
    alive = group_alive(proc.pid)
    if alive:
        time.sleep(0.5)
        alive = group_alive(proc.pid)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    text = err.decode("utf-8", "replace")
    files = sorted(p.name for p in folder.iterdir())
    return {"name": name, "moment": moment, "signal": signum, "finished": finished, "ready": ready,
            "status": proc.returncode, "lines": len(text.splitlines()), "err": text,
            "traceback": "Traceback" in text, "took": took, "group_left": alive,
            "temporary": [f for f in files if f.startswith(".")],
            "output": output is not None and output in files}


def handlers(pid: int) -> bool:
    """Whether process *pid* has handlers for SIGINT, SIGTERM and SIGHUP (``SigCgt``)."""
    wanted = sum(1 << (s - 1) for s in SIGNALS)
    try:
        with open(f"/proc/{pid}/status") as f:
            caught = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt"))
    except (OSError, StopIteration):
        return False
    return caught & wanted == wanted


def window(python_env: dict, folder: Path) -> float:
    """Seconds from the start of ``guji midi lu`` (``Popen`` returned: the
    interpreter executed) until the kernel shows its handlers for SIGINT,
    SIGTERM and SIGHUP (``SigCgt`` in ``/proc/PID/status``, polled)."""
    proc = subprocess.Popen([sys.executable, "-m", "guji", "midi", "lu", "-o", "w.mid"], cwd=folder,
                            env=python_env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    started = time.monotonic()
    seen = float("nan")
    while proc.poll() is None:
        if handlers(proc.pid):
            seen = time.monotonic() - started
            break
        time.sleep(0.0005)
    proc.wait()
    return seen


def floor(env: dict, runs: int) -> float:
    """The median wall time of ``python -c pass``: the interpreter and its site alone."""
    took = []
    for _ in range(runs):
        t = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        took.append(time.monotonic() - t)
    return sorted(took)[runs // 2]


def report(runs: list[dict]) -> None:
    by_name: dict[str, list[dict]] = collections.defaultdict(list)
    for r in runs:
        by_name[r["name"]].append(r)
    early = [r for r in runs if not r["finished"] and not r["ready"]]
    print(f"signalled before guji's handlers were in place (the interpreter starting): {len(early)}, "
          f"statuses {dict(sorted(collections.Counter(r['status'] for r in early).items()))}, "
          f"tracebacks {sum(r['traceback'] for r in early)}, output left {sum(r['output'] for r in early)}")
    print("signalled after (below):")
    for name, rs in [*by_name.items(), ("all", runs)]:
        rs = [r for r in rs if r["ready"] or r["finished"]]
        stopped = [r for r in rs if not r["finished"]]
        statuses = collections.Counter(r["status"] for r in stopped)
        right = [r for r in stopped if r["status"] == 128 + r["signal"] and r["lines"] == 1]
        took = sorted(r["took"] for r in stopped)
        pct = (lambda q: took[min(len(took) - 1, int(q * len(took)))]) if took else (lambda q: float("nan"))
        print(f"{name:6} runs {len(rs):4}  finished first {len(rs) - len(stopped):3}  "
              f"128+N and one line {len(right):4}/{len(stopped):<4} statuses {dict(sorted(statuses.items()))}")
        print(f"{'':6} tracebacks {sum(r['traceback'] for r in stopped)}  output left "
              f"{sum(r['output'] for r in stopped)}  temporaries left {sum(bool(r['temporary']) for r in stopped)}  "
              f"processes left {sum(r['group_left'] for r in stopped)}  latency median {pct(0.5):.3f} s, "
              f"p95 {pct(0.95):.3f} s, max {took[-1] if took else float('nan'):.3f} s, "
              f"over 0.5 s {sum(t > 0.5 for t in took)}")
    odd = [r for r in runs if r["ready"] and not r["finished"] and (r["status"] != 128 + r["signal"] or r["lines"] != 1
                                                      or r["output"] or r["temporary"] or r["group_left"])]
    for r in odd[:15]:
        print(f"  odd: {r['name']} {signal.Signals(r['signal']).name} at {r['moment'] * 1000:.0f} ms: "
              f"status {r['status']}, {r['lines']} lines, output {r['output']}, temporary {r['temporary']}, "
              f"left {r['group_left']}: {r['err'].strip().splitlines()[-1:] if r['err'].strip() else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=70, help="runs in all, spread over the commands")
    parser.add_argument("--latest", type=float, default=3.0, help="latest moment (s after the start)")
    parser.add_argument("--only", action="append", choices=list(COMMANDS), help="only these commands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", action="store_true",
                        help="measure only the start-up window (exec to handlers), --runs times")
    args = parser.parse_args()
    names = args.only or list(COMMANDS)
    rng = random.Random(args.seed)
    runs = []
    with tempfile.TemporaryDirectory(prefix="guji-stops-") as tmp:
        library = pattern_dense(Path(tmp) / "library")
        # guji's bytecode cached as after `pip install` (whatever PYTHONDONTWRITEBYTECODE says)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).parents[1] / "guji")],
                       env=dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache")), check=True)
        if args.window:
            env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
            seen, floors = [], []
            for _ in range(args.runs):          # in turn: the machine's load alike for both
                seen.append(window(env, Path(tmp)))
                floors.append(floor(env, 1))
            seen.sort()
            print(f"exec to handlers: median {seen[len(seen) // 2] * 1000:.1f} ms, "
                  f"p95 {seen[int(0.95 * (len(seen) - 1))] * 1000:.1f} ms, max {seen[-1] * 1000:.1f} ms; "
                  f"the whole of python -c pass (the interpreter and its site): median "
                  f"{sorted(floors)[len(floors) // 2] * 1000:.1f} ms")
            return
        for i in range(args.runs):
            name = names[i % len(names)]
            runs.append(one_run(name, Path(tmp) / f"run{i}", library, rng.uniform(0, args.latest),
                                rng.choice(SIGNALS)))
    report(runs)


if __name__ == "__main__":
    main()

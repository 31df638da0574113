"""The attacks of issue 35, as a campaign: thousands of whole guji runs, judged.

Each run is one attack of ``tests/attacks.py`` (a command line over any
subcommand with pattern-dense texts of tens of MB, symbolic-link loops, kits
of absurd numbers, odd options, named pipes, ``/dev/full``, a signal from 0 ms
after launch), run bounded and judged by ``tests/attacks_run.py`` (exit
status, stderr, hang, peak memory, processes and files left, every output
read back). The suite runs a bounded form of it (``tests/test_fuzz_attacks.py``).

Run from the repository root::

    .venv/bin/python bench/fuzz_attacks.py [--runs 3000] [--seed 35] [--jobs 2] [--biggest-mb 40]
    .venv/bin/python bench/fuzz_attacks.py --seed 35 --only 1234   # one run again, its folder kept

Prints each failure as it comes (its class, the exact command line, how to run
it again), then the figures: runs by kind and exit status, peak memory,
slowest run, and every class of failure with its count and shortest example.
"""

from __future__ import annotations

import argparse
import json
import queue
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import attacks  # noqa: E402
import attacks_run  # noqa: E402


def one(seed: int, index: int, base: Path, caches: queue.Queue, biggest: int, kind: str | None,
        keep: bool = False) -> dict:
    """Attack number *index* of *seed*, drawn, run and judged in a folder under *base*."""
    folder = base / f"run{index}"
    folder.mkdir()
    attack = attacks.draw(f"{seed}:{index}", folder, kind, biggest, mixed=kind is None)
    cache = caches.get()
    try:
        outcome = attacks_run.run(attack, folder, cache)
        found = attacks_run.judge(attack, outcome, folder, cache)
    finally:
        caches.put(cache)
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(folder.parent / (folder.name + ".tmp"), ignore_errors=True)
    size = max([int(n.replace(",", "")) for s in attack.setup
                for n in re.findall(r"([\d,]+) bytes", s)] or [0])
    return {"index": index, "kind": attack.kind, "command": attack.argv[0], "shown": attack.shown(),
            "status": outcome.status, "seconds": outcome.seconds, "peak": outcome.peak_bytes,
            "size": size, "found": found}


def _shown(r: dict) -> dict:
    for what, detail in r["found"]:
        print(f"FAIL {what} (--only {r['index']}): {r['shown']}\n  {detail[:300]}", flush=True)
    return r


def _report(results: list[dict], seed: int, took: float) -> dict:
    classes: dict[str, dict] = {}
    for r in results:
        for what, detail in r["found"]:
            key = f"{what} | {r['kind']} | {r['command']}"
            c = classes.setdefault(key, {"count": 0, "example": None})
            c["count"] += 1
            if c["example"] is None or (r["size"], len(r["shown"])) < c["example"][0]:
                c["example"] = ((r["size"], len(r["shown"])), r["shown"], r["index"], detail[:600])
    print(f"\n{len(results):,} runs (seed {seed}) in {took / 60:.1f} min; "
          f"{sum(1 for r in results if r['found']):,} with a failure")
    print("kinds:", dict(Counter(r["kind"] for r in results)))
    print("commands:", dict(Counter(r["command"] for r in results)))
    print("exit:", dict(Counter(str(r["status"]) for r in results)))
    peak = max(results, key=lambda r: r["peak"])
    slow = max(results, key=lambda r: r["seconds"])
    print(f"largest peak {peak['peak'] / 1e6:,.0f} MB (run {peak['index']}); "
          f"slowest {slow['seconds']:.1f} s (run {slow['index']})")
    print(f"\n{len(classes)} classes of failure (what | kind | command):")
    for key, c in sorted(classes.items(), key=lambda kv: -kv[1]["count"]):
        _, shown, index, detail = c["example"]
        print(f"\n* {key}: {c['count']} runs; shortest (--only {index}):\n  {shown}\n  {detail}")
    return classes


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--biggest-mb", type=float, default=40.0)
    parser.add_argument("--kind", choices=attacks.KINDS)
    parser.add_argument("--only", type=int, help="run this attack alone and keep its folder")
    parser.add_argument("--json", type=Path, help="write every run's result here")
    args = parser.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)   # even when started with '&'
    signal.signal(signal.SIGTERM, _stop)
    biggest = int(args.biggest_mb * 2 ** 20)
    base = Path(tempfile.mkdtemp(prefix="guji-attacks-"))
    caches: queue.Queue = queue.Queue()
    for i in range(args.jobs):
        (base / f"cache{i}").mkdir()
        caches.put(base / f"cache{i}")
    if args.only is not None:
        r = one(args.seed, args.only, base, caches, biggest, args.kind, keep=True)
        print(r["shown"], f"\nexit {r['status']} in {r['seconds']:.1f} s, peak "
              f"{r['peak'] / 1e6:,.0f} MB; folder {base}/run{args.only}")
        for what, detail in r["found"]:
            print(f"* {what}: {detail}")
        return
    started, results = time.monotonic(), []
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, args.seed, i, base, caches, biggest, args.kind)
                   for i in range(args.runs)]
        try:
            for n, future in enumerate(futures, 1):
                results.append(_shown(future.result()))
                if n % 100 == 0:
                    print(f"-- {n:,} runs, {time.monotonic() - started:.0f} s", flush=True)
        except KeyboardInterrupt:       # Ctrl-C or SIGTERM: the figures of the runs made
            print("-- stopped: the runs under way finish, the rest are not made", flush=True)
            pool.shutdown(cancel_futures=True)
            results += [_shown(f.result()) for f in futures[len(results):]
                        if f.done() and not f.cancelled()]
    _report(results, args.seed, time.monotonic() - started)
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1))
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()

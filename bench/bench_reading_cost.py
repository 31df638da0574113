"""What reading a text dense with patterns costs, and what refusing it costs.

Issue 35: ``guji scan`` of a 29.8 MB text of 400,000 patterns took 276 s and
4.85 GB, a folder of five such texts (202 MB) 4.87 GB in each library
worker. Each command below runs as a user runs it, in a fresh process; its
peak resident memory (the largest process: the library's workers included),
CPU seconds, wall seconds, exit status and last line are printed. Not a
test: figures (other load on the machine moves the times, never the memory).

* texts of 1, 2 and 4 MB of lines ``魯鼓○□…半○□…`` read with ``--force``: the
  memory a byte (it should not grow with the size: no quadratic step);
* the 30 MB text: refused (the figure checked before the work), then read
  with ``--force``;
* the folder of five 40 MB texts with ``--jobs 2``: each worker refuses its
  file.

Run from the repository root (the 30 MB reading takes a few minutes and
about 3 GB)::

    .venv/bin/python bench/bench_reading_cost.py [--quick]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time


def dense(path: str, size: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    lines, done = [], 0
    while done < size:
        line = ("魯鼓" + "".join(rng.choice("○□") for _ in range(10)) + "半"
                + "".join(rng.choice("○□") for _ in range(10)) + "\n")
        lines.append(line)
        done += len(line.encode())
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    return path


_MEASURE = """
import resource, subprocess, sys, time
start = time.monotonic()
r = subprocess.run([sys.executable, "-m", "guji", *sys.argv[1:]], stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, text=True)
use = resource.getrusage(resource.RUSAGE_CHILDREN)
last = (r.stderr.strip().splitlines() or [""])[-1]
print(use.ru_maxrss, use.ru_utime + use.ru_stime, time.monotonic() - start, r.returncode, last,
      sep="\\t")
"""


def measure(args: list[str]) -> tuple[int, float, float, int, str]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True,
                         text=True, env={**os.environ, "GUJI_LANG": "en"}).stdout
    rss, cpu, wall, status, last = out.rstrip("\n").split("\t", 4)
    return int(rss) * 1024, float(cpu), float(wall), int(status), last


def show(label: str, args: list[str], size: int | None = None) -> None:
    rss, cpu, wall, status, last = measure(args)
    per = f"  {rss / size:6.0f} B/B" if size else ""
    print(f"{label:34} {rss / 1e6:8.0f} MB{per}  cpu {cpu:6.1f} s  wall {wall:6.1f} s  "
          f"exit {status}  {last[:150]}", flush=True)


def main() -> None:
    quick = "--quick" in sys.argv
    with tempfile.TemporaryDirectory() as folder:
        small = os.path.join(folder, "small.txt")
        with open(small, "w", encoding="utf-8") as f:
            f.write("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n")
        show("one pattern (the interpreter)", ["scan", small])
        for mb in (1, 2, 4):
            path = dense(os.path.join(folder, f"dense{mb}.txt"), mb * 10 ** 6)
            show(f"dense {mb} MB --force", ["scan", path, "--force"], mb * 10 ** 6)
        big = dense(os.path.join(folder, "dense30.txt"), 30 * 10 ** 6)
        show("dense 30 MB (refused)", ["scan", big], 30 * 10 ** 6)
        if not quick:
            show("dense 30 MB --force", ["scan", big, "--force"], 30 * 10 ** 6)
        library = os.path.join(folder, "library")
        os.mkdir(library)
        for k in range(5):
            dense(os.path.join(library, f"t{k}.txt"), 40 * 10 ** 6, seed=k)
        show("five 40 MB texts --jobs 2", ["scan", library, "--jobs", "2"])


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"({time.monotonic() - started:.0f} s in all)")

"""What refusing an oversized request costs: time and memory of each, as a user runs it.

Each request of the fault sweep that once ran away (until the disk was full,
or memory was) is run as a whole ``guji`` command in a fresh process, and its
wall time, peak resident memory and exit status are printed, with the line
it prints. Not a test: figures (other load on the machine moves the times;
each is the best of three).

Run from the repository root::

    .venv/bin/python bench/bench_limits.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

REQUESTS = [
    ["render", "lu", "--interval", "1e15", "-o", "out.wav"],
    ["render", "lu", "--repeat", "1000000000", "-o", "out.wav"],
    ["render", "lu", "--count-in", "1000000000", "-o", "out.wav"],
    ["render", "lu", "xue", "--gap", "1000000000", "-o", "out.wav"],
    ["midi", "lu", "--repeat", "1000000000", "-o", "out.mid"],
    ["midi", "lu", "--interval", "1e6", "--force", "-o", "out.mid"],
    ["midi", "lu", "--bpm", "12000", "--repeat", "100000", "-o", "out.mid"],
    ["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "alternate", "--repeat", "100000000",
     "-o", "out.wav"],
    ["midi", "lu", "--interval=1e308", "-o", "out.mid"],
    ["scan", "/dev/zero"],
    ["glyphs"],                                       # for comparison: a command doing nothing
]


def measure(args: list[str], folder: str) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit status, last line of stderr) of one run."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "guji", *args], cwd=folder,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    line = (err.strip().splitlines() or [""])[-1]
    return took, usage.ru_maxrss / 1024, proc.returncode, line


def main() -> None:
    print(f"{'seconds':>8} {'peak MB':>8} {'exit':>4}  request, and what guji says")
    with tempfile.TemporaryDirectory() as folder:
        for args in REQUESTS:
            runs = [measure(args, folder) for _ in range(3)]
            took = min(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            _, _, status, line = runs[0]
            print(f"{took:8.2f} {peak:8.1f} {status:4}  guji {' '.join(args)}\n"
                  f"{'':24}{line[:150]}")
            assert not os.listdir(folder), os.listdir(folder)


if __name__ == "__main__":
    main()

"""CPU time as the benches measure it (a module of the bench scripts, not one itself).

* :func:`best`: the least CPU seconds of this process over *n* runs of some
  work (``time.process_time``), so a shared machine's load weighs less.
* :func:`timed`: wall and CPU seconds (user + system, from ``os.wait4``) of
  one quiet run of a child process.

The bench scripts run as ``.venv/bin/python bench/bench_….py`` from the
repository root, so this folder is on ``sys.path`` and ``from cputime import
best`` finds it.
"""

from __future__ import annotations

import os
import subprocess
import time


def best(work, n: int = 3):
    """The least CPU seconds of *n* runs of *work*, and its (last) result."""
    least, result = float("inf"), None
    for _ in range(n):
        started = time.process_time()
        result = work()
        least = min(least, time.process_time() - started)
    return least, result


def timed(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one quiet run of *argv*;
    ``SystemExit`` if it fails."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv)}")
    return wall, usage.ru_utime + usage.ru_stime

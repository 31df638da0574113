"""Benchmark guji's start-up (not a test: it prints figures).

Whole commands in fresh processes, as a user starts them: ``guji --version``,
``guji --help`` (every command's parser built), each ``guji COMMAND --help``,
beside the floors: ``python -c pass`` (the interpreter and its site,
the editable install's finder included when guji is installed editable) and
``python -c "import numpy"`` (what a parser that loaded numpy would add).
Each is run in turn, several rounds, after one warm-up round; the best of
each is kept, as wall time and as CPU time (user + system, from
``os.wait4``: the machine's other load moves it less). The bytecode is cached
as after ``pip install`` (which compiles it), whatever
``PYTHONDONTWRITEBYTECODE`` says: a private ``PYTHONPYCACHEPREFIX``, filled by
the warm-up round.

Run from the repository root::

    .venv/bin/python bench/bench_startup.py            # best of 10
    .venv/bin/python bench/bench_startup.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from guji.cli.main import COMMANDS

from cputime import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed rounds (the best is kept)")
    args = parser.parse_args()
    guji = str(Path(sys.executable).with_name("guji"))
    python = sys.executable
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import numpy'": [python, "-c", "import numpy"],
        "guji --version": [guji, "--version"],
        "guji --help": [guji, "--help"],
    }
    for name in COMMANDS:
        commands[f"guji {name} --help"] = [guji, name, "--help"]
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        env["GUJI_LANG"] = "en"
        best = {name: (float("inf"), float("inf")) for name in commands}
        for _ in range(args.runs + 1):            # the first round compiles and warms the caches
            for name, argv in commands.items():
                wall, cpu = timed(argv, env)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    print(f"best of {args.runs} (after a warm-up round); load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'':<28} {'wall':>8} {'CPU':>8}")
    for name in list(commands)[:4]:
        print(f"{name:<28} {best[name][0] * 1000:6.0f} ms {best[name][1] * 1000:6.0f} ms")
    each = {name: best[name] for name in list(commands)[4:]}
    slowest = max(each, key=lambda n: each[n][1])
    quickest = min(each, key=lambda n: each[n][1])
    print(f"{'guji COMMAND --help':<28} {min(w for w, _ in each.values()) * 1000:6.0f}–"
          f"{max(w for w, _ in each.values()) * 1000:.0f} ms wall, "
          f"{min(c for _, c in each.values()) * 1000:.0f}–{max(c for _, c in each.values()) * 1000:.0f} ms CPU "
          f"(quickest {quickest.split()[1]}, slowest {slowest.split()[1]})")
    floor = best["python -c pass"]
    print(f"guji --help above the interpreter's floor: {(best['guji --help'][0] - floor[0]) * 1000:.0f} ms "
          f"wall, {(best['guji --help'][1] - floor[1]) * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()

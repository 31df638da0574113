"""Benchmark a library scan against grep (not a test: it prints figures).

Takes a folder (a Kanripo checkout, or any corpus of text files) and, in one
run, times ``grep -rc 鼓 FOLDER`` and ``guji scan FOLDER --json`` (a fresh
process, as a user runs it), side by side: wall time, MB/s, the ratio, and
guji's peak memory (the resident memory of its processes, parent and
workers, sampled every 10 ms and summed; and the largest one's
``ru_maxrss``).

``--plant`` first makes a copy of the folder (hard links, in a temporary
folder) with the three seed editions (tests/data/seeds) planted in
sub-folders, and checks that the library scan gives exactly what scanning
each seed alone gives (``guji scan FILE --json``: file, score, diagram,
strokes). ``--check`` also scans every file of the folder alone with the
full scanner (:func:`guji.text.reading.scan.scan`, no prefilter, in a process pool:
slow) and counts the files whose patterns differ.

``--big`` builds one file of about 100 MB from the folder's texts with the
seeds inside, and times ``guji scan FILE --json --force`` on it (best of
three): MB/s of wall time and of CPU time, with and without guji's start-up
(the CPU of ``guji scan --help``), and peak memory.

The machine may be shared: wall times stretch with the load, so CPU times
(user + system, of guji's process and its workers, from ``wait4``) are
printed beside them, and grep and guji are run turn about (``--rounds N``,
default 3), the best of each kept.

Run from the repository root::

    .venv/bin/python bench/bench_library.py FOLDER [--plant] [--check] [--big] [--rounds N]
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "tests" / "data" / "seeds").glob("*.txt"))
GUJI = [sys.executable, "-m", "guji"]


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def timed(argv: list[str]) -> tuple[float, int, int, bytes]:
    """Wall seconds, summed peak resident bytes of the process tree (sampled),
    the process's own ru_maxrss (bytes), and its stdout."""
    out = tempfile.TemporaryFile()
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.01)
    took = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    timed.cpu = usage.ru_utime + usage.ru_stime          # the process and its workers
    timed.faults = usage.ru_minflt
    return took, peak, usage.ru_maxrss * 1024, out.read()


def tree_rss(pid: int) -> int:
    """Resident bytes of *pid* and its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return total


def paired(folder: Path, rounds: int) -> tuple[tuple, tuple, int, int, bytes]:
    """``grep -rc 鼓`` and ``guji scan FOLDER --json`` run turn about, *rounds*
    times each, so both meet the same load: the best (wall, CPU) of each, the
    peak memory (summed over guji's processes, and its largest ru_maxrss) and
    guji's output."""
    greps, gujis, peak, maxrss, out = [], [], 0, 0, b""
    for _ in range(rounds):
        took, _, _, _ = timed(["grep", "-rc", "鼓", str(folder)])
        greps.append((took, timed.cpu))
        took, p, m, out = timed(GUJI + ["scan", str(folder), "--json"])
        gujis.append((took, timed.cpu))
        paired.faults = timed.faults
        peak, maxrss = max(peak, p), max(maxrss, m)
    best = lambda runs: (min(r[0] for r in runs), min(r[1] for r in runs))  # noqa: E731
    return best(greps), best(gujis), peak, maxrss, out


def library(folder: Path, rounds: int = 3) -> dict[str, list]:
    size = folder_bytes(folder)
    load = os.getloadavg()[0]
    (grep, grep_cpu), (took, cpu), peak, maxrss, out = paired(folder, rounds)
    found = {}
    for line in out.decode("utf-8").splitlines():
        obj = json.loads(line)
        found[obj["file"]] = obj["patterns"]
    n = sum(len(v) for v in found.values())
    mb = size / 1e6
    print(f"{folder}: {mb:.1f} MB in {len(found):,} files scanned; best of {rounds} runs each, "
          f"grep and guji turn about (load average {load:.1f} → {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")
    print(f"  grep -rc 鼓 : {grep:6.3f} s wall ({mb / grep:6.1f} MB/s), {grep_cpu:.3f} s of CPU")
    print(f"  guji scan   : {took:6.3f} s wall ({mb / took:6.1f} MB/s), {cpu:.3f} s of CPU "
          f"({mb / cpu:.0f} MB/s of CPU, workers included); {n} patterns in "
          f"{sum(1 for v in found.values() if v)} files")
    print(f"  ratio       : {took / grep:.1f}× grep's wall time; guji's CPU over the cores "
          f"{cpu / (os.cpu_count() or 1):.2f} s = {cpu / (os.cpu_count() or 1) / grep:.1f}× "
          "grep's wall time")
    print(f"  peak memory : {peak / 1e6:.0f} MB (all processes, summed), largest process "
          f"{maxrss / 1e6:.0f} MB; {paired.faults:,} page faults (the last run, workers included)")
    return found


def key(pattern: dict) -> tuple:
    return (pattern["score"], pattern["diagram"], pattern["before"], pattern["after"],
            pattern["line"], pattern["column"])


def plant(folder: Path, into: Path) -> list[Path]:
    """A hard-linked copy of *folder* in *into* with the seeds in three sub-folders."""
    copy = into / folder.name
    shutil.copytree(folder, copy, copy_function=os.link)
    subs = [d for d in sorted(copy.rglob("*")) if d.is_dir() and not d.name.startswith(".")]
    places = [copy / "planted", subs[len(subs) // 3] / "seeds" if subs else copy / "a",
              subs[2 * len(subs) // 3] / "x" / "y" if subs else copy / "b"]
    out = []
    for seed, place in zip(SEEDS, places):
        place.mkdir(parents=True, exist_ok=True)
        shutil.copy(seed, place / seed.name)
        out.append(place / seed.name)
    return out


def check_seeds(found: dict[str, list], seeds: list[Path]) -> None:
    for seed in seeds:
        alone = json.loads(subprocess.run(GUJI + ["scan", str(seed), "--json"],
                                          capture_output=True, check=True).stdout)
        same = [key(p) for p in found.get(str(seed), [])] == [key(p) for p in alone]
        print(f"  {seed.name}: {len(alone)} patterns alone, "
              f"{'the same' if same else 'DIFFERENT'} in the library scan")


def _full(path: str) -> tuple[str, list | str]:
    from guji.errors import GujiError
    from guji.text.reading.encoding import read_text
    from guji.text.reading.scan import scan
    try:
        text, _ = read_text(path)
        return path, [p.to_json() for p in scan(text, filename=path).patterns]
    except GujiError as e:
        return path, str(e)


def check_all(found: dict[str, list]) -> None:
    started = time.perf_counter()
    with ProcessPoolExecutor() as pool:
        full = dict(pool.map(_full, sorted(found), chunksize=16))
    differ = [p for p in found if isinstance(full[p], list) and full[p] != found[p]]
    print(f"  full scanner, every file alone: {len(found) - len(differ):,} of {len(found):,} "
          f"files the same ({time.perf_counter() - started:.0f} s)" +
          (f"; differ: {differ[:5]}" if differ else ""))


def _cpu(argv: list[str]) -> float:
    timed(argv)
    return timed.cpu


def big(folder: Path, into: Path) -> None:
    path = into / "library.txt"
    with open(path, "w", encoding="utf-8") as out:
        written, k = 0, 0
        texts = [p for p in sorted(folder.rglob("*.txt")) if p.is_file()]
        while written < 100_000_000:
            if k in (len(texts) // 3, 2 * len(texts) // 3) or k == 5:
                out.write(SEEDS[k % 3].read_text(encoding="utf-8") + "\n")
            text = texts[k % len(texts)].read_text(encoding="utf-8", errors="replace") + "\n"
            out.write(text)
            written += len(text.encode("utf-8"))
            k += 1
    size = path.stat().st_size
    start_cpu = min(_cpu(GUJI + ["scan", "--help"]) for _ in range(3))
    for jobs in ("1", "2"):
        runs = []
        for _ in range(3):
            took, peak, maxrss, out = timed(GUJI + ["scan", str(path), "--json", "--force",
                                                    "--jobs", jobs])
            runs.append((took, timed.cpu, peak, maxrss))
        faults = timed.faults
        took, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        peak, maxrss = max(r[2] for r in runs), max(r[3] for r in runs)
        n = len(json.loads(out))
        print(f"{size / 1e6:.0f} MB in one file, --jobs {jobs}, best of 3: {took:.2f} s wall "
              f"({size / 1e6 / took:.0f} MB/s), {cpu:.2f} s of CPU "
              f"({size / 1e6 / cpu:.0f} MB/s of CPU; {size / 1e6 / (cpu - start_cpu):.0f} MB/s "
              f"without the {start_cpu:.2f} s of CPU guji scan --help costs), {n} patterns, "
              f"peak memory {peak / 1e6:.0f} MB (all processes; ru_maxrss {maxrss / 1e6:.0f} MB), "
              f"{faults:,} page faults")


def _option(argv: list[str], name: str, default: str) -> str:
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv: list[str]) -> None:
    folder = Path(argv[0]).resolve()
    compileall.compile_dir(ROOT / "guji", quiet=1)       # as installed: bytecode cached
    with tempfile.TemporaryDirectory() as tmp:
        seeds = []
        if "--plant" in argv:
            seeds = plant(folder, Path(tmp))
            folder = seeds[0].parent.parent
        found = library(folder, int(_option(argv, "--rounds", "3")))
        if seeds:
            check_seeds(found, seeds)
        if "--check" in argv:
            check_all(found)
        if "--big" in argv:
            big(folder, Path(tmp))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

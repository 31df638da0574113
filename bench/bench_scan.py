"""Benchmark the scanner (not a test: it prints figures).

Scans the 禮記正義 seed (72 KB, 4,775 lines: the whole 投壺 chapter with its
commentary) repeated to about 1 MB and 10 MB, as a user pasting a whole book
would, and prints the time and throughput; then 1 MB texts of unclosed
note brackets (``(`` and ``（`` and ``【``, alone and between strokes), which
once took quadratic time (each opener looked for its closer to the end);
then the variant notes (guji.text.apparatus.notes, witnesses): about 1 MB of patterns
each carrying notes in every form read, and single patterns with thousands
of notes (of one witness, of as many witnesses, all beside 半), which must
stay linear too.

Memory: the peak of the scan (tracemalloc) per byte of text, for 1 MB; and
with ``--big``, a 50 MB edition text scanned by a fresh process, its time and
peak resident memory (``ru_maxrss``), the text's own bytes included.

Run from the repository root::

    .venv/bin/python bench/bench_scan.py [--big]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from guji.errors import NotationError
from guji.text.reading.scan import scan

SEED = Path(__file__).resolve().parents[1] / "tests" / "data" / "seeds" / "004_c01987349620dc35.txt"


def main() -> None:
    chapter = SEED.read_text(encoding="utf-8")
    for copies in (1, 14, 140):
        text = "\n".join([chapter] * copies)
        best = float("inf")
        for _ in range(3 if copies < 100 else 1):
            t = time.perf_counter()
            result = scan(text)
            best = min(best, time.perf_counter() - t)
        mb = len(text.encode("utf-8")) / 1e6
        print(f"{mb:7.2f} MB, {len(text):>9,} chars: {len(result.patterns):>4} patterns in "
              f"{best:6.3f} s ({mb / best:5.2f} MB/s)")
    for name, unit in (("unclosed '('", "("), ("unclosed '（'", "（"), ("unclosed '【'", "【"),
                       ("'○(' pairs", "○("), ("'魯鼓 ○□半(○' lines", "魯鼓 ○□半(○\n")):
        text = unit * (1_000_000 // len(unit.encode("utf-8")))
        t = time.perf_counter()
        try:
            scan(text)
        except NotationError:
            name += " (error at the first)"
        took = time.perf_counter() - t
        mb = len(text.encode("utf-8")) / 1e6
        print(f"{mb:7.2f} MB of {name}: {took:6.3f} s")
    notes()


#: One pattern (lu:1) with a note of every form read: replace, a delete split
#: over two groups with column marks, an insert with a judgement, one not read.
NOTED = ("魯鼓 ○□○○□□○□(一本作○)○○□半○□○□(某/本)(少一/○一□)○○○□\n□○□○(某書/下)(尚有一□一/○某從之)"
         "(吳澄本作○疑誤)\n")


def notes() -> None:
    """Scanning texts full of variant notes."""
    text = NOTED * (1_000_000 // len(NOTED.encode("utf-8")))
    t = time.perf_counter()
    result = scan(text, labels="before")
    took = time.perf_counter() - t
    witnesses = sum(len(p.variants) for p in result.patterns)
    mb = len(text.encode("utf-8")) / 1e6
    print(f"{mb:7.2f} MB of noted patterns: {len(result.patterns):,} patterns, {witnesses:,} "
          f"witness readings, {len(result.notices):,} notes not read, in {took:6.3f} s")
    for name, note in (("of one witness (none read: they clash)", lambda i: "(一本有○)、"),
                       ("of as many witnesses", lambda i: f"(本{i}有○)、")):
        for n in (1_000, 10_000):
            text = "魯鼓 ○□半" + "".join(note(i) for i in range(n)) + "○□"
            t = time.perf_counter()
            result = scan(text)
            took = time.perf_counter() - t
            print(f"one pattern with {n:,} notes beside 半 {name}: "
                  f"{len(result.patterns[0].variants):,} readings in {took:6.3f} s")


def memory(chapter: str) -> None:
    text = "\n".join([chapter] * 14)
    size = len(text.encode("utf-8"))
    tracemalloc.start()
    scan(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{size / 1e6:7.2f} MB: peak {peak / 1e6:6.1f} MB while scanning "
          f"({peak / size:.1f} bytes a byte of text)")


def big(chapter: str) -> None:
    """A 50 MB edition text, scanned by ``guji scan`` in a fresh process."""
    copies = 50_000_000 // (len(chapter.encode("utf-8")) + 1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "edition.txt"
        path.write_text("\n".join([chapter] * copies), encoding="utf-8")
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "guji", "scan", str(path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - started
        print(f"{path.stat().st_size / 1e6:7.2f} MB edition text, guji scan: {took:5.1f} s, "
              f"peak resident {usage.ru_maxrss / 1024:6.0f} MB "
              f"(exit {os.waitstatus_to_exitcode(status)})")


if __name__ == "__main__":
    main()
    memory(SEED.read_text(encoding="utf-8"))
    if "--big" in sys.argv:
        big(SEED.read_text(encoding="utf-8"))

"""Benchmark the scanner (not a test: it prints figures).

Scans the 禮記正義 seed (72 KB, 4,775 lines: the whole 投壺 chapter with its
commentary) repeated to about 1 MB and 10 MB, as a user pasting a whole book
would, and prints the time and throughput; then 1 MB texts of unclosed
note brackets (``(`` and ``（`` and ``【``, alone and between strokes), which
once took quadratic time (each opener looked for its closer to the end).

Run from the repository root::

    .venv/bin/python bench/bench_scan.py
"""

from __future__ import annotations

import time
from pathlib import Path

from guji.errors import NotationError
from guji.text.scan import scan

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


if __name__ == "__main__":
    main()

"""Where the CPU of one big file's scan goes (not a test: it prints figures).

Runs each phase of :func:`guji.text.reading.bigfile.scan_big` on FILE in
this one process and prints its CPU seconds (best of 3, so a shared
machine's load weighs less), with what each phase handles: the first
pass's reading and UTF-8 decoding, the numpy map of every piece
(:func:`guji.text.reading.slicemap.piece_map`), the notes paired and the
breaks kept (:func:`~guji.text.reading.notespans.finish`), the windows
chosen, the second pass (the windows read back), and the scanner on the
windows' tokens. For comparison, one ``re`` pass over the hits of every
piece (what a quick look chunk by chunk would cost at least), and the
CPU of ``guji scan --help`` (start-up) and of importing what a big file needs
beside it (numpy). The load average is printed.

Run from the repository root (``bench/bench_library.py FOLDER --big`` builds
a 100 MB file from a folder and times the whole command)::

    .venv/bin/python bench/bench_bigfile_phases.py FILE
"""

from __future__ import annotations

import compileall
import os
import sys

import numpy as np

from guji.text.reading import bigfile, sieve
from guji.text.reading.lexer import paused_collector
from guji.text.reading.notespans import finish
from guji.text.reading.slicemap import Workspace, piece_map
from guji.text.reading.prefilter import _spans, _table
from guji.text.reading.scan import read_tokens

from cputime import best, timed


def _start_up(argv: list[str]) -> float:
    """CPU seconds of a child running *argv* (its user + system time), best of 3."""
    return min(timed([sys.executable, *argv])[1] for _ in range(3))


def main(path: str) -> None:
    compileall.compile_dir(os.path.join(os.path.dirname(__file__), "..", "guji"), quiet=1)
    size = os.path.getsize(path)
    table = _table()
    print(f"{path}: {size / 1e6:.1f} MB; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores; CPU seconds, best of 3")
    took, pieces = best(lambda: [p[:2] for p in bigfile._pieces(path, bigfile.CHUNK)])
    chars = sum(len(p[1]) for p in pieces)
    print(f"  pass 1: read + decode       {took:.3f}  ({len(pieces)} pieces, {chars:,} characters)")
    took, _ = best(lambda: [sieve._LOOKED_AT.findall(p[1]) for p in pieces])
    print(f"    (one re pass over the hits {took:.3f}: the least a quick look chunk by chunk costs)")
    work = Workspace()
    took, raw = best(lambda: [bigfile._narrow(piece_map(p[1], p[0], table, work)) for p in pieces])
    hits = sum(len(r[0][0]) for r in raw)
    brackets = sum(len(r[2][0]) for r in raw)
    runs = sum(len(r[1][0]) for r in raw)
    print(f"  pass 1: numpy map           {took:.3f}  ({hits:,} hits, {brackets:,} brackets, "
          f"{runs:,} runs of 5+ ideographs)")
    del pieces
    took, (maps, starts, parts, chars) = best(
        lambda: bigfile._map_range((path, 0, size, bigfile.CHUNK)))
    print(f"  pass 1 as scan_big runs it  {took:.3f}  (read, decode, map, line starts)")
    took, tm = best(lambda: finish([tuple(tuple(a.copy() for a in part) for part in m)
                                    for m in maps], [0], chars))
    print(f"  notes paired, breaks kept   {took:.3f}  ({len(tm.note_starts):,} notes, "
          f"{len(tm.break_starts):,} breaks free)")
    lines = bigfile._MarkLines(np.concatenate([np.zeros(1, dtype=np.int32)] + starts), chars)
    took, spans = best(lambda: _spans(lines, tm, np.array([0]), np.array([chars])))
    print(f"  windows chosen              {took:.3f}  ({len(spans)} windows, "
          f"{sum(b - a for a, b in spans):,} characters)")
    took, src = best(lambda: bigfile.SparseSource(path, "t.txt", spans, parts, lines, chars))
    print(f"  pass 2: windows read back   {took:.3f}")
    took, tokens = best(src.tokens)
    print(f"  windows' tokens             {took:.3f}  ({len(tokens):,} tokens)")
    with paused_collector():
        took, result = best(lambda: read_tokens(src, tokens, None, "auto"))
    print(f"  scanner on the tokens       {took:.3f}  ({len(result.patterns)} patterns)")
    took, _ = best(lambda: bigfile.scan_big(path))
    print(f"  scan_big, whole             {took:.3f}  ({size / 1e6 / took:.0f} MB/s of CPU)")
    print(f"  start-up (guji scan --help) {_start_up(['-m', 'guji', 'scan', '--help']):.3f}")
    print(f"  … and the big file's modules (numpy) "
          f"{_start_up(['-c', 'import guji.cli.main, guji.text.reading.bigfile']):.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

"""Where a library scan's CPU goes (not a test: it prints figures).

Reads every file of FOLDER in this one process and times, in CPU seconds
(best of 5, so a shared machine's load weighs less), each phase a library
worker goes through: reading, decoding, the quick look
(:mod:`guji.text.reading.sieve`), the numpy map of the files it leaves
(:func:`guji.text.reading.prefilter.windows_of_each`), and the scanner on
the windows. Start-up and the parent's walk are not in it (see
``bench_library.py``, which times the whole command).

Run from the repository root::

    .venv/bin/python bench/bench_library_phases.py FOLDER
"""

from __future__ import annotations

import sys

from guji.text.reading import sieve
from guji.text.reading.library import read_lean, walk
from guji.text.reading.prefilter import _may_hold, _table, prefiltered_scan, windows_of_each

import cputime


def best(work, n: int = 5):
    """The least CPU seconds of *n* runs of *work* (best of 5 unless said), and its result."""
    return cputime.best(work, n)


def main(folder: str) -> None:
    paths = [p for p in walk([folder]) if isinstance(p, str)]
    _table()
    took, _ = best(lambda: [open(p, "rb").read() for p in paths])
    print(f"{len(paths):,} files; CPU seconds, best of 5")
    print(f"  open + read            {took:.3f}")
    took, texts = best(lambda: [read_lean(p)[0] for p in paths])
    texts = [t or "" for t in texts]
    print(f"  read_lean (+ decode)   {took:.3f}")
    took, _ = best(lambda: [sieve._LOOKED_AT.findall(t) for t in texts])
    print(f"    quick look's one pass over the hits {took:.3f}")
    took, kept = best(lambda: [_may_hold(t) for t in texts])
    print(f"  quick look, whole      {took:.3f}  ({sum(kept):,} files left to the map)")
    took, spans = best(lambda: windows_of_each(texts), 3)
    print(f"  quick look + map       {took:.3f}")
    took, _ = best(lambda: [prefiltered_scan(t, p, None, "auto", s)
                            for t, p, s in zip(texts, paths, spans)], 3)
    chars = sum(b - a for s in spans for a, b in s)
    print(f"  scanner on windows     {took:.3f}  ({sum(1 for s in spans if s):,} files with "
          f"windows, {chars:,} of {sum(map(len, texts)):,} characters)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

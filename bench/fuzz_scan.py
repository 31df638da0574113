"""Fuzz the readers: many random texts through scan() and parse(); print figures.

Not a test (the suite runs a few hundred command lines: tests/test_cli_fuzz.py):
this runs as many texts as asked (default 100,000) through
:func:`guji.text.reading.scan.scan` and :func:`guji.text.reading.parser.parse`, and through
the decoder as random bytes, and counts what came out: patterns, notation
errors (the reader refusing a text, with a line and column), and crashes —
any other exception, each printed with its text. A crash is a bug.

Run from the repository root::

    .venv/bin/python bench/fuzz_scan.py [COUNT] [SEED]
"""

from __future__ import annotations

import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzz  # noqa: E402

from guji.errors import GujiError, NotationError  # noqa: E402
from guji.text.reading.encoding import decode  # noqa: E402
from guji.text.reading.parser import parse  # noqa: E402
from guji.text.reading.scan import scan  # noqa: E402


def one(rng: random.Random, counts: Counter) -> None:
    value = fuzz.text(rng)
    for reader, name in ((scan, "scan"), (parse, "parse")):
        try:
            result = reader(value)
            found = len(result.patterns) if name == "scan" else 1
            counts[f"{name}: patterns"] += found
            counts[f"{name}: read"] += 1
        except NotationError as e:
            counts[f"{name}: notation errors"] += 1
            assert e.location is None or e.location.line >= 1
        except GujiError:
            counts[f"{name}: other refusals"] += 1
        except Exception:                                   # a crash: a bug
            counts["crashes"] += 1
            print(f"CRASH in {name} on {value!r}", file=sys.stderr)
            traceback.print_exc()
    data = fuzz.encoded(rng, value)
    try:
        decode(data)
        counts["decode: decoded"] += 1
    except GujiError:
        counts["decode: refused"] += 1
    except Exception:
        counts["crashes"] += 1
        print(f"CRASH in decode on {data!r}", file=sys.stderr)
        traceback.print_exc()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rng = random.Random(seed)
    counts: Counter = Counter()
    started = time.perf_counter()
    for _ in range(count):
        one(rng, counts)
    took = time.perf_counter() - started
    print(f"{count:,} random texts (seed {seed}) in {took:.1f} s "
          f"({count / took:,.0f} a second), each through scan, parse and decode:")
    for key in sorted(counts):
        print(f"  {key:28} {counts[key]:>9,}")
    print(f"  {'crashes':28} {counts['crashes']:>9,}")


if __name__ == "__main__":
    main()

"""CPU time ``guji play --check --loop`` spends on each pass it reports.

While guji plays on, the checker's thread hears each pass from the live
input, pairs it and writes its report (guji/cli/commands/_listening.py); that
work shares the machine with the playback, so it must stay small beside the
pass's own length. Here the input is a seeded performance (tests/
practice_set.py's voices, tests/test_play_check_passes.py's drummer: jitter
15 ms, guji's clicks mixed in) fed into a :class:`~guji.sound.capture.Capture`
through its callback, the player's clock simulated; then each pass is checked
in turn (``PassChecker._check``: read the stretch, find the hits, tell the
drums, pair, the JSON report), timed by the process's CPU clock (the machine
is shared: CPU time is the figure load does not inflate).

    .venv/bin/python bench/bench_check_passes.py
"""

from __future__ import annotations

import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import practice_set  # noqa: E402
from test_check_passes import _args, _clicks, _room  # noqa: E402
import drummer as along  # noqa: E402

from guji.cli.commands._listening import PassChecker  # noqa: E402
from guji.cli.commands._practise import passes_of, practice_what  # noqa: E402
from guji.practice.expected import expected_events  # noqa: E402
from guji.sound.capture import Capture  # noqa: E402
from guji.text.reading.editions import load  # noqa: E402
from guji.text.reading.notation import Rite  # noqa: E402
from guji.timing.layout import lay_out  # noqa: E402
from guji.timing.loop import Loop  # noqa: E402
from guji.timing.performance import Timing  # noqa: E402


class Status:
    input_overflow = False


def one(name: str, passes: int, folder: Path) -> None:
    pattern = load(name)
    performance = lay_out([pattern], Timing(Rite.TOUHU, 0.6, 1, 4))
    events = expected_events(lay_out([pattern], Timing(Rite.TOUHU, 0.6, passes, 4)))
    path, truth, _extras = along.drummer(folder, events, seed=50)
    x = _room(path, events, _clicks)
    args = _args(loop=True, ids=[name])
    played = practice_what(Loop(performance), args)
    capture = Capture(rate=48000, seconds=len(x) / 48000 + 5)
    for i in range(0, len(x), 1024):
        block = x[i:i + 1024, None]
        capture._callback(block, len(block), None, Status())
    capture.started, capture.ended = 100.0, 100.0 + len(x) / 48000
    report = types.SimpleNamespace(first_heard=100.0 + practice_set.LEAD, jumps=0)
    checker = PassChecker(args, passes_of(played, args), capture, endless=True)
    cpu, seconds = [], 0.0
    for _k in range(passes):
        p = checker.pending
        started = time.process_time()
        checker._check(p, report)
        cpu.append(time.process_time() - started)
        seconds = p.last - p.first + p.interval
        checker.pending = next(checker._passes)
    print(f"{name}: {len(truth) // passes} strokes a pass, {seconds:.1f} s: CPU per pass "
          f"median {np.median(cpu) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms "
          f"({passes} passes; {100 * np.median(cpu) / seconds:.2f} % of the pass)")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        one("lu", 10, Path(folder))
        one("xue", 10, Path(folder))


if __name__ == "__main__":
    main()

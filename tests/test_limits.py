"""Work that is bounded: oversized requests refused before any work, with the figure.

Each request below once ran away: it wrote until the disk was full, grew
without end, overflowed a sample position, or wrote a MIDI file no reader
can read, all with exit status 0. Every one is now one line and exit status
2 before anything is written. They run in a fresh process under resource
bounds (``tests/runner.py``), so a regression fails the test, not the
machine.
"""

from __future__ import annotations

import math
import re
import tracemalloc
from pathlib import Path

import mido

import pytest

import guji.limits
from guji.errors import UsageError
from guji.limits import LimitError, Limits
from guji.midi import build_midi
from guji.midi.size import MAX_DELTA
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.text.reading.scan import scan
from guji.timing.extent import HARD_LONGEST
from guji.timing.layout import alternate, lay_out, perform
from guji.timing.performance import Timing
from guji.timing.score import Score

import runner

SEED = Path(__file__).parent / "data" / "seeds" / "004_c01987349620dc35.txt"


def refused(r: runner.Run, *words: str) -> None:
    """One line on stderr naming *words*, exit status 2, no traceback, nothing written."""
    assert r.returncode == 2, r.stderr
    assert len(r.err_lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for word in words:
        assert word in r.stderr, r.stderr


@pytest.mark.parametrize("args, words", [
    # a sample position once overflowed (RuntimeWarning) and 11.7 GB were written in 20 s
    (["render", "lu", "--interval", "1e15"], ["68 years"]),
    # these ran until the disk was full
    (["render", "lu", "--repeat", "1000000000"], ["228 years", "68 years"]),
    (["render", "lu", "--count-in", "1000000000"], ["19 years", "24 h", "--force"]),
    (["render", "lu", "xue", "--gap", "1000000000"], ["19 years", "24 h", "--force"]),
    (["render", "lu", "--repeat", "20000"], ["40 h", "24 h", "--force"]),
    # this grew memory without limit (5.4 GB at 45 s)
    (["midi", "lu", "--repeat", "1000000000"], ["228 years"]),
    (["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "alternate", "--repeat", "100000000"],
     ["200,000,000 passes", "100,000"]),
    # a MIDI file of more notes than memory can build
    (["midi", "lu", "--bpm", "12000", "--repeat", "100000"], ["1,200,000 notes", "GB",
                                                              "1,000,000", "--force"]),
    # one cue a difference a pass: a million objects
    (["compare", "xue:2", "xue:2@lijing-benyi", "--mode", "diff", "--rite", "she",
      "--bpm", "12000", "--repeat", "200000"], ["100,000"]),
])
def test_an_oversized_request_is_refused_before_any_work(tmp_path, args, words):
    out = "out.mid" if args[0] == "midi" else "out.wav"
    r = runner.guji([*args, "-o", out], tmp_path)
    refused(r, *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_midi_delta_times_stay_within_the_standard_midi_file_limit(tmp_path):
    # --interval 1e6 once wrote delta-times of 686,649,715 ticks with exit 0
    refused(runner.guji(["midi", "lu", "--interval", "1e6", "-o", "a.mid"], tmp_path),
            "24 h", "--force")
    r = runner.guji(["midi", "lu", "--interval", "1e6", "--force", "-o", "a.mid"], tmp_path)
    refused(r, "0x0FFFFFFF", "268,435,455", "--ticks-per-beat ")
    assert not (tmp_path / "a.mid").exists()
    fits = int(re.search(r"--ticks-per-beat (\d+) or fewer", r.stderr).group(1))
    # at the resolution the message names, the file is written, every delta within the limit
    r = runner.guji(["midi", "lu", "--interval", "1e6", "--force", "--ticks-per-beat", str(fits),
                     "-o", "a.mid"], tmp_path)
    assert r.returncode == 0, r.stderr
    deltas = [msg.time for track in mido.MidiFile(tmp_path / "a.mid").tracks for msg in track]
    assert 0 < max(deltas) <= MAX_DELTA
    # and it is the finest that fits
    r = runner.guji(["midi", "lu", "--interval", "1e6", "--force", "--ticks-per-beat",
                     str(fits + 1), "-o", "b.mid"], tmp_path)
    refused(r, "0x0FFFFFFF")


@pytest.mark.parametrize("command", ["midi", "render", "compare", "page"])
@pytest.mark.parametrize("option", ["--interval=1e308", "--bpm=1e-300"])
def test_an_absurd_tempo_is_one_line_not_an_overflow_error(tmp_path, command, option):
    # OverflowError in tempo_for, exit 1, once (and render wrote until the disk was full)
    ids = ["lu:1", "lu:1@wuli-tongkao"] if command in ("compare", "page") else ["lu"]
    out = {"midi": "a.mid", "render": "a.wav", "compare": "a.wav", "page": "site"}[command]
    refused(runner.guji([command, *ids, option, "-o", out], tmp_path), "68 years")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_force_lifts_the_limits_that_can_be_lifted(tmp_path):
    # 200 passes of 12 strokes a minute apart: 40 hours, 2,400 notes
    args = ["midi", "lu", "--bpm", "1", "--repeat", "200", "-o", "long.mid"]
    refused(runner.guji(args, tmp_path), "40 h", "24 h")
    r = runner.guji([*args, "--force"], tmp_path)
    assert r.returncode == 0, r.stderr
    end = mido.MidiFile(tmp_path / "long.mid").length
    # 2,400 steps of 60 s, then the ring bar: one step of rest, the least that lasts 2 s
    assert end == pytest.approx(200 * 12 * 60 + 60, abs=0.01)


def test_the_limits_in_python():
    lu = load("lu:1")
    timing = Timing(Rite.SHE, 1.0, repeat=4000)          # 25 hours
    with pytest.raises(LimitError, match="25.6 h.*24 h") as refusal:
        perform(lu, timing)
    assert refusal.value.forcible and isinstance(refusal.value, UsageError)
    with guji.limits.lifted():
        assert perform(lu, timing).duration == pytest.approx(4000 * 23)
    with guji.limits.using(Limits(longest=60.0)):
        with pytest.raises(LimitError, match="69 s.*60 s"):
            perform(lu, Timing(Rite.SHE, 1.0, repeat=3))
    # the limits in force come back after the block
    assert guji.limits.current() == guji.limits.DEFAULT
    # a Score is a lazy value of any length: only what a sink takes is checked
    score = Score(lu, repeat=10 ** 9)
    assert score.time(len(score) - 1) > HARD_LONGEST
    with guji.limits.lifted(), pytest.raises(LimitError, match="68 years") as hard:
        perform(lu, Timing(repeat=10 ** 9))
    assert not hard.value.forcible


def test_alternate_checks_before_it_makes_a_part_of_each_pass():
    a, b = load("lu:1"), load("lu:1@wuli-tongkao")
    tracemalloc.start()
    with pytest.raises(LimitError, match="200,000 passes"), \
            guji.limits.using(Limits(parts=1000)):
        alternate([a, b], Timing(interval=0.005, repeat=10 ** 5))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1_000_000              # refused before the 200,000 passes were made


def test_a_midi_file_too_big_to_build_is_refused_with_its_memory():
    perf = lay_out([load("lu")], Timing(interval=0.005, repeat=100))
    with pytest.raises(LimitError, match=r"1,200 notes .* 1\.32 MB .* 1,000 notes"), \
            guji.limits.using(Limits(midi_notes=1000)):
        build_midi(perf)
    assert build_midi(perf).tracks                    # within the default limit


# -- input ---------------------------------------------------------------------------------

def test_an_endless_input_is_refused_at_the_limit(tmp_path):
    # /dev/zero as input once grew to 3.8 GB in 5 s
    for args in (["scan", "/dev/zero"], ["show", "lu@/dev/zero"], ["scan", "-"]):
        with open("/dev/zero", "rb") as zero:
            r = runner.guji(args, tmp_path, stdin=zero, memory_bytes=1 * 2 ** 30)
        refused(r, "64 MiB", "--force")


def test_reading_a_text_takes_memory_proportional_to_it():
    # a 50 MB edition text once took 3.8 GB: now under 20 bytes a byte of text (1 GB for 50 MB)
    chapter = SEED.read_text(encoding="utf-8")
    text = "\n".join([chapter] * 7)                     # 0.5 MB, 28 patterns
    size = len(text.encode("utf-8"))
    tracemalloc.start()
    result = scan(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(result.patterns) == 7 * 4
    assert peak < 20 * size, f"{peak / size:.1f} bytes a byte"


def test_texts_up_to_the_limit_are_read(tmp_path):
    with guji.limits.using(Limits(text_bytes=1000)):
        from guji.text.reading.encoding import read_text
        small = tmp_path / "small.txt"
        head = "魯鼓 ○□半○□".encode("utf-8")
        small.write_bytes(head + b" " * (1000 - len(head)))
        assert read_text(small)[0].startswith("魯鼓")
        small.write_bytes(head + b" " * (1001 - len(head)))
        with pytest.raises(LimitError, match="limit of 1,000 bytes"):
            read_text(small)


def test_the_refusals_name_a_figure_in_words():
    from guji.limits import duration_text, size_text
    assert duration_text(86400) == "24 h"
    assert duration_text(60) == "60 s" and duration_text(120) == "2 min"
    assert duration_text(math.inf) == "forever"
    assert size_text(1.32e9) == "1.32 GB"

"""Sheet music: the writers, and the engravers side by side (the choice of
guji.sheet.engrave rests on these figures).

Prints figures, asserts nothing. Run: ``.venv/bin/python bench/bench_sheet.py``
(``--rounds N``: best of N, interleaved, default 3; other programs loading
the machine make single figures wobble).

* a 300-stroke score (the four patterns of the 禮記正義, 射禮, one after
  another until 300 strokes are written, count-in 4): build the sheet from
  the performance, write MusicXML, .mxl and LilyPond source; engrave to SVG
  with verovio (in process) and with LilyPond's SVG back end; to PDF with
  LilyPond and with MuseScore 3 (both programs);
* one pattern (lu:1, 射禮, 23 strokes): the same engravers, to see what is
  fixed cost;
* ``--repeat 10000``: building (and folding) the sheet of 10,000 passes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from guji.sheet import run_lilypond, sheet_of, to_lilypond, to_musicxml, to_mxl, to_svg
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.layout import lay_out
from guji.timing.performance import Timing

IDS = ("lu:1", "xue:1", "lu:2", "xue:2")


def long_performance(strokes: int = 300):
    chosen, total = [], 0
    while total < strokes:
        pattern = load(IDS[len(chosen) % len(IDS)])
        chosen.append(pattern)
        total += len(pattern.strokes)
    return lay_out(chosen, Timing(Rite.SHE, count_in=4)), total


def program(args: list[str], cwd: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, timeout=600)


def engravers(sheet, tmp: Path, tag: str) -> dict:
    """name → a function engraving *sheet* (files under *tmp*)."""
    ly, xml = to_lilypond(sheet), to_musicxml(sheet)
    (tmp / f"{tag}.ly").write_text(ly, encoding="utf-8")
    (tmp / f"{tag}.musicxml").write_text(xml, encoding="utf-8")
    out = {"verovio SVG (in process)": lambda: to_svg(sheet)}
    if shutil.which("lilypond"):
        out["LilyPond PDF"] = lambda: run_lilypond(ly)
        out["LilyPond SVG"] = lambda: program(
            ["lilypond", "-dbackend=svg", "-dno-point-and-click", "-o", f"{tag}-svg",
             f"{tag}.ly"], tmp)
    if shutil.which("mscore3"):
        out["MuseScore 3 PDF"] = lambda: program(
            ["mscore3", "-o", f"{tag}-ms.pdf", f"{tag}.musicxml"], tmp)
    return out


def best_of(jobs: dict, rounds: int) -> dict:
    """The best time of each job over *rounds*, the jobs interleaved."""
    best = {name: float("inf") for name in jobs}
    for _ in range(rounds):
        for name, job in jobs.items():
            t0 = time.perf_counter()
            job()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(f"load average {os.getloadavg()[0]:.2f}; best of {rounds}, interleaved")
    perf, strokes = long_performance()
    sheet = sheet_of(perf)
    small = sheet_of(lay_out([load("lu:1")], Timing(Rite.SHE)))
    writers = {
        "build the sheet (sheet_of)": lambda: sheet_of(perf),
        "MusicXML": lambda: to_musicxml(sheet),
        "MusicXML compressed (.mxl)": lambda: to_mxl(sheet),
        "LilyPond source": lambda: to_lilypond(sheet),
    }
    print(f"\n{strokes} strokes, {len(sheet.measures)} bars: writers")
    for name, seconds in best_of(writers, rounds).items():
        print(f"  {name:34s} {seconds * 1000:8.1f} ms")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for tag, which in (("300 strokes", sheet), ("lu:1, 23 strokes", small)):
            print(f"\n{tag}: engravers")
            jobs = engravers(which, tmp, tag.split()[0].replace(":", ""))
            for name, seconds in best_of(jobs, rounds).items():
                print(f"  {name:34s} {seconds:8.2f} s")
        pdf = run_lilypond(to_lilypond(sheet)).pdf
        print(f"\n  LilyPond PDF of 300 strokes: {len(pdf) / 1e6:.2f} MB; "
              f"verovio SVG: {len(to_svg(sheet).encode()) / 1e6:.2f} MB")
    many = lay_out([load("lu:1")], Timing(Rite.SHE, repeat=10_000))
    t0 = time.perf_counter()
    folded = sheet_of(many)
    print(f"\n--repeat 10000 (230,000 strokes): sheet built and folded in "
          f"{time.perf_counter() - t0:.2f} s, {len(folded.measures)} bars written")


if __name__ == "__main__":
    main()

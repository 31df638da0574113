"""The command line, fuzzed: random texts, options and output paths, a few hundred runs.

Every run must end with an exit status a script can use (0, 1, 2 or 130),
never a traceback (an exception out of :func:`guji.cli.main.main` fails the
test), leave no temporary file beside its output, leave the input text as it
was, and write nothing when it fails. The options mix good values with the
bad and the absurd; the good ones are small (a few passes at a low sample
rate), so the runs stay quick. Seeded: a failure names its run, and the same
seed gives the same runs.
"""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest

import fuzz

SEED = 20260
RUNS = 400

#: (good values, bad or absurd ones): see :class:`Draw`.
IDS = (("lu", "xue:2", "lu:1@wuli-tongkao", "xue:1@lijing-benyi", "薛:2", "魯", "lu@text.txt",
        "xue:2@text.txt"),
       ("nope", "lu:3", "", "lu@missing.txt", "lu:1@text.txt@x"))
INTERVALS = (("0.6", "0.25", "2", "0.05"),
             ("0", "-1", "nan", "inf", "1e308", "1e-300", "abc", "0.001", "1e6", "1e15"))
BPMS = (("100", "300", "40"), ("0", "-5", "1e-300", "1e308", "x"))
REPEATS = (("1", "2", "3"), ("0", "-1", "1000000000", "2.5", "x", "9" * 500))
COUNT_INS = (("0", "2"), ("-1", "1000000000", "y"))
GAPS = (("0", "2"), ("-2", "1000000000", "1e9"))
EXTENSIONS = {"midi": ((".mid", ".midi"), (".txt", "")),
              "render": ((".wav", ".flac", ".ogg"), (".txt", "")),
              "draw": ((".svg",), (".txt", "")),
              "compare": ((".wav", ".mid", ".flac"), (".txt",))}


class Draw:
    """Random choices for one run: a clean run (half of them) draws only good
    values and a new output name; the others draw a bad value a third of the time."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.clean = rng.random() < 0.5
        self.bad = 0.0 if self.clean else 1 / 3

    def __call__(self, values: tuple[tuple, tuple]) -> str:
        good, bad = values
        return self.rng.choice(bad if self.rng.random() < self.bad else good)

    def chance(self, p: float) -> bool:
        return not self.clean and self.rng.random() < p


def _timing(rng: random.Random, pick: Draw) -> list[str]:
    out: list[str] = []
    if rng.random() < 0.5:
        out += ["--interval", pick(INTERVALS)] if rng.random() < 0.7 else \
               ["--bpm", pick(BPMS)]
    for option, values in (("--repeat", REPEATS), ("--count-in", COUNT_INS), ("--gap", GAPS)):
        if rng.random() < 0.3:
            out += [option, pick(values)]
    if rng.random() < 0.3:
        out += ["--rite", pick((("touhu", "she"), ("bad",)))]
    if rng.random() < 0.15:
        out.append("--force")
    return out


def _output(rng: random.Random, pick: Draw, folder: Path, command: str) -> tuple[str, str]:
    """(the -o value, what it is: new, existing, dir, missing, empty, stdout, link, device)."""
    ext = pick(EXTENSIONS[command])
    kind = "new" if not pick.chance(0.8) else rng.choice(
        ("existing", "dir", "missing", "empty", "stdout", "link", "device"))
    if kind == "existing":
        (folder / f"old{ext}").write_bytes(b"old")
        return str(folder / f"old{ext}"), kind
    if kind == "dir":
        return str(folder), kind
    if kind == "missing":
        return str(folder / "no" / f"x{ext}"), kind
    if kind == "empty":
        return "", kind
    if kind == "stdout":
        return "-", kind
    if kind == "link":
        (folder / f"link{ext}").symlink_to(f"target{ext}")
        return str(folder / f"link{ext}"), kind
    if kind == "device" and os.geteuid() == 0:
        os.mknod(folder / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return str(folder / "null"), kind
    return str(folder / f"out{ext}"), "new"


def _argv(rng: random.Random, folder: Path) -> tuple[list[str], str | None, str]:
    """A random command line, its -o value (or None) and the output's kind."""
    pick = Draw(rng)
    command = rng.choice(("scan", "show", "diff", "midi", "render", "draw", "compare",
                          "midi", "render"))
    ids = [pick(IDS) for _ in range(rng.choice((1, 1, 2, 3)))]
    extra = []
    if pick.chance(0.15):
        extra += ["--encoding", rng.choice(("utf-8", "gb18030", "big5", "utf-32", "rot13",
                                            "latin-1", "nope"))]
    if pick.chance(0.15):
        extra += ["--labels", rng.choice(("auto", "after", "before", "sideways"))]
    if command == "scan":
        return ["scan", rng.choice(("text.txt", "text.txt", "missing.txt", str(folder))),
                *extra] + (["--json"] if rng.random() < 0.5 else []), None, ""
    if command in ("show", "diff"):
        ids = (ids * 2)[:2] if command == "diff" else ids
        return [command, *ids, *extra] + (["--json"] if rng.random() < 0.5 else []), None, ""
    out, kind = _output(rng, pick, folder, command)
    argv = [command, *ids, "-o", out, *extra]
    if command != "draw":
        argv += _timing(rng, pick)
    if command in ("render", "compare"):
        argv += ["--rate", pick((("8000",), ("7999", "x")))]
    if command == "render" and rng.random() < 0.3:
        argv += ["--format", rng.choice(("wav", "flac", "ogg"))]
    if command == "render" and rng.random() < 0.2:
        argv += ["--bits", rng.choice(("16", "24", "float"))]
    if command == "compare":
        argv += ["--mode", pick((("sequence", "alternate", "stereo", "diff"), ("bad",)))]
    return argv, out, kind


def check_run(folder: Path, rng: random.Random, name: str) -> list[str]:
    """One random command line in *folder*: what went wrong (nothing, if all is well)."""
    source = fuzz.encoded(rng, fuzz.text(rng))
    (folder / "text.txt").write_bytes(source)
    argv, out, kind = _argv(rng, folder)
    os.chdir(folder)
    try:
        status, err = fuzz.run_main(argv)
    except BaseException as e:                       # a traceback: the worst failure
        return [f"{name}: guji {' '.join(argv)!r}: raised {type(e).__name__}: {e}"]
    checks = [
        (status in (0, 1, 2, 130), f"exit status {status}"),
        ("Traceback" not in err, "a traceback"),
        (status != 2 or err.strip(), "an error that says nothing"),
        (not list(folder.rglob(".*")), f"left {[p.name for p in folder.rglob('.*')]}"),
        ((folder / "text.txt").read_bytes() == source, "the input text changed"),
        (kind != "new" or Path(out).exists() == (status == 0), "output made on failure "
                                                                "or missing on success"),
        (kind != "existing" or status == 0 or Path(out).read_bytes() == b"old",
         "the old file changed by a failed run"),
        (kind != "device" or stat.S_ISCHR(os.lstat(out).st_mode), "the device replaced"),
        (kind != "link" or Path(out).is_symlink(), "the link replaced"),
    ]
    return [f"{name}: guji {' '.join(argv)!r}: {what}\n{err}" for ok, what in checks if not ok]


def fuzz_block(seed: int, runs: int, base: Path) -> list[str]:
    """*runs* random command lines from *seed*, each in a folder of its own under *base*."""
    rng = random.Random(seed)
    problems: list[str] = []
    for run in range(runs):
        folder = base / f"run{run}"
        folder.mkdir()
        problems += check_run(folder, rng, f"seed {seed} run {run}")
    return problems


@pytest.mark.parametrize("block", range(4))
def test_the_command_line_fuzzed(tmp_path, block):
    """A block of runs in one process of its own, under resource bounds
    (``tests/runner.py``): a regression that runs away (a request no longer
    refused, writing gigabytes) fails the test, not the machine."""
    problems = fuzz.bounded_block("test_cli_fuzz", "fuzz_block", SEED + block, RUNS // 4, tmp_path)
    assert problems == [], "\n".join(problems)[:6000]

"""The sweep of issue 20 in the suite: every command, odd names and characters, kits, the cache.

Seeded runs of random command lines over every command that writes or reads
(scan, show, diff, collate, claims, midi, render, draw, compare, sheet, page,
list, glyphs), with names that are not UTF-8, hold U+FFFE / U+FFFF or
controls, are too long for the file system or hold ``~``; texts whose notes
name such witnesses; random kit files (TOML nested deep, NUL, two tables of
one voice, bad types) and kit folders (recordings of one sample, NaN, eight
channels, empty, not audio); and a cache whose files are cut short, forged
or NaN between runs. Each block of runs is one process of its own under
resource bounds (``tests/runner.py``), the runs in it calling
:func:`guji.cli.main.main` as the console script does.

Every run must end with exit status 0, 1 or 2 and no traceback; an error must
say something; no temporary file may be left (beside the output, nor in the
cache); every MusicXML, ``.mxl`` and SVG written must parse as XML, every MIDI
file read back by mido, every page decode as UTF-8 without a noncharacter.
Sized for CI (about a minute on two cores): ``RUNS`` in ``BLOCKS`` processes.
"""

from __future__ import annotations

import os
import random
import stat
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest

import fuzz

SEED = 2020
BLOCKS = 4
RUNS = 800

FF = os.fsdecode(b"\xff")
#: Names of files and outputs: odd characters, and one too long for any file system.
ODD = ("plain", "b" + FF + "d", "w\ufffe", "w\uffff", "c\x01", "t~x", "sp ace", "漢字",
       "\u202ertl", "x" * 300)
WITNESSES = ("一本", "宋\uffff本", "一~本", "\x01本", "b" + FF + "本", "本\ufffe")
COMMANDS = ("scan", "show", "diff", "collate", "claims", "midi", "render", "draw", "compare",
            "sheet", "page", "list", "glyphs", "midi", "render", "sheet", "draw")
SUFFIX = {"midi": (".mid",), "render": (".wav", ".flac", ".ogg"), "draw": (".svg",),
          "compare": (".wav", ".mid", ".flac"), "sheet": (".musicxml", ".mxl", ".svg", ".ly"),
          "page": ("", ".html")}


def _text(rng: random.Random) -> str:
    """A text of a pattern or two whose notes name odd witnesses, or a random one."""
    if rng.random() < 0.3:
        return fuzz.text(rng)
    witness = rng.choice(WITNESSES)
    return (f"魯鼓\n○□○○□□○□({witness}作○)○○□半○□○□○○○○□○\n"
            + ("薛鼓 ○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○\n" if rng.random() < 0.5 else ""))


def _write(folder: Path, name: str, data: bytes) -> str | None:
    """Write *data* as *name* in *folder*; the name, or None where the file system refuses it."""
    try:
        (folder / name).write_bytes(data)
        return name
    except OSError:
        return None


def _wav(path: Path, samples: np.ndarray, rate: int = 8000) -> None:
    import soundfile as sf
    with open(path, "wb") as f:                   # (libsndfile takes no surrogates in a name)
        sf.write(f, samples, rate, format="WAV",
                 subtype="FLOAT" if samples.dtype == np.float32 else "PCM_16")


def _kit_folder(rng: random.Random, folder: Path) -> str:
    kit = folder / rng.choice(("kit", "k" + FF, "k\ufffe"))
    kit.mkdir()
    t = np.arange(800) / 8000
    hit = (0.5 * np.sin(2 * np.pi * 300 * t) * np.exp(-t * 30)).astype(np.float32)
    for name in ("small", "big"):
        kind = rng.choice(("good", "good", "one", "nan", "eight", "empty", "text", "missing"))
        path = kit / f"{name}.wav"
        if kind == "good":
            _wav(path, hit)
        elif kind == "one":
            _wav(path, np.array([0.5], dtype=np.float32))
        elif kind == "nan":
            _wav(path, np.full(100, np.nan, dtype=np.float32))
        elif kind == "eight":
            _wav(path, np.repeat(hit[:, None], 8, axis=1))
        elif kind == "empty":
            path.write_bytes(b"")
        elif kind == "text":
            path.write_bytes(b"not audio at all")
    return kit.name


KIT_LINES = ('name = "k"', '["鼙"]', "[small]", "[big]", '["鼓"]', "[cue]", "[nope]",
             "level = -3.0", "level = 5", "pan = 2", "fundamental = -1", 'sample = "small.wav"',
             'sample = "\\u0000x"', 'sample = "missing.wav"', 'sample = ""', "mode_ratios = 3",
             "mode_ratios = [1.0, 1.5]", 'name = 3', "length = 1e308", "seed = 1.5",
             "x = " + "[" * 3000 + "]" * 3000, "y = " + "{a = " * 800 + "1" + "}" * 800,
             "= broken", '"\ufffe" = 1')


def _kit(rng: random.Random, folder: Path) -> str | None:
    choice = rng.random()
    if choice < 0.55:
        return None
    if choice < 0.75:
        return _kit_folder(rng, folder)
    _wav(folder / "small.wav", np.sin(np.arange(800) / 5).astype(np.float32) * 0.5)
    lines = [rng.choice(KIT_LINES) for _ in range(rng.randint(1, 8))]
    name = rng.choice(("kit.toml", "k" + FF + ".toml", "k\uffff.toml"))
    return _write(folder, name, "\n".join(lines).encode("utf-8", "surrogateescape")) \
        or "kit.toml"


def _spoil_cache(rng: random.Random, cache: Path) -> None:
    """Cut short, forge or fill with NaN one cached hit, or K-weighted hit (what guji
    must check and rebuild)."""
    hits = sorted(cache.glob("*hit-*.npy")) if cache.is_dir() else []
    if not hits or rng.random() < 0.6:
        return
    path = rng.choice(hits)
    how = rng.choice(("cut", "forged", "nan", "garbage"))
    data = path.read_bytes()
    if how == "cut":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(bytes(rng.randrange(256) for _ in range(200)))
    else:
        with open(path, "wb") as f:
            # (a file guji wrote has a 128-byte header: the NaN one has the right length)
            n = 10 ** 11 if how == "forged" else max(1, (len(data) - 128) // 4)
            np.lib.format.write_array_header_1_0(
                f, {"descr": "<f4", "fortran_order": False, "shape": (n,)})
            f.write(np.full(min(n, 4000), np.nan, dtype="<f4").tobytes())


def _output(rng: random.Random, folder: Path, command: str) -> str:
    suffix = rng.choice(SUFFIX[command])
    kind = rng.random()
    if kind < 0.55:
        return rng.choice(ODD) + suffix
    if kind < 0.65:
        return "-" if command in ("midi", "render", "draw", "compare") else "out" + suffix
    if kind < 0.72:
        return "/dev/null"
    if kind < 0.78:
        return str(folder / "missing" / ("x" + suffix))
    if kind < 0.84 and os.geteuid() == 0:
        if not (folder / "disk").exists():      # a loop device number no kernel has made
            os.mknod(folder / "disk", stat.S_IFBLK | 0o600, os.makedev(7, 251))
        return "disk"
    if kind < 0.9:
        os.symlink(f"gone/x{suffix}", folder / f"link{suffix}")
        return f"link{suffix}"
    return "out" + suffix


def _argv(rng: random.Random, folder: Path) -> list[str]:
    """A random command line over the inputs made in *folder*."""
    files = [f for f in (_write(folder, rng.choice(ODD[:-1]) + ".txt",
                                fuzz.encoded(rng, _text(rng)) if rng.random() < 0.3
                                else _text(rng).encode("utf-8", "surrogateescape"))
                         for _ in range(rng.randint(1, 2))) if f]
    cited = files + ["x" * 300 + ".txt", "missing.txt"]
    ids = [rng.choice(("lu", "xue:2", "lu:1@wuli-tongkao",
                       f"lu:1@{rng.choice(cited)}",
                       f"lu:1@{rng.choice(cited)}~{rng.choice(WITNESSES)}"))
           for _ in range(2)]
    command = rng.choice(COMMANDS)
    if command in ("list", "glyphs"):
        return [command]
    if command in ("scan", "claims"):
        return [command, rng.choice(cited)] + (["--json"] if rng.random() < 0.4 else [])
    if command == "collate":
        return ["collate", *rng.sample(cited, rng.randint(0, 2))] + \
            (["--only"] if rng.random() < 0.5 else []) + (["--json"] if rng.random() < 0.4 else [])
    if command in ("show", "diff"):
        return [command, *ids[: 1 if command == "show" else 2]] + \
            (["--json"] if rng.random() < 0.4 else [])
    argv = [command, *ids[: 2 if command in ("compare", "page") else rng.randint(1, 2)],
            "-o", _output(rng, folder, command)]
    if command in ("midi", "sheet") and rng.random() < 0.5:
        argv += ["--title", rng.choice(ODD[1:-1]) + rng.choice(("", "\x1b[2J", "\ufffe"))]
    if command in ("midi", "render", "compare", "page"):
        argv += ["--interval", rng.choice(("0.05", "0.1"))]
    if command in ("render", "compare", "page"):
        argv += ["--rate", "8000"]
        kit = _kit(rng, folder)
        argv += ["--kit", kit] if kit else []
    if command == "compare":
        argv += ["--mode", rng.choice(("sequence", "alternate", "stereo", "diff"))]
    if command == "page":
        argv += ["--modes", rng.choice(("sequence", "diff"))] + \
            (["--single-file"] if rng.random() < 0.3 else [])
    return argv


def _outputs_checked(folder: Path, figures: dict) -> list[str]:
    """What is wrong with the files written in *folder* (every XML parsed, MIDI read back)."""
    import mido
    wrong = []
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        name = path.name.lower()
        try:
            if name.endswith((".svg", ".musicxml")):
                ET.parse(path)
                figures["xml parsed"] += 1
            elif name.endswith(".mxl"):
                with zipfile.ZipFile(path) as z:
                    for member in z.namelist():
                        if member.endswith((".xml", ".musicxml")):
                            ET.fromstring(z.read(member))
                            figures["xml parsed"] += 1
            elif name.endswith(".mid"):
                mido.MidiFile(path, charset="utf-8")
                figures["midi read back"] += 1
            elif name.endswith(".html"):
                page = path.read_text(encoding="utf-8")
                assert "\ufffe" not in page and "\uffff" not in page, "a noncharacter"
                figures["pages read"] += 1
        except Exception as e:                       # any failure to read back is a problem
            wrong.append(f"{os.fsencode(path)!r} does not read back: {type(e).__name__}: {e}")
    return wrong


def check_run(folder: Path, cache: Path, rng: random.Random, name: str, figures: dict
              ) -> list[str]:
    """One random command line in *folder*: what went wrong (nothing, if all is well)."""
    os.chdir(folder)
    _spoil_cache(rng, cache)
    argv = _argv(rng, folder)
    shown = repr(argv)[:400]
    try:
        status, err = fuzz.run_main(argv)
    except BaseException as e:                       # a traceback: the worst failure
        figures["tracebacks"] += 1
        return [f"{name}: guji {shown}: raised {type(e).__name__}: {e}"]
    figures["runs"] += 1
    figures["exit"][str(status)] = figures["exit"].get(str(status), 0) + 1
    left = [p.name for p in folder.rglob(".*")] + [p.name for p in cache.glob(".*")]
    checks = [
        (status in (0, 1, 2), f"exit status {status}"),
        ("Traceback" not in err, "a traceback"),
        (status != 2 or err.strip(), "an error that says nothing"),
        (not left, f"left {left}"),
        (not (folder / "disk").exists() or stat.S_ISBLK(os.lstat(folder / "disk").st_mode),
         "the block device replaced"),
    ]
    problems = [f"{name}: guji {shown}: {what}\n{err[-2000:]}" for ok, what in checks if not ok]
    return problems + [f"{name}: guji {shown}: {w}" for w in _outputs_checked(folder, figures)]


def fuzz_block(seed: int, runs: int, base: Path) -> tuple[list[str], dict]:
    """*runs* random command lines from *seed*, each in a folder of its own under
    *base*, sharing one cache folder; the problems and the figures."""
    rng = random.Random(seed)
    cache = base / "cache"
    os.environ["GUJI_CACHE"] = str(cache)
    figures = {"runs": 0, "tracebacks": 0, "exit": {}, "xml parsed": 0, "midi read back": 0,
               "pages read": 0}
    problems: list[str] = []
    for run in range(runs):
        folder = base / f"run{run}"
        folder.mkdir()
        problems += check_run(folder, cache, rng, f"seed {seed} run {run}", figures)
    return problems, figures


@pytest.mark.parametrize("block", range(BLOCKS))
def test_the_sweep_of_every_command_with_odd_names_kits_and_the_cache(tmp_path, block):
    problems, figures = fuzz.bounded_block("test_fuzz_sweep", "fuzz_block", SEED + block,
                                           RUNS // BLOCKS, tmp_path)
    print(figures)
    assert problems == [], "\n".join(problems)[:6000]
    assert figures["runs"] == RUNS // BLOCKS and figures["tracebacks"] == 0
    assert set(figures["exit"]) <= {"0", "1", "2"} and figures["exit"].get("0", 0) > 0
    assert figures["xml parsed"] > 0 and figures["midi read back"] > 0

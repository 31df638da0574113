"""Start-up: ``guji --help`` and ``guji --version`` load none of the heavy
libraries (numpy, mido, soundfile, …): each command module imports them
inside its run function, so a command's parser costs only argparse. (How
quick start-up is, in seconds, is bench/bench_startup.py's figure, not a test's.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner import environment

#: Libraries no parser needs: loading one costs tens of milliseconds (numpy ~100 ms).
HEAVY = ("numpy", "mido", "soundfile", "sounddevice", "rtmidi", "verovio", "multiprocessing",
         "concurrent", "xml", "guji.sound.synth", "guji.sound.mixer", "guji.midi.write",
         "guji.midi.read", "guji.sheet.engrave", "guji.text.reading.prefilter")

#: The console script's start, then what it loaded: printed on stderr, one line.
LOADED = r"""
import sys
sys.argv = ["guji", *sys.argv[1:]]
import atexit
from guji.cli import main
def said():          # (the console script ends its process itself, after the exit functions)
    heavy = {heavy!r}
    loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
    commands = sorted(m for m in sys.modules if m.startswith("guji.cli.commands."))
    print("loaded:", loaded, file=sys.stderr)
    print("commands:", len(commands), file=sys.stderr)
atexit.register(said)
raise SystemExit(main())
""".format(heavy=HEAVY)


def loaded(args: list[str], tmp_path: Path) -> tuple[str, list[str]]:
    """Run ``guji ARGS`` as the console script does; its stdout and the last two stderr lines."""
    r = subprocess.run([sys.executable, "-c", LOADED, *args], cwd=tmp_path, env=environment(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr.splitlines()[-2:]


@pytest.mark.parametrize("args", [["--help"], ["--lang", "zh-Hant", "--help"], ["sheet", "--help"],
                                  ["scan", "--help"], ["midi", "--help"], ["play", "--help"],
                                  ["draw", "--help"], ["compare", "--help"]])
def test_help_loads_no_heavy_library(args, tmp_path):
    out, (heavy, commands) = loaded(args, tmp_path)
    assert "usage: guji" in out or "用法" in out
    assert heavy == "loaded: []"
    if args[-1] == "--help" and len(args) == 1:     # every command's parser was built
        assert int(commands.split()[1]) >= 22


def test_version_builds_no_command_parser(tmp_path):
    out, (heavy, commands) = loaded(["--version"], tmp_path)
    assert out.startswith("guji ")
    assert heavy == "loaded: []"
    assert commands == "commands: 0"


def test_help_before_version_is_the_help(tmp_path):
    """argparse acts on the first of the two; so does the short cut for --version."""
    out, (_heavy, commands) = loaded(["--help", "--version"], tmp_path)
    assert "usage: guji" in out and int(commands.split()[1]) >= 22


def test_the_sheet_help_names_the_formats_guji_writes():
    from guji.cli.commands.sheet import HELP_SUFFIXES
    from guji.sheet.write import FORMATS
    assert HELP_SUFFIXES == tuple(sorted(set(FORMATS) - {".xml"}))


@pytest.mark.parametrize("package", ["guji.midi", "guji.sheet"])
def test_a_package_s_later_names_load_when_asked(package):
    """The names guji.midi and guji.sheet load on first use are the modules' own."""
    import importlib
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        later = module._LATER.get(name)
        if later:
            assert value is getattr(importlib.import_module(f"{package}.{later}"), name)
    with pytest.raises(AttributeError):
        getattr(module, "no_such_name")


#: numpy loaded after the console script's start (or without it): the process's
#: threads (Linux) and what OPENBLAS_NUM_THREADS says.
THREADS = r"""
import os, sys
if sys.argv[1] == "guji":
    from guji.cli import main
    main(["--version"])
import numpy
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
                    reason="threads counted in /proc, on a machine of several cores")
def test_the_command_line_s_numpy_starts_no_blas_threads(tmp_path):
    """guji does no linear algebra: OpenBLAS's threads (one a core, spinning as
    numpy loads) would cost every command CPU for nothing. A user's own setting stays."""
    def threads(who: str, **extra: str) -> tuple[int, str]:
        env = environment(**extra)
        if not extra:
            env.pop("OPENBLAS_NUM_THREADS", None)
        out = subprocess.run([sys.executable, "-c", THREADS, who], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120, check=True).stdout
        count, value = out.split()[-2:]
        return int(count), value
    assert threads("numpy")[0] > 1                 # numpy alone: OpenBLAS's threads
    assert threads("guji") == (1, "1")
    assert threads("guji", OPENBLAS_NUM_THREADS="2") == (2, "2")

"""Start-up: ``guji --help`` and ``guji --version`` load none of the heavy
libraries (numpy, mido, soundfile, …): each command module imports them
inside its run function, so a command's parser costs only argparse. (How
quick start-up is, in seconds, is bench/bench_startup.py's figure, not a test's.)"""

from __future__ import annotations

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
from guji.cli import main
status = main()
heavy = {heavy!r}
loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
commands = sorted(m for m in sys.modules if m.startswith("guji.cli.commands."))
print("loaded:", loaded, file=sys.stderr)
print("commands:", len(commands), file=sys.stderr)
raise SystemExit(status)
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

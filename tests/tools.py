"""The real tools some tests need: there, or the test says which is missing.

A test that needs a program (FluidSynth, Chromium, MuseScore 3, LilyPond,
pdftoppm, PulseAudio, JACK …) asks for it here (:func:`require`,
:func:`executable`, :func:`file`, :func:`module`). Outside CI a test whose
tool is missing skips, naming it and how to install it. Under CI
(``CI=true``, as ``.ci/run`` and every CI service set it) it FAILS instead:
CI installs every tool, so a missing one is a broken set-up, and a suite that
skipped its real-tool tests would pass without testing what users meet.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

#: The marks of the test running now (tests/conftest.py sets them before each test).
RUNNING: set[str] = set()
#: Programs every POSIX system has: no mark needed to run them.
EVERYWHERE = {"bash", "sh"}


def outside_the_loop(what: str) -> None:
    """Fail a test of the fast loop (``pytest -m fast``) that starts *what*, an
    outside program or server: its marks come from what it asks for, so it
    should ask for the fixture (``tool``, ``chromium``, ``pulseaudio``,
    ``jackd``, ``null_alsa``) or carry the mark (tests/conftest.py)."""
    if "fast" in RUNNING:
        pytest.fail(f"a test of the fast loop starts {what}: ask for its fixture "
                    f"(tool, chromium, pulseaudio, jackd, null_alsa) or mark it "
                    f"(@pytest.mark.tools …), see tests/conftest.py", pytrace=False)

#: Program → the Debian package that has it (what ``.ci/run`` installs).
PACKAGES = {
    "mscore3": "musescore3",
    "lilypond": "lilypond",
    "midi2ly": "lilypond",
    "pdftoppm": "poppler-utils",
    "fluidsynth": "fluidsynth",
    "chromium": "chromium",
    "jing": "jing",
    "zsh": "zsh",
    "fish": "fish",
    "groff": "groff-base",
    "flac": "flac",
    "ogginfo": "vorbis-tools",
}


#: What a loaded machine honestly reports after live playback: an underrun, a gap
#: downstream, a late block (guji.sound.report), or alsa-lib's own "underrun occurred".
HONEST_REPORT = re.compile(
    r"guji: playback: latency \d+ ms[^:]*: .*(\d+ (underruns?|gaps? downstream|late blocks?)|"
    r"ALSA said).*"
    r"|guji: the sound system said \d+ thing\(s\) while playing: .*underrun occurred.*")


def without_honest_reports(err: str) -> str:
    """*err* without the lines of :data:`HONEST_REPORT`: a test of what else
    playback said holds on a loaded machine, where an underrun is reported
    (the report's own tests check its words)."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not HONEST_REPORT.fullmatch(line.rstrip("\n")))


def browser_environment() -> dict:
    """The environment for a headless Chromium: this one, kept from any sound
    server (with a PulseAudio server reachable, as on any desktop, headless
    Chromium's audio clock does not advance and a page's players never play)."""
    return dict(os.environ, PULSE_SERVER="unix:/nonexistent")


def in_ci() -> bool:
    """Whether the tests run under CI (``CI`` set to true, 1 or yes)."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing(what: str, install: str) -> None:
    """Skip (outside CI) or fail (under CI) for the missing tool *what*."""
    message = f"{what} is missing ({install})"
    if in_ci():
        pytest.fail(f"{message}: CI must have it (.ci/run installs it)", pytrace=False)
    pytest.skip(message)


def need(problem: str | None) -> None:
    """Nothing if *problem* is ``None``; otherwise :func:`missing` (a skip, or
    a failure under CI) with *problem* (what is missing and how to install
    it) as the message."""
    if problem is None:
        return
    if in_ci():
        pytest.fail(f"{problem}: CI must have it (.ci/run installs it)", pytrace=False)
    pytest.skip(problem)


def executable(name: str, install: str) -> str:
    """The path of the program *name* on the PATH, else :func:`missing`."""
    found = shutil.which(name)
    if found is not None and name not in EVERYWHERE:
        outside_the_loop(f"the program {name!r}")
    if found is None:
        missing(f"the program {name!r}", install)
    return found


def file(path: str | Path, install: str) -> Path:
    """*path* if it exists, else :func:`missing`."""
    path = Path(path)
    if not path.exists():
        missing(str(path), install)
    return path


def module(name: str, install: str):
    """The Python module *name*, imported, else :func:`missing`."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"the Python module {name!r}", install)


def chromium() -> str:
    """Debian's Chromium (what the PNG export and the page test use)."""
    outside_the_loop("Chromium")
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    missing("Chromium", "apt-get install chromium fonts-noto-cjk")


def under_ci() -> bool:
    """Whether the tests run under CI (:func:`in_ci`)."""
    return in_ci()


def require(program: str) -> str:
    """The path of *program*; missing: a failure under CI, a skip elsewhere."""
    return executable(program, f"apt-get install {PACKAGES.get(program, program)}")


def mscore(args: list[str], home: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """MuseScore 3 headless (``QT_QPA_PLATFORM=offscreen``), with a home and
    runtime folder of its own under *home* so it never touches the user's."""
    exe = require("mscore3")
    run = home / "run"
    run.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home),
           "XDG_RUNTIME_DIR": str(run), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CACHE_HOME": str(home / ".cache")}
    return subprocess.run([exe, *args], env=env, capture_output=True, text=True, timeout=timeout)

"""Real tools for tests: found, or a failure under CI, or a skip elsewhere.

A test that needs a program (MuseScore 3, LilyPond, FluidSynth, pdftoppm …)
calls :func:`require`: it gets the program's path; when the program is
missing the test FAILS under CI (``CI=true``: ``.ci/run`` installs every
tool, so a missing one is a broken machine, not a reason to pass), naming
the program and the package that has it, and is skipped elsewhere (a
developer's machine may lack it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

#: Program → the Debian package that has it (what ``.ci/run`` installs).
PACKAGES = {
    "mscore3": "musescore3",
    "lilypond": "lilypond",
    "midi2ly": "lilypond",
    "pdftoppm": "poppler-utils",
    "fluidsynth": "fluidsynth",
    "chromium": "chromium",
}


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(program: str) -> str:
    """The path of *program*; missing: a failure under CI, a skip elsewhere."""
    found = shutil.which(program)
    if found:
        return found
    message = (f"{program} is not installed (apt-get install "
               f"{PACKAGES.get(program, program)}; .ci/run does)")
    if under_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


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

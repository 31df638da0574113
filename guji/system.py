"""The operating system guji runs on, and what differs between them.

guji runs on Windows, macOS and Linux (and other POSIX systems, as Linux).
Everything that depends on the system asks here, through one helper,
:func:`name` (``"windows"``, ``"macos"`` or ``"linux"``), so that a test can
run the whole command line as another system would (the simulated Windows
and macOS of ``tests/portability/``) on one Linux machine:

* :func:`cache_home`: where a user's caches go (``%LOCALAPPDATA%`` on
  Windows, ``~/Library/Caches`` on macOS, ``$XDG_CACHE_HOME`` or
  ``~/.cache`` elsewhere: each system's own rule);
* :func:`find_program`: a program on the ``PATH`` or in the folders each
  system installs it to (``C:\\Program Files\\…``, ``/Applications/….app``,
  Homebrew's ``/opt/homebrew/bin``);
* :func:`install_hint`: how to install a package, in that system's words
  (``apt-get install``, ``brew install``, a download page on Windows).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

#: ``sys.platform`` as read by :func:`name` (a test may set another system's).
PLATFORM = sys.platform


def name() -> str:
    """``"windows"``, ``"macos"`` or ``"linux"`` (any other POSIX system)."""
    if PLATFORM.startswith(("win32", "cygwin")):
        return "windows"
    if PLATFORM == "darwin":
        return "macos"
    return "linux"


def cache_home() -> Path:
    """The folder for a user's caches, by the system's own rule."""
    home = Path(os.path.expanduser("~"))
    system = name()
    if system == "windows":
        local = os.environ.get("LOCALAPPDATA")
        return Path(local) if local else home / "AppData" / "Local"
    if system == "macos":
        return home / "Library" / "Caches"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache"


def _windows_folders(*parts: str) -> list[Path]:
    """*parts* under each of Windows' program folders (64-bit, 32-bit, the user's)."""
    roots = [os.environ.get(v) for v in ("ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA")]
    return [Path(root, *parts) for root in roots if root]


def _mac_apps(app: str, exe: str) -> list[Path]:
    """``APP.app/Contents/MacOS/EXE`` in the system's and the user's Applications."""
    home = Path(os.path.expanduser("~"))
    return [Path(base, f"{app}.app", "Contents", "MacOS", exe)
            for base in ("/Applications", str(home / "Applications"))]


#: Where each system installs the programs guji runs, past the ``PATH``.
PLACES = {
    "chromium": {
        "windows": lambda: (_windows_folders("Google", "Chrome", "Application", "chrome.exe")
                            + _windows_folders("Chromium", "Application", "chrome.exe")
                            + _windows_folders("Microsoft", "Edge", "Application", "msedge.exe")),
        "macos": lambda: (_mac_apps("Google Chrome", "Google Chrome")
                          + _mac_apps("Chromium", "Chromium")
                          + _mac_apps("Microsoft Edge", "Microsoft Edge")),
        "linux": lambda: [Path("/snap/bin/chromium")],
    },
    "lilypond": {
        "windows": lambda: (_windows_folders("LilyPond", "usr", "bin", "lilypond.exe")
                            + _windows_folders("LilyPond", "bin", "lilypond.exe")),
        "macos": lambda: ([Path(p, "lilypond") for p in ("/opt/homebrew/bin", "/usr/local/bin",
                                                          "/opt/local/bin")]
                          + [Path("/Applications/LilyPond.app/Contents/Resources/bin/lilypond")]),
        "linux": lambda: [Path("/usr/local/bin/lilypond")],
    },
}

#: How to install what guji may need, by system.
HINTS = {
    "chromium": {"linux": "apt-get install chromium fonts-noto-cjk",
                 "macos": "install Google Chrome, or: brew install --cask chromium",
                 "windows": "install Google Chrome (Microsoft Edge also works)"},
    "lilypond": {"linux": "apt-get install lilypond fonts-noto-cjk",
                 "macos": "brew install lilypond",
                 "windows": "install LilyPond from https://lilypond.org/download.html "
                            "and put its bin folder on the PATH"},
    "portaudio": {"linux": "'sudo apt-get install libportaudio2' (Debian/Ubuntu)",
                  "macos": "'pip install --force-reinstall sounddevice' (its wheel carries "
                           "PortAudio)",
                  "windows": "'pip install --force-reinstall sounddevice' (its wheel carries "
                             "PortAudio)"},
}


def install_hint(what: str) -> str:
    """How to install *what* on this system, in its words."""
    return HINTS[what][name()]


def find_program(program: str, names: tuple[str, ...] = ()) -> str | None:
    """*program* (or one of *names*) on the ``PATH``, else where this system
    installs it (:data:`PLACES`); ``None`` if it is nowhere."""
    for candidate in (program, *names):
        found = shutil.which(candidate)
        if found:
            return found
    places = PLACES.get(program, {}).get(name())
    for path in places() if places else ():
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None

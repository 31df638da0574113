"""What differs between systems, asked through guji.system (in process).

The whole command line under simulated systems is tests/test_portability.py;
here the rules themselves: the cache folder, where programs are found, the
Windows console's keys (a stand-in for ``msvcrt``, which Linux lacks).
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from guji import system
from guji.cli.keys import _console_reader, Keys
from guji.sound import oneshot


@pytest.fixture
def on(monkeypatch):
    def become(platform: str) -> None:
        monkeypatch.setattr(system, "PLATFORM", platform)
    return become


@pytest.mark.parametrize("platform, expected", [("win32", "windows"), ("darwin", "macos"),
                                                ("linux", "linux"), ("freebsd14", "linux")])
def test_name(on, platform, expected):
    on(platform)
    assert system.name() == expected


def test_cache_folders_by_each_systems_rule(on, monkeypatch, tmp_path):
    monkeypatch.delenv("GUJI_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    on("win32")
    assert oneshot.cache_folder() == tmp_path / "Local" / "guji" / "Cache"
    on("darwin")
    assert oneshot.cache_folder() == tmp_path / "Library" / "Caches" / "guji"
    on("linux")
    assert oneshot.cache_folder() == tmp_path / "xdg" / "guji"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")      # the XDG spec: ignored
    assert oneshot.cache_folder() == tmp_path / ".cache" / "guji"
    monkeypatch.setenv("GUJI_CACHE", "off")
    assert oneshot.cache_folder() is None


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_programs_found_where_windows_installs_them(on, monkeypatch, tmp_path):
    on("win32")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("ProgramFiles", str(tmp_path / "Program Files"))
    monkeypatch.setenv("ProgramFiles(x86)", str(tmp_path / "Program Files (x86)"))
    assert system.find_program("chromium") is None
    edge = _executable(tmp_path / "Program Files (x86)/Microsoft/Edge/Application/msedge.exe")
    assert system.find_program("chromium") == str(edge)
    chrome = _executable(tmp_path / "Program Files/Google/Chrome/Application/chrome.exe")
    assert system.find_program("chromium") == str(chrome)        # Chrome before Edge
    lily = _executable(tmp_path / "Program Files (x86)/LilyPond/usr/bin/lilypond.exe")
    assert system.find_program("lilypond") == str(lily)
    on("linux")
    assert system.find_program("chromium") not in (str(edge), str(chrome))


def test_programs_found_where_macos_installs_them(on, monkeypatch, tmp_path):
    on("darwin")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path))
    app = _executable(tmp_path / "Applications/Chromium.app/Contents/MacOS/Chromium")
    assert system.find_program("chromium") == str(app)


def test_install_hints_in_each_systems_words(on):
    from guji.sound.devices import portaudio_install
    on("win32")
    assert "apt-get" not in system.install_hint("lilypond")
    assert "sounddevice" in portaudio_install() and "apt-get" not in portaudio_install()
    on("darwin")
    assert system.install_hint("lilypond") == "brew install lilypond"
    on("linux")
    assert system.install_hint("lilypond").startswith("apt-get install lilypond")
    assert "apt-get install libportaudio2" in portaudio_install()


class FakeConsole:
    """``msvcrt``'s kbhit/getwch over a list of typed keys (Windows' console)."""

    def __init__(self, typed: str):
        self.typed = list(typed)

    def kbhit(self) -> bool:
        return bool(self.typed)

    def getwch(self) -> str:
        return self.typed.pop(0)


class Transport:
    def __init__(self):
        self.toggles = 0
        self.stopped = threading.Event()

    def toggle_pause(self) -> bool:
        self.toggles += 1
        return self.toggles % 2 == 1

    def stop(self) -> None:
        self.stopped.set()


def test_windows_console_keys_pause_and_quit():
    """Space twice (an arrow key between, two codes ignored), then q: the
    transport paused, resumed, and stopped, as termios' keys do."""
    transport = Transport()
    keys = Keys(transport)
    stop = threading.Event()
    read = _console_reader(stop, FakeConsole(" \xe0H q"))
    keys._read(read)
    assert transport.toggles == 2 and transport.stopped.is_set() and keys.quit_by_key


def test_no_console_no_keys(tmp_path):
    """Standard input a file: no reader at all, on any system."""
    with open(tmp_path / "in", "w+") as f, Keys(Transport(), stdin=f) as keys:
        assert not keys.active
    assert _console_reader(threading.Event()) is None or os.name == "nt"

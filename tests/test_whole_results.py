"""Results whole or not at all, reports in one form, standard output that fails.

* a page, a compare's audio + MIDI, the demo's files are made in a temporary
  folder and moved in together: stopped, the old result stays as it was;
  two guji writing one folder never mix their files;
* every "wrote …" report is on stderr, ``wrote NAME: …``, whatever the command;
* standard output that cannot be written (``/dev/full``, closed) is one line, exit 2;
* a PNG stopped while Chromium draws leaves no browser and no temporary folder.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import runner

RATE = ["--rate", "8000"]

#: Sends SIGTERM to this process once FUNCTION (in MODULE) has returned COUNT times.
AFTER_CALLS = """
import os, signal
import {module} as _m
_f, _n = _m.{function}, [0]
def _hook(*args, **kwargs):
    result = _f(*args, **kwargs)
    _n[0] += 1
    if _n[0] == {count}:
        os.kill(os.getpid(), signal.SIGTERM)
    return result
_m.{function} = _hook
"""


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_page_stopped_while_rewritten_keeps_the_old_page_whole(tmp_path):
    # a page rewritten into its folder and stopped once kept the old index.html beside new audio
    site = tmp_path / "site"
    assert runner.guji(["page", "lu:1", "lu:2", *RATE, "-o", "site"], tmp_path).returncode == 0
    before = contents(site)
    prelude = AFTER_CALLS.format(module="guji.sound.files", function="write_audio", count=3)
    r = runner.wrapped(prelude, ["page", "lu:1", "lu:2", *RATE, "--bpm", "150", "-o", "site"],
                       tmp_path)
    assert (r.returncode, r.err_lines) == (143, ["guji: terminated (SIGTERM)"])
    assert contents(site) == before            # no new audio beside the old index, no temp
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_two_pages_written_at_once_into_one_folder_do_not_mix(tmp_path):
    # two pages written at once once mixed their files in 2 of 6 runs
    env = runner.environment()
    tempos = ["100", "150"]
    for bpm in tempos:        # each page alone: what a whole page of each tempo holds
        alone = tmp_path / f"alone-{bpm}"
        assert runner.guji(["page", "lu:1", "lu:2", *RATE, "--bpm", bpm, "-o", alone.name],
                           tmp_path).returncode == 0
    wholes = [contents(tmp_path / f"alone-{bpm}") for bpm in tempos]
    for attempt in range(3):
        procs = [subprocess.Popen([sys.executable, "-m", "guji", "page", "lu:1", "lu:2", *RATE,
                                   "--bpm", bpm, "-o", "site"], cwd=tmp_path, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for bpm in tempos]
        for p in procs:
            assert p.wait(timeout=300) == 0, p.stderr.read()
        assert contents(tmp_path / "site") in wholes, f"mixed on attempt {attempt + 1}"


def test_a_compare_stopped_after_its_audio_keeps_the_old_audio_and_midi(tmp_path):
    # a compare -o out.wav stopped after the WAV once left it beside the old out.mid
    (tmp_path / "out.wav").write_bytes(b"old audio")
    (tmp_path / "out.mid").write_bytes(b"old midi")
    prelude = AFTER_CALLS.format(module="guji.sound.files", function="write_audio", count=1)
    r = runner.wrapped(prelude, ["compare", "lu:1", "lu:2", *RATE, "-o", "out.wav"], tmp_path)
    assert (r.returncode, r.err_lines[-1]) == (143, "guji: terminated (SIGTERM)")
    assert contents(tmp_path) == {"out.mid": b"old midi", "out.wav": b"old audio"}
    # and whole, both are replaced
    r = runner.guji(["compare", "lu:1", "lu:2", *RATE, "-o", "out.wav"], tmp_path)
    assert r.returncode == 0, r.stderr
    got = contents(tmp_path)
    assert sorted(got) == ["out.mid", "out.wav"]
    assert got["out.wav"][:4] == b"RIFF" and got["out.mid"][:4] == b"MThd"


def test_the_demo_folder_stopped_keeps_what_it_held(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "all.wav").write_bytes(b"old")
    prelude = AFTER_CALLS.format(module="guji.sound.files", function="write_audio", count=2)
    r = runner.wrapped(prelude, ["demo", "--write", *RATE, "-o", "out"], tmp_path)
    assert (r.returncode, r.err_lines[-1]) == (143, "guji: terminated (SIGTERM)")
    assert contents(out) == {"all.wav": b"old"}


# -- reports ---------------------------------------------------------------------------------

REPORT = re.compile(r"wrote (?P<name>[^:]+): (?P<what>\S.*)")


@pytest.mark.parametrize("args, names", [
    (["render", "lu", *RATE, "-o", "a.wav"], ["a.wav"]),
    (["render", "lu", *RATE, "-o", "a.flac"], ["a.flac"]),
    (["midi", "lu", "-o", "a.mid"], ["a.mid"]),
    (["midi", "lu:1", "lu:2", "-o", "many/"], ["many/lu-1-liji-zhengyi.mid",
                                               "many/lu-2-liji-zhengyi.mid"]),
    (["compare", "lu:1", "lu:2", *RATE, "-o", "c.wav"], ["c.wav", "c.mid"]),
    (["compare", "lu:1", "lu:2", "-o", "c.mid"], ["c.mid"]),
    (["draw", "lu", "-o", "a.svg"], ["a.svg"]),
    (["sheet", "lu", "-o", "a.ly"], ["a.ly"]),
    (["render", "lu", *RATE, "-o", "-"], ["standard output"]),
    (["midi", "lu", "-o", "/dev/stdout"], ["standard output"]),
])
def test_every_report_is_on_stderr_in_one_form(tmp_path, args, names):
    # reports once went four ways: "wrote …" on stdout, the bare path, "wrote …" on stderr, nothing
    r = runner.guji(args, tmp_path)
    assert r.returncode == 0, r.stderr
    reports = [REPORT.fullmatch(line) for line in r.err_lines if line.startswith("wrote ")]
    assert [m["name"] for m in reports if m] == names and all(reports)
    assert all(re.search(r"\d", m["what"]) for m in reports)    # a length or a count
    if names != ["standard output"]:
        assert b"wrote" not in r.stdout and b"/" not in r.stdout.replace(b"file:///", b"")


# -- standard output that fails ------------------------------------------------------------

@pytest.mark.parametrize("args", [["list"], ["show", "lu"], ["glyphs"], ["midi", "lu", "-o", "-"],
                                  ["render", "lu", *RATE, "-o", "-"]])
def test_standard_output_that_is_full_is_one_line(tmp_path, args):
    with open("/dev/full", "wb") as full:
        r = runner.guji(args, tmp_path, stdout=full)
    assert (r.returncode, r.err_lines) == (2, ["guji: standard output: cannot write: disk full"])


@pytest.mark.parametrize("args", [["list"], ["show", "lu"], ["midi", "lu", "-o", "-"],
                                  ["render", "lu", *RATE, "-o", "-"]])
def test_standard_output_that_is_closed_is_one_line(tmp_path, args):
    # standard output closed before guji starts, as `guji list >&-` does: sys.stdout is None
    proc = subprocess.run([sys.executable, "-m", "guji", *args], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), env=runner.environment(), timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode().splitlines() == [
        "guji: standard output is closed: nothing can be written to it"]


# -- a PNG stopped while Chromium draws -------------------------------------------------------

def test_a_png_stopped_while_chromium_draws_leaves_nothing(tmp_path, chromium):
    # SIGTERM during a PNG once gave "OSError: Directory not empty" and left /tmp/guji-png-*
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    prelude = """
        import os, signal, subprocess, time
        _communicate = subprocess.Popen.communicate
        def _stop_once_drawing(self, *args, **kwargs):
            profile = [a for a in self.args if a.startswith("--user-data-dir=")]
            if profile:       # the browser: stop guji once it has begun its profile
                folder = profile[0].split("=", 1)[1]
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and not os.path.isdir(folder):
                    time.sleep(0.005)
                time.sleep(0.2)       # while it starts its helpers and fills the profile
                os.kill(os.getpid(), signal.SIGTERM)
            return _communicate(self, *args, **kwargs)
        subprocess.Popen.communicate = _stop_once_drawing
        """
    env = runner.environment(TMPDIR=str(private_tmp))
    # (Chromium reserves far more address space than the runner's usual bound)
    r = runner.wrapped(prelude, ["draw", "lu", "-o", "lu.png"], tmp_path, env=env,
                       memory_bytes=resource.RLIM_INFINITY)
    assert (r.returncode, r.err_lines) == (143, ["guji: terminated (SIGTERM)"])
    assert list(private_tmp.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"]
    left = subprocess.run(["pgrep", "-f", str(private_tmp)], capture_output=True, text=True)
    assert left.stdout == ""


def test_a_pdf_stopped_while_lilypond_engraves_leaves_nothing(tmp_path, tool):
    # LilyPond's Ghostscript, left running, once kept writing into guji's temporary folder
    tool("lilypond")
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    (tmp_path / "lu.pdf").write_bytes(b"the old file")
    prelude = """
        import os, signal, subprocess, time
        _communicate = subprocess.Popen.communicate
        def _stop_while_engraving(self, *args, **kwargs):
            if "sheet.ly" in self.args:
                time.sleep(1.0)          # LilyPond has started (its start-up alone takes 2 s)
                os.kill(os.getpid(), signal.SIGTERM)
            return _communicate(self, *args, **kwargs)
        subprocess.Popen.communicate = _stop_while_engraving
        """
    env = runner.environment(TMPDIR=str(private_tmp))
    r = runner.wrapped(prelude, ["sheet", "lu", "-o", "lu.pdf"], tmp_path, env=env,
                       memory_bytes=resource.RLIM_INFINITY)
    assert (r.returncode, r.err_lines) == (143, ["guji: terminated (SIGTERM)"])
    assert list(private_tmp.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lu.pdf", "tmp"]
    assert (tmp_path / "lu.pdf").read_bytes() == b"the old file"
    left = subprocess.run(["pgrep", "-f", str(private_tmp)], capture_output=True, text=True)
    assert left.stdout == ""

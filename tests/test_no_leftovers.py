"""No leftovers, and the truth (issue 35): what guji leaves behind, the exit
status and the words of a command, whatever state its environment is in.

From the issue's fuzzing: ``guji devices`` left libpulse's ``pulse-*`` folder in
``$TMPDIR``; ``collate bad.txt dir/`` exited 0 with the named file skipped; with
standard error on ``/dev/full`` a bad id exited 1 and a finished render 1;
errors named guji's internal ``.guji-tmp`` paths; ``render -o noext`` was
refused though the docs say WAV. (A stop during LilyPond: tests/test_stopping.py;
kits, recordings and loops of links: tests/test_bounded_inputs.py,
tests/test_check.py, tests/test_library.py; the limiter: tests/test_loudness.py.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import runner


def test_devices_leaves_no_pulse_folder(tmp_path):
    # with no XDG_RUNTIME_DIR and a home of its own, libpulse (PortAudio's probe)
    # made $TMPDIR/pulse-XXXXXXXXXXXX and ~/.config/pulse/ID-runtime, left both
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    env = runner.environment(HOME=str(home), TMPDIR=str(temp))
    for name in ("XDG_RUNTIME_DIR", "PULSE_RUNTIME_PATH", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    r = runner.guji(["devices"], tmp_path, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert list(temp.iterdir()) == [] and list(home.iterdir()) == []


SEEDS = Path(__file__).resolve().parent / "data" / "seeds"


def test_collate_refuses_a_named_file_it_cannot_read(tmp_path):
    # a file the user names is not skipped as a folder's file is: it was, and exit 0
    (tmp_path / "lib").mkdir()
    for seed in sorted(SEEDS.glob("*.txt"))[:2]:
        (tmp_path / "lib" / seed.name).write_bytes(seed.read_bytes())
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00")
    for args in (["bad.txt", "lib"], ["lib", "nosuch.txt"]):
        r = runner.guji(["collate", *args], tmp_path)
        assert r.returncode == 2 and len(r.err_lines) == 1, r.stderr
        assert r.err_lines[0].startswith(f"guji: {args[0] if 'bad' in args[0] else args[1]}: ")
        assert r.stdout == b""
    # the same bad file found in a folder is said and skipped
    (tmp_path / "lib" / "bad.txt").write_bytes(b"\xff\xfe\x00")
    r = runner.guji(["collate", "lib"], tmp_path)
    assert r.returncode == 0 and "guji: lib/bad.txt: " in r.stderr, r.stderr


def _with_stderr_on(device: str, args: list[str], cwd: Path) -> int:
    """The exit status of ``guji ARGS…`` whose standard error is *device*."""
    import subprocess
    import sys
    with open(device, "w") as err:
        return subprocess.run([sys.executable, "-m", "guji", *args], cwd=cwd, stderr=err,
                              stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                              env=runner.environment(), timeout=300).returncode


def test_exit_statuses_are_the_documented_ones_whatever_standard_error_is(tmp_path):
    # with standard error on /dev/full, a bad id exited 1 (not 2), a finished render 1 (not 0)
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    assert _with_stderr_on("/dev/full", ["show", "nosuch"], tmp_path) == 2
    assert _with_stderr_on("/dev/full", ["render", "lu", "--rate", "8000", "-o", "x.wav"],
                           tmp_path) == 0
    assert (tmp_path / "x.wav").stat().st_size > 0
    assert _with_stderr_on("/dev/full", ["diff", "lu", "xue"], tmp_path) == 1   # they differ


@pytest.mark.tools
def test_errors_name_the_user_s_paths_never_guji_s_temporary_ones(tmp_path):
    # over the file size limit: demo and compare named dd/.guji-results.XXXXXXXX.guji-tmp/…,
    # a PNG's drawing for the browser was a traceback, LilyPond's log several lines
    from tools import chromium, require
    chromium()
    cases = [(["demo", "--write", "-o", "dd"], "guji: dd/lu-1-liji-zhengyi.wav: cannot write: "),
             (["compare", "lu", "xue", "-o", "c.wav"], "c.wav: cannot write: "),
             (["draw", "lu", "-o", "x.png"], "guji: x.png: cannot write: ")]
    if require("lilypond"):
        cases.append((["sheet", "lu", "-o", "x.pdf"], "guji: LilyPond failed (exit -25): ended by SIGXFSZ"))
    for args, line in cases:
        # 16 KiB: the LilyPond source fits, its PDF (fonts embedded) does not
        r = runner.guji(args, tmp_path, file_bytes=16384)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert line in r.err_lines[-1] and ".guji-tmp" not in r.stderr, r.stderr
        assert [p.name for p in tmp_path.iterdir()] in ([], ["dd"]), list(tmp_path.iterdir())


def test_audio_to_a_name_without_an_extension_is_wav_as_documented(tmp_path):
    # docs/commands.md: "Without an extension, audio is WAV"; it was refused
    r = runner.guji(["render", "lu", "--rate", "8000", "-o", "noext"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "noext").read_bytes()[:4] == b"RIFF" and "WAV 16-bit" in r.stderr

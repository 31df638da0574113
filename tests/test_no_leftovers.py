"""No leftovers, and the truth (issue 35): what guji leaves behind, the exit
status and the words of a command, whatever state its environment is in.

From the issue's fuzzing: ``guji devices`` left libpulse's ``pulse-*`` folder in
``$TMPDIR``; ``collate bad.txt dir/`` exited 0 with the named file skipped; with
standard error on ``/dev/full`` a bad id exited 1 and a finished render 1;
errors named guji's internal ``.guji-tmp`` paths; ``render -o noext`` was
refused though the docs say WAV.
"""

from __future__ import annotations

import os
from pathlib import Path

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

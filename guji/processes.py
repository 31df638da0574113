"""Programs guji runs (Chromium for a PNG, LilyPond for a PDF), ended whole on any stop.

:func:`run` starts a program in a process group of its own and waits for
it. If the wait ends early — a timeout, Ctrl-C, SIGTERM — the whole group
is killed (the program and the helpers it started: Chromium's renderers,
LilyPond's Ghostscript) and waited for, so none is left writing into the
temporary folder guji is about to remove ("Directory not empty"), nor
running after guji has gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time


def run(cmd: list[str], *, timeout: float, cwd=None, env=None
        ) -> subprocess.CompletedProcess:
    """Run *cmd* (text output captured) in its own process group; after it
    ends, or on any exception (:class:`subprocess.TimeoutExpired` included,
    re-raised), its group is ended. :class:`OSError` if it cannot start."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        end_group(proc)
        raise
    end_group(proc)          # helpers the program left behind
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def end_group(proc: subprocess.Popen, wait: float = 5.0) -> None:
    """Kill *proc*'s process group and wait (up to *wait* s) until it is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):   # gone; Windows
        pass
    proc.wait()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except (ProcessLookupError, PermissionError, AttributeError):
            return
        time.sleep(0.01)

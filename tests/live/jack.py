"""A private JACK server on the dummy driver, for testing live MIDI without hardware.

    with JackServer() as jack:          # jackd -n NAME -d dummy -r 48000 -p 256
        env = jack.child_env()          # JACK_DEFAULT_SERVER=NAME, JACK_NO_START_SERVER=1
        ...

The server has its own name (``-n``), so it never meets another JACK server
on the machine, and clients reach it through ``JACK_DEFAULT_SERVER`` (set in
this process too while it runs: python-rtmidi's JACK client reads it).
Debian package: ``jackd2`` (it brings ``jack_lsp`` and ``jack_connect`` too;
``jack-tools`` is not needed). As root jackd runs in realtime mode
(SCHED_FIFO priority 10); if it cannot, it is started again with
``--no-realtime``. The dummy driver runs on the system clock: one period of
256 frames at 48 kHz is 5.3 ms, the granularity of MIDI timing through it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from . import end


def missing() -> str | None:
    """``None`` when jackd is installed, else one line saying what to install."""
    if shutil.which("jackd") is None or shutil.which("jack_lsp") is None:
        return "jackd and jack_lsp missing: apt-get install --no-install-recommends jackd2"
    return None


class JackError(RuntimeError):
    """jackd could not be started (the message says why, with its log's tail)."""


class JackServer:
    def __init__(self, name: str | None = None, rate: int = 48000, period: int = 256,
                 start_timeout: float = 10.0):
        self.name = name or f"guji-test-{uuid.uuid4().hex[:8]}"
        self.rate = rate
        self.period = period
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self.realtime = True
        self.startup_seconds: float | None = None
        self._saved_env: dict[str, str | None] = {}

    def env(self) -> dict[str, str]:
        return {"JACK_DEFAULT_SERVER": self.name, "JACK_NO_START_SERVER": "1",
                "JACK_NO_AUDIO_RESERVATION": "1"}

    def child_env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        env.update(self.env())
        return env

    def start(self) -> "JackServer":
        if self.proc is not None:
            return self
        import tools
        tools.outside_the_loop("a JACK server")
        if shutil.which("jackd") is None:
            raise JackError("jackd missing: apt-get install --no-install-recommends jackd2")
        t = time.monotonic()
        fd, log = tempfile.mkstemp(prefix="jackd-", suffix=".log")
        os.close(fd)
        self.log_path = Path(log)
        for realtime in (True, False):
            self.realtime = realtime
            cmd = ["jackd", "-n", self.name, *([] if realtime else ["--no-realtime"]),
                   "-d", "dummy", "-r", str(self.rate), "-p", str(self.period)]
            with open(self.log_path, "wb") as out:
                self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL,
                                             env=self.child_env(), start_new_session=True)
            if self._wait_ready():
                break
            self._kill()
        else:
            raise JackError("jackd did not start: " + self._log_tail())
        for k, v in self.env().items():
            self._saved_env[k] = os.environ.get(k)
            os.environ[k] = v
        self.startup_seconds = time.monotonic() - t
        return self

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + self.start_timeout
        probe = shutil.which("jack_lsp")
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            if probe:
                r = subprocess.run([probe], env=self.child_env(), capture_output=True)
                if r.returncode == 0 and b"system:" in r.stdout:
                    return True
            elif b"self-connect-mode" in self.log_path.read_bytes():
                time.sleep(0.2)
                return True
            time.sleep(0.05)
        return False

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        end(proc)

    def xruns(self) -> int:
        """How many cycles the server has said it could not finish so far (its
        log's ``XRun`` lines): in such a cycle the dummy driver drops what its
        clients wrote, MIDI events included."""
        if self.log_path is None or not self.log_path.exists():
            return 0
        return self.log_path.read_bytes().count(b"XRun")

    def _log_tail(self) -> str:
        try:
            return " | ".join(self.log_path.read_text(errors="replace").strip().splitlines()[-4:])
        except (OSError, AttributeError):
            return "(no log)"

    def stop(self) -> None:
        self._kill()
        for k, v in self._saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self._saved_env = {}
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None

    def __enter__(self) -> "JackServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

"""A private PulseAudio null sink on a real clock, for testing live playback
on a machine without a sound card.

    with PulseSink("guji") as sink:                 # starts pulseaudio
        with sink.record("out.wav") as rec:         # parec on NAME.monitor
            subprocess.run([...player...], env=sink.child_env())
        print(rec.frames, rec.t0)                   # WAV written, clock anchor

What it does
------------
* Makes a temporary directory holding everything of this server: its own
  ``XDG_RUNTIME_DIR``, ``PULSE_RUNTIME_PATH``, ``HOME`` (the daemon writes its
  cookie under ``$HOME/.config/pulse``), a ``client.conf`` with
  ``autospawn = no`` and an ALSA configuration file. Nothing is written to
  root's home, and two harnesses (or a leftover one) never collide: each has
  its own socket.
* Runs ``pulseaudio`` in the foreground (``--daemonize=no``) as a child
  process, so its pid is known and teardown is a plain terminate/kill of that
  one process. ``-n`` (no default script) and two modules only:
  ``module-null-sink`` (rate, channels fixed, so no resampling) and
  ``module-native-protocol-unix`` (``auth-anonymous=1`` on a socket in the
  temporary directory). As root pulseaudio prints "This program is not
  intended to be run as root (unless --system is specified)" and carries on;
  ``--system`` is *not* wanted (it needs a ``pulse`` user and a fixed
  ``/run/pulse``).
* :meth:`PulseSink.child_env` gives the environment for a process that plays
  through ALSA (PortAudio, sounddevice, aplay): ``ALSA_CONFIG_PATH`` names a
  file that includes the system ``alsa.conf`` and then makes ``default`` the
  ``pulse`` plugin on this server and sink; ``PULSE_SERVER``,
  ``PULSE_CLIENTCONFIG``, ``PULSE_COOKIE`` point at this server.
* :meth:`PulseSink.record` runs ``parec`` on ``NAME.monitor`` writing raw
  s16le to a pipe; a thread reads it in small chunks, stamps each chunk's
  arrival with ``time.monotonic()`` and on :meth:`Recording.stop` writes the
  WAV. The stamps anchor the recording on the monotonic clock
  (:attr:`Recording.t0`: the monotonic time at which frame 0 was captured
  from the sink, i.e. rendered by it; see that attribute for the sink's
  latency on top).

Debian packages: ``pulseaudio`` (the daemon and module-null-sink),
``pulseaudio-utils`` (``parec``, ``pactl``), ``libasound2-plugins`` (the ALSA
``pulse`` plugin) and ``libportaudio2`` for sounddevice; ``alsa-utils`` is
not needed. ``apt-get install --no-install-recommends`` of the first three
took 37 s on a 2-core machine (35 packages, 90 MB; most archives cached).

Why not ALSA's null device: it takes audio as fast as it is given, with no
clock, so nothing about timing can be checked on it. A null sink of
PulseAudio runs on the system clock, as a sound card runs on its crystal.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import end

#: The Debian packages this harness needs (besides libportaudio2 for sounddevice).
APT_PACKAGES = ("pulseaudio", "pulseaudio-utils", "libasound2-plugins")


class PulseError(RuntimeError):
    """pulseaudio or parec could not be started (the message says why, with the log tail)."""


def missing() -> str | None:
    """``None`` when the programs are installed, else one line saying what is missing."""
    missing = [p for p in ("pulseaudio", "parec", "pactl") if shutil.which(p) is None]
    if not Path("/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so").exists() \
            and not list(Path("/usr/lib").glob("*/alsa-lib/libasound_module_pcm_pulse.so")):
        missing.append("ALSA pulse plugin")
    if missing:
        return (f"missing {', '.join(missing)}: apt-get install --no-install-recommends "
                + " ".join(APT_PACKAGES))
    return None


class PulseSink:
    """A pulseaudio server with one null sink, private to this object.

    Parameters
    ----------
    name:
        The sink's name; its monitor source is ``NAME.monitor``.
    rate, channels:
        The sink's sample spec (s16le). Clients at this rate are not resampled.
    root:
        Parent directory of the temporary directory (default: the system's).
    start_timeout:
        Seconds to wait for the server to answer.
    keeper_latency_msec:
        The latency the sink is held to (see :meth:`_start_keeper`): the
        null sink renders this far ahead of its clock.
    realtime:
        Run the server's I/O thread SCHED_RR and the daemon at nice −11
        (``--realtime --high-priority``; root may). A starved null sink
        catches up in one gulp when it next runs and empties its clients'
        buffers — an underrun a sound card, whose DAC never starves,
        would not cause — so under CPU load the sink must not starve.
    log_level:
        pulseaudio's ``--log-level`` (its log is :attr:`log_path`); "debug"
        logs each stream's underruns.
    """

    def __init__(self, name: str = "guji", rate: int = 48000, channels: int = 2,
                 root: str | os.PathLike | None = None, start_timeout: float = 10.0,
                 keeper_latency_msec: int = 10, realtime: bool = True,
                 log_level: str = "info"):
        self.name = name
        self.rate = rate
        self.channels = channels
        self.root = root
        self.start_timeout = start_timeout
        self.dir: Path | None = None
        self.proc: subprocess.Popen | None = None
        self.startup_seconds: float | None = None
        self.keeper: subprocess.Popen | None = None
        self.keeper_latency_msec = keeper_latency_msec
        self.realtime = realtime
        self.log_level = log_level

    # -- paths -------------------------------------------------------------------

    @property
    def socket(self) -> Path:
        return self._require_dir() / "runtime" / "native"

    @property
    def server(self) -> str:
        return f"unix:{self.socket}"

    @property
    def monitor(self) -> str:
        return f"{self.name}.monitor"

    @property
    def log_path(self) -> Path:
        return self._require_dir() / "pulseaudio.log"

    def _require_dir(self) -> Path:
        if self.dir is None:
            raise PulseError("the sink is not started")
        return self.dir

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> "PulseSink":
        """Start the server; return when it answers. Raises :class:`PulseError`."""
        import tools
        tools.outside_the_loop("a PulseAudio server")
        if self.proc is not None:
            return self
        problem = missing()
        if problem:
            raise PulseError(problem)
        t_start = time.monotonic()
        self.dir = Path(tempfile.mkdtemp(prefix="guji-pulse-", dir=self.root))
        for sub in ("runtime", "xdg", "home", "config", "state"):
            (self.dir / sub).mkdir(mode=0o700)
        (self.dir / "client.conf").write_text("autospawn = no\n")
        (self.dir / "asound.conf").write_text(self._alsa_conf())
        env = dict(os.environ)
        env.update(self._pulse_env())
        env.update(HOME=str(self.dir / "home"), XDG_CONFIG_HOME=str(self.dir / "config"),
                   XDG_RUNTIME_DIR=str(self.dir / "xdg"),
                   PULSE_STATE_PATH=str(self.dir / "state"))
        yn = "yes" if self.realtime else "no"
        cmd = ["pulseaudio", "--daemonize=no", "-n", "--exit-idle-time=-1",
               "--use-pid-file=no", f"--realtime={yn}", f"--high-priority={yn}",
               "--log-target=stderr", f"--log-level={self.log_level}",
               f"--load=module-null-sink sink_name={self.name} rate={self.rate} "
               f"channels={self.channels} format=s16le norewinds=1 "
               f"sink_properties=device.description={self.name}",
               f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.socket}"]
        log = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.proc.poll() is not None:
                tail = self._log_tail()
                self.stop()
                raise PulseError(f"pulseaudio exited at start: {tail}")
            if self.socket.exists() and self.pactl("info", check=False).returncode == 0:
                break
            if time.monotonic() > deadline:
                tail = self._log_tail()
                self.stop()
                raise PulseError(f"pulseaudio did not answer in {self.start_timeout} s: "
                                        f"{tail}")
            time.sleep(0.02)
        self._start_keeper()
        self.startup_seconds = time.monotonic() - t_start
        return self

    def _start_keeper(self) -> None:
        """Keep the null sink ticking in small steps, and wake it now.

        A null sink nobody asks a latency of renders ``2 s`` at a time and
        then sleeps: a player connecting then stalls up to 2 s after its
        first buffer (seen: 6 callbacks, then nothing for 1.5 s). A
        recording stream on the monitor asking ``keeper_latency_msec``
        sets the sink's latency; a suspend and resume ends the sleep it is
        already in (otherwise the new latency applies only when it wakes).
        """
        self.keeper = subprocess.Popen(
            ["parec", f"--server={self.server}", "-d", self.monitor, "--raw",
             f"--latency-msec={self.keeper_latency_msec}", "--client-name=guji-test-keeper"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            env=self.child_env(), start_new_session=True)
        deadline = time.monotonic() + self.start_timeout
        while True:
            latency = self.sink_latency()
            if latency is not None and latency[1] <= self.keeper_latency_msec / 1000 * 1.5:
                break
            if self.keeper.poll() is not None or time.monotonic() > deadline:
                tail = self._log_tail()
                self.stop()
                raise PulseError(f"the keeper recording did not start: {tail}")
            time.sleep(0.01)
        self.pactl("suspend-sink", self.name, "1")
        self.pactl("suspend-sink", self.name, "0")

    def stop(self) -> None:
        """Stop the server and remove the temporary directory (safe to call twice)."""
        keeper, self.keeper = self.keeper, None
        if keeper is not None and keeper.poll() is None:
            keeper.terminate()
            keeper.wait(5)
        proc, self.proc = self.proc, None
        end(proc)
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> "PulseSink":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- for clients -----------------------------------------------------------------

    def _pulse_env(self) -> dict[str, str]:
        d = self._require_dir()
        return {"PULSE_SERVER": self.server,
                "PULSE_RUNTIME_PATH": str(d / "runtime"),
                "PULSE_CLIENTCONFIG": str(d / "client.conf"),
                "PULSE_COOKIE": str(d / "home" / ".config" / "pulse" / "cookie"),
                "PULSE_SINK": self.name,
                "ALSA_CONFIG_PATH": str(d / "asound.conf")}

    def env(self) -> dict[str, str]:
        """The variables that send a client's sound (ALSA or native) to this sink."""
        return self._pulse_env()

    def child_env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """*base* (default ``os.environ``) with :meth:`env` on top."""
        env = dict(os.environ if base is None else base)
        env.update(self._pulse_env())
        return env

    def _alsa_conf(self) -> str:
        server = f"unix:{self.dir / 'runtime' / 'native'}"
        return ("</usr/share/alsa/alsa.conf>\n"
                "pcm.!default {\n"
                "    type pulse\n"
                f"    server \"{server}\"\n"
                f"    device \"{self.name}\"\n"
                "    hint { show on description \"guji test null sink\" }\n"
                "}\n"
                "ctl.!default {\n"
                "    type pulse\n"
                f"    server \"{server}\"\n"
                "}\n")

    def pactl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run ``pactl`` against this server (text output)."""
        return subprocess.run(["pactl", f"--server={self.server}", *args], check=check,
                              capture_output=True, text=True,
                              env=self.child_env(), timeout=10)

    def sink_latency(self) -> tuple[float, float] | None:
        """The null sink's (current, configured) latency in seconds, from ``pactl list sinks``."""
        out = self.pactl("list", "sinks", check=False).stdout
        for line in out.splitlines():
            line = line.strip()
            if line.startswith("Latency:"):
                parts = line.replace(",", "").split()
                try:
                    return float(parts[1]) / 1e6, float(parts[4]) / 1e6
                except (IndexError, ValueError):
                    return None
        return None

    def _log_tail(self, lines: int = 5) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except (OSError, PulseError):
            return "(no log)"
        return " | ".join(text[-lines:]) or "(empty log)"

    # -- recording ---------------------------------------------------------------------

    def record(self, path: str | os.PathLike, latency_msec: int = 10) -> "Recording":
        """Start ``parec`` on the sink's monitor; :meth:`Recording.stop` writes *path* (WAV)."""
        return Recording(self, Path(path), latency_msec).start()


@dataclass
class Recording:
    """A running ``parec`` on a sink's monitor, read through a pipe.

    After :meth:`stop`: :attr:`samples` (frames × channels float32),
    :attr:`stamps` (arrival of each chunk: monotonic seconds, frames read so
    far), :attr:`t0`.
    """

    sink: PulseSink
    path: Path
    latency_msec: int = 10
    proc: subprocess.Popen | None = None
    started_mono: float = 0.0
    started_wall: float = 0.0
    stamps: list[tuple[float, int]] = field(default_factory=list)
    samples: np.ndarray | None = None
    _chunks: list[bytes] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def start(self) -> "Recording":
        s = self.sink
        cmd = ["parec", f"--server={s.server}", "-d", s.monitor, "--raw", "--format=s16le",
               f"--rate={s.rate}", f"--channels={s.channels}",
               f"--latency-msec={self.latency_msec}", "--client-name=guji-test-recorder"]
        self.started_wall = time.time()
        self.started_mono = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, env=s.child_env(), bufsize=0)
        self._thread = threading.Thread(target=self._read, name="guji-test-parec", daemon=True)
        self._thread.start()
        return self

    def _read(self) -> None:
        frame_bytes = 2 * self.sink.channels
        total_bytes = 0
        fd = self.proc.stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            now = time.monotonic()
            if not chunk:
                break
            self._chunks.append(chunk)
            total_bytes += len(chunk)
            total = total_bytes // frame_bytes
            self.stamps.append((now, total))

    def wait_for_audio(self, timeout: float = 5.0) -> float:
        """Block until parec delivers its first bytes; the seconds waited."""
        t = time.monotonic()
        while not self.stamps:
            if self.proc.poll() is not None:
                raise PulseError("parec exited: "
                                        + self.proc.stderr.read().decode(errors="replace"))
            if time.monotonic() - t > timeout:
                raise PulseError(f"parec gave no audio in {timeout} s")
            time.sleep(0.002)
        return time.monotonic() - t

    def stop(self) -> "Recording":
        """Stop parec (SIGINT, as Ctrl-C), write the WAV; safe to call twice."""
        if self.proc is None:
            return self
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self._thread.join(5)
        import soundfile
        raw = b"".join(self._chunks)
        frame_bytes = 2 * self.sink.channels
        raw = raw[:len(raw) // frame_bytes * frame_bytes]
        pcm = np.frombuffer(raw, dtype="<i2").reshape(-1, self.sink.channels)
        self.samples = pcm.astype(np.float32) / 32768.0
        soundfile.write(str(self.path), pcm, self.sink.rate, subtype="PCM_16")
        return self

    @property
    def frames(self) -> int:
        return 0 if self.samples is None else len(self.samples)

    @property
    def t0(self) -> float:
        """Monotonic time at which frame 0 reached the monitor (the sink rendered it).

        Each chunk ending at frame ``n`` arrives at ``t0 + n/rate + delay``
        with ``delay >= 0``; the smallest ``arrival − n/rate`` over all
        chunks is ``t0`` plus the smallest delay seen (a millisecond or so
        with ``latency_msec=10``). A null sink renders ahead of its clock by
        its latency (:meth:`PulseSink.sink_latency`): a sample *plays* on
        the sink's clock that much after it reaches the monitor.
        """
        if not self.stamps:
            raise PulseError("no audio was recorded")
        return min(t - n / self.sink.rate for t, n in self.stamps)

    def time_of(self, seconds_into_recording: float) -> float:
        """The monotonic time of a point of the recording."""
        return self.t0 + seconds_into_recording

    def __enter__(self) -> "Recording":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

"""One attack of ``tests/attacks.py`` run as a user runs guji, and judged.

:func:`run` starts ``python -m guji`` in the attack's folder, in a session of
its own (so the processes it starts can be found and ended), under the
resource bounds of ``tests/runner.py`` (2 GiB of address space, 200 MB a
file, 120 CPU seconds), with ``$TMPDIR`` a fresh folder; feeds and drains its
named pipes, sends its signal at its moment, and waits at most
:data:`HANG_SECONDS`. Its peak memory is the kernel's (``wait4``: the largest
resident set of the process and of every process it waited for).

:func:`judge` lists what went wrong (nothing, if all is well): an exit status
other than 0, 1, 2 (or, after a signal, 128+N, or the signal itself before
guji's handlers were in place); a traceback or a Python repr on stderr; an
error (status 2) that says nothing; standard output on ``/dev/full`` not
said with exit 2; more than :data:`MOST_LINES` lines; a stop without
its one documented line, or later than :data:`STOP_SECONDS` after the signal;
a hang; a peak over :data:`MOST_BYTES`; a process of its session left
running; a hidden or temporary file left in its folder or its ``$TMPDIR``;
an output file that its format's reader refuses (soundfile, ``flac -t``,
``ogginfo``, mido, an XML parser, a PDF's or PNG's ends).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path

import runner
from attacks import Attack

HANG_SECONDS = 60.0
STOP_SECONDS = 10.0
MOST_BYTES = 2 * 10 ** 9
MOST_LINES = 40
#: What a stop says (docs/stopping.md), by signal.
STOP_LINES = {signal.SIGINT: "guji: interrupted", signal.SIGTERM: "guji: terminated (SIGTERM)",
              signal.SIGHUP: "guji: hung up (SIGHUP)"}
#: Commands whose output is on stdout: with stdout on /dev/full, one line and exit 2
#: (docs/stopping.md).
PRINTING = ("list", "glyphs", "show", "scan", "diff", "collate", "claims", "man", "completion",
            "--help", "--version", "devices")
#: What only Python says: a traceback, a lost exception, a repr, an errno tuple.
PYTHON_SAYS = re.compile(r"Traceback \(most recent call last\)|Exception ignored|object at 0x"
                         r"|<_io\.|<[\w.]+ name="
                         r"|\[Errno \d+\]|^\w*(Error|Exception|Warning): |<class '|^  File \"",
                         re.M)


@dataclass(frozen=True)
class Outcome:
    status: int | None            # None: still running at HANG_SECONDS (then killed)
    stderr: str
    stdout: bytes
    seconds: float
    peak_bytes: int
    signalled_at: float | None    # seconds after launch the signal went, if the process lived
    stop_seconds: float | None    # from the signal to the exit
    strays: tuple[str, ...]       # processes of its session alive after it ended
    fifo_bytes: bytes


def _reader(stream, sink: list, cap: int = 64 << 20) -> threading.Thread:
    def read() -> None:
        size = 0
        for block in iter(lambda: stream.read(1 << 16), b""):
            if size < cap:
                sink.append(block)
                size += len(block)
        stream.close()
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _feed(path: Path, data: bytes, stop: threading.Event) -> None:
    """Write *data* into the named pipe *path* once a reader opens it (not at all if none does)."""
    def feed() -> None:
        while not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:                       # no reader yet
                time.sleep(0.01)
                continue
            os.set_blocking(fd, True)
            try:
                os.write(fd, data)
            except OSError:
                pass
            os.close(fd)
            return
    threading.Thread(target=feed, daemon=True).start()


def _drain(path: Path, sink: list, done: list) -> threading.Thread:
    """Read the named pipe *path* once guji opens it for writing (see :func:`_unblock`)."""
    def drain() -> None:
        with open(path, "rb") as f:                      # waits for a writer
            for block in iter(lambda: f.read(1 << 16), b""):
                sink.append(block)
        done.append(True)
    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    return thread


def _unblock(path: Path) -> None:
    """End a drain still waiting for a writer (guji never opened the pipe)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def _session_pids(sid: int) -> list[str]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[3]) == sid:
                    out.append(Path(f"/proc/{entry}/cmdline").read_bytes()
                               .replace(b"\0", b" ").decode(errors="replace")[:120] or entry)
            except (OSError, IndexError, ValueError):
                pass
    return out


def _wait(pid: int, deadline: float) -> tuple[int | None, int]:
    """The exit status (as subprocess gives it) and the peak resident bytes; None at *deadline*."""
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return code, usage.ru_maxrss * 1024
        if time.monotonic() > deadline:
            return None, 0
        time.sleep(0.005)


def _bounded_with_stops() -> None:
    """The bounds of ``tests/runner.py``, and the stop signals as a terminal gives them
    (not ignored, as ``nohup`` or a script's ``&`` would have this process pass them on)."""
    runner._bounded(runner.FILE_BYTES, runner.MEMORY_BYTES)()
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def run(attack: Attack, folder: Path, cache: Path) -> Outcome:
    """*attack* in *folder* (made by :func:`attacks.draw`), the cache of hits in *cache*."""
    tmp = folder.parent / (folder.name + ".tmp")
    tmp.mkdir()
    env = runner.environment(TMPDIR=str(tmp), GUJI_CACHE=str(cache))
    null = open(os.devnull, "rb")
    full = open("/dev/full", "wb")
    stop, fifo_bytes, out, err, drained = threading.Event(), [], [], [], []
    if attack.fifo_in:
        _feed(folder / attack.fifo_in, attack.fifo_in_text, stop)
    drain = _drain(folder / attack.fifo_out, fifo_bytes, drained) if attack.fifo_out else None
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "guji", *attack.argv], cwd=folder, env=env, stdin=null,
        stdout=full if attack.stdout == "full" else subprocess.PIPE,
        stderr=full if attack.stderr == "full" else subprocess.PIPE, start_new_session=True,
        preexec_fn=_bounded_with_stops)
    readers = [_reader(s, sink) for s, sink in ((proc.stdout, out), (proc.stderr, err)) if s]
    signalled = None
    if attack.signal is not None:
        time.sleep(max(0.0, started + attack.delay - time.monotonic()))
        if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            os.kill(proc.pid, attack.signal)
            signalled = time.monotonic()
    status, peak = _wait(proc.pid, started + HANG_SECONDS)
    ended = time.monotonic()
    if status is None:
        os.killpg(proc.pid, signal.SIGKILL)
        peak = _wait(proc.pid, time.monotonic() + 10)[1]
    proc.returncode = status if status is not None else -9
    time.sleep(0.05)
    strays = tuple(_session_pids(proc.pid))
    if strays:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for r in readers:
        r.join(5)
    stop.set()
    if drain is not None:
        _unblock(folder / attack.fifo_out)
        drain.join(5)
    null.close(), full.close()
    return Outcome(status, b"".join(err).decode("utf-8", "replace"), b"".join(out),
                   ended - started, peak, None if signalled is None else signalled - started,
                   None if signalled is None else ended - signalled, strays, b"".join(fifo_bytes))


def _hidden(folder: Path) -> list[str]:
    """Hidden or temporary files under *folder* (links not followed)."""
    out = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if name.startswith(".") or "guji-tmp" in name:
                out.append(os.path.relpath(os.path.join(root, name), folder))
    return out


def _tool(argv: list[str]) -> str | None:
    """What *argv* (a format's own checker) said, if it refused; None if it passed or is missing."""
    if shutil.which(argv[0]) is None:
        return None
    r = subprocess.run(argv, capture_output=True, timeout=60)
    return None if r.returncode == 0 else (r.stdout + r.stderr).decode(errors="replace")[-300:]


def _unreadable(path: Path) -> str | None:
    """Why the file at *path* is not a valid file of its kind, or None."""
    name = path.name.lower()
    try:
        if name.endswith((".wav", ".flac", ".ogg")):
            import soundfile as sf
            info = sf.info(path)
            sf.read(path, frames=min(info.frames, 10 ** 6))
            if name.endswith(".flac"):
                return _tool(["flac", "-t", "-s", str(path)])
            if name.endswith(".ogg"):
                return _tool(["ogginfo", "-q", str(path)])
        elif name.endswith((".mid", ".midi")):
            import mido
            mido.MidiFile(path, charset="utf-8")
        elif name.endswith((".svg", ".musicxml", ".mei", ".xml")):
            ET.parse(path)
        elif name.endswith(".mxl"):
            with zipfile.ZipFile(path) as z:
                for member in z.namelist():
                    if member.endswith((".xml", ".musicxml")):
                        ET.fromstring(z.read(member))
        elif name.endswith(".html"):
            page = path.read_text(encoding="utf-8")
            assert "</html>" in page.lower(), "no </html>"
        elif name.endswith(".pdf"):
            data = path.read_bytes()
            assert data.startswith(b"%PDF") and b"%%EOF" in data[-1024:], "not a whole PDF"
        elif name.endswith(".png"):
            data = path.read_bytes()
            assert data.startswith(b"\x89PNG") and data[-12:-8] == b"\0\0\0\0", "not a whole PNG"
    except Exception as e:                      # any reader's refusal is the finding
        return f"{type(e).__name__}: {e}"[:300]
    return None


def _outputs(attack: Attack, outcome: Outcome, folder: Path) -> list[tuple[str, str]]:
    found = []
    for name in attack.outputs:
        path = folder / name
        paths = [p for p in path.rglob("*")] if path.is_dir() else [path]
        for p in paths:
            if p.is_file() and not p.is_symlink() and (why := _unreadable(p)):
                found.append((f"bad output {p.suffix}", f"{p.relative_to(folder)}: {why}"))
    if attack.fifo_out and outcome.status == 0 and outcome.fifo_bytes:
        copy = folder.parent / (folder.name + ".fifo" + Path(attack.fifo_out).suffix)
        copy.write_bytes(outcome.fifo_bytes)
        if why := _unreadable(copy):
            found.append((f"bad stream {copy.suffix}", f"through {attack.fifo_out}: {why}"))
        copy.unlink()
    return found


def _stderr(attack: Attack, outcome: Outcome, signalled: bool) -> list[tuple[str, str]]:
    if attack.stderr == "full":
        return []
    err, lines = outcome.stderr, outcome.stderr.splitlines()
    found = []
    if "Traceback" in err:
        found.append(("traceback", err[-1500:]))
    elif (m := PYTHON_SAYS.search(err)):
        found.append(("python on stderr", f"{m.group(0)!r} in: {err[-800:]}"))
    if outcome.status == 2 and not any(line.startswith("guji") for line in lines):
        found.append(("error that says nothing", err[-500:]))
    if len(lines) > MOST_LINES:
        found.append((f"over {MOST_LINES} lines", f"{len(lines)} lines: {err[:300]}…{err[-300:]}"))
    printing = attack.argv[0] in PRINTING or "-o\0-" in "\0".join(attack.argv)
    if attack.stdout == "full" and outcome.status in (0, 1) and printing:
        found.append((f"exit {outcome.status} with stdout on /dev/full", err[-500:]))
    stop = STOP_LINES.get(attack.signal)
    if signalled and outcome.status == 128 + (attack.signal or 0):
        if lines.count(stop) != 1 or lines[-1:] != [stop]:
            found.append(("stop without its one line", err[-500:]))
    return found


def judge(attack: Attack, outcome: Outcome, folder: Path, cache: Path) -> list[tuple[str, str]]:
    """What went wrong in *outcome* of *attack*: (class, detail) pairs; none if all is well."""
    if outcome.status is None:
        return [("hang", f"still running after {HANG_SECONDS:.0f} s; stderr: {outcome.stderr[-500:]}")]
    signalled = outcome.signalled_at is not None
    allowed = {0, 1, 2}
    if signalled:
        allowed |= {128 + attack.signal, -attack.signal}
    found = [] if outcome.status in allowed else [(f"exit {outcome.status}",
                                                   outcome.stderr[-800:])]
    if signalled and outcome.stop_seconds > STOP_SECONDS:
        found.append(("slow to stop", f"{outcome.stop_seconds:.1f} s after the signal"))
    if outcome.peak_bytes > MOST_BYTES:
        found.append(("over 2 GB", f"peak {outcome.peak_bytes / 1e9:.2f} GB"))
    if "MemoryError" in outcome.stderr or "out of memory" in outcome.stderr.lower():
        found.append(("out of memory", outcome.stderr[-500:]))
    if outcome.strays:
        found.append(("process left running", "; ".join(outcome.strays)))
    if left := _hidden(folder) + _hidden(cache):
        found.append(("temporary file left", ", ".join(left[:5])))
    tmp = folder.parent / (folder.name + ".tmp")
    if left := sorted(os.listdir(tmp)):
        found.append(("left in TMPDIR", ", ".join(left[:5])))
    return found + _stderr(attack, outcome, signalled) + _outputs(attack, outcome, folder)

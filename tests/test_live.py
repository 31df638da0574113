"""Live playback on a real clock, and live MIDI on a real server, end to end.

Playback runs on a private PulseAudio null sink (:mod:`live.pulse`): unlike
ALSA's null device it runs on the clock, as a sound card does, and its
monitor is recorded with ``parec`` on this process's monotonic clock, so
the recording says when each stroke was heard and the JSON lines of
``guji play --json`` can be held against it. MIDI goes to a private JACK
server on the dummy driver (:mod:`live.jack`) and is received by a JACK
client of this test (python-rtmidi). The servers are started by the module's
fixtures and stopped after. Outside CI a missing server is a skip naming
the package; under CI (``CI=true``) it is a failure.

Figures are printed (``pytest -s``); tolerances are the issue's: onsets on
the schedule within 5 ms of each other's spacing, JSON lines within 30 ms
of their strokes, MIDI notes within 10 ms of their spacing.
"""

from __future__ import annotations

import importlib.abc
import json
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time

from typing import Any, Callable

import numpy as np
import pytest

from guji.sound.clock import CLOCK_WINDOW, JUMP
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from live import jack as jack_server
from live import pulse
from live.stalls import StallWatch
import runner
import tools
from tools import need
from onsets import detect_onsets

RATE = 48000
OUTSIDE = tempfile.gettempdir()        # run guji from outside the checkout (the installed one)
LU = load("lu").notation(Rite.TOUHU)   # the 12 strokes of 投壺's 魯鼓


@pytest.fixture(scope="module")
def sink(pulseaudio):
    # asked of a child: importing sounddevice here would start PortAudio in
    # this test process, and with the jack fixture's server named in the
    # environment its JACK host API then aborts the whole run at exit
    # (pa_jack.c: Terminate: Assertion `err == 0', exit 134) once that
    # server has been stopped
    r = subprocess.run([sys.executable, "-c", "import sounddevice"], capture_output=True,
                       text=True, env=jack_free_env())
    if r.returncode != 0:
        need(f"{r.stderr.strip().splitlines()[-1:]}: apt-get install libportaudio2")
    s = pulse.PulseSink("gujitest").start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def jack(jackd):
    j = jack_server.JackServer().start()
    yield j
    j.stop()


def jack_free_env() -> dict[str, str]:
    """This process's environment without the jack fixture's server in it."""
    return {k: v for k, v in os.environ.items() if not k.startswith("JACK_")}


def stamped_lines(p) -> list[tuple[float, dict]]:
    """The JSON lines of *p*, each with the monotonic time this test read it.

    Read at real-time priority (``SCHED_FIFO``, where allowed: root, as
    guji's own announcer): the stamp is then the moment guji wrote the line,
    within a millisecond. A normal thread beside two busy loops woke up to
    180 ms late, which measured this test's reading, not guji (a MIDI note
    "180 ms before its line")."""
    from guji.realtime import ANNOUNCER_PRIORITY, make_realtime
    before = os.sched_getscheduler(0), os.sched_getparam(0)
    made = make_realtime(ANNOUNCER_PRIORITY)
    try:
        return [(time.monotonic(), json.loads(line)) for line in p.stdout]
    finally:
        if made:
            os.sched_setscheduler(0, before[0], before[1])


def run_recorded(sink, tmp_path, *args: str):
    """Run ``guji play … --json`` on the sink while recording its monitor:
    (exit status, [(arrival, json line)], stderr, recording, spawn time)."""
    rec = sink.record(tmp_path / "monitor.wav")
    rec.wait_for_audio()
    spawned = time.monotonic()
    p = subprocess.Popen(runner.command(["play", *args, "--json"]), env=sink.child_env(), cwd=OUTSIDE,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lines = stamped_lines(p)
    err = p.stderr.read()
    code = p.wait(60)
    time.sleep(0.1)
    rec.stop()
    return code, lines, err, rec, spawned


# -- sound, on the clock ----------------------------------------------------------------

#: Tries of the grid's test at most: a run in which guji says the sound was
#: disturbed downstream (a gap, an underrun: a loaded machine) cannot show the
#: grid, and another is made.
GRID_TRIES = 4
#: How far each JSON line may be from its stroke in the recording (seconds).
LINE_TOLERANCE = 0.030
#: How early the first stroke's line may be: it is said on the clock of the
#: buffer's filling, before the server has started the stream (guji.sound.clock:
#: waiting for the running clock would make it a block late where the stream
#: starts on time); seen 34 ms early on the test's sink beside two busy loops.
FIRST_LINE_EARLY = 0.060


def test_strokes_recorded_on_the_grid_and_json_lines_when_heard(sink, tmp_path):
    """Every stroke in the recording, 0.6 s apart within 5 ms; each JSON line
    within LINE_TOLERANCE of its stroke (the first: FIRST_LINE_EARLY early at
    most). A run guji says was disturbed is tried again (GRID_TRIES at most),
    and so is one off the grid by less than guji can tell from its clock's
    jitter (JUMP), and one with a line past LINE_TOLERANCE (the last try must
    hold); a larger disturbance guji did not say fails."""
    disturbed = []
    for attempt in range(GRID_TRIES):
        code, lines, err, rec, spawned = run_recorded(sink, tmp_path, "lu")
        assert code == 0 and tools.without_honest_reports(err) == "", err
        assert [j["index"] for _, j in lines] == list(range(len(LU)))
        assert "".join(j["stroke"] for _, j in lines) == LU
        assert [j["drum"] for _, j in lines] == ["鼙" if g == "○" else "鼓" for g in LU]
        assert [j["time"] for _, j in lines] == pytest.approx([0.6 * i for i in range(len(LU))])
        if err:                               # guji said the sound was disturbed downstream
            disturbed.append(err.strip())
            print(f"\ngrid try {attempt + 1}: {err.strip()}")
            continue
        onsets = detect_onsets(rec.samples, RATE)
        assert len(onsets) == len(LU), onsets           # every stroke is there, and no other
        spacing = np.abs(np.diff(onsets) - 0.6)
        # a move under guji's clock jitter (JUMP) is one guji cannot tell: another try
        assert spacing.max() <= max(0.005, JUMP), np.round(np.diff(onsets), 4)
        if spacing.max() > 0.005:
            disturbed.append(f"{spacing.max() * 1000:.0f} ms unsaid")
            print(f"\ngrid try {attempt + 1}: {disturbed[-1]}")
            continue
        heard = rec.t0 + onsets                          # monotonic, when the sink played each
        late = np.array([t for t, _ in lines]) - heard
        # a line held up past the tolerance (seen: single lines at +31 ms, the rest
        # +9 ms, with nothing beside the suite): another try; the last one must hold
        lines_ok = (-FIRST_LINE_EARLY <= late[0] <= LINE_TOLERANCE
                    and np.abs(late[1:]).max() <= LINE_TOLERANCE)
        if not lines_ok and attempt + 1 < GRID_TRIES:
            disturbed.append(f"a line {np.abs(late).max() * 1000:.0f} ms from its stroke")
            print(f"\ngrid try {attempt + 1}: {disturbed[-1]}")
            continue
        break
    else:
        pytest.fail(f"every one of {GRID_TRIES} runs was disturbed downstream: {disturbed}")
    first_sound = heard[0] - spawned
    print(f"\nspacing error max {spacing.max() * 1000:.3f} ms; JSON line - stroke "
          f"{late.min() * 1000:+.1f} … {late.max() * 1000:+.1f} ms; first sound "
          f"{first_sound:.3f} s after the command started")
    assert -FIRST_LINE_EARLY <= late[0] <= LINE_TOLERANCE, late
    assert np.abs(late[1:]).max() <= LINE_TOLERANCE, late
    # 0.4–0.5 s measured warm (bench/bench_live.py); 2.3 s seen with two busy loops beside CI,
    # 3.8 s with other suites beside those too: a start-up that hangs fails, a slow one not
    assert first_sound < 8.0


def _loop_until_ctrl_c(sink, tmp_path):
    """``guji play lu --loop --interval 0.3 --json`` until 36 strokes were heard,
    then SIGINT: (exit status, JSON lines, stderr, recording)."""
    rec = sink.record(tmp_path / "loop.wav")
    rec.wait_for_audio()
    p = subprocess.Popen(runner.command(["play", "lu", "--loop", "--interval", "0.3", "--json"]),
                         env=sink.child_env(), cwd=OUTSIDE, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    for line in p.stdout:
        lines.append(json.loads(line))
        if len(lines) == 3 * len(LU):
            p.send_signal(signal.SIGINT)
            break
    rest, err = p.communicate(timeout=30)
    time.sleep(0.1)
    rec.stop()
    return p.returncode, lines, err, rec


#: Seconds from the first stroke heard during which guji's output clock settles
#: (:class:`guji.sound.clock.OutputClock`'s *settle*: twice the latency of 0.2 s and 0.05).
SETTLING = 2 * 0.2 + 0.05

#: Tries of the loop at most: a try in which guji says the sound was disturbed
#: downstream cannot show the seams, and another is made.
LOOP_TRIES = 4


def test_loop_for_three_passes_then_ctrl_c(sink, tmp_path):
    """The seams of a loop are heard on the grid (within 1 ms: the recording's
    onsets land on its 0.5-ms hops), and Ctrl-C ends it with its one line.

    Under load (two busy loops beside the suite) the server or ALSA's
    ``pulse`` plugin now and then inserts silence after guji's callback
    (measured: 1 run in 3, 60–515 ms; guji's own feed was never late). The
    recording then shows strokes off the grid, and guji says so before its
    "interrupted" (``guji: playback: … gaps downstream``). Such a try cannot
    show the seams; it must have been said (checked), and the loop is tried
    again. A disturbance guji did not say fails the test, as a wrong seam does,
    unless it is under the size guji can tell from its clock's jitter (JUMP):
    then another try."""
    disturbed = []
    for attempt in range(LOOP_TRIES):
        code, lines, err, rec = _loop_until_ctrl_c(sink, tmp_path)
        assert code == 130, err
        said = err.rstrip().splitlines()
        assert said[-1] == "guji: interrupted" and "Traceback" not in err, err
        assert all(line.startswith("guji: playback: ") for line in said[:-1]), err
        assert [j["loop"] for j in lines] == [1] * 12 + [2] * 12 + [3] * 12
        assert [j["index"] for j in lines] == list(range(36))
        assert [j["time"] for j in lines] == pytest.approx([0.3 * i for i in range(36)])
        onsets = detect_onsets(rec.samples, RATE)
        gaps = np.diff(onsets[:36])
        off = np.abs(gaps - 0.3).max() if len(gaps) else 1.0
        if len(said) > 1:                 # guji said the output was disturbed
            disturbed.append(said[0])
            print(f"\nloop try {attempt + 1}: {said[0]} (recording: {len(onsets)} onsets, "
                  f"{off * 1000:.0f} ms off the grid)")
            continue
        # nothing said: the recording must be the grid, seams included
        assert len(onsets) >= 36, (onsets, err)
        print(f"\nloop try {attempt + 1}: gaps at the seams {gaps[11]:.5f} s, "
              f"{gaps[23]:.5f} s; all within {off * 1000:.3f} ms of 0.3 s")
        # a disturbance guji cannot tell — under its clock's jitter (JUMP, 15 ms; seen: one
        # of 10 ms in 1 try of 10) or while its clock settles (the first SETTLING s, where a
        # move is the stream's start-up; seen: 30–37 ms between strokes 1 and 2) — is
        # another try; a seam wrong in every try, or a larger gap guji did not say, fails
        wrong = np.flatnonzero(np.abs(gaps - 0.3) > 0.001)
        # … or just before the Ctrl-C: a move of the clock shows only when the median of
        # its last CLOCK_WINDOW callbacks moves (5 blocks of 50 ms), and the stream was
        # aborted 0.3 s after the last stroke's line
        late = [i for i in wrong if onsets[i] - onsets[0] >= SETTLING
                and onsets[-1 if len(onsets) < 36 else 35] - onsets[i + 1] >= CLOCK_WINDOW * 0.05]
        assert not late or np.abs(gaps[late] - 0.3).max() <= JUMP, (np.round(gaps, 4), err)
        if len(wrong):
            disturbed.append(f"{off * 1000:.0f} ms unsaid after stroke(s) {list(wrong + 1)}")
            print(f"loop try {attempt + 1}: {disturbed[-1]}")
            continue
        return
    pytest.fail(f"every one of {LOOP_TRIES} tries was disturbed downstream: {disturbed}")


# -- what the player hands PortAudio is the render, sample for sample -----------------------

#: ``python -c CAPTURED OUT.npy ARGS…``: ``guji ARGS…`` with every frame the
#: player's ring copies into PortAudio's buffer kept (in order; the silence of
#: a starved callback, which the report counts, is not the render's) and saved.
CAPTURED = r"""
import sys
import numpy as np
import guji.sound.ring as ring
frames = []
read = ring.BlockRing.read
def kept(self, out, n, at, announce):
    filled, ended = read(self, out, n, at, announce)
    frames.append(np.array(out[:filled]))
    return filled, ended
ring.BlockRing.read = kept
from guji.cli.main import main
try:
    code = main(sys.argv[2:])
finally:
    np.save(sys.argv[1], np.concatenate(frames) if frames else np.zeros((0, 2), np.float32))
raise SystemExit(code)
"""

#: The minus-one cases of the issue, and more: (play's and render's options).
STREAM_CASES = {
    "鼓 muted": ["lu", "--interval", "0.25", "--mute", "鼓"],
    "鼙 solo, ghost clicks, count-in": ["lu", "--interval", "0.2", "--solo", "鼙", "--ghost",
                                       "click", "--count-in", "2"],
    "several patterns, 鼙 muted": ["lu", "xue", "--interval", "0.15", "--mute", "鼙",
                                   "--gap", "1"],
    "stacked, 鼓 muted, mono 44.1 kHz": ["lu", "xue:2", "--stack", "--interval", "0.2",
                                         "--mute", "鼓", "--channels", "1", "--rate", "44100"],
    "a tempo ramp over three passes, count-in": ["lu", "--repeat", "3", "--ramp", "240:400",
                                                 "--count-in", "2"],
}


def render_float(tmp_path, args) -> np.ndarray:
    import soundfile
    out = tmp_path / "render.wav"
    r = subprocess.run(runner.command(["render", *args, "--bits", "float", "-o", str(out)]),
                       cwd=OUTSIDE, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return soundfile.read(out, dtype="float32", always_2d=True)[0]


@pytest.mark.parametrize("case", list(STREAM_CASES))
def test_the_player_hands_portaudio_the_render(sink, tmp_path, case):
    args = STREAM_CASES[case]
    saved = tmp_path / "played.npy"
    r = subprocess.run([sys.executable, "-c", CAPTURED, str(saved), "play", *args, "--quiet"],
                       env=sink.child_env(), cwd=OUTSIDE, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    played, rendered = np.load(saved), render_float(tmp_path, args)
    assert played.shape == rendered.shape
    assert np.array_equal(played, rendered)           # sample for sample


def test_the_recorded_sink_plays_the_render_with_a_drum_muted(sink, tmp_path):
    """The issue's case, from the null sink's monitor: the recording is the
    render to the 16-bit sample (it sounded 鼙 at steps 4 and 8, where the
    pattern has 鼓, and nothing at 6, 7 and 12)."""
    args = STREAM_CASES["鼓 muted"]
    for _ in range(3):       # a gap the player reports (a loaded machine) is not the render
        code, lines, err, rec, _ = run_recorded(sink, tmp_path, *args)
        assert code == 0, err
        if "gap" not in err and "underrun" not in err:
            break
    assert err == "", f"every run had a gap downstream: {err}"
    rendered = render_float(tmp_path, args)
    heard = rec.samples.astype(np.float64)
    heard = heard if heard.ndim == 2 else heard[:, None]
    loud = np.flatnonzero(np.abs(heard).max(axis=1) > 0.01)[0]
    first = np.flatnonzero(np.abs(rendered).max(axis=1) > 0.01)[0]
    start = loud - first
    assert start >= 0
    segment = heard[start:start + len(rendered)]
    assert len(segment) == len(rendered)
    worst = np.abs(segment - rendered).max()
    print(f"\nrecording - render: at most {worst * 32768:.2f} of a 16-bit step")
    assert worst <= 1 / 32768


def test_a_loop_with_a_drum_muted_hands_portaudio_its_passes(sink, tmp_path):
    from guji.sound.feed import loop_feed
    from guji.sound.mixer import Mix
    from guji.timing.layout import lay_out
    from guji.timing.loop import Loop
    from guji.timing.performance import Timing
    saved = tmp_path / "played.npy"
    p = subprocess.Popen([sys.executable, "-c", CAPTURED, str(saved), "play", "lu", "--loop",
                          "--interval", "0.1", "--mute", "鼓", "--json", "--loudness", "off"],
                         env=sink.child_env(), cwd=OUTSIDE, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for n, _ in enumerate(p.stdout, 1):
        if n == 3 * len(LU):
            p.send_signal(signal.SIGINT)
            break
    p.communicate(timeout=30)
    assert p.returncode == 130
    played = np.load(saved)
    loop = Loop(lay_out([load("lu")], Timing(interval=0.1)).muting("鼓"))
    gains = loop_feed(loop).gains
    passes = 6
    expected = Mix(loop.passes(0, passes), gains=gains).array()
    whole = round(loop.pass_start(passes - 1) * RATE)      # later passes add nothing before
    n = min(len(played), whole)
    assert n >= round(loop.pass_start(3) * RATE)           # three passes at least
    assert np.array_equal(played[:n], expected[:n])


class Terminal:
    """A pseudo-terminal for a child's standard input and error: what it
    writes is collected, keys are typed into it."""

    def __init__(self):
        self.master, self.slave = pty.openpty()
        self.output = b""
        self._reader = threading.Thread(target=self._read, daemon=True)

    def _read(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def start(self):
        os.close(self.slave)
        self._reader.start()

    def type(self, key: bytes) -> int:
        """Type *key*; how much the child had written before it (its answer
        comes after: ``wait_for(…, since=)``)."""
        before = len(self.output)
        os.write(self.master, key)
        return before

    def wait_for(self, seen, timeout: float = 15.0, since: int | None = None) -> str:
        """Until ``seen(text)`` holds for what the child wrote after *since*
        (default: what was already there); that text. Bounded: fails after
        *timeout* seconds. Waiting for the answer to a key, give *since* from
        :meth:`type`: a child that answers before this is called would
        otherwise have written its answer before "already there" (seen once
        in CI: ``[paused]`` written, then nothing while paused, "not seen")."""
        start = len(self.output) if since is None else since
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.output[start:].decode(errors="replace")
            if seen(text):
                return text
            time.sleep(0.005)
        raise AssertionError(f"not seen in {timeout} s: {self.output[start:]!r}")

    def close(self):
        self._reader.join(5)
        os.close(self.master)


#: Tries of the keys' test at most: a try in which guji says the sound was disturbed
#: downstream cannot show the grid around the pause, and another is made.
KEYS_TRIES = 4


def _pause_resume_quit(sink, tmp_path):
    """``guji play lu --repeat 4 --interval 0.3`` in a terminal: space when the
    display shows stroke 3, space again 1.2 s after the display said ``[paused]``,
    ``q`` when it showed three more strokes. (the terminal's text, exit status,
    recording, whether the terminal was put back as it was).

    Keys are typed on what the display shows, not at moments after the start:
    a key typed while guji is still starting (1.9 s to the first stroke seen
    beside two busy loops) is echoed by the terminal and then discarded when
    guji puts it in cbreak mode (``tty.setcbreak``: ``TCSAFLUSH``), as in any
    terminal program; a test that typed at 1.5 s paused at its second key and
    quit while paused (no resume, no ``[paused]`` seen when the keys fell so)."""
    rec = sink.record(tmp_path / "keys.wav")
    rec.wait_for_audio()
    term = Terminal()
    settings = termios.tcgetattr(term.master)
    p = subprocess.Popen(runner.command(["play", "lu", "--repeat", "4", "--interval", "0.3"]),
                         env=sink.child_env(), cwd=OUTSIDE, stdin=term.slave, stderr=term.slave,
                         stdout=subprocess.PIPE, text=True)
    term.start()
    try:
        term.wait_for(lambda t: " 3/12 " in t)
        typed = term.type(b" ")          # pause
        term.wait_for(lambda t: "[paused]" in t, timeout=5, since=typed)
        time.sleep(1.2)          # paused this long: the gap the recording must show
        typed = term.type(b" ")          # resume
        term.wait_for(lambda t: t.count("\r") >= 4 and "[paused]" not in t.split("\r")[-1],
                      since=typed)
        term.type(b"q")          # quit
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(10)
    kept = termios.tcgetattr(term.master) == settings
    term.close()
    time.sleep(0.1)
    rec.stop()
    return term.output.decode(), p.returncode, rec, kept


def test_space_pauses_and_q_quits_in_a_terminal(sink, tmp_path):
    """Space pauses (the line says ``[paused]``, the sound stops), space
    resumes on the grid, ``q`` quits with exit 0 and the terminal as it was.

    The recording's strokes must be 0.3 s apart within 1 ms but for the one
    pause. Under load the server now and then inserts silence after guji's
    callback (see the loop's test): guji then says so (``guji: playback: … gaps
    downstream``, in the terminal after the display), the try cannot show the
    grid, and another is made; a disturbance guji did not say fails."""
    disturbed = []
    for attempt in range(KEYS_TRIES):
        shown, code, rec, kept = _pause_resume_quit(sink, tmp_path)
        assert kept                                          # the terminal as it was
        assert code == 0, shown
        assert "[paused]" in shown and "ALSA" not in shown and "Traceback" not in shown
        display, _, after = shown.partition("\r\n")
        # one redrawn line: carriage returns, and one line break, at its end
        assert display.count("\r") >= 5 and "\n" not in display, shown
        said = after.splitlines()
        assert all(tools.HONEST_REPORT.fullmatch(line) for line in said), shown
        gaps = np.diff(detect_onsets(rec.samples, RATE))
        if said:                                             # guji said it was disturbed
            disturbed.append(said[0])
            print(f"\nkeys try {attempt + 1}: {said[0]}")
            continue
        assert 5 <= len(gaps) + 1 < 48, gaps
        assert (gaps > 1.0).sum() == 1, np.round(gaps, 4)    # the pause, once
        assert np.abs(gaps[gaps < 1.0] - 0.3).max() <= 0.001, np.round(gaps, 4)
        return
    pytest.fail(f"every one of {KEYS_TRIES} tries was disturbed downstream: {disturbed}")


FORCED_UNDERRUNS = r"""
import time
import guji.sound.player as player
callback = player.Player._callback
def late(self, outdata, frames, time_info, status):
    if self._stats["callbacks"] in (30, 60):
        time.sleep(0.3)                 # the audio thread misses its deadline: an underrun
    return callback(self, outdata, frames, time_info, status)
player.Player._callback = late
from guji.cli.main import main
raise SystemExit(main(["play", "lu", "--interval", "0.1", "--latency", "0.02"]))
"""


def test_alsa_messages_stay_out_of_the_display_and_are_reported(sink):
    r = subprocess.run([sys.executable, "-c", FORCED_UNDERRUNS], env=sink.child_env(),
                       cwd=OUTSIDE, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert not [x for x in lines if "ALSA lib" in x or "underrun occurred" in x
                and not x.startswith("guji: ")]
    strokes = [x for x in lines if "/12 " in x]
    assert len(strokes) == 12                          # the display: nothing else in it
    report = [x for x in lines if x.startswith("guji: playback: ")]
    assert len(report) == 1 and lines[-1] == report[0], lines
    assert "underrun" in report[0] and "--latency" in report[0]
    print("\n" + report[0])


# -- MIDI, on a JACK server ------------------------------------------------------------------

class Receiver:
    """A JACK MIDI input of this test: every message with its arrival time.

    RtMidi queues what JACK delivers, in JACK's own thread and without
    Python; a thread of this test takes the queue (every millisecond). A
    Python callback, as this class once had, ran in JACK's real-time thread
    and waited there for this process's interpreter lock: beside two busy
    loops the thread holding the lock was descheduled, the callback missed
    JACK's cycles and notes were lost (10 of 12 seen).

    :attr:`port_clock` is the port's own clock: RtMidi stamps each message
    with JACK's time (``jack_get_time``) in the cycle that received it
    (seconds since the first message, summed from RtMidi's deltas).
    :attr:`got` has each message with that clock moved onto this process's
    monotonic one (to compare with lines guji printed): JACK's time runs on
    the monotonic clock, so the offset is the least of (taken - stamped) over
    the messages, the one this thread took soonest after it came."""

    def __init__(self, name: str = "gujitest"):
        import rtmidi
        self.port_clock: list[float] = []
        self._taken: list[float] = []
        self._messages: list[list[int]] = []
        self.port = rtmidi.MidiIn(rtapi=rtmidi.API_UNIX_JACK, name=name, queue_size_limit=4096)
        self.port.open_virtual_port("recv")
        self.name = f"{name}:recv"
        self._closed = threading.Event()
        self._taker = threading.Thread(target=self._take, daemon=True)
        self._taker.start()

    def _take(self) -> None:
        while True:
            event = self.port.get_message()
            if event is None:
                if self._closed.wait(0.001):
                    return
                continue
            message, delta_s = event
            self.port_clock.append((self.port_clock[-1] if self.port_clock else 0.0) + delta_s)
            self._taken.append(time.monotonic())
            self._messages.append(message)

    @property
    def got(self) -> list[tuple[float, list[int]]]:
        """Every message, with its monotonic arrival time."""
        n = len(self._messages)
        if n == 0:
            return []
        offset = min(t - c for t, c in zip(self._taken[:n], self.port_clock[:n]))
        return [(c + offset, m) for c, m in zip(self.port_clock[:n], self._messages[:n])]

    def wait_for_notes(self, n: int, timeout: float = 5.0) -> None:
        """Until *n* notes have come in (the last one may still be on its
        way when guji exits: under load it ran more than 0.1 s after, and a test
        that waited 0.1 s counted 11 of 12), or *timeout* seconds."""
        deadline = time.monotonic() + timeout
        while len(self.notes_on()) < n and time.monotonic() < deadline:
            time.sleep(0.005)

    def stop_taking(self) -> None:
        """Stop this test's thread (the port left as it is: its server may be gone)."""
        self._closed.set()
        self._taker.join(5)

    def close(self):
        self.stop_taking()
        self.port.close_port()
        self.port.delete()

    def notes_on(self, port_clock: bool = False) -> list[tuple[float, list[int]]]:
        """The note-ons, each with its monotonic time (*port_clock*: the port's)."""
        got = self.got
        times = self.port_clock[:len(got)] if port_clock else [t for t, _ in got]
        return [(t, m) for t, (_, m) in zip(times, got) if m[0] & 0xF0 == 0x90 and m[2] > 0]


#: Tries of a live MIDI test at most. A try that does not hold is made again
#: only when the machine was held up during it; on a machine that kept time it
#: fails at once, and the last try must hold.
MIDI_TRIES = 6

#: guji's own report of a late MIDI message (guji.midi.sender.MidiReport): honest
#: on a machine that stalled, a failure on one that kept time.
LATE_MIDI = re.compile(r"guji: playback: \d+ MIDI messages, the latest [\d.]+ ms after its time")


class OnJacksClock(str):
    """Trouble measured on JACK's clock (a note's spacing as the port stamped it):
    the dummy driver's own late cycles count in it (once 14.0 ms on an idle
    machine, no stall seen), so such a try is made again whatever the canary saw."""


def until_on_time(jack, attempt: Callable[[], tuple[Any, str | None]]) -> Any:
    """*attempt*'s value once a try holds.

    *attempt* makes one try and gives ``(value, None)`` when it held, or
    ``(None, trouble)`` saying in words what was off in time or lost (what
    must hold whatever the timing it asserts itself). A try in trouble is
    made again (at most :data:`MIDI_TRIES`) only when the machine was held up
    during it: the JACK server logged an xrun (the dummy driver then drops
    what its clients wrote in the cycle: a note-off and the next note-on seen
    lost together), or the stall canary saw this machine's processors stopped
    (:mod:`live.stalls`: on this virtual machine the host's steal came in runs
    of 7-10 ms; in one CI run three tries in a row had notes 13-16 ms off their
    spacing and then guji said a message went 21.7 ms late). On a machine
    that kept time a try in trouble fails at once, unless the trouble was
    measured on JACK's clock (:class:`OnJacksClock`)."""
    for n in range(1, MIDI_TRIES + 1):
        xruns = jack.xruns()
        with StallWatch() as watch:
            value, trouble = attempt()
        if trouble is None:
            return value
        held_up = watch.summary() + f"; JACK {jack.xruns() - xruns} xruns"
        if not (watch.disturbed or jack.xruns() > xruns or isinstance(trouble, OnJacksClock)):
            pytest.fail(f"try {n}: {trouble}, on a machine that kept time ({held_up})",
                        pytrace=False)
        print(f"\nMIDI try {n}: {trouble}; the machine was held up ({held_up}): again")
    pytest.fail(f"the machine was held up in all {MIDI_TRIES} tries; the last: {trouble} "
                f"({held_up})", pytrace=False)


def late_only(err: str, expected: str = "") -> str | None:
    """Trouble in *err* (a guji child's stderr that should say *expected*, then
    nothing): ``None`` when it says just that, its lateness line when that
    is all it adds; anything else fails the test."""
    extra = [line for line in err.splitlines() if line.strip()]
    if expected:
        assert expected in extra, err
        extra.remove(expected)
    if not extra:
        return None
    assert len(extra) == 1 and LATE_MIDI.fullmatch(extra[0]), err
    return extra[0]


def _received(jack, port: str, notes: int, argv: list[str]) -> tuple[Any, Receiver]:
    """*argv* run to its end (guji playing to the JACK port *port*) while a
    :class:`Receiver` of that port takes what comes, until *notes* notes
    came: the finished process and the receiver, closed."""
    receiver = Receiver(port)
    try:
        r = subprocess.run(argv, env=jack.child_env(), cwd=OUTSIDE, capture_output=True,
                           text=True, timeout=60)
        receiver.wait_for_notes(notes)
    finally:
        receiver.close()
    return r, receiver


def _midi_try(jack) -> tuple[Any, Any, Receiver]:
    receiver = Receiver()
    try:
        ports = subprocess.run(runner.command(["ports", "--json"]), env=jack.child_env(), cwd=OUTSIDE,
                               capture_output=True, text=True, timeout=60)
        r = subprocess.run(runner.command(["play", "lu", "--midi-out", "gujitest", "--no-audio",
                                    "--quiet"]),
                           env=jack.child_env(), cwd=OUTSIDE, capture_output=True, text=True,
                           timeout=60)
        receiver.wait_for_notes(len(LU))
    finally:
        receiver.close()
    return ports, r, receiver


def test_the_stall_canary_sees_the_machine_held_up():
    """The canary that tells a held-up machine from guji's lateness sees a
    stop of its own process (SIGSTOP for 50 ms, as the host's steal stops a
    processor): a stall at least that long, so the try is "disturbed". Real
    time is the behaviour: the stop is measured on the monotonic clock."""
    with StallWatch() as watch:
        os.kill(watch.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        time.sleep(0.05)
        os.kill(watch.pid, signal.SIGCONT)
        held = time.monotonic() - stopped
    assert watch.disturbed and watch.wakes > 0
    assert watch.worst_s >= held - 0.002, (held, watch.summary())
    assert any(late >= held - 0.002 for _, late in watch.stalls), watch.stalls


def test_midi_out_sends_every_note_on_time(jack):
    # The 10 ms. Each note enters JACK at the start of the cycle after
    # guji sent it: on the port's clock the spacing is off by up to one period
    # (256 frames at 48 kHz = 5.3 ms) with guji on time, plus guji's wake-up
    # (SCHED_FIFO and a busy-wait: under 1 ms). Measured on the port's clock:
    # idle 2.9-5.6 ms, beside two busy loops 2.7-4.1 ms; a try while the host
    # held the machine up is made again (until_on_time).
    def attempt():
        ports, r, receiver = _midi_try(jack)
        assert {"name": receiver.name, "system": "JACK"} in json.loads(ports.stdout)
        assert r.returncode == 0, r.stderr
        late = late_only(r.stderr)
        if late is not None:
            return None, f"guji said {late!r}"
        if len(receiver.got) != 2 * len(LU):                # a note_on and a note_off each
            return None, f"{len(receiver.got)} of {2 * len(LU)} messages came"
        kinds = ["on" if m[0] & 0xF0 == 0x90 and m[2] else "off" for _, m in receiver.got]
        assert kinds == ["on", "off"] * len(LU)
        ons = receiver.notes_on(port_clock=True)
        # guji midi's keys and velocities: 鼙 62 Mute Hi Conga at 80, 鼓 41 Low Floor Tom at 112
        assert [m[1] for _, m in ons] == [62 if g == "○" else 41 for g in LU]
        assert [m[2] for _, m in ons] == [80 if g == "○" else 112 for g in LU]
        assert all(m[0] == 0x99 for _, m in ons)            # channel 10
        spacing = np.abs(np.diff([t for t, _ in ons]) - 0.6)
        print(f"\nspacing error max {spacing.max() * 1000:.2f} ms on JACK's clock")
        if spacing.max() > 0.010:
            return None, OnJacksClock(f"a note {spacing.max() * 1000:.1f} ms off its spacing "
                                      f"on JACK's clock")
        return spacing, None

    spacing = until_on_time(jack, attempt)
    assert spacing.max() <= 0.010, (jack.realtime, spacing)


@pytest.mark.parametrize("ghost", [False, True], ids=["mute", "ghost"])
def test_midi_out_leaves_the_muted_drum_out(jack, ghost):
    """``--mute 鼓`` sends no 鼓 note; ``--ghost click`` sends the click instead
    (live MIDI used to send every drum, whatever was muted). A note lost
    while the machine was held up (an xrun of the dummy JACK server) is a
    try made again (until_on_time)."""
    want = [62 if g == "○" else 76 for g in LU if ghost or g == "○"]

    def attempt():
        r, receiver = _received(jack, "gujimute", len(want), runner.command([
            "play", "lu", "--interval", "0.15", "--midi-out", "gujimute", "--no-audio", "--quiet",
            "--mute", "鼓", *(["--ghost", "click"] if ghost else [])]))
        assert r.returncode == 0, r.stderr
        keys = [m[1] for _, m in receiver.notes_on()]
        assert 41 not in keys                                # no 鼓 (Low Floor Tom)
        late = late_only(r.stderr)
        if late is not None:
            return None, f"guji said {late!r}"
        if keys != want:
            return None, f"{len(keys)} of {len(want)} notes came: {keys}"
        return keys, None

    # the file's notes: 鼙 62 where the pattern has ○; the click 76 where it has □ (ghost)
    assert until_on_time(jack, attempt) == want


def test_sound_and_midi_together(sink, jack, tmp_path):
    def attempt():
        receiver = Receiver("gujiboth")
        try:
            env = jack.child_env(sink.child_env())
            p = subprocess.Popen(runner.command(["play", "lu", "--interval", "0.3", "--json",
                                                 "--midi-out", "gujiboth"]),
                                 env=env, cwd=OUTSIDE, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            lines = stamped_lines(p)
            err = p.stderr.read()
            p.wait(60)
            receiver.wait_for_notes(len(lines))
        finally:
            receiver.close()
        assert p.returncode == 0 and tools.without_honest_reports(err) == "", err
        ons = receiver.notes_on()
        assert len(lines) == len(LU)
        if len(ons) != len(lines):
            return None, f"{len(ons)} of {len(lines)} notes came"
        # each note goes out when its stroke is heard: with its JSON line
        apart = np.array([t for t, _ in ons]) - np.array([t for t, _ in lines])
        print(f"\nMIDI note - JSON line: {apart.min() * 1000:+.1f} … {apart.max() * 1000:+.1f} ms")
        if np.abs(apart).max() > 0.030:
            return None, f"a note {np.abs(apart).max() * 1000:.1f} ms from its JSON line"
        return apart, None

    assert np.abs(until_on_time(jack, attempt)).max() <= 0.030


def test_no_midi_system_is_one_line_of_advice():
    if os.path.exists("/dev/snd/seq"):
        pytest.skip("this machine has an ALSA sequencer")
    env = dict(os.environ, JACK_DEFAULT_SERVER="guji-no-such-server", JACK_NO_START_SERVER="1")
    for args in (["play", "lu", "--midi-out", "--no-audio"], ["ports"]):
        r = subprocess.run(runner.command([*args]), env=env, cwd=OUTSIDE, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("guji: no MIDI system"), r.stderr
        assert "jackd" in r.stderr and "snd-seq" in r.stderr


class _NoRtmidi(importlib.abc.MetaPathFinder):
    """Makes ``import rtmidi`` fail as it does where python-rtmidi is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name == "rtmidi" or name.startswith("rtmidi."):
            raise ModuleNotFoundError("No module named 'rtmidi'", name=name)
        return None


def test_without_python_rtmidi_live_midi_is_one_line_of_advice(monkeypatch, capsys):
    from guji.cli.main import main
    for name in [m for m in sys.modules if m == "rtmidi" or m.startswith(("rtmidi.",
                                                                          "mido.backends.rtmidi"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_NoRtmidi()] + sys.meta_path)
    for argv in (["play", "lu", "--midi-out", "--no-audio"], ["ports"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "pip install python-rtmidi" in err and "guji midi" in err


# -- a sound server that goes away mid-play (issue 19: playback that cannot hang) ------------

def _killed_mid_play(env, extra=()):
    """Run ``guji play`` until its third stroke is heard, SIGKILL the server,
    return (exit status, stderr, seconds from the kill to the exit)."""
    p = subprocess.Popen(runner.command(["play", "lu", "--interval", "0.3", "--json", *extra]), env=env,
                         cwd=OUTSIDE, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    return p


def _kill_and_wait(p, server, sig=signal.SIGKILL):
    for _ in range(3):
        assert p.stdout.readline(), p.stderr.read()
    killed = time.monotonic()
    server.proc.send_signal(sig)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("guji play hung after its sound server was killed")
    return p.returncode, err, time.monotonic() - killed


@pytest.mark.parametrize("server", ["pulseaudio", "jack"])
def test_a_server_killed_mid_play_is_one_line_and_a_failure(server):
    if server == "pulseaudio":
        need(pulse.missing())
        own = pulse.PulseSink("gujikill").start()
        env, extra = own.child_env(), ()
    else:
        need(jack_server.missing())
        own = jack_server.JackServer().start()
        env = own.child_env()
        extra = ("--device", "jack")      # PortAudio's JACK host API
    try:
        # jackd is sent SIGTERM: a SIGKILLed one leaves its entry in JACK's shared
        # registry of 8 servers, and after 8 of them no JACK server starts on the machine
        sig = signal.SIGKILL if server == "pulseaudio" else signal.SIGTERM
        code, err, seconds = _kill_and_wait(_killed_mid_play(env, extra), own, sig)
    finally:
        own.stop()
    print(f"\n{server} killed after stroke 3: exit {code} {seconds:.2f} s later: {err.strip()}")
    lines = err.strip().splitlines()
    assert code == 1, err                         # not 0, not a signal, not an assertion
    assert lines == ["guji: the sound output stopped after stroke 3 of 12"]
    assert seconds <= 2.0


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_jack_killed_mid_midi_play_is_one_line_and_a_failure(verbose):
    """MIDI-only ``guji play`` on a JACK port whose server is stopped after stroke 3:
    it says so in words and exits 1 within two seconds (it played on to its end
    and exited 0 before: rtmidi's JACK output says nothing when its server goes);
    libjack's own lines ("JackSocketClientChannel read fail") only with --verbose."""
    need(jack_server.missing())
    own = jack_server.JackServer().start()
    receiver = Receiver("gujigone")          # left open: its server is gone
    try:
        p = subprocess.Popen(runner.command(["play", "lu", "--interval", "0.3", "--midi-out",
                                             "gujigone", "--no-audio", "--json",
                                             *(["--verbose"] if verbose else [])]),
                             env=own.child_env(), cwd=OUTSIDE, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # SIGTERM, not SIGKILL: see test_a_server_killed_mid_play_is_one_line_and_a_failure
        code, err, seconds = _kill_and_wait(p, own, signal.SIGTERM)
    finally:
        receiver.stop_taking()
        own.stop()
    print(f"\nJACK stopped after stroke 3 of MIDI-only play: exit {code} {seconds:.2f} s later")
    lines = err.strip().splitlines()
    assert code == 1, err
    assert lines[-1] == "guji: the MIDI port stopped after stroke 3 of 12", err
    if verbose:
        assert all(line.startswith("guji: the sound system said: ") for line in lines[:-1]), err
        assert any("JACK server shut down" in line for line in lines), err
    else:
        assert lines == ["guji: the MIDI port stopped after stroke 3 of 12"], err
    assert seconds <= 2.0
    assert len(receiver.notes_on()) <= 4          # nothing was played on after the stop


@pytest.mark.parametrize("command", ["compare", "demo"])
@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_compare_and_demo_say_a_killed_server_in_play_s_words(command, verbose):
    """``compare`` and ``demo`` play as ``play`` does: a server killed mid-play is
    one line in words, exit 1; PortAudio's and ALSA's own lines (``Expression
    'alsa_snd_pcm_…' failed in 'src/hostapi/alsa/pa_linux_alsa.c'``, which got
    through before) only with --verbose."""
    need(pulse.missing())
    own = pulse.PulseSink("gujikill2").start()
    args = (["compare", "lu", "xue", "--interval", "0.3"] if command == "compare"
            else ["demo", "--interval", "0.3"])
    p = subprocess.Popen(runner.command([*args, *(["--verbose"] if verbose else [])]),
                         env=own.child_env(), cwd=OUTSIDE, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = []
        while sum(" 鼙 " in line or " 鼓 " in line for line in seen) < 3:
            line = p.stderr.readline()
            assert line, seen
            seen.append(line)
        own.proc.kill()
        try:
            err = p.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            pytest.fail(f"guji {command} hung after its sound server was killed")
    finally:
        own.stop()
    words = [line for line in err.splitlines() if line.startswith("guji: ")]
    print(f"\n{command} {'--verbose ' if verbose else ''}killed: exit {p.returncode}: {words}")
    assert p.returncode == 1, err
    assert any(w.startswith("guji: the sound output stopped after stroke ") for w in words), err
    raw = [line for line in err.splitlines()
           if "Expression" in line or "pa_linux_alsa" in line or "snd_pcm" in line]
    if verbose:
        assert all(line.startswith("guji: the sound system said: ") for line in raw), err
    else:
        assert raw == [], err
    # no line but the display's and guji's own words
    assert all(line.startswith("guji: ") or " 鼙 " in line or " 鼓 " in line or not line.strip()
               or line.startswith(("compare ", "魯鼓", "薛鼓"))
               for line in err.splitlines()), err


def test_the_raw_words_of_the_sound_system_with_verbose(sink):
    own = pulse.PulseSink("gujiverbose").start()
    try:
        code, err, _ = _kill_and_wait(_killed_mid_play(own.child_env(), ("--verbose",)), own)
    finally:
        own.stop()
    assert code == 1
    lines = err.strip().splitlines()
    assert "guji: the sound output stopped after stroke 3 of 12" in lines
    assert any(x.startswith("guji: the sound system said: ") for x in lines), err


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_play_within_half_a_second(sink, sig, code):
    p = _killed_mid_play(sink.child_env())
    for _ in range(3):
        assert p.stdout.readline(), p.stderr.read()
    sent = time.monotonic()
    p.send_signal(sig)
    _, err = p.communicate(timeout=10)
    seconds = time.monotonic() - sent
    print(f"\n{signal.Signals(sig).name}: exit {p.returncode} after {seconds:.3f} s")
    assert p.returncode == code and len(err.strip().splitlines()) == 1, err
    assert seconds <= 0.5


NO_NUMPY = r"""
import sys
from guji.cli.main import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "soundfile", "sounddevice")
                or m in ("guji.sound.mixer", "guji.sound.feed"))
print("loaded:", loaded, file=sys.stderr)
raise SystemExit(code)
"""


def test_midi_only_play_loads_no_numpy(jack):
    def attempt():
        r, receiver = _received(jack, "gujinonumpy", len(LU), [
            sys.executable, "-c", NO_NUMPY, "play", "lu", "--interval", "0.05",
            "--midi-out", "gujinonumpy", "--no-audio", "--json"])
        assert r.returncode == 0, r.stderr
        late = late_only(r.stderr, expected="loaded: []")       # nothing of numpy's was loaded
        assert len(r.stdout.splitlines()) == len(LU)
        if late is not None:
            return None, f"guji said {late!r}"
        if len(receiver.notes_on()) != len(LU):
            return None, f"{len(receiver.notes_on())} of {len(LU)} notes came"
        return r, None

    until_on_time(jack, attempt)


def test_the_library_plays_with_midi_out(jack):
    """``guji.play(performance, audio=False, midi_out=PORT)``: the transport is a library call."""
    import guji
    want = [62 if g == "○" else 76 for g in LU]

    def attempt():
        receiver = Receiver("gujilib")
        heard = []
        try:
            perf = guji.lay_out([load("lu")], guji.Timing(interval=0.05)).muting("鼓", ghost=True)
            report = guji.play(perf, audio=False, midi_out="gujilib", on_stroke=heard.append)
            receiver.wait_for_notes(len(LU))
        finally:
            receiver.close()
        assert report.sent == 2 * len(LU) and not report.quit
        assert [o.number for o in heard] == list(range(len(LU)))
        keys = [m[1] for _, m in receiver.notes_on()]
        return (keys, None) if keys == want else (None, f"{len(keys)} of {len(want)} notes came")

    assert until_on_time(jack, attempt) == want

"""``guji play … --check`` on a real stream both ways: a private PulseAudio null sink.

The sink is the room: guji plays its count-in to it, and its input is the
same sink's monitor (PulseAudio records a sink named as a source from its
monitor), so guji's microphone hears its own clicks, as a microphone in a
room hears the loudspeaker. The drummer is this test: a seeded performance
of 魯鼓 (tests/practice_set.py: jitter, one wrong drum, one missing stroke,
one extra hit; its truth known) played into the sink with ``paplay``, started
when guji says its first click is heard. ``parec`` records the monitor at
the same time, and ``guji check`` of that recording is the reference.

Tolerances: the two reports are of the same sound captured twice (guji's
float32 through ALSA's pulse plugin, parec's s16), each anchored on its first
click: per stroke the same kind, deviations within 1 ms (sample-accurate
onsets on both; 1 ms is the int16 capture's margin, seen ≤ 0.1 ms). Against
the truth: the seeded mistakes at their strokes, and the deviations equal to
the truth's plus one constant (when this test's ``paplay`` actually started:
not guji's, not the same each run) within 2 ms (median; the issue's figure).
That constant must stay within ±150 ms for the strokes to fall on their grid
steps at 0.6 s; a run where this test's own player started later (a loaded
machine), or where guji said its sound was disturbed downstream (gaps,
underruns: its clicks then are not on the grid), is made again, at most
:data:`TRIES` times.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import soundfile as sf

import practice_set
from live import pulse
from runner import environment
from tools import need
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite

INTERVAL = 0.6
COUNT_IN = 4
TRIES = 4
#: guji's output buffer in these tests: twice the default, so a loaded machine's
#: PulseAudio starves it less often (what is tested is the check, not the latency)
LATENCY = "0.4"
OPTIONS = ["lu", "--count-in", str(COUNT_IN), "--bpm", "100"]
GUJI = [sys.executable, "-m", "guji"]


@pytest.fixture(scope="module")
def room(pulseaudio):
    try:
        import sounddevice  # noqa: F401
    except OSError as e:
        need(f"{e}: apt-get install libportaudio2")
    s = pulse.PulseSink("gujiroom").start()
    yield s
    s.stop()


def _performance(tmp_path):
    x, truth = practice_set.perform(load("lu"), seed=27, jitter=0.015, wrong=1, missing=1,
                                    extra=1, interval=INTERVAL, rite=Rite.TOUHU)
    path = tmp_path / "drummer.wav"
    sf.write(path, (0.5 * x).astype(np.float32), 48000, subtype="FLOAT")
    return path, truth


def _default_input(room) -> str:
    """The name ``guji devices --input --json`` marks default (the room's monitor)."""
    p = subprocess.run(GUJI + ["devices", "--input", "--json"], env=room.child_env(environment()),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    (default,) = [d for d in json.loads(p.stdout) if d["default"]]
    return default["name"]


def _play_along(room, tmp_path, drummer, *, drums=None, env=None, name=None):
    """``guji play --check --json --input NAME`` with the drummer started on the first
    click heard (into the sink *drums*, default the room): (guji's exit status, its
    JSON lines, its stderr, the recording of the drummer's sink's monitor)."""
    env = env or room.child_env(environment())
    drums = drums or room
    rec = drums.record(tmp_path / "drums.wav")
    rec.wait_for_audio()
    p = subprocess.Popen(GUJI + ["play", *OPTIONS, "--check", "--json", "--latency", LATENCY,
                                 "--input", name or _default_input(room)], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
    reader.start()
    lines = [p.stdout.readline()]
    heard = time.monotonic()
    # the performance's first stroke LEAD seconds in: due COUNT_IN intervals after the click
    wait = COUNT_IN * INTERVAL - practice_set.LEAD - (time.monotonic() - heard)
    threading.Event().wait(max(0.0, wait))
    player = subprocess.Popen(["paplay", str(drummer)], env=drums.child_env(environment()))
    lines += p.stdout.readlines()
    code = p.wait(60)
    player.wait(30)
    reader.join(10)
    threading.Event().wait(0.2)
    rec.stop()
    return code, [json.loads(line) for line in lines if line.strip()], "".join(err), rec


def _disturbed(err: str) -> bool:
    """guji said its sound was disturbed downstream (a gap, an underrun: a loaded
    machine's PulseAudio), so its clicks were not on the grid: such a try shows
    nothing of --check, and another is made (as tests/test_live.py's GRID_TRIES)."""
    return "guji: playback:" in err


def _offset(report, truth) -> float:
    """Median of (reported − true deviation) over the strokes played: the
    drummer's (this test's paplay's) start against guji's grid."""
    diffs = _against_truth(report, truth)
    return float(np.median(diffs)) if diffs else float("inf")


def _against_truth(report, truth) -> list[float]:
    expected = truth.expected_times
    out = []
    strokes = [r for r in report["strokes"] if r["kind"] != "extra"]
    for row, (kind, t) in zip(strokes, truth.strokes):
        if t is None or row["deviation_ms"] is None:
            continue
        true_ms = (t - practice_set.LEAD - expected[row["stroke"]]) * 1000
        out.append(row["deviation_ms"] - true_ms)
    return out


def _undisturbed(truth, play):
    """(lines, stderr, recording, the drummer's offset in ms) of the first try of
    *play* (one :func:`_play_along`) whose offset keeps the strokes on their grid
    steps (±150 ms) and whose sound guji did not find disturbed; at most
    :data:`TRIES` tries, else the test fails."""
    for attempt in range(TRIES):
        code, lines, err, rec = play()
        assert code == 0, err
        offset = _offset(lines[-1], truth)
        print(f"try {attempt + 1}: the drummer {offset:+.1f} ms against guji's grid; {err!r}")
        if abs(offset) < 150 and not _disturbed(err):
            return lines, err, rec, offset
    pytest.fail(f"no undisturbed try in {TRIES} ({offset:+.1f} ms, {err!r})")


def test_play_check_reports_what_check_reports_of_the_same_sound(room, tmp_path):
    drummer, truth = _performance(tmp_path)
    lines, err, rec, offset = _undisturbed(truth, lambda: _play_along(room, tmp_path, drummer))
    report = lines[-1]
    # a line for every click and every stroke (shown to keep the drummer's place,
    # though guji plays only the clicks: a drum of guji's would be an extra hit below)
    assert [line.get("drum") for line in lines[:COUNT_IN]] == ["click"] * COUNT_IN
    assert len(lines) - 1 == COUNT_IN + len(truth.strokes)
    checked = subprocess.run(GUJI + ["check", str(rec.path), *OPTIONS, "--json"],
                             env=environment(), capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    reference = json.loads(checked.stdout)
    kinds = [r["kind"] for r in report["strokes"]]
    assert kinds == [r["kind"] for r in reference["strokes"]], \
        (report["anchored"], report["anchor"], report["anchor_minus_clocks_ms"], reference["anchor"],
         [(r["kind"], r["played"]) for r in report["strokes"]], err)
    assert [r["kind"] for r in report["strokes"] if r["kind"] != "extra"] == \
        [k for k, _ in truth.strokes], "the seeded mistakes at their strokes"
    assert kinds.count("extra") == len(truth.extra) == 1
    for mine, theirs in zip(report["strokes"], reference["strokes"]):
        if mine["deviation_ms"] is not None:
            assert abs(mine["deviation_ms"] - theirs["deviation_ms"]) <= 1.0, (mine, theirs)
    for key in ("strokes", "right", "wrong_drum", "missing", "extra", "tempo"):
        assert report["summary"][key] == reference["summary"][key], key
    assert report["anchored"] == "first hit"       # the microphone heard the first click
    print(f"first click's anchor − the clocks' anchor: {report['anchor_minus_clocks_ms']} ms")
    spread = [abs(d - offset) for d in _against_truth(report, truth)]
    print(f"deviation against the truth after the offset: median {np.median(spread):.2f} ms, "
          f"max {max(spread):.2f} ms; against guji check: max "
          f"{max(abs(a['deviation_ms'] - b['deviation_ms']) for a, b in zip(report['strokes'], reference['strokes']) if a['deviation_ms'] is not None):.3f} ms")
    assert np.median(spread) <= 2.0


def test_play_check_refuses_what_it_cannot_check(tmp_path):
    for extra, word in ((["--loop", "--ramp", "60:100", "--repeat", "2"], "--loop"),
                        (["--no-audio", "--midi-out", "x"], "--no-audio"),
                        (["--mute", "鼓", "--ghost", "click"], "--ghost click")):
        p = subprocess.run(GUJI + ["play", "lu", "--check", *extra], env=environment(),
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        assert word in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    # 2000 passes of 7.2 s: 4 h to keep in memory, refused before any sound is made
    p = subprocess.run(GUJI + ["play", "lu", "--check", "--repeat", "2000"], env=environment(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "over its limit of 2 h" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    # a loop of a ramp (its passes at several tempi) is refused with or without --check
    p = subprocess.run(GUJI + ["play", "lu", "--loop", "--ramp", "60:100", "--repeat", "2"],
                       env=environment(), capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.strip().splitlines() == [
        "guji: --ramp plays its passes once, each at its tempo: leave out --loop"], p.stderr
    p = subprocess.run(GUJI + ["play", "lu", "--input", "mic"], env=environment(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--check" in p.stderr, p.stderr


def test_play_check_on_a_device_without_a_clock_is_one_line(tmp_path):
    """ALSA's null device (real PortAudio) takes and gives frames without a clock:
    there is nothing to check, said in one line, exit 2."""
    try:
        import sounddevice  # noqa: F401
    except OSError as e:
        need(f"{e}: apt-get install libportaudio2")
    conf = tmp_path / "asound.conf"
    conf.write_text("pcm.!default { type null }\n")
    p = subprocess.run(GUJI + ["play", "lu", "--check", "--quiet"],
                       env=environment(ALSA_CONFIG_PATH=str(conf), PULSE_SERVER="unix:/nonexistent"),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines() == [
        "guji: the sound input has no clock (a null device?): it heard nothing to check; "
        "choose a microphone with --input (see 'guji devices --input')"], p.stderr
    p = subprocess.run(GUJI + ["play", "lu", "--check", "--input", "no such microphone"],
                       env=environment(ALSA_CONFIG_PATH=str(conf), PULSE_SERVER="unix:/nonexistent"),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "guji: no sound input named 'no such microphone' (see 'guji devices --input')"], p.stderr


def test_the_capture_read_back_block_by_block_hears_what_the_file_holds(tmp_path):
    """What --check hears (its capture's blocks, of the sizes a device hands over,
    read back 30 s at a time) gives the very hits ``guji check`` finds in a file of
    the same samples: 72 s, so the detector's block edges (30 s, 0.1 s margins) fall
    mid-piece."""
    from guji.practice.transcribe import transcribe, transcribe_reader
    from guji.sound.capture import Capture

    x, _truth = practice_set.perform(load("lu"), seed=5, jitter=0.02, interval=INTERVAL,
                                     rite=Rite.TOUHU, repeat=10)
    x = x.astype(np.float32)
    capture = Capture(rate=48000, seconds=len(x) / 48000)

    class Status:
        input_overflow = False

    rng = np.random.default_rng(1)
    at = 0
    while at < len(x):
        n = int(rng.integers(64, 4096))
        block = np.stack([x[at:at + n], x[at:at + n]], axis=1)   # a stereo device
        capture._callback(block, len(block), None, Status())
        at += n
    assert capture.frames == len(x) and capture.dropped == 0
    sf.write(tmp_path / "same.wav", x, 48000, subtype="FLOAT")
    live = transcribe_reader(capture.reader(), "the input", 48000, capture.frames)
    filed = transcribe(tmp_path / "same.wav")
    assert len(live.hits) == len(filed.hits) >= 120
    assert live.hits == filed.hits


def _headphones(room, tmp_path):
    """A second null sink, "drums", in the room's server, and an ALSA
    configuration naming its monitor as an input PortAudio lists ("drums")."""
    import copy
    module = room.pactl("load-module", "module-null-sink", "sink_name=drums", "rate=48000",
                        "channels=2", "format=s16le", "norewinds=1").stdout.strip()
    drums = copy.copy(room)
    drums.name = "drums"
    env = room.child_env(environment())
    conf = tmp_path / "asound.conf"
    conf.write_text(open(env["ALSA_CONFIG_PATH"]).read() +
                    f'pcm.drums {{\n    type pulse\n    server "{room.server}"\n'
                    '    device "drums.monitor"\n'
                    '    hint { show on description "drums" }\n}\n')
    env["ALSA_CONFIG_PATH"] = str(conf)
    return drums, env, module


def test_on_headphones_play_check_keeps_time_by_the_clocks(room, tmp_path):
    """The microphone hears the drums only (guji's clicks go to another sink, as to
    headphones): the first hit is the first stroke, not the first click, so time is
    taken from the clocks of output and input. The report names the same strokes as
    ``guji check`` of the drums' recording (which anchors on that first stroke), its
    deviations that report's plus one constant — the drummer's start against guji's
    grid — which parec's stamps of the two sinks on this process's clock measure too:
    within 20 ms (0.3 ms apart idle; 0.7–6.2 ms beside two busy loops at load ~10,
    so 20 ms leaves a loaded machine room; parec's stamps are good to a millisecond)."""
    from guji.practice.transcribe import transcribe
    drummer, truth = _performance(tmp_path)
    drums, env, module = _headphones(room, tmp_path)
    try:
        _on_headphones(room, tmp_path, drummer, truth, drums, env)
    finally:
        room.pactl("unload-module", module, check=False)


def _on_headphones(room, tmp_path, drummer, truth, drums, env):
    from guji.practice.transcribe import transcribe
    assert "drums" in [d["name"] for d in json.loads(subprocess.run(
        GUJI + ["devices", "--input", "--json"], env=env, capture_output=True, text=True,
        timeout=60).stdout)]
    clicks = None

    def play():                     # guji's clicks recorded too, beside the drummer's input
        nonlocal clicks
        clicks = room.record(tmp_path / "clicks.wav")
        clicks.wait_for_audio()
        try:
            return _play_along(room, tmp_path, drummer, drums=drums, env=env, name="drums")
        finally:
            clicks.stop()

    lines, err, rec, offset = _undisturbed(truth, play)
    report = lines[-1]
    assert report["anchored"] == "clocks", report["anchored"]
    assert [r["kind"] for r in report["strokes"] if r["kind"] != "extra"] == \
        [k for k, _ in truth.strokes]
    checked = subprocess.run(GUJI + ["check", str(rec.path), "lu", "--bpm", "100", "--json"],
                             env=environment(), capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    reference = json.loads(checked.stdout)
    assert [r["kind"] for r in report["strokes"]] == [r["kind"] for r in reference["strokes"]]
    shift = [a["deviation_ms"] - b["deviation_ms"] for a, b in
             zip(report["strokes"], reference["strokes"]) if a["deviation_ms"] is not None]
    assert max(shift) - min(shift) <= 1.0, shift
    first_click = transcribe(clicks.path).hits[0].time + clicks.t0
    first_stroke = transcribe(rec.path).hits[0].time + rec.t0
    stamped = (first_stroke - first_click - COUNT_IN * INTERVAL) * 1000
    print(f"the drummer by the clocks {np.median(shift):+.2f} ms, by parec's stamps "
          f"{stamped:+.2f} ms")
    assert abs(np.median(shift) - stamped) <= 20.0

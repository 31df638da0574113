"""The live player's parts that need no sound card: the ring of blocks, the
output clock, the report, and the catching of C libraries' messages.

The player itself (and the MIDI sender) is tested on a real clock in test_live.py (PulseAudio, JACK)
and on ALSA's null device in test_play.py.
"""

from __future__ import annotations

import ctypes
import io
import os
import re
import time

import numpy as np
import pytest

from guji.cli.live import JsonLines, report_lines
from guji.library_messages import AlsaMessages, StderrCapture
from guji.sound.clock import CLOCK_WINDOW, JUMP, OutputClock
from guji.sound.feed import soundings
from guji.sound.report import PlayReport
from guji.sound.ring import BlockRing, Scheduled
from guji.text.reading.editions import load
from guji.timing.performance import as_performance
from guji.timing.score import Score


def ring_of(lengths, events, ahead=10_000):
    """A started ring of blocks numbered sample by sample (block k holds k·1000 + i)."""
    blocks = [np.arange(n, dtype=np.float32)[:, None] + 1000 * k for k, n in enumerate(lengths)]
    ring = BlockRing(blocks, [Scheduled(f, p) for f, p in events], channels=1, ahead=ahead)
    ring.start()
    ring.wait_for(sum(lengths) + 1)
    return ring


def test_the_ring_copies_frames_and_says_on_which_output_frame_each_event_went():
    ring = ring_of([5, 3, 4], [(0, "a"), (4, "b"), (5, "c"), (9, "d")])
    announced = []
    out = np.zeros((4, 1), dtype=np.float32)
    assert ring.read(out, 4, 100, lambda f, p: announced.append((f, p))) == (4, False)
    assert out[:, 0].tolist() == [0, 1, 2, 3]
    assert announced == [(100, "a")]
    out = np.zeros((6, 1), dtype=np.float32)
    assert ring.read(out, 6, 104, lambda f, p: announced.append((f, p))) == (6, False)
    assert out[:, 0].tolist() == [4, 1000, 1001, 1002, 2000, 2001]
    assert announced[1:] == [(104, "b"), (105, "c"), (109, "d")]
    out = np.zeros((5, 1), dtype=np.float32)
    filled, ended = ring.read(out, 5, 110, lambda f, p: announced.append((f, p)))
    assert (filled, ended) == (2, True) and out[:2, 0].tolist() == [2002, 2003]
    assert ring.read(out, 5, 112, lambda f, p: None) == (0, True)    # the end stays the end
    ring.stop()


def test_skipping_to_the_next_event_resumes_on_a_stroke():
    ring = ring_of([6, 6], [(2, "a"), (9, "b")])
    out = np.zeros((3, 1), dtype=np.float32)
    ring.read(out, 3, 0, lambda f, p: None)                 # frames 0-2, "a" announced
    assert ring.skip_to_event() == (True, False)            # frames 3-8 dropped
    got = []
    out = np.zeros((2, 1), dtype=np.float32)
    ring.read(out, 2, 3, lambda f, p: got.append((f, p)))
    assert out[:, 0].tolist() == [1003, 1004] and got == [(3, "b")]
    assert ring.skip_to_event() == (False, True)            # no event left: the end
    ring.stop()


def test_a_renderer_error_is_kept_for_the_player():
    def broken():
        yield np.zeros((4, 1), dtype=np.float32)
        raise ValueError("renderer failed")
    ring = BlockRing(broken(), [], channels=1, ahead=100)
    ring.start()
    ring.wait_for(10)
    ring.stop()
    assert isinstance(ring.error, ValueError)


def test_the_clock_takes_the_median_and_counts_a_real_jump():
    clock = OutputClock(1000, offset=10.0, settle=0.0)
    # PortAudio time t ↔ monotonic t + 10; each buffer of 100 frames heard 0.05 s on
    for k in range(CLOCK_WINDOW):
        noise = 0.004 if k == 3 else 0.0                    # one late report: outvoted
        clock.update(1.05 + k * 0.1 + noise, 1.0 + k * 0.1, k * 100, 11.0 + k * 0.1)
    assert clock.heard(0) == pytest.approx(11.05)
    assert clock.heard(500) == pytest.approx(11.55)
    assert clock.jumps == 0
    # silence inserted downstream: every report 30 ms later from now on
    for k in range(CLOCK_WINDOW, 2 * CLOCK_WINDOW):
        clock.update(1.08 + k * 0.1, 1.0 + k * 0.1, k * 100, 11.0 + k * 0.1)
    assert clock.heard(0) == pytest.approx(11.08)
    assert clock.jumps == 1 and clock.jumped == pytest.approx(0.03) and clock.jumped > JUMP


def test_a_stream_that_starts_late_is_not_a_gap():
    """PulseAudio's start-up as measured on a desktop's idle sink: PortAudio fills
    the 0.2-s buffer with five 50-ms blocks at once (their DAC times assume the
    device plays at once), then nothing comes for 0.93 s, then the blocks come
    paced and every frame is heard 0.93 s later than the first reports said. A
    recording of the sink's monitor has every stroke on the grid: no gap."""
    rate, block = 1000, 50
    clock = OutputClock(rate, offset=0.0, settle=0.45, buffer=0.2)
    for k in range(5):                                   # the buffer filled at t = 0
        clock.update(k * 0.05, 0.0, k * block, 0.0001 * k, block)
        assert not clock.running
    late = 0.93
    for k in range(5, 40):                               # then paced, from t = 0.93
        now = late + (k - 5) * 0.05
        clock.update(now + 0.25, now, k * block, now, block)
        assert clock.running
        assert clock.heard(0) == pytest.approx(late)     # at once, not after a median's lag
    assert clock.jumps == 0
    # and silence inserted later, once running and settled, is a gap
    for k in range(40, 40 + CLOCK_WINDOW):
        now = late + (k - 5) * 0.05
        clock.update(now + 0.25 + 0.04, now, k * block, now, block)
    assert clock.jumps == 1 and clock.jumped == pytest.approx(0.04)


def test_a_clock_fed_faster_than_real_time_still_runs():
    """ALSA's null device takes blocks as fast as they come: the clock runs once
    more than the buffer and a block were taken (an announcer waiting for it
    would otherwise wait for ever)."""
    clock = OutputClock(1000, buffer=0.2)
    for k in range(6):
        clock.update(0.0, 0.0, k * 50, 0.0, 50)
        assert not clock.running                         # the buffer, and one block
    clock.update(0.0, 0.0, 6 * 50, 0.0, 50)
    assert clock.running


def test_a_clock_without_dac_times_uses_the_callbacks_arrival():
    clock = OutputClock(1000)
    clock.update(0.0, 0.0, 200, now=5.0)
    assert clock.heard(200) == pytest.approx(5.0)


def test_the_report_says_what_went_wrong_in_one_line():
    assert PlayReport(latency=0.2).summary() == "latency 200 ms: no underrun"
    bad = PlayReport(latency=0.2, underflows=2, jumps=1, jumped=0.25, starved=1,
                     starved_frames=2400,
                     alsa_messages=("pcm.c:8570 snd_pcm_recover: underrun occurred",) * 2)
    assert bad.troubled
    assert bad.summary() == ("latency 200 ms: 2 underruns, 1 gap downstream (250 ms), 1 late "
                             "block (2400 frames of silence), ALSA said underrun occurred ×2; "
                             "a larger --latency may help")
    null = PlayReport(latency=0.2, starved=900, clockless=True)
    assert not null.troubled and "without a clock" in null.summary()
    assert report_lines(PlayReport(latency=0.2), []) == []
    lines = report_lines(bad, ["", "Expression 'ret' failed in 'pa_linux_alsa.c'", "x"])
    assert lines[0].startswith("guji: playback: latency 200 ms: 2 underruns")
    assert lines[1] == ("guji: the sound system said 2 thing(s) while playing: Expression "
                        "'ret' failed in 'pa_linux_alsa.c' (and 1 more)")


def test_alsa_messages_are_caught_not_printed(capfd):
    lib = pytest.importorskip("ctypes.util").find_library("asound")
    if lib is None:
        pytest.skip("no libasound")
    asound = ctypes.CDLL("libasound.so.2")
    pcm = ctypes.c_void_p()
    with AlsaMessages() as alsa:
        assert alsa.active
        # a real error of alsa-lib: a device nobody defined
        assert asound.snd_pcm_open(ctypes.byref(pcm), b"guji_no_such_pcm", 0, 0) < 0
    assert any("guji_no_such_pcm" in m for m in alsa.messages), alsa.messages
    assert "ALSA lib" not in capfd.readouterr().err
    asound.snd_pcm_open(ctypes.byref(pcm), b"guji_no_such_pcm", 0, 0)   # handler gone
    assert "guji_no_such_pcm" in capfd.readouterr().err


def test_what_c_code_writes_to_descriptor_2_is_caught(capfd):
    with StderrCapture() as caught:
        os.write(2, b"ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred\nsecond")
        print("python's own stderr still shows", file=__import__("sys").stderr)
    assert caught.lines == ["ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred",
                            "second"]
    err = capfd.readouterr().err
    assert "python's own stderr still shows" in err and "underrun" not in err


def test_json_lines_are_the_issue_s_fields():
    out = io.StringIO()
    lines = JsonLines(out)
    for s in soundings(as_performance(Score(load("lu"), interval=0.5, count_in=1))):
        lines.show(s)
    import json
    rows = [json.loads(x) for x in out.getvalue().splitlines()]
    assert rows[0] == {"index": 0, "stroke": None, "drum": "click", "time": 0.0,
                       "part": "魯鼓 1 liji-zhengyi", "pass": None, "position": 1, "loop": 1}
    assert rows[1]["stroke"] == "○" and rows[1]["drum"] == "鼙" and rows[1]["time"] == 0.5
    assert [r["index"] for r in rows] == list(range(13))


class HeldPort:
    """A MIDI port whose *held*-th send takes *seconds* (a port held up: a
    driver's full buffer), recording what it was sent."""

    info = None

    def __init__(self, held: int, seconds: float):
        self.held, self.seconds = held, seconds
        self.sent: list = []

    def send(self, message) -> None:
        if len(self.sent) == self.held:
            time.sleep(self.seconds)
        self.sent.append(message)

    def silence(self) -> None:
        pass


def test_a_midi_message_sent_late_is_reported_in_one_line():
    """The MIDI sender measures each message against its time on the
    monotonic clock: a port held up 40 ms makes that message 40 ms late, the
    report troubled, and ``guji play`` says it in one line. Real time is the
    behaviour (the hold is measured, not assumed)."""
    import mido
    from guji.midi.events import TimedMessage
    from guji.midi.sender import LATE, MidiPlayer
    notes = [TimedMessage(k * 0.01, mido.Message("note_on", channel=9, note=62, velocity=80))
             for k in range(6)]
    port = HeldPort(held=2, seconds=2 * LATE)
    player = MidiPlayer(port, notes)
    player.start()
    assert player.wait(10)
    report = player.close()
    assert len(port.sent) == report.sent == 6
    assert report.troubled and report.max_late >= 2 * LATE
    assert re.fullmatch(r"6 MIDI messages, the latest \d+\.\d ms after its time( \(not real-time\))?",
                        report.summary())
    assert report_lines(report, []) == [f"guji: playback: {report.summary()}"]

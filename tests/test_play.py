"""Playback: real PortAudio streams on ALSA's null device, the stroke display,
and the messages when PortAudio or a device is missing.

ALSA's null device takes audio as fast as it is given, with no clock: these
tests check what is played and shown, not when (the player's report says
"a device without a clock"). Timing is checked on a real clock in
test_live.py (a PulseAudio null sink, recorded).

ALSA reads its configuration once per process, before sounddevice opens
PortAudio, so every test that plays runs guji in a subprocess whose
``ALSA_CONFIG_PATH`` names a configuration written here: the null device
(takes audio, faster than real time) or no device at all. Only the missing
PortAudio library, which cannot be uninstalled for a test, is simulated.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import io
import itertools
import json
import os
import resource
import signal
import subprocess
import sys
from functools import partial
import tempfile
import textwrap

import pytest

from guji.cli.main import main
from guji.errors import display_width
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.cli.display import (CLEAR_LINE, NORMAL, PAUSED, REVERSE, StrokeDisplay, format_stroke,
                              source_excerpt)
from guji.sound.feed import soundings
from guji.timing.score import Score
from guji.timing.performance import Part, as_performance
from guji.errors import display_width

import runner
import tools

NO_DEVICE_ALSA = "pcm.!default { type hw card 31 }\n"


def _env(path) -> dict:
    env = dict(os.environ)
    env["ALSA_CONFIG_PATH"] = str(path)
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.fixture(scope="module")
def null_audio(null_alsa):
    """Environment for a subprocess whose default ALSA output is the null device."""
    return _env(null_alsa)


@pytest.fixture(scope="module")
def no_audio(tmp_path_factory):
    """Environment for a subprocess that sees no audio output device."""
    path = tmp_path_factory.mktemp("alsa") / "none.conf"
    path.write_text(NO_DEVICE_ALSA)
    return _env(path)


#: Subprocesses run outside the checkout, so they import the installed guji
#: (``python -m`` and ``-c`` put the working directory first on sys.path).
OUTSIDE = tempfile.gettempdir()
#: ``guji ARGS…`` (tests/runner.py) from there, its output as text; ALSA's plugins (PulseAudio's,
#: JACK's) reserve more address space than the runner's usual bound
guji = partial(runner.guji, cwd=OUTSIDE, text=True, timeout=120,
               memory_bytes=resource.RLIM_INFINITY)




# -- real playback on the null device -------------------------------------------------

def test_play_streams_every_stroke_and_shows_it(null_audio):
    r = guji(["play", "lu", "--interval", "0.1", "--count-in", "2"], env=null_audio)
    assert r.returncode == 0, r.stderr
    lines = tools.without_honest_reports(r.stderr).splitlines()   # an underrun under load is said
    assert lines[:2] == ["魯鼓 1 liji-zhengyi  count-in 1/2", "魯鼓 1 liji-zhengyi  count-in 2/2"]
    strokes = lines[2:]
    half = load("lu").notation(Rite.TOUHU)
    assert len(strokes) == len(half)
    for k, (line, glyph) in enumerate(zip(strokes, half)):
        assert f"  {k + 1}/{len(half)} " in line
        assert f"[{glyph}]" in line and "\x1b" not in line     # plain text: not a terminal
    # the glyph marked is the stroke's own place in the source line
    assert strokes[3].endswith("半，○□○[□]○○○□□○□○。")


def test_play_several_patterns_in_mono_at_another_rate(null_audio):
    r = guji(["play", "lu:2", "xue:2", "--interval", "0.05", "--gap", "0",
              "--channels", "1", "--rate", "44100", "--quiet"], env=null_audio)
    assert r.returncode == 0, r.stderr
    assert tools.without_honest_reports(r.stderr) == ""     # an underrun under load is said


def test_the_stroke_display_speaks_the_users_language(null_audio):
    r = guji(["--lang", "zh-Hant", "play", "lu", "--interval", "0.1", "--count-in", "2"],
             env=null_audio)
    assert r.returncode == 0, r.stderr
    shown = [line for line in r.stderr.splitlines() if line.startswith("魯鼓 1 liji-zhengyi  ")]
    assert shown[:2] == ["魯鼓 1 liji-zhengyi  預備拍 1/2", "魯鼓 1 liji-zhengyi  預備拍 2/2"]
    strokes = shown[2:]
    assert len(strokes) == len(load("lu").notation(Rite.TOUHU))
    assert strokes[0].startswith("魯鼓 1 liji-zhengyi  第 1/1 遍  1/12 鼙  ")
    assert not any("pass" in line or "count-in" in line for line in shown)


def test_devices_in_chinese_keep_their_columns(null_audio):
    r = guji(["--lang", "zh-Hant", "devices"], env=null_audio)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines and all(line.endswith(" Hz）") and " 聲道，" in line for line in lines), lines
    # the （host API, channels, rate） column starts at one terminal column on every line
    assert len({display_width(line[:line.index("（")]) for line in lines}) == 1, lines


def test_devices_lists_the_null_default(null_audio):
    r = guji(["devices"], env=null_audio)
    assert r.returncode == 0, r.stderr
    assert any(line.startswith("*") and "default" in line for line in r.stdout.splitlines())
    r = guji(["devices", "--json"], env=null_audio)
    devices = json.loads(r.stdout)
    assert any(d["default"] and d["channels"] >= 2 for d in devices)


def test_play_on_a_device_named_on_the_command_line(null_audio):
    r = guji(["play", "lu", "--interval", "0.05", "--device", "default", "--quiet"], env=null_audio)
    assert r.returncode == 0, r.stderr
    r = guji(["play", "lu", "--device", "no-such-card"], env=null_audio)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "no sound output 'no-such-card' here" in r.stderr
    assert "guji devices" in r.stderr and "Traceback" not in r.stderr


def test_ctrl_c_closes_the_stream_first(null_audio):
    # a real stream, interrupted from inside play(): the stream is closed when
    # the KeyboardInterrupt comes out
    script = textwrap.dedent("""
        import io, sounddevice as sd
        opened = []
        class Recorded(sd.OutputStream):
            def __init__(self, *a, **k):
                super().__init__(*a, **k)
                opened.append(self)
        sd.OutputStream = Recorded
        from guji.text.reading.editions import load
        from guji.timing.score import Score
        from guji.sound.play import play
        from guji.cli.display import stroke_display
        class Interrupting(io.StringIO):
            def write(self, s):
                if opened and opened[0].active and self.tell() > 0:
                    raise KeyboardInterrupt
                return super().write(s)
        try:
            play(Score(load("lu"), repeat=1000), display=stroke_display(Interrupting()))
        except KeyboardInterrupt:
            print("interrupted", len(opened), opened[0].closed)
    """)
    r = subprocess.run([sys.executable, "-c", script], env=null_audio, capture_output=True,
                       text=True, timeout=120, cwd=OUTSIDE)
    assert r.stdout.strip() == "interrupted 1 True", r.stderr


def test_sigint_exits_130_after_closing(null_audio):
    proc = subprocess.Popen([sys.executable, "-m", "guji", "play", "lu", "--repeat", "10000"],
                            env=null_audio, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, cwd=OUTSIDE)
    try:
        first = proc.stderr.readline()          # the first stroke is showing: it is playing
        assert "1/12 鼙" in first
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert rest.rstrip().endswith("guji: interrupted") and "Traceback" not in rest


# -- no device, no PortAudio ---------------------------------------------------------------

def test_without_an_output_device_one_line_suggests_render(no_audio):
    r = guji(["play", "lu"], env=no_audio)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "no sound output here" in r.stderr and "guji render lu -o lu.wav" in r.stderr
    r = guji(["devices"], env=no_audio)
    assert r.returncode == 0 and "no sound output here" in r.stdout


def test_without_an_output_device_the_line_is_in_the_users_language(no_audio):
    for args in (["play", "lu"], ["devices"]):
        en = guji(args, env=no_audio)
        zh = guji(["--lang", "zh-Hant", *args], env=no_audio)
        assert zh.returncode == en.returncode
        said = (zh.stderr + zh.stdout).splitlines()
        assert len(said) == 1 and said[0].lstrip("guji：").startswith("此處無法出聲：找不到音效卡或音訊裝置")
        assert "；改寫成檔案：" in said[0] and "no sound" not in said[0], said


class _NoPortAudio(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``import sounddevice`` fail as it does without the PortAudio library."""

    def find_spec(self, name, path=None, target=None):
        if name == "sounddevice":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise OSError("PortAudio library not found")


@pytest.fixture
def without_portaudio(monkeypatch):
    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoPortAudio()] + sys.meta_path)


@pytest.mark.parametrize("argv", [["play", "lu"], ["devices"]])
def test_without_portaudio_one_line_says_what_to_install(without_portaudio, capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "PortAudio library not found" in err
    assert "apt-get install libportaudio2" in err and "guji render" in err


def test_the_rest_of_guji_works_without_portaudio(without_portaudio, tmp_path, capsys):
    assert main(["render", "lu", "-o", str(tmp_path / "lu.wav")]) == 0
    assert (tmp_path / "lu.wav").is_file()
    assert "sounddevice" not in sys.modules


# -- the display -------------------------------------------------------------------------------

class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_terminal_display_highlights_the_glyph_in_reverse_video():
    score = Score(load("xue:1"), Rite.SHE, 0.5)
    part = Part(score, "薛鼓")
    event = score.event(5)
    line = format_stroke(part, event, tty=True, width=80)
    assert line.startswith("薛鼓  pass 1/1  6/")
    marked = line[line.index(REVERSE) + len(REVERSE):line.index(NORMAL)]
    assert marked == event.stroke.raw
    # the source line, whole (it fits), the highlight on the stroke's own column
    source = dict(score.pattern.lines)[event.stroke.location.line]
    col = event.stroke.location.column - 1
    assert line.endswith(source[:col] + REVERSE + source[col] + NORMAL + source[col + 1:])
    assert format_stroke(part, event, tty=False, width=80).endswith(
        source[:col] + "[" + source[col] + "]" + source[col + 1:])


def test_long_source_lines_are_cut_around_the_glyph():
    pattern = load("lu:1@lijing-benyi")         # seed 000 is one very long line
    score = Score(pattern, Rite.SHE, 0.5)
    assert max(len(text) for _, text in pattern.lines) > 200
    for i in (0, 7, len(score) - 1):
        event = score.event(i)
        excerpt = source_excerpt(pattern, event, tty=False, width=40)
        assert display_width(excerpt) <= 40
        assert f"[{event.stroke.raw}]" in excerpt


def test_display_redraws_one_line_on_a_terminal_and_prints_lines_otherwise():
    score = Score(load("lu"), Rite.TOUHU, 0.5)
    heard = list(soundings(as_performance(score)))
    assert [s.event.index for s in heard] == list(range(len(score)))
    term = FakeTerminal()
    shown = StrokeDisplay(term)
    for sounding in heard:
        shown.show(sounding)
    shown.set_paused(True)
    shown.set_paused(True)               # paused already: not drawn again
    shown.set_paused(False)
    shown.close()
    out = term.getvalue()
    # one line, redrawn: every stroke, then the paused mark, then without it
    assert out.count("\r") == len(score) + 2 and out.count(REVERSE) == len(score) + 2
    assert out.count(PAUSED) == 1 and out.endswith(CLEAR_LINE + "\n") and out.count("\n") == 1
    pipe = io.StringIO()
    shown = StrokeDisplay(pipe)
    for sounding in heard:
        shown.show(sounding)
    shown.set_paused(True)
    shown.close()
    lines = pipe.getvalue().splitlines()
    assert len(lines) == len(score) + 1 and lines[-1] == "paused"
    assert "\x1b" not in pipe.getvalue()


def test_a_looping_display_says_the_pass():
    from guji.sound.feed import loop_soundings
    from guji.timing.loop import Loop
    loop = Loop(as_performance(Score(load("lu"), interval=0.5)))
    heard = list(itertools.islice(loop_soundings(loop), 30))
    pipe = io.StringIO()
    shown = StrokeDisplay(pipe, loop=True)
    for sounding in heard:
        shown.show(sounding)
    lines = pipe.getvalue().splitlines()
    assert lines[0].startswith("loop 1  魯鼓 1 liji-zhengyi  pass 1/1  1/12 鼙")
    assert lines[12].startswith("loop 2  魯鼓 1 liji-zhengyi  pass 1/1  1/12 鼙")
    assert lines[29].startswith("loop 3 ") and [s.number for s in heard] == list(range(30))


# -- the transport's options ----------------------------------------------------------------

@pytest.mark.parametrize("argv,says", [
    (["play", "lu", "--no-audio"], "--no-audio plays MIDI only: give --midi-out PORT too"),
    (["play", "lu", "--latency", "0"], "the latency must be 0.001–2 seconds"),
    (["play", "lu", "--latency", "soon"], "'soon' is not a number of seconds"),
])
def test_bad_transport_options_are_one_line(capsys, argv, says):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


def test_play_loop_json_on_the_null_device_until_interrupted(null_audio):
    proc = subprocess.Popen([sys.executable, "-m", "guji", "play", "lu:2", "--loop", "--json",
                             "--interval", "0.05", "--count-in", "1"], env=null_audio,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=OUTSIDE)
    try:
        rows = []
        for line in proc.stdout:
            rows.append(json.loads(line))
            if len(rows) == 1 + 3 * 13:
                proc.send_signal(signal.SIGINT)
                break
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err
    assert rows[0]["drum"] == "click" and rows[0]["loop"] == 1      # the count-in, once
    strokes = rows[1:]
    assert [r["loop"] for r in strokes] == [1] * 13 + [2] * 13 + [3] * 13
    half = load("lu:2").notation(Rite.TOUHU)
    assert "".join(r["stroke"] for r in strokes) == half * 3
    # on the grid across the seams: the count-in step, then one step each
    assert [r["time"] for r in rows] == pytest.approx([0.05 * i for i in range(len(rows))])


def test_a_failing_play_never_crashes_in_the_warm_up(null_audio):
    """The warm-up import of PortAudio is joined before guji ends: a play that
    fails at once (no such file) exits 2, every time (it crashed, exit 139,
    in 3 of 60 runs, importing PortAudio while the interpreter shut down)."""
    codes = [guji(["play", "lu@nonexist.txt"], env=null_audio).returncode for _ in range(12)]
    assert codes == [2] * 12

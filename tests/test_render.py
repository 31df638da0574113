"""The renderer and the audio files: exact onsets, headroom, pan, blocks, bytes, atomicity.

Every file test writes a real file and reads it back with soundfile.
"""

from __future__ import annotations

import dataclasses
import io
import math
import tracemalloc

import numpy as np
import pytest
import soundfile as sf
from hypothesis import given, settings, strategies as st

import guji.limits
from guji.cli.main import main
from guji.text.reading.editions import load
from guji.errors import UsageError
from guji.text.reading.notation import Drum, Rite
from guji.cli.progress import ProgressBar
from guji.sound.files import OGG_SERIAL, audio_format, ogg_crc, write_audio
from guji.sound.headroom import CEILING_DBFS, MARGIN_DB
from guji.sound.mixer import BLOCK_MEMORY, Mix, pan_gains, render_array, render_blocks
from guji.timing.score import Score
from guji.timing.performance import Cue, Part, Voice
from guji.sound.kit import default_kit, one_shot

CEILING = 10 ** (CEILING_DBFS / 20)
#: Every stroke the kit's own hit (``--strike exact``), for tests of one hit's sound.
EXACT = dataclasses.replace(default_kit(), strike="exact")


@pytest.fixture(scope="module")
def lu():
    return load("lu:1")


@pytest.fixture(scope="module")
def xue():
    return load("xue:1")


def onset_lag(signal: np.ndarray, template: np.ndarray, expected: int, search: int = 40,
              n: int = 480) -> int:
    """The lag, within ±search of *expected*, where the start of *template* (one
    stroke's render) best matches *signal*: normalised cross-correlation of the
    first differences over *n* samples (differencing brings out the attack over
    the low ring of earlier strokes)."""
    t = np.diff(template[:n + 1].astype(np.float64))
    d = np.diff(signal.astype(np.float64), prepend=0.0)
    best, best_lag = -2.0, None
    for lag in range(-search, search + 1):
        a = expected + lag
        if a < 0 or a + 1 + len(t) > len(signal):
            continue
        seg = d[a + 1:a + 1 + len(t)]
        score = float(np.dot(seg, t) / (np.linalg.norm(seg) * np.linalg.norm(t) + 1e-30))
        if score > best:
            best, best_lag = score, lag
    return best_lag


def peak_dbfs(x: np.ndarray) -> float:
    return 20 * math.log10(float(np.max(np.abs(x))))


# -- onsets ---------------------------------------------------------------------------

def test_every_onset_is_on_its_exact_sample_in_the_file(tmp_path, lu):
    rate = 44100
    score = Score(lu, Rite.SHE, interval=0.2337, count_in=3)    # 10306.17 samples apart
    path = write_audio(tmp_path / "lu.wav", score, rate=rate, channels=1, subtype="float")
    x, file_rate = sf.read(path, dtype="float64")
    assert file_rate == rate
    mix = Mix(score, rate=rate, channels=1)       # each stroke's own variant of its drum
    for event in score:
        expected = round(score.time(event.index) * rate)
        template = mix.sound_of(0, event.index)[:, 0]
        assert onset_lag(x, template, expected) == 0, event


def test_onsets_do_not_drift_in_a_very_long_piece(lu):
    rate = 44100
    score = Score(lu, Rite.TOUHU, interval=0.6123, repeat=10000)   # 20 hours
    mix = Mix(score, rate=rate, channels=1)
    index = len(score) - 7
    expected = round(score.time(index) * rate)
    # adding up rounded gaps would have drifted by now: the test can tell
    assert index * round(score.interval * rate) != expected
    block = np.concatenate(list(mix.blocks(4096, start=expected - 2000, stop=expected + 4000)))
    template = mix.sound_of(0, index)[:, 0]
    assert onset_lag(block[:, 0], template, 2000) == 0


def test_count_in_clicks_and_cues_have_their_own_voices_on_exact_samples(lu):
    rate = 48000
    score = Score(lu, Rite.TOUHU, interval=0.5, count_in=2, start=1.0)
    cue = Cue(0.123457, "mark")
    x = render_array(score, [cue], rate=rate, channels=1)[:, 0]
    kit = default_kit()
    assert onset_lag(x, one_shot(kit, Voice.CUE, rate), round(0.123457 * rate)) == 0
    click = one_shot(kit, Voice.CLICK, rate)
    for i in range(2):
        p = round(score.time(i) * rate)
        assert onset_lag(x, click, p) == 0
        # the click, not a drum, sounds there: the cue's ring is all else there is
        seg = x[p:p + len(click)] - render_array(Score(lu, Rite.TOUHU, 0.5, start=2.0), [cue],
                                                 rate=rate, channels=1)[p:p + len(click), 0]
        assert np.allclose(seg, click, atol=1e-6)


# -- the two drums, by measurement ---------------------------------------------------------

def test_big_drum_is_louder_and_rings_longer_than_small_drum(tmp_path, lu):
    rate = 48000
    score = Score(lu, Rite.SHE, interval=2.5)      # strokes far apart: no overlap
    path = write_audio(tmp_path / "lu.flac", score, rate=rate, channels=1, subtype="24")
    x, _ = sf.read(path, dtype="float64")

    def stroke(drum):
        event = next(e for e in score if e.drum is drum)
        p = round(event.time * rate)
        return x[p:p + int(2.4 * rate)]

    def level_db(seg):          # RMS of the first 200 ms
        return 10 * math.log10(np.mean(seg[: int(0.2 * rate)] ** 2))

    def decay_time(seg):        # seconds from the loudest 10 ms to 30 dB below it
        hop = rate // 100
        env = np.array([np.sqrt(np.mean(seg[i:i + hop] ** 2)) for i in range(0, len(seg) - hop, hop)])
        top = int(np.argmax(env))
        below = np.nonzero(env[top:] < env[top] * 10 ** (-30 / 20))[0]
        return (below[0] if len(below) else len(env) - top) * hop / rate

    small, big = stroke(Drum.SMALL), stroke(Drum.BIG)
    assert level_db(big) > level_db(small) + 6
    assert peak_dbfs(big) > peak_dbfs(small) + 3
    assert decay_time(big) > 3 * decay_time(small)
    assert decay_time(big) > 0.5 and decay_time(small) < 0.25


# -- headroom ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, subtype", [("dense.wav", "16"), ("dense24.wav", "24"),
                                           ("densef.wav", "float"), ("dense.flac", "16")])
def test_peak_is_at_most_minus_1_dbfs_under_dense_overlap(tmp_path, xue, name, subtype):
    score = Score(xue, Rite.SHE, interval=0.005, repeat=3)      # ~400 rings overlapping
    path = write_audio(tmp_path / name, score, subtype=subtype)
    x, _ = sf.read(path, dtype="float64")
    for ch in range(2):
        assert peak_dbfs(x[:, ch]) <= CEILING_DBFS
        # the exact peak is found, not a loose bound: the loudest sample is right at the aim
        assert peak_dbfs(x[:, ch]) > CEILING_DBFS - 0.05


@settings(max_examples=25, deadline=None)
@given(ids=st.lists(st.sampled_from(["lu:1", "xue:1", "lu:2", "xue:2@lijing-benyi"]),
                    min_size=1, max_size=2),
       intervals=st.lists(st.floats(0.005, 0.7), min_size=2, max_size=2),
       starts=st.lists(st.floats(0.0, 0.5), min_size=2, max_size=2),
       pans=st.lists(st.one_of(st.none(), st.floats(-1, 1)), min_size=2, max_size=2),
       rate=st.sampled_from([8000, 22050, 44100, 48000]),
       channels=st.sampled_from([1, 2]), count_in=st.integers(0, 2),
       rite=st.sampled_from(list(Rite)))
def test_the_peak_found_in_advance_is_the_exact_peak(ids, intervals, starts, pans, rate,
                                                     channels, count_in, rite):
    parts = [Part(Score(load(i), rite, intervals[k], repeat=2, count_in=count_in,
                        start=starts[k]), i, pan=pans[k]) for k, i in enumerate(ids)]
    mix = Mix(parts, [Cue(starts[0] + 0.01)], rate=rate, channels=channels)
    x = mix.array()
    aim = 10 ** ((CEILING_DBFS - MARGIN_DB) / 20)
    for ch in range(channels):
        peak = float(np.max(np.abs(x[:, ch])))
        assert peak <= CEILING
        if mix.gains[ch] == 1.0:
            assert peak == mix.peaks[ch]           # found without rendering the whole piece
        else:
            assert peak == pytest.approx(aim, rel=1e-5)


def test_peak_limit_holds_in_mono_and_for_a_loud_kit_at_ordinary_tempo(lu):
    kit = default_kit()
    loud = kit.with_voice(Voice.BIG, kit.big.replace(level=0.0))
    x = render_array(Score(lu, Rite.SHE, 0.6, repeat=2), kit=loud, channels=1)
    assert CEILING_DBFS - 0.05 < peak_dbfs(x) <= CEILING_DBFS


def test_ordinary_tempo_is_not_turned_down(lu):
    mix = Mix(Score(lu, Rite.SHE, 0.6, repeat=3), channels=1)
    assert mix.gains == (1.0,)
    # far apart, the peak is the louder drum's own level (鼓, -4 dBFS)
    x = render_array(Score(lu, Rite.TOUHU, 3.0), channels=1, kit=EXACT)
    assert peak_dbfs(x) == pytest.approx(default_kit().big.level, abs=1e-4)


def test_a_channel_does_not_change_when_a_part_is_added_in_the_other(lu, xue):
    a = Score(lu, Rite.SHE, interval=0.01, repeat=4)       # both dense: both turned down,
    b = Score(xue, Rite.SHE, interval=0.007, repeat=4)     # by different gains
    stereo = render_array([Part(a, "A", pan=-1.0), Part(b, "B", pan=1.0)], channels=2, kit=EXACT)
    mono_a = render_array(Part(a, "A"), channels=1, kit=EXACT)[:, 0]   # the same parts
    mono_b = render_array(Part(b, "B"), channels=1, kit=EXACT)[:, 0]
    mix = Mix([Part(a, "A", pan=-1.0), Part(b, "B", pan=1.0)], kit=EXACT)
    varied = [render_array(Part(a, "A", pan=-1.0), channels=2), render_array(Part(a, "A"), channels=1)]
    assert np.array_equal(varied[0][:, 0], varied[1][:, 0])            # the same strokes too
    assert mix.gains[0] < 1 and mix.gains[1] < 1 and mix.gains[0] != mix.gains[1]
    n = max(len(mono_a), len(mono_b))
    assert len(stereo) == n
    assert np.array_equal(stereo[:len(mono_a), 0], mono_a)
    assert not np.any(stereo[len(mono_a):, 0])
    assert np.array_equal(stereo[:len(mono_b), 1], mono_b)


# -- pan ------------------------------------------------------------------------------------

def test_pan_law():
    assert pan_gains(-1.0) == (1.0, 0.0)
    assert pan_gains(1.0) == (0.0, 1.0)
    left, right = pan_gains(0.0)
    assert left == right == pytest.approx(math.sqrt(0.5))
    for p in np.linspace(-1, 1, 11):
        l, r = pan_gains(p)
        assert l * l + r * r == pytest.approx(1.0)
    with pytest.raises(UsageError):
        pan_gains(1.5)


def test_each_drum_has_its_kit_pan_and_a_part_pan_overrides_it(lu):
    kit = EXACT
    score = Score(lu, Rite.TOUHU, interval=3.0)        # ○ at 0 s, □ at 3 s: no overlap
    x = render_array(score, channels=2, rate=48000, kit=kit)
    for event in list(score)[:2]:
        p = round(event.time * 48000)
        seg = x[p:p + 2000]
        voice = Voice.of(event.drum)
        l, r = pan_gains(kit[voice].pan)
        shot = one_shot(kit, voice, 48000)[:2000]
        assert np.allclose(seg[:, 0], shot * np.float32(l), atol=1e-7)
        assert np.allclose(seg[:, 1], shot * np.float32(r), atol=1e-7)
    y = render_array(Part(score, "x", pan=0.0), channels=2)
    assert np.array_equal(y[:, 0], y[:, 1])


# -- blocks and memory ---------------------------------------------------------------------

def test_output_does_not_depend_on_block_size(lu, xue):
    parts = [Part(Score(lu, Rite.TOUHU, 0.011, count_in=2), "a"),
             Part(Score(xue, Rite.TOUHU, 0.013, start=0.05), "b", pan=0.4)]
    cues = [Cue(0.02), Cue(0.3, pan=-0.5)]
    whole = render_array(parts, cues, block_frames=65536)
    for size in (13, 1000, 4096):
        assert np.array_equal(render_array(parts, cues, block_frames=size), whole)
    blocks = list(render_blocks(parts, cues, block_frames=1000))
    assert all(b.shape == (1000, 2) and b.dtype == np.float32 for b in blocks[:-1])


def _traced_peak(make) -> int:
    tracemalloc.start()
    try:
        make()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_however_long_the_piece(lu):
    one_shot(default_kit(), Voice.BIG, 8000)    # synthesis cache warm: not counted below

    def render(repeat):
        def go():
            for _ in render_blocks(Score(lu, Rite.TOUHU, 0.6, repeat=repeat), rate=8000):
                pass
        return go

    short, long = _traced_peak(render(10)), _traced_peak(render(400))    # 1 min vs 48 min
    assert long < short + 1_000_000
    assert long < 8_000_000


def test_repeat_10000_never_holds_the_whole_signal(lu):
    score = Score(lu, Rite.SHE, 0.6, repeat=10000)    # 38 hours: 53 GB of float32 stereo
    first = []
    with guji.limits.lifted():                         # past the 24 h limit, on purpose
        peak = _traced_peak(lambda: first.append(next(render_blocks(score))))
    assert first[0].shape == (65536, 2)
    assert peak < 40_000_000


# -- files: formats, bytes, atomicity --------------------------------------------------------

@pytest.mark.parametrize("name, fmt, sub, expect", [
    ("a.wav", None, None, ("WAV", "PCM_16")),
    ("a.WAV", None, "24", ("WAV", "PCM_24")),
    ("a.wav", None, "float", ("WAV", "FLOAT")),
    ("a.flac", None, None, ("FLAC", "PCM_16")),
    ("a.flac", None, "24", ("FLAC", "PCM_24")),
    ("a.ogg", None, None, ("OGG", "VORBIS")),
    ("a.out", "flac", None, ("FLAC", "PCM_16")),
    ("a", None, None, ("WAV", "PCM_16")),          # no extension: WAV, as documented (was refused)
    ("a", None, "24", ("WAV", "PCM_24")),
    ("a", "flac", None, ("FLAC", "PCM_16")),
])
def test_audio_format_from_extension_or_option(name, fmt, sub, expect):
    assert audio_format(name, fmt, sub) == expect


@pytest.mark.parametrize("name, fmt, sub, message", [
    ("a.mp3", None, None, "cannot tell the audio format"),
    ("a.txt", None, None, "cannot tell the audio format"),
    ("a.wav", "flac", None, "the extension says WAV"),
    ("a.flac", None, "float", "FLAC cannot hold float"),
    ("a.ogg", None, "16", "OGG cannot hold 16"),
    ("a.x", "mp3", None, "unknown audio format"),
])
def test_bad_audio_formats_are_usage_errors(name, fmt, sub, message):
    with pytest.raises(UsageError, match=message):
        audio_format(name, fmt, sub)


@pytest.mark.parametrize("name, bits, subtype", [
    ("a.wav", None, "PCM_16"), ("a.wav", "24", "PCM_24"), ("a.wav", "float", "FLOAT"),
    ("a.flac", None, "PCM_16"), ("a.flac", "24", "PCM_24"), ("a.ogg", None, "VORBIS"),
])
def test_identical_commands_give_identical_bytes(tmp_path, capsys, name, bits, subtype):
    outputs = []
    for k in range(2):
        path = tmp_path / f"{k}-{name}"
        argv = ["render", "lu", "xue", "--repeat", "2", "--count-in", "2", "-o", str(path)]
        assert main(argv + (["--bits", bits] if bits else [])) == 0
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]
    info = sf.info(str(tmp_path / f"0-{name}"))
    assert info.subtype == subtype and info.samplerate == 48000 and info.channels == 2
    if subtype == "FLOAT":
        assert b"PEAK" not in outputs[0]      # libsndfile's PEAK chunk holds the time of writing
    assert "wrote" in capsys.readouterr().err


def test_ogg_pages_carry_a_fixed_serial_and_valid_crcs(tmp_path, lu):
    score = Score(lu, Rite.SHE, 0.3)
    path = write_audio(tmp_path / "lu.ogg", score)
    data = path.read_bytes()
    at, pages = 0, 0
    while at < len(data):
        assert data[at:at + 4] == b"OggS"
        n = data[at + 26]
        size = 27 + n + sum(data[at + 27:at + 27 + n])
        page = bytearray(data[at:at + size])
        assert int.from_bytes(page[14:18], "little") == OGG_SERIAL
        crc = int.from_bytes(page[22:26], "little")
        page[22:26] = b"\0\0\0\0"
        assert ogg_crc(bytes(page)) == crc
        at, pages = at + size, pages + 1
    assert pages > 2
    x, rate = sf.read(path)
    assert len(x) == Mix(score).frames and rate == 48000
    assert peak_dbfs(x) <= CEILING_DBFS


def test_ogg_crc_matches_libsndfile(tmp_path):
    sf.write(tmp_path / "raw.ogg", np.zeros(4800, np.float32), 48000)
    data = (tmp_path / "raw.ogg").read_bytes()
    n = data[26]
    page = bytearray(data[:27 + n + sum(data[27:27 + n])])
    crc = int.from_bytes(page[22:26], "little")
    page[22:26] = b"\0\0\0\0"
    assert ogg_crc(bytes(page)) == crc


def test_ctrl_c_during_a_render_leaves_nothing_behind(tmp_path, lu):
    calls = []

    def interrupt(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    score = Score(lu, Rite.SHE, 0.6, repeat=5)
    with pytest.raises(KeyboardInterrupt):
        write_audio(tmp_path / "lu.wav", score, progress=interrupt, block_frames=10000)
    assert calls == [10000, 20000]
    assert list(tmp_path.iterdir()) == []
    # an existing file is left as it was
    (tmp_path / "lu.flac").write_bytes(b"old")
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        write_audio(tmp_path / "lu.flac", score, progress=interrupt, block_frames=10000)
    assert [p.name for p in tmp_path.iterdir()] == ["lu.flac"]
    assert (tmp_path / "lu.flac").read_bytes() == b"old"


def test_progress_reports_every_block_up_to_the_total(tmp_path, lu):
    seen = []
    score = Score(lu, Rite.TOUHU, 0.6)
    write_audio(tmp_path / "a.wav", score, progress=lambda d, t: seen.append((d, t)),
                block_frames=50000)
    total = Mix(score).frames
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert all(t == total for _, t in seen)
    assert len(sf.read(tmp_path / "a.wav")[0]) == total


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal_and_only_after_a_moment():
    now = [100.0]
    clock = lambda: now[0]          # noqa: E731
    term = FakeTerminal()
    bar = ProgressBar("rendering x.wav", stream=term, delay=0.5, clock=clock, rate=10)
    bar(10, 100)
    assert term.getvalue() == ""              # quick work: nothing drawn
    now[0] += 0.6
    bar(50, 100)
    assert "rendering x.wav [" in term.getvalue() and "50%" in term.getvalue()
    now[0] += 0.2
    bar(100, 100)
    assert term.getvalue().rstrip().endswith("0:10/0:10") and "100%" in term.getvalue()
    bar.close()
    assert term.getvalue().endswith("\n")
    pipe = io.StringIO()
    quiet = ProgressBar(stream=pipe, delay=0.0, clock=clock)
    now[0] += 5
    quiet(1, 2)
    quiet.close()
    assert pipe.getvalue() == ""


@pytest.mark.parametrize("room, interval", [("dry", 0.6), ("hall", 0.6), ("dry", 0.6137)])
def test_the_loudness_measuring_is_reported_before_the_first_block(tmp_path, lu, room, interval):
    # each measuring pass (on the grid a pass a guess; off it, the first minute, then
    # the gains at once) reports its frames; all of it before the render's first block
    import dataclasses
    from guji.sound.kit import default_kit
    seen = []
    score = Score(lu, Rite.TOUHU, interval)
    kit = dataclasses.replace(default_kit(), loudness=-16.0, room=room)
    write_audio(tmp_path / "a.wav", score, kit=kit, rate=8000, block_frames=50000,
                progress=lambda d, t: seen.append(("render", d, t)),
                measuring=lambda d, t: seen.append(("measuring", d, t)))
    phases = [p for p, _, _ in seen]
    measured = [(d, t) for p, d, t in seen if p == "measuring"]
    frames = Mix(score, kit=kit, rate=8000).frames
    assert phases == sorted(phases)              # "measuring" < "render": all of it first
    assert [d for d, _ in measured] == sorted(d for d, _ in measured)
    assert all(d <= t for d, t in measured) and measured[-1][0] == measured[-1][1]
    assert measured[-1][0] >= 2 * frames         # the render as it is and at a gain at least
    # the library's default kit (no loudness) measures nothing
    seen.clear()
    write_audio(tmp_path / "b.wav", score, measuring=lambda d, t: seen.append((d, t)))
    assert seen == []


def test_progress_bar_of_measuring_then_rendering_on_two_lines():
    now = [100.0]
    term = FakeTerminal()
    bar = ProgressBar("rendering x.wav", stream=term, delay=0.5, clock=lambda: now[0], rate=10,
                      measuring_label="measuring the loudness of x.wav")
    now[0] += 0.6
    bar.measuring(30, 300)
    bar.measuring(300, 300)
    assert term.getvalue().endswith("measuring the loudness of x.wav [" + "#" * 30 + "] 100%")
    bar(50, 100)
    lines = term.getvalue().split("\n")
    assert len(lines) == 2 and lines[0].endswith("100%") and "measuring" in lines[0]
    assert lines[1].startswith("\rrendering x.wav [") and lines[1].endswith("0:05/0:10")
    bar.close()
    assert term.getvalue().endswith("\n")


# -- the command ----------------------------------------------------------------------------

def test_render_command_options(tmp_path, capsys, lu):
    path = tmp_path / "lu.flac"
    assert main(["render", "lu", "--rate", "22050", "--channels", "1", "--bits", "24",
                 "--bpm", "120", "-o", str(path)]) == 0
    info = sf.info(str(path))
    assert (info.samplerate, info.channels, info.subtype) == (22050, 1, "PCM_24")
    out = capsys.readouterr().err
    assert out.startswith(f"wrote {path}") and "12 strokes" in out


def test_render_several_patterns_one_after_another(tmp_path, capsys, lu, xue):
    path = tmp_path / "both.wav"
    assert main(["render", "lu", "xue", "--gap", "2", "--interval", "0.4", "--channels", "1",
                 "--bits", "float", "--strike", "exact", "-o", str(path)]) == 0
    x, rate = sf.read(path, dtype="float64")
    first = Score(lu, Rite.TOUHU, 0.4)
    # on the one grid: two empty steps after the first pattern's last step
    start = round((len(first) + 2) * 0.4 * rate)
    drum = xue.half[0].drum
    assert onset_lag(x, one_shot(default_kit(), Voice.of(drum), rate), start) == 0


def test_render_default_output_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["render", "lu:2@wuli-tongkao"]) == 0
    assert (tmp_path / "lu-2-wuli-tongkao.wav").is_file()


@pytest.mark.parametrize("argv, message", [
    (["-o", "x.mp3"], "cannot tell the audio format"),
    (["-o", "x.flac", "--bits", "float"], "FLAC cannot hold float"),
    (["-o", "x.wav", "--rate", "100"], "--rate: sample rate 100 Hz is out of range"),
    (["-o", "x.wav", "--kit", "no-such-kit.toml"], "no-such-kit.toml: no such kit"),
    (["-o", "x.wav", "--pan", "鼓=2"], "pan must be between"),
    (["-o", "x.wav", "--pan", "drum=0"], "unknown voice"),
    (["-o", "x.wav", "--gap", "-1"], "--gap"),
    (["-o", "nodir/x.wav"], "no such directory"),
])
def test_render_command_errors_are_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(["render", "lu"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_render_with_a_kit_of_recordings(tmp_path, capsys):
    rate = 44100
    t = np.arange(rate // 2) / rate
    sf.write(tmp_path / "small.wav", np.sin(2 * np.pi * 400 * t) * np.exp(-t / 0.05), rate)
    sf.write(tmp_path / "big.wav", np.sin(2 * np.pi * 90 * t) * np.exp(-t / 0.2), rate)
    out = tmp_path / "kit.wav"
    assert main(["render", "lu", "--kit", str(tmp_path), "-o", str(out)]) == 0
    x, _ = sf.read(out)
    assert 0 < peak_dbfs(x) + 60 and peak_dbfs(x) <= CEILING_DBFS


@pytest.mark.parametrize("name, subtype, scale, dtype", [
    ("e.wav", "16", 32767.0, "int16"), ("e24.wav", "24", 8388607.0, "int32"),
    ("e24.flac", "24", 8388607.0, "int32"), ("e.flac", "16", 32767.0, "int16")])
def test_pcm_files_hold_the_render_rounded_exactly(tmp_path, lu, name, subtype, scale, dtype):
    """Each stored sample is round(x × full scale) of the float render, 24-bit included
    (scaled in float64: float32 holds only 24 bits of mantissa)."""
    score = Score(lu, Rite.SHE, interval=0.3)
    want = render_array(score, rate=44100)
    path = write_audio(tmp_path / name, score, rate=44100, subtype=subtype, block_frames=4096)
    got, _ = sf.read(path, dtype=dtype)
    if subtype == "24":
        got = got >> 8                      # libsndfile returns 24-bit samples in the top bits
    # 16-bit is scaled in float32 (its 24-bit mantissa is ample for 16), 24-bit in float64
    scaled = want * np.float32(scale) if subtype == "16" else want.astype(np.float64) * scale
    assert np.array_equal(got, np.rint(scaled).astype(np.int64))


def test_a_block_that_recurs_is_made_once_and_is_the_same_samples(lu):
    """On the grid (0.6 s = 28,800 samples at 48 kHz) a long piece is a few distinct
    blocks given again; the signal equals a render in blocks that never line up."""
    score = Score(lu, Rite.TOUHU, 0.6, repeat=80)     # strokes vary over 4 passes, then recur
    mix = Mix(score, rate=48000)
    assert mix.step_frames() == 28800
    blocks = list(mix.blocks())
    assert len({id(b) for b in blocks}) < len(blocks) / 10
    assert all(not b.flags.writeable for b in blocks)
    odd = np.concatenate(list(mix.blocks(1000)))
    assert np.array_equal(np.concatenate(blocks), odd)
    # off the sample grid (0.6001 s is 28,804.8 samples) blocks are not remembered
    assert Mix(Score(lu, Rite.TOUHU, 0.6001), rate=48000).step_frames() is None


# -- minus-one ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv,sounding,kept", [
    (["--mute", "鼓"], "○", "○"),
    (["--solo", "鼓"], "□", "□"),
    (["--mute", "鼓", "--ghost", "click"], "○□", "○"),
])
def test_a_muted_drum_is_silent_in_the_audio(tmp_path, capsys, argv, sounding, kept):
    """`guji render --mute 鼓`: the audio's onsets are exactly the ○ strokes'
    (with ghost clicks, every stroke's: the □ ones as clicks)."""
    try:
        import onsets
    except ModuleNotFoundError:  # pragma: no cover - tests/ made a package
        from tests import onsets
    out = tmp_path / "m.wav"
    assert main(["render", "lu", "--rite", "she", "--repeat", "2", *argv, "-o", str(out)]) == 0
    glyphs = [s.glyph for s in load("lu").strokes] * 2
    # the drum strokes that sound are counted (ghost clicks are not strokes)
    assert f"; {glyphs.count(kept)} strokes;" in capsys.readouterr().err
    samples, rate = sf.read(out)
    found = onsets.detect_onsets(samples, rate)
    want = [i * 0.6 for i, g in enumerate(glyphs) if g in sounding]
    match = onsets.match_onsets(want, found, tolerance=0.002)
    assert match.ok, match.summary()


def test_a_muted_part_keeps_its_place_and_length(lu):
    from guji.timing.layout import lay_out
    whole = lay_out([lu])
    muted = whole.muting("鼙")
    a, b = Mix(whole), Mix(muted)
    assert a.frames == b.frames
    assert Mix(whole.muting(["鼙", "鼓"])).peaks == (0.0, 0.0)


def test_a_long_piece_of_few_repeats_is_written_in_flat_memory(tmp_path):
    """Two random 1,000-stroke readings in stereo (the page's compare of two long
    texts, issue 20): the blocks seldom recur, and the writer keeps encoded only
    what the mixer may give again, not every block it wrote (it once kept them
    all: the whole signal twice over, 2 GB for the page of two 8,000-stroke texts)."""
    from random import Random

    from guji.text.reading.scan import scan
    rng = Random(20)

    def reading(n: int):
        strokes = ["".join(rng.choice("○□") for _ in range(n)) for _ in (0, 1)]
        return scan(f"魯鼓\n{strokes[0]}半{strokes[1]}\n").patterns[0]

    # strokes 50 ms apart: every 2,400-sample block rings with many strokes, all distinct
    def parts(n: int):
        return [Part(Score(reading(n), Rite.SHE, 0.05), "A", pan=-1.0),
                Part(Score(reading(n), Rite.SHE, 0.05), "B", pan=1.0)]

    one_shot(default_kit(), Voice.BIG, 48000)    # synthesis cache warm: not counted below
    one_shot(default_kit(), Voice.SMALL, 48000)
    peaks = {}
    for n in (1000, 2000):
        peaks[n] = _traced_peak(lambda: write_audio(tmp_path / f"{n}.wav", parts(n), rate=48000))
        assert sf.info(str(tmp_path / f"{n}.wav")).frames >= 2 * n * 0.05 * 48000
    # what is kept is bounded by the memos' caps (the mixer's blocks, the peak search's and
    # the writer's, each BLOCK_MEMORY), not by the piece: twice the piece, the same memory;
    # the long piece's signal alone is 77 MB of float32 (it once took the whole signal twice)
    assert peaks[2000] - peaks[1000] < 8_000_000, peaks
    assert peaks[2000] < 4 * BLOCK_MEMORY, peaks

"""Every input a kit or the cache names is measured before it is read, and checked.

From the fault sweep of issue 20: a 736 KB FLAC (30 minutes, 8 channels, one
hit then silence) in a ``--kit`` folder took 6.9 GB; kit TOML nested 5,000
deep raised ``RecursionError``, ``sample="\\u0000x"`` ``ValueError``, and a
kit with both ``["鼙"]`` and ``[small]`` was taken silently; a 529-byte
cached ``hit-*.npy`` whose header claimed 10¹¹ samples failed every render
with a traceback, a NaN-filled one gave a silent WAV, and a full disk left
``.hit-XXXX.npy`` files behind.
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from guji.errors import UsageError
from guji.sound import recordings
from guji.sound.kit import load_kit
from guji.sound.oneshot import _cache_file, read_cached
from guji.sound.synth import DEFAULT_SMALL

import runner
from test_limits import refused

RATE = 8000


def hit(rate: int, channels: int, seconds: float = 0.3) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.8 * np.sin(2 * np.pi * 200 * t) * np.exp(-t * 20))[:, None].repeat(channels, 1)


def long_recording(path: Path, minutes: int, channels: int = 8) -> None:
    """One hit, then *minutes* of silence: small as FLAC, huge decoded."""
    with sf.SoundFile(path, "w", samplerate=RATE, channels=channels, subtype="PCM_16",
                      format="FLAC") as f:
        f.write(hit(RATE, channels))
        silence = np.zeros((RATE * 60, channels), dtype=np.int16)
        for _ in range(minutes):
            f.write(silence)


def test_a_long_recording_is_measured_from_its_header_and_only_its_start_decoded(tmp_path):
    path = tmp_path / "small.flac"
    long_recording(path, minutes=5)                      # 2.4 M frames × 8: 154 MB as float64
    assert sf.info(str(path)).frames > 60 * 5 * RATE
    tracemalloc.start()
    data, rate = recordings.read_recording(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert rate == RATE and 0.1 * RATE < len(data) <= 0.3 * RATE   # the hit, trimmed
    # READ_SECONDS of mono (1.9 MB) and one block of float32 (8 MB), not the whole file
    assert peak < 20 * 2 ** 20, peak


def test_a_kit_folder_of_long_recordings_renders_in_bounded_memory(tmp_path):
    kit = tmp_path / "kit"
    kit.mkdir()
    long_recording(kit / "small.flac", minutes=5)
    os.link(kit / "small.flac", kit / "big.flac")
    r = runner.guji(["render", "lu", "--kit", "kit", "-o", "x.wav"], tmp_path,
                    memory_bytes=1 * 2 ** 30)
    assert r.returncode == 0, r.stderr
    assert sf.info(str(tmp_path / "x.wav")).frames > 0


def test_a_one_sample_recording_is_too_short_not_silent(tmp_path):
    path = tmp_path / "pi.wav"
    sf.write(path, np.array([0.5]), 44100)
    with pytest.raises(UsageError, match=r"pi.wav: its sound lasts 1 sample \(0.023 ms\): "
                                         r"too short for a hit \(at least 1 ms\)"):
        recordings.read_recording(path)


def test_a_header_out_of_range_is_refused_before_decoding(tmp_path, monkeypatch):
    path = tmp_path / "pi.wav"
    sf.write(path, hit(RATE, 1), RATE)
    monkeypatch.setattr(recordings, "MAX_CHANNELS", 0)       # as a header claiming too many
    with pytest.raises(UsageError, match="header gives 1 channels: .*1–0 channels"):
        recordings.read_recording(path)
    raw = bytearray(path.read_bytes())                        # a WAV header of 4,000,000,000 Hz
    raw[24:28] = (4_000_000_000).to_bytes(4, "little")
    forged = tmp_path / "forged.wav"
    forged.write_bytes(bytes(raw))
    monkeypatch.undo()
    with pytest.raises(UsageError, match="forged.wav: "):
        recordings.read_recording(forged)


# -- kit files ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("x = " + "[" * 5000 + "]" * 5000, "nested too deep"),
    ("x = " + "{a = " * 5000 + "1" + "}" * 5000, "nested too deep"),
    ('["鼙"]\nsample = "\\u0000x"\n', 'sample U+0000x holds a NUL character'),
    ('["鼙"]\nlevel = -3.0\n[small]\nlevel = -6.0\n', '["鼙"] and [small] are both the 鼙'),
    ('[big]\n["鼓"]\n', '[big] and ["鼓"] are both the 鼓'),
    # each mode a pass over every sample: 50,000 of them would synthesise for hours
    ("[small]\n" + "".join(f"{k} = [{', '.join([v] * 50_000)}]\n" for k, v in
                           (("mode_ratios", "1.5"), ("mode_gains", "0.1"), ("mode_decays", "0.2"))),
     "[small] mode_ratios lists 50,000 modes: at most 64"),
])
def test_a_bad_kit_file_is_one_line(tmp_path, text, words):
    (tmp_path / "kit.toml").write_text(text, encoding="utf-8")
    r = runner.guji(["render", "lu", "--kit", "kit.toml", "-o", "x.wav"], tmp_path)
    refused(r, "kit.toml: ", words)
    assert not (tmp_path / "x.wav").exists()


def test_a_number_past_what_synthesis_takes_is_one_line_naming_the_range(tmp_path):
    """1e308 passes the finite check; ``noise_decay = 1e308`` once raised
    ``OverflowError`` (a noise burst 8·10³⁰⁸ s long) and big gains gave NaN."""
    kit = tmp_path / "kit.toml"
    for key, value, words in [
            ("noise_decay", "1e308", "noise_decay must be more than 0 and at most 10 seconds"),
            ("fundamental", "1e308", "fundamental must be more than 0 and at most 20000 Hz"),
            ("mode_gains", "[1e308, 1, 1, 1, 1, 1, 1, 1]", "mode_gains must be from 0 to 1000"),
            ("mode_ratios", "[1, 1e308, 1, 1, 1, 1, 1, 1]", "mode_ratios must be more than 0 and"),
            ("mode_decays", "[1, 1, 1e308, 1, 1, 1, 1, 1]", "mode_decays must be more than 0 and"),
            ("pitch_fall", "1e308", "pitch_fall must be more than -1 and at most 10"),
            ("pitch_fall_time", "1e308", "pitch_fall_time must be more than 0 and at most 10 s"),
            ("noise_level", "1e308", "noise_level must be from 0 to 1000"),
            ("noise_cutoff", "1e308", "noise_cutoff must be from 0 to 100000 Hz")]:
        kit.write_text(f'["鼙"]\n{key} = {value}\n', encoding="utf-8")
        with pytest.raises(UsageError) as e:
            load_kit(kit)
        assert str(e.value).startswith(f"{kit}: [鼙] {words}"), (key, str(e.value))
    kit.write_text('["鼓"]\nnoise_decay = 1e308\n', encoding="utf-8")
    r = runner.guji(["render", "lu", "--kit", "kit.toml", "-o", "x.wav"], tmp_path)
    refused(r, "kit.toml: [鼓] noise_decay must be more than 0 and at most 10 seconds, not 1e+308")
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize("table", [
    'pitch_fall = -0.9\nforce_spread = 12.0\n',      # a stroke's fall was -1.15: ValueError
    f'mode_gains = [{", ".join(["1000"] * 8)}]\nnoise_level = 1000\nforce_spread = 12.0\n',
    'pitch_fall = 10\nforce_spread = 12.0\n',
    'level = -90\nforce_spread = 12.0\n',             # a stroke's level was -102 dBFS
])
def test_a_kit_at_the_edge_of_its_ranges_renders(tmp_path, table):
    # each stroke's parameters (its force, its place) stay within the ranges too
    (tmp_path / "kit.toml").write_text(f'["鼓"]\n{table}', encoding="utf-8")
    r = runner.guji(["render", "lu", "--kit", "kit.toml", "--rate", "8000", "-o", "x.wav"],
                    tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


def test_a_sample_that_is_a_loop_of_links_is_one_line(tmp_path):
    """It once raised ``RuntimeError: Symlink loop`` from pathlib's resolve."""
    (tmp_path / "pi.wav").symlink_to("pi.wav")
    (tmp_path / "kit.toml").write_text('["鼙"]\nsample = "pi.wav"\n', encoding="utf-8")
    r = runner.guji(["render", "lu", "--kit", "kit.toml", "-o", "x.wav"], tmp_path)
    refused(r, "kit.toml: [鼙] sample pi.wav: too many levels of symbolic links")
    assert not (tmp_path / "x.wav").exists()


def forged_rf64(path: Path, data_bytes: int) -> None:
    """An RF64 recording whose ds64 chunk gives *data_bytes* of data."""
    sf.write(path, hit(RATE, 1), RATE, format="RF64", subtype="PCM_16")
    raw = bytearray(path.read_bytes())
    at = raw.index(b"ds64") + 8 + 8                  # riff size, then data size
    raw[at:at + 8] = data_bytes.to_bytes(8, "little")
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize("data_bytes, words", [
    # libsndfile seeks past the end: the callback's OSError was printed as
    # "Exception ignored from cffi callback" with a traceback, then the render went on
    (2 ** 63 - 1, "a seek to byte 9,223,372,036,854,775,807: invalid argument"),
    # the message held "Error opening <_io.BufferedReader name='…'>"
    (2 ** 64 - 1, "(Unspecified internal error.)"),
])
def test_a_forged_rf64_recording_is_one_line(tmp_path, data_bytes, words):
    forged_rf64(tmp_path / "pi.wav", data_bytes)
    (tmp_path / "kit.toml").write_text('["鼙"]\nsample = "pi.wav"\n', encoding="utf-8")
    r = runner.guji(["render", "lu", "--kit", "kit.toml", "-o", "x.wav"], tmp_path)
    refused(r, "pi.wav: cannot read this recording ", words)
    assert "<_io" not in r.stderr and not (tmp_path / "x.wav").exists()
    r = runner.guji(["render", "lu", "--room", "pi.wav", "-o", "x.wav"], tmp_path)
    refused(r, "--room pi.wav: not a readable WAV, FLAC or OGG file ", words)
    assert "<_io" not in r.stderr and not (tmp_path / "x.wav").exists()


def test_a_huge_kit_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "kit.toml"
    with open(big, "wb") as f:
        f.truncate(2 ** 30)                                   # a sparse gigabyte
    tracemalloc.start()
    with pytest.raises(UsageError, match="over 1024 kB: not a kit file"):
        load_kit(big)
    assert tracemalloc.get_traced_memory()[1] < 4 * 2 ** 20
    tracemalloc.stop()


# -- the cache ---------------------------------------------------------------------------

def cached_hit(tmp_path: Path, monkeypatch) -> tuple[Path, int]:
    monkeypatch.setenv("GUJI_CACHE", str(tmp_path / "cache"))
    return _cache_file(DEFAULT_SMALL, 48000), int(round(DEFAULT_SMALL.length * 48000))


def forge(path: Path, header_shape: tuple, body: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<f4", "fortran_order": False, "shape": header_shape})
        f.write(body)


def test_a_cached_hit_is_checked_before_use_and_rebuilt(tmp_path, monkeypatch):
    path, length = cached_hit(tmp_path, monkeypatch)
    forge(path, (10 ** 11,), b"\0" * 400)                    # the 529-byte forgery
    assert read_cached(path, length) is None
    forge(path, (length,), np.full(length, np.nan, dtype="<f4").tobytes())
    assert read_cached(path, length) is None
    forge(path, (length,), np.zeros(length - 1, dtype="<f4").tobytes())     # cut short
    assert read_cached(path, length) is None
    good = np.linspace(-0.5, 0.5, length, dtype="<f4")
    np.save(path, good)
    assert np.array_equal(read_cached(path, length), good)


@pytest.mark.parametrize("body", ["forged", "nan"])
def test_renders_rebuild_a_bad_cache_and_sound(tmp_path, body):
    cache = tmp_path / "cache"
    env = runner.environment(GUJI_CACHE=str(cache))
    assert runner.guji(["render", "lu", "-o", "good.wav"], tmp_path, env=env).returncode == 0
    files = sorted(cache.glob("*hit-*.npy"))    # the hits, and the K-weighted hits (loudness)
    assert {f.name.split("-")[0] for f in files} == {"hit", "khit"}
    for f in files:
        length = np.load(f).shape[0]
        forge(f, (10 ** 11,), b"\0" * 400) if body == "forged" else \
            forge(f, (length,), np.full(length, np.nan, dtype="<f4").tobytes())
    r = runner.guji(["render", "lu", "-o", "again.wav"], tmp_path, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr and "Warning" not in r.stderr, \
        r.stderr
    assert (tmp_path / "again.wav").read_bytes() == (tmp_path / "good.wav").read_bytes()
    for f in files:                                           # rebuilt as guji writes them
        assert np.all(np.isfinite(np.load(f)))


def test_a_full_disk_leaves_no_temporary_cache_file(tmp_path):
    cache = tmp_path / "cache"
    env = runner.environment(GUJI_CACHE=str(cache))
    for _ in range(3):                  # a file-size cap below one hit: every save fails
        r = runner.guji(["render", "lu", "-o", "/dev/null"], tmp_path, env=env,
                        file_bytes=4096)
        assert r.returncode == 0, r.stderr
    assert cache.is_dir() and runner.leftovers(cache) == [] and not list(cache.iterdir())

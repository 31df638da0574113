"""The voices: modal synthesis, kits (TOML and recordings), resampling, samples/."""

from __future__ import annotations

import dataclasses
import math
from importlib import resources

import numpy as np
import pytest
import soundfile as sf

from guji.errors import UsageError
from guji.timing.performance import Voice
from guji.sound.kit import KIT_FILE, SAMPLE_FILES, Kit, default_kit, load_kit, one_shot, write_samples
from guji.sound.recordings import resample
from guji.sound.synth import DEFAULT_BIG, DEFAULT_SMALL, MEMBRANE_RATIOS, VoiceParams, synthesize

RATE = 48000


def spectrum_peak(x: np.ndarray, rate: int, lo: float, hi: float) -> float:
    """Frequency (Hz) of the strongest bin between lo and hi, with zero padding."""
    n = 1 << 20
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x)), n))
    freqs = np.fft.rfftfreq(n, 1 / rate)
    band = (freqs >= lo) & (freqs <= hi)
    return float(freqs[band][np.argmax(spec[band])])


# -- the synthesis -------------------------------------------------------------

def test_membrane_ratios_are_the_circular_membrane_modes():
    # j_mn / j_01 of the Bessel functions, as the issue lists them to 2 decimals
    bessel_zeros = [2.40483, 3.83171, 5.13562, 5.52008, 6.38016, 7.01559, 7.58834, 8.41724]
    assert MEMBRANE_RATIOS == pytest.approx([j / bessel_zeros[0] for j in bessel_zeros], abs=1e-4)
    issue = [1, 1.59, 2.14, 2.30, 2.65, 2.92, 3.16, 3.50]
    assert MEMBRANE_RATIOS == pytest.approx(issue, abs=0.006)
    assert DEFAULT_BIG.mode_ratios == MEMBRANE_RATIOS
    assert DEFAULT_SMALL.mode_ratios == MEMBRANE_RATIOS


@pytest.mark.parametrize("voice", list(Voice))
def test_one_shot_is_mono_float32_with_its_level_as_peak(voice):
    kit = default_kit()
    x = one_shot(kit, voice, RATE)
    assert x.dtype == np.float32 and x.ndim == 1
    assert len(x) == round(kit[voice].length * RATE)
    assert 20 * math.log10(np.max(np.abs(x))) == pytest.approx(kit[voice].level, abs=1e-4)
    assert not x.flags.writeable
    assert x[-1] == 0.0 or abs(x[-1]) < 1e-6       # faded out, no click at the end


def test_modes_sound_at_their_frequencies_and_the_pitch_falls():
    # the 鼓's lowest mode: a little sharp just after the strike, at the fundamental later
    x = synthesize(DEFAULT_BIG.replace(noise_level=0.0), RATE)
    f0 = DEFAULT_BIG.fundamental
    early = spectrum_peak(x[: int(0.04 * RATE)], RATE, 0.8 * f0, 1.3 * f0)
    late = spectrum_peak(x[int(0.6 * RATE): int(1.4 * RATE)], RATE, 0.8 * f0, 1.3 * f0)
    assert late == pytest.approx(f0, abs=1.0)
    assert early > late + 1.5
    # the second membrane mode is there too, at 1.593 × f0
    m2 = spectrum_peak(x[int(0.3 * RATE): int(1.0 * RATE)], RATE, 1.45 * f0, 1.75 * f0)
    assert m2 == pytest.approx(1.593 * f0, abs=1.5)


def test_synthesis_is_deterministic_and_the_seed_matters():
    a = synthesize(DEFAULT_SMALL, RATE)
    b = synthesize(DEFAULT_SMALL, RATE)
    c = synthesize(DEFAULT_SMALL.replace(seed=99), RATE)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    # only the stick noise differs: after the burst the membranes agree
    burst = int(8 * DEFAULT_SMALL.noise_decay * RATE) + 2
    # (both are peak-normalised, so compare shapes)
    tail_a, tail_c = a[burst:], c[burst:]
    assert np.corrcoef(tail_a, tail_c)[0, 1] > 0.999


def test_modes_above_nyquist_are_left_out():
    high = VoiceParams(fundamental=3000.0, mode_ratios=(1.0, 5.0), mode_gains=(1.0, 1.0),
                       mode_decays=(0.2, 0.2), length=0.2)
    x = synthesize(high, 8000)         # 15 kHz cannot exist at 8 kHz: only 3 kHz remains
    assert spectrum_peak(x, 8000, 100, 3999) == pytest.approx(3000, abs=5)


@pytest.mark.parametrize("changes, message", [
    (dict(mode_gains=(1.0,)), "mode_gains needs 8 values"),
    (dict(mode_decays=(1.0, -1, 1, 1, 1, 1, 1, 1)), "mode_decays must be more than 0"),
    (dict(pan=1.5), "pan must be between"),
    (dict(level=3.0), "level must be between"),
    (dict(fundamental="low"), "fundamental must be a number"),
    (dict(mode_gains=(0,) * 8, noise_level=0.0), "makes no sound"),
    (dict(seed=-1), "seed must be"),
])
def test_bad_voice_parameters_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        DEFAULT_BIG.replace(**changes)


# -- samples/ ----------------------------------------------------------------------

def test_regenerating_the_samples_gives_identical_bytes(tmp_path):
    shipped = resources.files("guji").joinpath("data", "samples")
    written = write_samples(tmp_path)
    assert {p.name for p in written} == set(SAMPLE_FILES.values()) | {KIT_FILE}
    for p in written:
        assert p.read_bytes() == shipped.joinpath(p.name).read_bytes(), \
            f"samples/{p.name} is stale: run python -m guji.sound.kit --write-samples samples/"


def test_shipped_sample_files_are_the_voices():
    shipped = resources.files("guji").joinpath("data", "samples")
    for voice, name in SAMPLE_FILES.items():
        with resources.as_file(shipped.joinpath(name)) as path:
            data, rate = sf.read(path, dtype="float64")
            info = sf.info(path)
        assert rate == RATE and info.channels == 1 and info.subtype == "PCM_24"
        expected = one_shot(default_kit(), voice, RATE)
        assert len(data) == len(expected)
        assert np.max(np.abs(data - expected)) < 2.0 ** -22


def test_the_shipped_kit_file_is_the_default_kit():
    with resources.as_file(resources.files("guji").joinpath("data", "samples").joinpath(KIT_FILE)) as path:
        kit = load_kit(path)
    assert dataclasses.replace(kit, name="x") == dataclasses.replace(default_kit(), name="x")


def test_the_shipped_samples_load_as_a_recording_kit():
    with resources.as_file(resources.files("guji").joinpath("data", "samples")) as directory:
        kit = load_kit(directory)
        for voice in Voice:
            assert kit[voice].sample is not None
            x = one_shot(kit, voice, RATE)
            synth = one_shot(default_kit(), voice, RATE)
            # the recording is the synth, trimmed of the quiet start (< −40 dB)
            # and of the silent tail (< −50 dB)
            lead = next(i for i, v in enumerate(np.abs(synth))
                        if v >= np.max(np.abs(synth)) * 10 ** (-40 / 20))
            n = min(len(x), len(synth) - lead)
            assert n > 0.2 * len(synth)
            assert np.corrcoef(x[:n], synth[lead:lead + n])[0, 1] > 0.999


# -- kit files ---------------------------------------------------------------------

def test_a_kit_file_changes_only_what_it_names(tmp_path):
    path = tmp_path / "kit.toml"
    path.write_text('name = "mine"\n["鼓"]\nfundamental = 110.0\npan = 0.5\n[small]\nlevel = -20\n'
                    "[cue]\nmode_ratios = [1, 2]\nmode_gains = [1, 0.5]\nmode_decays = [1, 1]\n",
                    encoding="utf-8")
    kit = load_kit(path)
    assert kit.name == "mine"
    assert kit[Voice.BIG] == DEFAULT_BIG.replace(fundamental=110.0, pan=0.5)
    assert kit[Voice.SMALL] == DEFAULT_SMALL.replace(level=-20.0)
    assert kit[Voice.CUE].mode_ratios == (1.0, 2.0)
    x = one_shot(kit, Voice.SMALL, RATE)
    assert 20 * math.log10(np.max(np.abs(x))) == pytest.approx(-20, abs=1e-4)


@pytest.mark.parametrize("text, message", [
    ("[big]\nfundamental = \n", "not a valid kit file"),
    ("[drum]\nlevel = -3\n", "unknown voice 'drum'"),
    ("[big]\nloudness = 3\n", "unknown parameter 'loudness'"),
    ("[big]\nmode_gains = [1, 2]\n", r"\[big\] mode_gains needs 8 values"),
    ('["鼙"]\npan = -2\n', r"\[鼙\] pan must be between"),
    ("[鼙]\npan = -2\n", "not a valid kit file"),      # TOML wants Chinese keys quoted
    ("[big]\nmode_ratios = 3\n", "must be a list"),
    ("big = 3\n", "must be a table"),
    ('[small]\nsample = "nowhere.wav"\n', "nowhere.wav: no such recording"),
])
def test_a_bad_kit_file_is_one_clear_error_naming_it(tmp_path, text, message):
    path = tmp_path / "bad-kit.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as info:
        load_kit(path)
    assert "bad-kit.toml" in str(info.value) or "nowhere.wav" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_missing_kit_is_an_error(tmp_path):
    with pytest.raises(UsageError, match="no such kit"):
        load_kit(tmp_path / "nothing.toml")


# -- recordings ----------------------------------------------------------------------

def hit(rate: int, freq: float = 200.0, seconds: float = 0.5) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return np.sin(2 * np.pi * freq * t) * np.exp(-t / 0.1)


def test_a_directory_of_recordings_any_rate_mono_or_stereo(tmp_path):
    pad = np.zeros(4410)                               # 0.1 s of silence before the hit
    small = hit(44100, 300.0)
    stereo = np.stack([np.concatenate([pad, small]), np.concatenate([pad, small]) * 0.5], axis=1)
    sf.write(tmp_path / "small.flac", stereo, 44100)
    sf.write(tmp_path / "鼓.ogg", hit(22050, 100.0, 1.0), 22050)
    kit = load_kit(tmp_path, RATE)
    x = one_shot(kit, Voice.SMALL, RATE)
    # silence trimmed: the attack is on sample 0 (sin starts at 0, so within 1 ms)
    assert np.max(np.abs(x[:48])) > 0.01 * np.max(np.abs(x))
    assert len(x) <= round(0.5 * RATE) + 2
    assert 20 * math.log10(np.max(np.abs(x))) == pytest.approx(DEFAULT_SMALL.level, abs=1e-3)
    assert spectrum_peak(x.astype(float), RATE, 50, 2000) == pytest.approx(300, abs=3)
    y = one_shot(kit, Voice.BIG, RATE)
    assert spectrum_peak(y.astype(float), RATE, 50, 2000) == pytest.approx(100, abs=2)
    # click and cue were not recorded: they stay synthesised
    assert kit[Voice.CLICK].sample is None and kit[Voice.CUE].sample is None


def test_a_directory_without_a_big_drum_is_an_error(tmp_path):
    sf.write(tmp_path / "small.wav", hit(RATE), RATE)
    with pytest.raises(UsageError, match="no recording of the 鼓"):
        load_kit(tmp_path)


def test_two_recordings_of_one_drum_is_an_error(tmp_path):
    sf.write(tmp_path / "small.wav", hit(RATE), RATE)
    sf.write(tmp_path / "pi.flac", hit(RATE), RATE)
    sf.write(tmp_path / "big.wav", hit(RATE), RATE)
    with pytest.raises(UsageError, match="more than one recording of 鼙"):
        load_kit(tmp_path)


def test_unreadable_and_silent_recordings_are_errors_naming_the_file(tmp_path):
    (tmp_path / "small.wav").write_text("not audio")
    sf.write(tmp_path / "big.wav", hit(RATE), RATE)
    with pytest.raises(UsageError, match=r"small\.wav: cannot read this recording"):
        load_kit(tmp_path)
    sf.write(tmp_path / "small.wav", np.zeros(1000), RATE)
    with pytest.raises(UsageError, match=r"small\.wav: the recording is silent"):
        load_kit(tmp_path)


def test_a_kit_file_can_point_at_recordings(tmp_path):
    (tmp_path / "rec").mkdir()
    sf.write(tmp_path / "rec" / "gu.wav", hit(RATE, 90.0), RATE)
    (tmp_path / "kit.toml").write_text('[big]\nsample = "rec/gu.wav"\nlevel = -2.0\n')
    kit = load_kit(tmp_path / "kit.toml")
    assert kit[Voice.BIG].sample == str((tmp_path / "rec" / "gu.wav").resolve())
    x = one_shot(kit, Voice.BIG, RATE)
    assert 20 * math.log10(np.max(np.abs(x))) == pytest.approx(-2.0, abs=1e-3)


@pytest.mark.parametrize("source, target", [(44100, 48000), (48000, 22050), (96000, 48000)])
def test_resampling_keeps_pitch_amplitude_and_onset(source, target):
    t = np.arange(source // 2) / source
    x = np.sin(2 * np.pi * 1000.0 * t)
    y = resample(x, source, target)
    assert len(y) == round(len(x) * target / source)
    assert spectrum_peak(y, target, 500, 2000) == pytest.approx(1000.0, abs=1.0)
    middle = y[len(y) // 4: 3 * len(y) // 4]
    assert np.max(np.abs(middle)) == pytest.approx(1.0, abs=0.01)
    # the onset stays at sample 0: the resampled sine is the sine sampled at the new rate
    ref = np.sin(2 * np.pi * 1000.0 * np.arange(len(y)) / target)
    assert np.max(np.abs(middle - ref[len(y) // 4: 3 * len(y) // 4])) < 0.01


def test_resampling_removes_what_the_new_rate_cannot_hold():
    source, target = 48000, 16000
    t = np.arange(source) / source
    x = np.sin(2 * np.pi * 1000 * t) + np.sin(2 * np.pi * 12000 * t)   # 12 kHz > 8 kHz Nyquist
    y = resample(x, source, target)
    spec = np.abs(np.fft.rfft(y[2000:-2000] * np.hanning(len(y) - 4000)))
    freqs = np.fft.rfftfreq(len(y) - 4000, 1 / target)
    alias = spec[(freqs > 3500) & (freqs < 4500)].max()        # 12 kHz would alias to 4 kHz
    assert alias < 1e-3 * spec.max()


def test_kit_is_indexed_by_voice_and_hashable():
    kit = default_kit()
    assert kit[Voice.SMALL] is kit.small and kit[Voice.CUE] is kit.cue
    assert hash(kit) == hash(Kit())
    assert kit.with_voice(Voice.BIG, DEFAULT_BIG.replace(pan=-1.0))[Voice.BIG].pan == -1.0


# -- the cache of synthesised hits --------------------------------------------------

def test_a_cached_hit_is_the_synthesised_one_and_a_bad_cache_is_passed_over(tmp_path, monkeypatch):
    from guji.sound import oneshot
    from guji.sound.synth import DEFAULT_BIG, synthesize

    monkeypatch.setenv("GUJI_CACHE", str(tmp_path))
    params = DEFAULT_BIG.replace(seed=12345)          # a voice no other test has cached
    fresh = synthesize(params, 44100).astype(np.float32)
    oneshot._one_shot_cached.cache_clear()
    first = oneshot.voice_one_shot(params, 44100)
    files = list(tmp_path.glob("hit-*.npy"))
    assert len(files) == 1 and np.array_equal(first, fresh)
    oneshot._one_shot_cached.cache_clear()
    assert np.array_equal(oneshot.voice_one_shot(params, 44100), fresh)   # read from disk
    files[0].write_bytes(b"not a numpy file")
    oneshot._one_shot_cached.cache_clear()
    assert np.array_equal(oneshot.voice_one_shot(params, 44100), fresh)   # passed over
    monkeypatch.setenv("GUJI_CACHE", "off")
    oneshot._one_shot_cached.cache_clear()
    assert oneshot._cache_file(params, 44100) is None
    assert np.array_equal(oneshot.voice_one_shot(params, 44100), fresh)
    oneshot._one_shot_cached.cache_clear()


def test_a_k_weighted_hit_is_the_hit_weighted_and_kept_like_it(tmp_path, monkeypatch):
    # the loudness on the grid pastes each voice's hit K-weighted (BS.1770): made
    # once from the hit, kept on disk beside it, a bad file passed over
    from guji.sound import oneshot
    from guji.sound.loudness import k_weighting
    from guji.sound.synth import DEFAULT_SMALL

    monkeypatch.setenv("GUJI_CACHE", str(tmp_path))
    params = DEFAULT_SMALL.replace(seed=54321)         # a voice no other test has cached
    for cached in (oneshot._one_shot_cached, oneshot._weighted_cached):
        cached.cache_clear()
    hit = oneshot.voice_one_shot(params, 8000).astype(np.float64)
    exact = np.convolve(hit, k_weighting(8000))          # the whole ring
    first = oneshot.weighted_one_shot(params, 8000)
    assert first.dtype == np.float32 and len(first) == len(exact)
    assert np.max(np.abs(first - exact)) < 1e-5 * np.max(np.abs(exact))
    files = list(tmp_path.glob("khit-*.npy"))
    assert len(files) == 1
    oneshot._weighted_cached.cache_clear()
    assert np.array_equal(oneshot.weighted_one_shot(params, 8000), first)    # read from disk
    files[0].write_bytes(b"not a numpy file")
    oneshot._weighted_cached.cache_clear()
    assert np.array_equal(oneshot.weighted_one_shot(params, 8000), first)    # passed over
    monkeypatch.setenv("GUJI_CACHE", "off")
    oneshot._weighted_cached.cache_clear()
    assert np.array_equal(oneshot.weighted_one_shot(params, 8000), first)
    for cached in (oneshot._one_shot_cached, oneshot._weighted_cached):
        cached.cache_clear()

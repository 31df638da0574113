"""Strokes that vary: each stroke of a drum a little different, chosen by its place, the same bytes.

Real files are written by the console script and read back (soundfile, mido);
the strokes are compared sample by sample.
"""

from __future__ import annotations

import dataclasses
import itertools

import mido
import numpy as np
import pytest
import soundfile as sf

from guji.sound.kit import default_kit, load_kit, one_shot
from guji.sound.mixer import Mix
from guji.sound.strokes import bessel_j, stroke_params, variant_count
from guji.sound.synth import synthesize
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.loop import Loop
from guji.timing.performance import Part, Voice, as_performance
from guji.timing.score import Score

from runner import guji


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    n = min(len(a), len(b))
    return float(np.corrcoef(a[:n], b[:n])[0, 1])


def _strokes_in(x: np.ndarray, gap: int = 1000) -> list[int]:
    """The first sample of each stroke of a file whose strokes do not overlap."""
    nz = np.flatnonzero(x)
    return [int(nz[0])] + [int(b) for a, b in zip(nz[:-1], nz[1:]) if b - a > gap]


def test_two_strokes_of_one_drum_differ_yet_two_renders_are_the_same_bytes(tmp_path):
    args = ["render", "lu", "--interval", "2.5", "--bits", "float", "--channels", "1"]
    assert guji(args + ["-o", "a.wav"], tmp_path).returncode == 0
    assert guji(args + ["-o", "b.wav"], tmp_path).returncode == 0
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes()
    x, rate = sf.read(tmp_path / "a.wav", dtype="float64")
    score = Score(load("lu"), Rite.TOUHU, 2.5)
    starts = _strokes_in(x)
    assert len(starts) == len(score)
    hits = {Voice.SMALL: [], Voice.BIG: []}
    for event, (a, b) in zip(score, zip(starts, starts[1:] + [len(x)])):
        hits[Voice.of(event.drum)].append(x[a:b])
    for voice, strokes in hits.items():
        assert len(strokes) >= 4
        pairs = [_corr(p, q) for p, q in itertools.combinations(strokes, 2)]
        different = [c for c in pairs if c < 1 - 1e-9]
        # most pairs differ (8 variants a drum); every differing pair is the same drum
        assert len(different) >= 0.7 * len(pairs), voice
        assert all(0.9 < c < 0.999 for c in different), (voice, min(different), max(different))


def test_every_pair_of_a_drums_variants_is_alike_but_not_identical():
    kit = default_kit()
    for voice in (Voice.SMALL, Voice.BIG):
        n = variant_count(kit[voice], "vary")
        assert n == 8
        shots = [one_shot(kit, voice, 48000, v) for v in range(n)]
        for a, b in itertools.combinations(shots, 2):
            assert 0.9 < _corr(a, b) < 0.999


def test_onsets_are_on_the_exact_sample_of_the_midi_schedule(tmp_path):
    args = ["lu", "xue", "--interval", "2.5", "--repeat", "2"]
    assert guji(["render", *args, "--bits", "float", "--channels", "1", "-o", "a.wav"],
                tmp_path).returncode == 0
    assert guji(["midi", *args, "-o", "a.mid"], tmp_path).returncode == 0
    x, rate = sf.read(tmp_path / "a.wav", dtype="float64")
    t, scheduled = 0.0, []
    for msg in mido.MidiFile(tmp_path / "a.mid", charset="utf-8"):
        t += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            scheduled.append(round(t * rate))
    found = _strokes_in(x)
    assert len(found) == len(scheduled) >= 40
    assert [f - s for f, s in zip(found, scheduled)] == [0] * len(found)    # 0.0 ms


def test_strike_exact_is_the_kits_own_hit_every_time():
    exact = dataclasses.replace(default_kit(), strike="exact")
    score = Score(load("lu"), Rite.TOUHU, 2.5)
    mix = Mix(score, kit=exact, rate=48000, channels=1)
    for event in score:
        own = one_shot(exact, Voice.of(event.drum), 48000)
        assert np.array_equal(mix.sound_of(0, event.index)[:, 0], own)


def test_a_loops_passes_differ_and_the_choice_is_the_place_not_the_segment():
    score = Score(load("lu"), Rite.TOUHU, 0.6)
    loop = Loop(as_performance(score))
    rate = 8000
    whole = Mix(loop.passes(0, 6), rate=rate, channels=1)
    kinds = []
    for k in range(6):
        part = k              # one part a pass
        kinds.append([int(whole._tracks[part].kinds(i, i + 1)[0]) for i in range(len(score))])
    assert kinds[0] != kinds[1] and kinds[1] != kinds[2]
    # the same pass in another segment (another performance) sounds the same strokes
    later = Mix(loop.passes(3, 2), rate=rate, channels=1)
    for i in range(len(score)):
        assert np.array_equal(later.sound_of(0, i), whole.sound_of(3, i))


def test_a_parts_strokes_are_its_own_whoever_plays_beside_it():
    a = Score(load("lu"), Rite.TOUHU, 0.6)
    alone = Mix(Part(a, "A"), rate=8000, channels=1)
    beside = Mix([Part(a, "B"), Part(a, "A")], rate=8000, channels=1)
    for i in range(len(a)):
        assert np.array_equal(alone.sound_of(0, i), beside.sound_of(1, i))


def test_a_harder_stroke_is_louder_and_brighter_and_the_place_weights_the_modes():
    # J_0's first zero, J_1(1): the membrane's mode shapes
    assert abs(bessel_j(0, 2.404826)) < 1e-5 and bessel_j(1, 1.0) == pytest.approx(0.4400506, 1e-6)
    big = default_kit().big
    variants = [stroke_params(big, v) for v in range(big.variants)]
    levels = [p.level for p in variants]
    assert max(levels) - min(levels) > 2.5 and all(abs(p.level - big.level) <= 2.0 for p in variants)
    soft, hard = min(variants, key=lambda p: p.level), max(variants, key=lambda p: p.level)
    top = lambda p: p.mode_gains[-1] / p.mode_gains[0]           # noqa: E731
    assert hard.noise_level > soft.noise_level and hard.pitch_fall > soft.pitch_fall
    assert len({p.seed for p in variants}) == len(variants)       # each its own stick noise
    assert peak(synthesize(hard, 8000)) > peak(synthesize(soft, 8000))
    assert top(hard) != top(soft)


def peak(x):
    return float(np.max(np.abs(x)))


def _wav(path, seed, freq, rate=44100):
    t = np.arange(int(0.3 * rate)) / rate
    noise = np.random.default_rng(seed).normal(0, 0.05, len(t))
    sf.write(path, (np.sin(2 * np.pi * freq * t) + noise) * np.exp(-t / 0.05) * 0.5, rate)


def test_a_recorded_drum_with_several_recordings_takes_each_in_its_place(tmp_path):
    for n, f in ((1, 200), (2, 230), (3, 260)):
        _wav(tmp_path / f"small-{n}.wav", n, f)
    _wav(tmp_path / "big.wav", 9, 80)
    kit = load_kit(tmp_path)
    assert kit.small.sample.endswith("small-1.wav")
    assert [p.rsplit("/", 1)[-1] for p in kit.small.more_samples] == ["small-2.wav", "small-3.wav"]
    score = Score(load("lu"), Rite.TOUHU, 0.6, repeat=4)
    mix = Mix(score, kit=kit, rate=44100, channels=1)
    firsts = {mix.sound_of(0, e.index)[:2000, 0].tobytes()
              for e in score if Voice.of(e.drum) is Voice.SMALL}
    assert len(firsts) >= 3           # every recording is heard
    again = Mix(score, kit=kit, rate=44100, channels=1)
    assert np.array_equal(again.array(), mix.array())


def test_a_bad_variation_parameter_in_a_kit_file_is_one_line(tmp_path):
    (tmp_path / "k.toml").write_text('["鼓"]\nvariants = 0\n', encoding="utf-8")
    run = guji(["render", "lu", "--kit", "k.toml", "-o", "a.wav"], tmp_path)
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "variants" in run.stderr
    assert not (tmp_path / "a.wav").exists()

"""Rooms: the dry render convolved block by block, the tail to its end, memory flat.

Files are written by the console script and read back with soundfile; the
convolution is checked against numpy's own ``np.convolve``.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf

from guji.sound.kit import default_kit
from guji.sound.mixer import Mix
from guji.sound.room import impulse_response
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.score import Score

from runner import guji


def _kit(room):
    return dataclasses.replace(default_kit(), room=room)


def test_the_room_is_the_dry_render_convolved_with_its_response_across_blocks():
    rate = 8000
    score = Score(load("lu"), Rite.TOUHU, 0.3)
    dry = Mix(score, kit=_kit("dry"), rate=rate, channels=2)
    wet = Mix(score, kit=_kit("court"), rate=rate, channels=2)
    ir = impulse_response("court", rate, 2)
    assert wet.frames == dry.frames + len(ir) - 1
    x = dry.array().astype(np.float64)
    want = np.stack([np.convolve(x[:, c], ir[:, c].astype(np.float64)) for c in range(2)], axis=1)
    for block_frames in (997, 65536):            # the samples do not depend on the blocks
        got = np.concatenate(list(wet.blocks(block_frames)))
        assert got.shape == want.shape
        assert np.max(np.abs(got * np.array(wet.gains) ** -1 - want)) < 1e-5
    # a stretch from the middle is the same samples as the whole render's
    part = np.concatenate(list(wet.blocks(1000, start=5000, stop=9000)))
    assert np.array_equal(part, np.concatenate(list(wet.blocks(1000)))[5000:9000])


def test_a_hall_render_keeps_its_onsets_rings_out_and_is_the_same_bytes(tmp_path):
    args = ["render", "lu", "--room", "hall", "--interval", "2.5", "--bits", "float",
            "--channels", "1"]
    assert guji(args + ["-o", "a.wav"], tmp_path).returncode == 0
    assert guji(args + ["-o", "b.wav"], tmp_path).returncode == 0
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes()
    x, rate = sf.read(tmp_path / "a.wav", dtype="float64")
    score = Score(load("lu"), Rite.TOUHU, 2.5)
    first = round(score.time(0) * rate)
    assert not np.any(x[:first]) and x[first] != 0          # the direct sound on its sample
    dry_mix = Mix(score, kit=_kit("dry"), rate=rate, channels=1)
    dry_end = dry_mix.frames
    assert dry_mix.gains == (1.0,) and Mix(score, kit=_kit("hall"), rate=rate, channels=1).gains == (1.0,)
    assert len(x) == dry_end + len(impulse_response("hall", rate, 1)) - 1
    # after the last stroke the hall rings on, falling, longer than the dry ring, to its end
    dry = np.zeros(len(x))
    dry[:dry_end] = dry_mix.array()[:, 0]
    step = rate * 3 // 10
    last = round(score.time(len(score) - 1) * rate) + step

    def decay(y):
        rms = [float(np.sqrt(np.mean(y[i:i + step] ** 2))) for i in range(last, len(y) - step, step)]
        return rms[:next(i for i, v in enumerate(rms) if v < 1e-6)]    # down to -120 dB

    wet_decay, dry_decay = decay(x), decay(dry)
    assert all(b < a for a, b in zip(wet_decay, wet_decay[1:]))
    assert len(wet_decay) > len(dry_decay) + 3               # rings a second longer, at least
    assert float(np.sqrt(np.mean(x[-step:] ** 2))) < 1e-6      # and has rung out at the end


_TRACED = """
import dataclasses, tracemalloc
from guji.sound.kit import default_kit
from guji.sound.mixer import Mix
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.score import Score
for repeat in (10, 200):
    score = Score(load("lu"), Rite.TOUHU, 0.3, repeat=repeat)
    tracemalloc.start()
    mix = Mix(score, kit=dataclasses.replace(default_kit(), room="hall"), rate=8000, channels=2)
    for _ in mix.blocks(4096):
        pass
    print(tracemalloc.get_traced_memory()[1])
    tracemalloc.stop()
"""


def test_memory_in_a_room_does_not_grow_with_the_length_of_the_piece():
    # in a child of its own: in the whole suite's process this failed once (a loaded
    # .ci/run; the numbers were not kept) though it passes alone and after
    # test_render: what earlier tests left cached is the likely cause
    run = subprocess.run([sys.executable, "-c", _TRACED], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    short, long = map(int, run.stdout.split())      # 36 s and 12 min
    assert long < short + 1_000_000, (short, long)


def test_a_users_impulse_response_file_is_the_room(tmp_path):
    ir = np.zeros((4000, 1))
    ir[0], ir[2400] = 1.0, 0.5                                # an echo 0.3 s later, at 8 kHz
    sf.write(tmp_path / "echo.wav", ir, 8000, subtype="FLOAT")
    score = Score(load("lu"), Rite.TOUHU, 1.0)
    dry = Mix(score, kit=_kit("dry"), rate=8000, channels=1)
    wet = Mix(score, kit=_kit(str(tmp_path / "echo.wav")), rate=8000, channels=1)
    x, y = dry.array()[:, 0] / dry.gains[0], wet.array()[:, 0] / wet.gains[0]
    want = np.zeros(len(y))
    want[:len(x)] += x
    want[2400:2400 + len(x)] += 0.5 * x
    assert np.max(np.abs(y - want)) < 1e-5


def test_a_room_that_is_not_one_is_one_line(tmp_path):
    run = guji(["render", "lu", "--room", "cathedral", "-o", "a.wav"], tmp_path)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "cathedral" in run.stderr and not (tmp_path / "a.wav").exists()
    (tmp_path / "bad.wav").write_bytes(b"RIFF....WAVEjunk")
    run = guji(["render", "lu", "--room", "bad.wav", "-o", "a.wav"], tmp_path)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "a.wav").exists()


def test_a_loop_in_a_room_rings_across_its_segments_as_one_render_would():
    from guji.sound.feed import SEGMENT_SECONDS, loop_feed
    from guji.timing.loop import Loop
    from guji.timing.performance import as_performance
    kit = dataclasses.replace(default_kit(8000), room="court")
    loop = Loop(as_performance(Score(load("lu"), Rite.TOUHU, 0.3)))
    feed = loop_feed(loop, kit=kit, rate=8000, channels=2, block_frames=1000)
    blocks = iter(feed.blocks)
    got = np.concatenate([next(blocks) for _ in range(200)])
    assert len(got) > 2 * SEGMENT_SECONDS * 8000               # two segment boundaries at least
    whole = Mix(loop.passes(0, 40), kit=kit, rate=8000, channels=2, gains=feed.gains)
    want = np.concatenate(list(whole.blocks(1000)))[:len(got)]
    assert np.max(np.abs(got - want)) < 1e-6


def test_a_file_libsndfile_cannot_read_is_named_without_a_python_repr(tmp_path):
    """soundfile's reason (``Error opening <_io.BufferedReader name='…'>: Format not
    recognised.``) is said without the file object's repr, for a room and a kit's sample."""
    from guji.errors import UsageError
    from guji.sound.kit import load_kit
    from guji.sound.room import room_response
    (tmp_path / "notes.txt").write_text("not audio at all")
    (tmp_path / "kit.toml").write_text('[small]\nsample = "notes.txt"\n')
    with pytest.raises(UsageError) as room:
        room_response(str(tmp_path / "notes.txt"), 8000, 2)
    with pytest.raises(UsageError) as kit:
        load_kit(tmp_path / "kit.toml", 8000)
    for said in (str(room.value), str(kit.value)):
        assert "notes.txt" in said and "Format not recognised" in said, said
        assert "<_io" not in said and "BufferedReader" not in said, said

"""Outputs that never clobber: how each kind of target is written (guji.files.writing).

* a regular file or a new name: atomically (no partial file, the old one
  intact, its permission bits kept);
* a symbolic link: its target, atomically; the link stays;
* a device or a FIFO: written directly, never replaced; ``-``: standard output;
* a directory, an empty name, a name that says another format: refused;
* a file-system error: one line with the path and the cause ("disk full").

Device nodes are made with mknod and a full file system is a small tmpfs:
both need root (as CI runs; elsewhere those tests skip).
"""

from __future__ import annotations

import io
import os
import pty
import select
import stat
import subprocess
import threading
from pathlib import Path

import mido
import numpy as np
import pytest
import soundfile as sf

from guji.cli.main import main
from guji.files import destination, writing
from guji.errors import UsageError
from guji.sound import riff
from guji.text.reading.editions import load
from guji.timing.layout import perform
from guji.timing.performance import Timing
from guji.sound.files import write_audio

import runner
import tools

RATE = ["--rate", "8000"]


def needs_root() -> None:
    if os.geteuid() != 0:
        tools.missing("root (to make device nodes and mount a small file system)",
                      "run as root, as .ci/run does")


def device(path: Path, major: int, minor: int) -> Path:
    """A character device node at *path* (1,3 is null, 1,7 is full)."""
    needs_root()
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
    return path


def is_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


# -- devices and FIFOs are written directly, never replaced --------------------------------

@pytest.mark.parametrize("args", [
    ["midi", "lu", "-o", "{node}"],
    ["render", "lu", *RATE, "-o", "{node}", "--format", "wav"],
    ["render", "lu", *RATE, "-o", "{node}"],                 # no extension: WAV
    ["render", "lu", *RATE, "-o", "{node}", "--format", "flac"],
    ["draw", "lu", "-o", "{node}"],
    ["compare", "lu:1", "lu:2", *RATE, "-o", "{node}"],
])
def test_a_device_is_written_to_not_replaced(tmp_path, args):
    # `guji midi lu -o /dev/null` (as root) once replaced the device node with a regular file
    node = device(tmp_path / "mynull", 1, 3)
    r = runner.guji([a.replace("{node}", str(node)) for a in args], tmp_path)
    assert r.returncode == 0, r.stderr
    assert is_device(node) and os.major(os.lstat(node).st_rdev) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mynull"]


class FifoReader:
    """Reads everything written to the FIFO *path* while a command runs.

    It holds both ends of the FIFO (``O_RDWR``), so the writer's open never
    blocks and the test cannot hang, even if the writer never comes; a
    thread drains it as it fills (a pipe holds 64 KiB); :meth:`data` waits
    for the last bytes once the command has returned.
    """

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self.chunks: list[bytes] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._drain)
        self.thread.start()

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                self.chunks.append(os.read(self.fd, 1 << 16))
            elif self.done.is_set():
                return

    def data(self) -> bytes:
        self.done.set()
        self.thread.join()
        os.close(self.fd)
        return b"".join(self.chunks)


@pytest.mark.parametrize("args, suffix", [
    (["midi", "lu:1", "lu:2"], ".mid"),
    (["render", "xue:2", *RATE], ".wav"),
    (["render", "xue:2", *RATE, "--bits", "24", "--channels", "1"], ".wav"),
    (["render", "xue:2", *RATE, "--bits", "float"], ".wav"),
    (["render", "xue:2", *RATE], ".ogg"),
    (["draw", "lu:1", "lu:1@wuli-tongkao"], ".svg"),
])
def test_a_fifo_gets_the_same_bytes_as_a_file(tmp_path, capsys, args, suffix):
    fifo = tmp_path / f"pipe{suffix}"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    assert main([*args, "-o", str(fifo)]) == 0
    got = reader.data()
    assert main([*args, "-o", str(tmp_path / f"file{suffix}")]) == 0
    assert got == (tmp_path / f"file{suffix}").read_bytes()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_flac_to_a_pipe_decodes_to_the_same_samples(tmp_path, capsys):
    # a stream cannot go back to fill in FLAC's STREAMINFO: the samples are the same
    fifo = tmp_path / "pipe.flac"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    assert main(["render", "xue:2", *RATE, "-o", str(fifo)]) == 0
    got = reader.data()
    assert main(["render", "xue:2", *RATE, "-o", str(tmp_path / "file.flac")]) == 0
    streamed, rate = sf.read(io.BytesIO(got), dtype="int16")
    whole, _ = sf.read(tmp_path / "file.flac", dtype="int16")
    assert rate == 8000 and np.array_equal(streamed, whole)


@pytest.mark.parametrize("args, suffix", [
    (["midi", "lu"], ".mid"),
    (["render", "lu", *RATE], ".wav"),
    (["render", "lu", *RATE, "--format", "ogg"], ".ogg"),
    (["draw", "lu"], ".svg"),
])
def test_dash_is_standard_output(tmp_path, args, suffix):
    piped = runner.guji([*args, "-o", "-"], tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert runner.guji([*args, "-o", f"file{suffix}"], tmp_path).returncode == 0
    assert piped.stdout == (tmp_path / f"file{suffix}").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"file{suffix}"]


def test_binary_data_is_not_sent_to_a_terminal(tmp_path):
    main_fd, terminal = pty.openpty()
    try:
        r = runner.guji(["midi", "lu", "-o", "-"], tmp_path, stdout=terminal)
    finally:
        os.close(terminal)
        os.close(main_fd)
    assert r.returncode == 2 and "standard output is a terminal" in r.stderr


# -- links, directories, names -------------------------------------------------------------

def test_a_symlink_is_followed_and_stays_a_link(tmp_path, capsys):
    # `-o link.mid` once replaced the link, not the file it points to
    real = tmp_path / "real.mid"
    real.write_bytes(b"old")
    link = tmp_path / "link.mid"
    link.symlink_to("real.mid")
    assert main(["midi", "lu", "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == "real.mid"
    assert mido.MidiFile(real).type == 1
    # a dangling link: the file it names is made
    dangling = tmp_path / "new.wav"
    dangling.symlink_to("made.wav")
    assert main(["render", "lu", *RATE, "-o", str(dangling)]) == 0
    assert dangling.is_symlink() and sf.info(tmp_path / "made.wav").samplerate == 8000
    assert runner.leftovers(tmp_path) == []


def test_an_existing_file_keeps_its_permission_bits(tmp_path, capsys):
    out = tmp_path / "shared.mid"
    out.write_bytes(b"old")
    out.chmod(0o640)
    assert main(["midi", "lu", "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


@pytest.mark.parametrize("args, message", [
    (["render", "lu", "-o", ""], "no file name given"),           # once wrote lu.wav
    (["midi", "lu", "-o", "x.txt"], "ends in .mid"),                # once wrote MIDI into x.txt
    (["render", "lu", "-o", "x.txt"], "extension .txt"),
    (["draw", "lu", "-o", "x.txt"], "must end in .svg or .png"),
    (["draw", "lu", "-o", "x.svg", "--format", "png"], "--format says png"),
    (["render", "lu", "-o", "."], "is a directory"),
    (["midi", "lu", "-o", "nodir/x.mid"], "no such directory"),
    (["render", "lu", "-o", "newdir/"], "newdir/: no such directory"),   # not a file 'newdir'
    (["compare", "lu:1", "lu:2", "-o", "-", "--json"], "both write to standard output"),
])
def test_a_target_that_cannot_be_written_is_refused_first(tmp_path, monkeypatch, capsys,
                                                           args, message):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_destination_decides_once():
    assert destination("-").streamed and destination("-").path is None
    with pytest.raises(UsageError, match="no file name"):
        destination("")
    buffer = io.BytesIO()
    with writing(buffer) as out:
        out.open().write(b"abc")
    assert buffer.getvalue() == b"abc" and not buffer.closed


# -- file-system errors: one line with the cause -------------------------------------------

@pytest.mark.parametrize("args", [
    ["render", "lu", *RATE, "--format", "wav"],
    ["render", "lu", *RATE, "--format", "flac"],
    ["render", "lu", *RATE, "--format", "ogg"],
    ["midi", "lu"],
    ["draw", "lu"],
])
def test_a_full_device_says_disk_full(tmp_path, args):
    # disk full once said `cannot write: System error.` for audio
    full = device(tmp_path / "full", 1, 7)
    r = runner.guji([*args, "-o", str(full)], tmp_path)
    assert r.returncode == 2 and r.err_lines == [f"guji: {full}: cannot write: disk full"]
    assert is_device(full)


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB file system (tmpfs), unmounted after the test."""
    needs_root()
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        tools.missing(f"a tmpfs mount ({done.stderr.strip()})", "run as root, as .ci/run does")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("name", ["lu.wav", "lu.flac", "lu.ogg"])
def test_a_full_disk_leaves_the_old_file_and_no_other(small_disk, capsys, name):
    out = small_disk / name
    out.write_bytes(b"the old file")
    assert main(["render", "lu", "--repeat", "40", "-o", str(out)]) == 2
    assert capsys.readouterr().err == f"guji: {out}: cannot write: disk full\n"
    assert out.read_bytes() == b"the old file"
    assert sorted(p.name for p in small_disk.iterdir()) == [name]


# -- WAV past 4 GiB -------------------------------------------------------------------------

def test_the_wav_header_switches_to_rf64_past_4_gib():
    # `render lu --repeat 3200 -o big.wav` once wrote a RIFF size of 0xFFFFFFFF:
    # readers stopped at 22,370 s of its 23,040 s
    frames = (2 ** 32 - 1 - 36) // 4                         # the last stereo 16-bit WAV
    assert not riff.is_rf64(frames, 2, "PCM_16") and riff.is_rf64(frames + 1, 2, "PCM_16")
    head = riff.header(frames + 1, 2, 48000, "PCM_16")
    assert head[:4] == b"RF64" and head[12:16] == b"ds64"
    riff_size, data_size, count = np.frombuffer(head[20:44], "<u8")
    assert data_size == (frames + 1) * 4 and count == frames + 1
    assert riff_size == len(head) - 8 + data_size
    big = 3200 * 12 * 0.6 * 48000                            # the finding's 23,040 s
    assert riff.is_rf64(round(big), 2, "PCM_16")


def test_an_rf64_file_reads_back_whole(tmp_path, monkeypatch):
    """The RF64 writer, end to end: the 4 GiB boundary lowered to a small file."""
    performance = perform(load("xue:2"), Timing(repeat=3))
    write_audio(tmp_path / "plain.wav", performance, rate=8000)
    monkeypatch.setattr(riff, "RIFF_MAX", 50_000)
    write_audio(tmp_path / "big.wav", performance, rate=8000)
    assert (tmp_path / "big.wav").read_bytes()[:4] == b"RF64"
    info = sf.info(tmp_path / "big.wav")
    assert info.format == "RF64"
    ours = riff.read_info(tmp_path / "big.wav")      # what guji reports the file holds
    assert (ours.format, ours.frames, ours.channels) == ("RF64", info.frames, info.channels)
    plain, _ = sf.read(tmp_path / "plain.wav", dtype="int16")
    big, _ = sf.read(tmp_path / "big.wav", dtype="int16")
    assert len(big) == info.frames == len(plain) and np.array_equal(big, plain)


def test_guji_wav_is_libsndfile_wav_byte_for_byte(tmp_path):
    """guji writes WAV itself (header first, for pipes and RF64): the same bytes
    libsndfile writes, for every sample format, mono and stereo, odd sizes padded."""
    rng = np.random.default_rng(7)
    for channels, subtype, frames in ((2, "PCM_16", 1001), (1, "PCM_24", 1001),
                                      (2, "PCM_24", 1000), (1, "FLOAT", 999)):
        x = (rng.random((frames, channels), dtype=np.float32) - 0.5).astype(np.float32)
        ours = io.BytesIO()
        writer = riff.WaveWriter(ours, frames, channels, 8000, subtype)
        scale = {"PCM_16": 32767.0, "PCM_24": 8388607.0}.get(subtype)
        encoded = x if scale is None else np.rint(x.astype(np.float64) * scale).astype(
            np.int16 if subtype == "PCM_16" else np.int32)
        writer.write(encoded)
        writer.close()
        with sf.SoundFile(tmp_path / "ref.wav", "w", 8000, channels, subtype, format="WAV") as f:
            if subtype == "FLOAT":
                sf._snd.sf_command(f._file, 0x1050, sf._ffi.NULL, 0)   # no PEAK chunk
            f.write(encoded if scale is None else encoded.astype(np.int32) << (
                8 if subtype == "PCM_24" else 16))
        assert ours.getvalue() == (tmp_path / "ref.wav").read_bytes(), (channels, subtype)


@pytest.mark.skipif(not hasattr(os, "writev"), reason="os.writev (POSIX)")
@pytest.mark.parametrize("subtype", ["PCM_16", "PCM_24", "FLOAT"])
@pytest.mark.parametrize("short", [False, True])
def test_blocks_written_together_are_the_blocks_written_one_by_one(tmp_path, monkeypatch,
                                                                   subtype, short):
    """``WaveWriter.write_all`` hands a batch of blocks to ``os.writev``: the bytes
    are those of ``write`` block by block, to a file and through a pipe. A short
    write (a signal, a full disk: not caused here for real, so *simulated* by
    an ``os.writev`` that writes at most 1,000 bytes of its first block a
    call) is finished by the next calls."""
    import threading
    if short:
        real, calls = os.writev, []

        def writev(fd, views):
            calls.append(1)
            assert len(calls) < 1000, "the short writes were never finished"
            return real(fd, [views[0][:1000]])
        monkeypatch.setattr(riff.os, "writev", writev)
    rng = np.random.default_rng(11)
    kind = {"PCM_16": np.int16, "PCM_24": np.int32, "FLOAT": np.float32}[subtype]
    blocks = [(rng.random((n, 2)) * 2000 - 1000).astype(kind) for n in (5000, 3000, 1, 7000)]
    frames = sum(len(b) for b in blocks)
    one_by_one = io.BytesIO()
    writer = riff.WaveWriter(one_by_one, frames, 2, 8000, subtype)
    for block in blocks:
        writer.write(block)
    writer.close()
    with open(tmp_path / "a.wav", "wb") as f:
        writer = riff.WaveWriter(f, frames, 2, 8000, subtype)
        writer.write_all(blocks[:2])
        writer.write_all(blocks[2:])
        writer.close()
    assert (tmp_path / "a.wav").read_bytes() == one_by_one.getvalue()
    read, write = os.pipe()
    got = []
    reader = threading.Thread(target=lambda: got.append(b"".join(iter(
        lambda: os.read(read, 65536), b""))))
    reader.start()
    with open(write, "wb") as f:
        writer = riff.WaveWriter(f, frames, 2, 8000, subtype)
        writer.write_all(blocks)
        writer.close()
    reader.join(timeout=60)
    os.close(read)
    assert got[0] == one_by_one.getvalue()


def test_the_wav_header_reads_back_as_libsndfile_reads_it(tmp_path):
    """guji reads a WAV's length from its header (the report after a render)
    without libsndfile: the same frames, rate, channels and sample format as
    soundfile.info, for guji's own WAVs and libsndfile's (a PEAK chunk, odd
    sizes); anything else is left to soundfile (None)."""
    rng = np.random.default_rng(3)
    for channels, subtype, frames in ((2, "PCM_16", 1001), (1, "PCM_24", 999), (2, "FLOAT", 7)):
        x = (rng.random((frames, channels)) - 0.5) * 0.5
        sf.write(tmp_path / "theirs.wav", x, 44100, subtype=subtype)     # with a PEAK chunk
        info = sf.info(tmp_path / "theirs.wav")
        assert riff.read_info(tmp_path / "theirs.wav") == riff.WaveInfo(
            info.frames, info.samplerate, info.channels, info.subtype, info.format)
    write_audio(tmp_path / "ours.wav", perform(load("lu"), Timing()), rate=22050, channels=1,
                subtype="PCM_24")
    info = sf.info(tmp_path / "ours.wav")
    assert riff.read_info(tmp_path / "ours.wav") == riff.WaveInfo(
        info.frames, 22050, 1, "PCM_24", "WAV")
    sf.write(tmp_path / "u8.wav", np.zeros(10), 8000, subtype="PCM_U8")
    sf.write(tmp_path / "x.flac", np.zeros(10), 8000)
    (tmp_path / "short.wav").write_bytes(b"RIFF\x00\x00")
    for other in ("u8.wav", "x.flac", "short.wav"):
        assert riff.read_info(tmp_path / other) is None

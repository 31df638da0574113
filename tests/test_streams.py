"""Audio down a pipe, a FIFO or standard output is a stream the format's own tools accept.

A stream cannot seek back, and libsndfile rewrites FLAC's STREAMINFO at the
end by seeking: guji once appended those 27 bytes after the last frame, and
``flac -t`` said ``LOST_SYNC`` (libsndfile, reading it back, did not mind).
Here every stream is checked by the format's own decoder — ``flac -t``
(libFLAC's decoder, which also checks the stated length) and ``ogginfo``
(the Ogg pages, their CRCs, the end-of-stream page) — not only by
libsndfile; and ``-o /dev/stdout`` is written exactly as ``-o -``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import runner
import tools

RATE = ["--rate", "8000"]
PIECE = ["render", "xue:2", *RATE]


#: What ``flac -t`` says of every stream: a stream's MD5 of the samples would have to be
#: written before the samples, so it is 0 ("unknown"), as the FLAC format allows.
NO_MD5 = "WARNING, cannot check MD5 signature since it was unset in the STREAMINFO"


def accepted(returncode: int, said: str) -> bool:
    """Whether a decoder's exit and words say the stream is good (the unset MD5 aside)."""
    said = "".join(line for line in said.splitlines(keepends=True) if NO_MD5 not in line)
    return returncode == 0 and "ERROR" not in said and "WARNING" not in said


def check(fmt: str, path) -> None:
    """The format's own decoder accepts the file or FIFO at *path*."""
    if fmt == "flac":
        proc = subprocess.run([tools.require("flac"), "-t", "-s", str(path)],
                              capture_output=True, text=True, timeout=120)
    else:
        proc = subprocess.run([tools.require("ogginfo"), str(path)],
                              capture_output=True, text=True, timeout=120)
    said = proc.stdout + proc.stderr
    assert accepted(proc.returncode, said), said


@pytest.mark.tools          # flac, ogginfo (check)
@pytest.mark.parametrize("fmt", ["flac", "ogg"])
def test_a_file_passes_the_formats_own_decoder(tmp_path, fmt):
    r = runner.guji([*PIECE, "-o", f"file.{fmt}"], tmp_path)
    assert r.returncode == 0, r.stderr
    check(fmt, tmp_path / f"file.{fmt}")


@pytest.mark.parametrize("fmt", ["flac", "ogg"])
def test_standard_output_into_a_pipe_passes_the_decoder(tmp_path, fmt, tool):
    decoder = ([tool("flac"), "-t", "-s", "-"] if fmt == "flac"
               else [tool("ogginfo"), "/dev/stdin"])
    guji = subprocess.Popen([sys.executable, "-m", "guji", *PIECE, "-o", "-", "--format", fmt],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=runner.environment())
    tool = subprocess.run(decoder, stdin=guji.stdout, capture_output=True, text=True,
                          timeout=120)
    guji.stdout.close()
    err = guji.communicate(timeout=120)[1].decode()
    assert guji.returncode == 0, err
    said = tool.stdout + tool.stderr
    assert accepted(tool.returncode, said), said


@pytest.mark.parametrize("fmt", ["flac", "ogg"])
def test_a_fifo_passes_the_decoder(tmp_path, fmt, tool):
    fifo = tmp_path / f"pipe.{fmt}"
    os.mkfifo(fifo)
    exe = tool("flac" if fmt == "flac" else "ogginfo")
    decoder = subprocess.Popen([exe, "-t", "-s", str(fifo)] if fmt == "flac" else [exe, str(fifo)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    r = runner.guji([*PIECE, "-o", fifo.name], tmp_path)
    said = decoder.communicate(timeout=120)[0]
    assert r.returncode == 0, r.stderr
    assert accepted(decoder.returncode, said), said


@pytest.mark.tools          # flac, ogginfo (check)
@pytest.mark.parametrize("fmt", ["flac", "ogg"])
def test_dash_into_a_file_passes_the_decoder(tmp_path, fmt):
    with open(tmp_path / f"out.{fmt}", "wb") as out:
        r = runner.guji([*PIECE, "-o", "-", "--format", fmt], tmp_path, stdout=out)
    assert r.returncode == 0, r.stderr
    check(fmt, tmp_path / f"out.{fmt}")


@pytest.mark.parametrize("args", [
    [*PIECE, "--format", "wav"], [*PIECE, "--format", "flac"], [*PIECE, "--format", "ogg"],
    ["midi", "lu:1", "lu:2"], ["draw", "lu:1"], ["compare", "lu:1", "lu:2", *RATE],
])
@pytest.mark.parametrize("into", ["pipe", "file"])
def test_dev_stdout_is_written_exactly_as_dash(tmp_path, args, into):
    # -o /dev/stdout into a file was once replaced by a new file (read back, rewritten)
    def run(name: str, target: str) -> bytes:
        if into == "pipe":
            r = runner.guji([*args, "-o", target], tmp_path)
            assert r.returncode == 0, r.stderr
            return r.stdout
        with open(tmp_path / name, "wb") as out:
            r = runner.guji([*args, "-o", target], tmp_path, stdout=out)
        assert r.returncode == 0, r.stderr
        return (tmp_path / name).read_bytes()

    dash, dev = run("dash", "-"), run("dev", "/dev/stdout")
    assert dash == dev and len(dash) > 100
    if into == "file":
        assert sorted(p.name for p in tmp_path.iterdir()) == ["dash", "dev"]

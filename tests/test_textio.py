"""Encodings are detected; files are written atomically."""

from __future__ import annotations

import os

import pytest

from guji.text.reading.editions import edition
from guji.errors import EncodingError
from guji.text.reading.scan import scan
from guji.files import atomic_path
from guji.text.reading.encoding import decode, read_text

TRAD = edition("liji-zhengyi").text()      # traditional characters
SIMP = edition("lijing-benyi").text()      # simplified characters
# Big5 has no NO-BREAK SPACE (the passage's blank lines hold U+00A0): a Big5
# file of this text would have plain spaces there.
TRAD_BIG5 = TRAD.replace("\xa0", " ")


def patterns(text):
    return [(p.tradition.value, p.diagram, p.notation()) for p in scan(text).patterns]


@pytest.mark.parametrize("text, encoding, detected", [
    (TRAD, "utf-8", "utf-8"),
    (TRAD, "utf-8-sig", "utf-8-sig"),
    (TRAD, "utf-16", "utf-16"),
    (TRAD, "utf-16-be", None),   # written with an explicit BOM below
    (TRAD_BIG5, "big5", "big5"),
    (TRAD, "gb18030", "gb18030"),
    (SIMP, "gb18030", "gb18030"),
])
def test_detects_encoding(text, encoding, detected):
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + text.encode("utf-16-be")
        detected = "utf-16"
    else:
        data = text.encode(encoding)
    decoded, used = decode(data)
    assert used == detected
    assert decoded == text
    assert len(patterns(decoded)) == 4


def test_forced_encoding_and_its_errors():
    data = TRAD_BIG5.encode("big5")
    assert decode(data, "big5")[0] == TRAD_BIG5
    with pytest.raises(EncodingError, match="not valid utf-8"):
        decode(data, "utf-8", "f.txt")
    with pytest.raises(EncodingError, match="unknown encoding"):
        decode(data, "klingon")


def test_nothing_fits():
    with pytest.raises(EncodingError, match="--encoding"):
        decode(b"\x80\x80\x80\xff", filename="bad.txt")


def test_read_text_missing_and_directory(tmp_path):
    with pytest.raises(EncodingError, match="no such file"):
        read_text(tmp_path / "missing.txt")
    with pytest.raises(EncodingError, match="directory"):
        read_text(tmp_path)


def test_atomic_path_renames_on_success_and_cleans_up_on_interrupt(tmp_path):
    target = tmp_path / "out.wav"
    with atomic_path(target) as tmp:
        # a name that is guji's, with no real extension: nothing takes it for a finished file
        name = os.path.basename(tmp)
        assert name.startswith(".out.wav.") and name.endswith(".guji-tmp")
        assert os.path.dirname(tmp) == str(tmp_path)
        with open(tmp, "wb") as f:
            f.write(b"done")
    assert target.read_bytes() == b"done"
    assert oct(target.stat().st_mode & 0o777) != oct(0o600)
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as tmp:
            with open(tmp, "wb") as f:
                f.write(b"half")
            raise KeyboardInterrupt
    assert target.read_bytes() == b"done"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.wav"]


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030"])
def test_a_named_pipe_is_read_once_to_its_end(tmp_path, encoding):
    """``guji scan FIFO`` reads the pipe once: the bytes it looked at first (for
    a NUL, a BOM) are kept, not read again from a pipe whose writer has gone
    (it once opened the pipe a second time and waited there for ever)."""
    import subprocess
    import sys
    import threading
    fifo = tmp_path / "notes.txt"
    os.mkfifo(fifo)
    text = "序" * 5000 + "\n魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n"    # past the first 8 KiB looked at

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(text.encode(encoding))
    threading.Thread(target=write, daemon=True).start()
    try:
        r = subprocess.run([sys.executable, "-m", "guji", "scan", str(fifo)], cwd=tmp_path,
                           capture_output=True, timeout=60, env=dict(os.environ, GUJI_LANG="en"))
    except subprocess.TimeoutExpired:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))   # the writer, if still waiting
        pytest.fail("guji scan of a named pipe still waiting after 60 s")
    assert r.returncode == 0, r.stderr.decode()
    assert "2:4  ○□○○□□○○半○□○○□○○○○□○□○" in r.stdout.decode(), r.stdout.decode()
    assert f"({encoding})" in r.stdout.decode()

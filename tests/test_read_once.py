"""A text file named by several ids of one command is read once.

A named pipe gives its text once: ``guji show lu@p xue@p`` opened it again
for the second id and waited for a writer that never came (``show``,
``diff`` and ``page`` never ended). A regular file was read and scanned
again for each id.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from guji.text.reading import editions

import runner

LU = "魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n"
XUE = "薛鼓 ○○□○○○□□○半□○□○□□○○□○□○\n"


@pytest.mark.parametrize("command", [["show"], ["diff"]])
def test_two_ids_naming_one_named_pipe_end(tmp_path, command):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    pipe = tmp_path / "p"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "w", encoding="utf-8") as f:    # waits for guji to open it
            f.write(LU + XUE)
    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        r = subprocess.run([sys.executable, "-m", "guji", *command, "lu@p", "xue@p"],
                           cwd=tmp_path, capture_output=True, env=runner.environment(),
                           stdin=subprocess.DEVNULL, timeout=60)
    finally:
        if writer.is_alive():            # guji never opened it: let the writer go
            os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))
    out = r.stdout.decode()
    assert r.returncode in (0, 1), r.stderr.decode()       # diff: 1, the readings differ
    assert "lu:1@p" in out and "xue:1@p" in out


def test_a_file_named_twice_is_read_once_and_read_again_once_changed(tmp_path, monkeypatch):
    text = tmp_path / "t.txt"
    text.write_text(LU + XUE, encoding="utf-8")
    reads = []
    real = editions.read_text
    monkeypatch.setattr(editions, "read_text", lambda *a: reads.append(a) or real(*a))
    a = editions.load(f"lu@{text}")
    b = editions.load(f"xue@{text}")
    assert len(reads) == 1
    assert (a.notation(), b.notation()) == ("○□○○□□○○半○□○○□○○○○□○□○", "○○□○○○□□○半□○□○□□○○□○□○")
    text.write_text(XUE + LU.replace("○□○○□□○○半", "□□○○□□○○半"), encoding="utf-8")
    assert editions.load(f"lu@{text}").notation() == "□□○○□□○○半○□○○□○○○○□○□○"
    assert len(reads) == 2


def test_collate_reads_a_named_pipe_once(tmp_path):
    # it read the file again for its digest: on a named pipe, waiting for a writer forever
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    pipe = tmp_path / "in.txt"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_text(LU + XUE, encoding="utf-8"),
                              daemon=True)
    writer.start()
    try:
        r = subprocess.run([sys.executable, "-m", "guji", "collate", "in.txt", "--json"],
                           cwd=tmp_path, capture_output=True, env=runner.environment(),
                           stdin=subprocess.DEVNULL, timeout=60)
    finally:
        if writer.is_alive():
            os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))
    assert r.returncode == 0, r.stderr.decode()
    assert '"in"' in r.stdout.decode()


def test_a_file_s_digest_is_of_its_bytes(tmp_path):
    import hashlib
    from guji.text.collation.corpus import file_text
    text = tmp_path / "t.txt"
    text.write_bytes(b"\xef\xbb\xbf" + (LU + XUE).encode())
    assert file_text(str(text)).sha256 == hashlib.sha256(text.read_bytes()).hexdigest()

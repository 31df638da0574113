"""Any name, any character: shown with escapes, written where the file system allows, XML well formed.

From the fault sweep of issue 20: bytes that are not UTF-8 in an argument or
a file name gave ``UnicodeEncodeError … surrogates not allowed`` tracebacks
(midi, compare, render to FLAC/OGG, page); U+FFFE / U+FFFF in a witness name,
a file name or ``--title`` made MusicXML and SVG that were not well-formed;
names over 255 bytes gave tracebacks (midi, page, ``--kit``, demo); a block
device given as ``-o`` was written over; ``--force`` with ``lu@/dev/zero``
ended in ``MemoryError``; and some messages were not true.
"""

from __future__ import annotations

import os
import stat
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import mido
import pytest
import soundfile as sf

import runner
from test_limits import refused

FF = os.fsdecode(b"\xff")                 # the byte 0xff, as Python holds it in a name
SEED = Path(__file__).parent / "data" / "seeds" / "004_c01987349620dc35.txt"


def ok(r: runner.Run) -> None:
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


# -- bytes that are not UTF-8 ------------------------------------------------------------

@pytest.mark.parametrize("args, made", [
    (["midi", "lu", "--title", FF, "-o", "a.mid"], b"a.mid"),
    (["midi", "lu@bad" + FF + ".txt", "-o", "b.mid"], b"b.mid"),
    (["midi", "lu", "-o", FF + ".mid"], b"\xff.mid"),
    (["render", "lu", "-o", FF + ".flac"], b"\xff.flac"),
    (["render", "lu", "-o", FF + ".ogg"], b"\xff.ogg"),
    (["render", "lu@bad" + FF + ".txt", "-o", "c.flac"], b"c.flac"),
    (["compare", "lu:1", "lu:1@bad" + FF + ".txt", "-o", "d.wav"], b"d.mid"),
    (["compare", "lu:1", "lu:1@wuli-tongkao", "-o", FF + ".flac"], b"\xff.flac"),
    (["page", "lu:1", "lu:1@bad" + FF + ".txt", "-o", "site"], b"site"),
    (["page", "lu:1", "lu:1@wuli-tongkao", "-o", FF], b"\xff"),
    (["sheet", "lu@bad" + FF + ".txt", "--title", FF, "-o", "s.musicxml"], b"s.musicxml"),
    (["sheet", "lu", "-o", FF + ".svg"], b"\xff.svg"),
    (["draw", "lu@bad" + FF + ".txt", "-o", "d.svg"], b"d.svg"),
])
def test_a_name_that_is_not_utf8_is_written_and_shown_with_escapes(tmp_path, args, made):
    (tmp_path / os.fsdecode(b"bad\xff.txt")).write_bytes(SEED.read_bytes())
    r = runner.guji(args, tmp_path)
    ok(r)
    assert made in os.listdir(os.fsencode(tmp_path))
    assert FF not in r.stderr and "\ufffd" not in r.stderr     # shown as \xff, if at all
    target = tmp_path / os.fsdecode(made)
    if made.endswith(b".mid"):
        names = [m.name for t in mido.MidiFile(target, charset="utf-8").tracks for m in t
                 if m.type == "track_name"]
        assert all("\udcff" not in n for n in names)
    if made.endswith((b".flac", b".ogg")):
        with open(target, "rb") as f:
            assert sf.info(f).frames > 0
    if made.endswith((b".musicxml", b".svg")):
        ET.parse(target)


def test_a_message_shows_the_bytes_escaped(tmp_path):
    r = runner.guji(["show", "lu@nosuch" + FF + ".txt"], tmp_path)
    refused(r, "nosuch\\xff.txt: no such file")


# -- characters XML forbids ----------------------------------------------------------------

NONCHAR = "\ufffe"


@pytest.fixture
def odd_witness(tmp_path):
    name = f"w{NONCHAR}.txt"
    (tmp_path / name).write_text("魯鼓\n○□○○□□○□(宋\uffff本作○)○○□半○□○□○○○○□○\n",
                                 encoding="utf-8")
    return f"lu:1@{name}", f"lu:1@{name}~宋\uffff本"


@pytest.mark.parametrize("out", ["s.musicxml", "s.mxl", "s.svg"])
def test_sheet_music_of_any_name_is_well_formed_xml(tmp_path, odd_witness, out):
    pytest.importorskip("verovio") if out.endswith(".svg") else None
    r = runner.guji(["sheet", odd_witness[1], "--title", "t\uffff\x01\x1b", "-o", out], tmp_path)
    ok(r)
    if out.endswith(".mxl"):
        with zipfile.ZipFile(tmp_path / out) as z:
            for member in z.namelist():
                if member.endswith((".xml", ".musicxml")):
                    ET.fromstring(z.read(member))
    else:
        root = ET.parse(tmp_path / out).getroot()
        assert "U+FFFF" in ET.tostring(root, encoding="unicode")


def test_drawings_and_pages_of_any_name_are_well_formed(tmp_path, odd_witness):
    ok(runner.guji(["draw", *odd_witness, "-o", "d.svg"], tmp_path))
    text = ET.tostring(ET.parse(tmp_path / "d.svg").getroot(), encoding="unicode")
    assert "U+FFFE" in text and NONCHAR not in text
    ok(runner.guji(["page", *odd_witness, "-o", "site", "--modes", "sequence"], tmp_path))
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "U+FFFE" in html and NONCHAR not in html and "\uffff" not in html


def test_a_witness_whose_name_holds_a_tilde_can_be_cited(tmp_path):
    (tmp_path / "t.txt").write_text("魯鼓\n○□○○□□○□(宋~本作○)○○□半○□○□○○○○□○\n",
                                    encoding="utf-8")
    r = runner.guji(["collate", "t.txt"], tmp_path)
    ok(r)
    assert "t~宋~本" in r.stdout.decode("utf-8")
    r = runner.guji(["show", "lu@t.txt~宋~本"], tmp_path)
    ok(r)
    assert "○□○○□□○○○○□半" in r.stdout.decode("utf-8")


# -- names too long, devices, file systems -------------------------------------------------

LONG = "x" * 300


@pytest.mark.parametrize("args", [
    ["midi", "lu", "-o", LONG + ".mid"],
    ["page", "lu:1", "lu:1@wuli-tongkao", "-o", LONG],
    ["page", "lu:1", "lu:1@wuli-tongkao", "--single-file", "-o", LONG + ".html"],
    ["render", "lu", "--kit", LONG, "-o", "a.wav"],
    ["render", "lu", "--kit", LONG + ".toml", "-o", "a.wav"],
    ["show", "lu@" + LONG + ".txt"],
])
def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path, args):
    refused(runner.guji(args, tmp_path), "file name too long")
    assert os.listdir(tmp_path) == []


def test_the_demo_into_a_name_too_long_ends_in_one_line(tmp_path):
    # --write: with a sound device (a desktop's sound server) the demo plays and writes nothing
    r = runner.guji(["demo", "--write", "-o", LONG], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.err_lines[-1].endswith(": cannot make the folder: file name too long")
    assert os.listdir(tmp_path) == []


def test_force_with_an_endless_input_is_one_line(tmp_path):
    r = runner.guji(["show", "lu@/dev/zero", "--force"], tmp_path, memory_bytes=3 * 2 ** 30)
    refused(r, "/dev/zero: over 1 GiB")
    # and where memory runs out first, that is one line too
    r = runner.guji(["show", "lu@/dev/zero", "--force"], tmp_path, memory_bytes=600 * 2 ** 20)
    refused(r, "/dev/zero: ran out of memory")


def test_a_block_device_is_never_written(tmp_path):
    disk = tmp_path / "disk"
    try:      # a loop device number no kernel has made: even a bug could not reach a disk
        os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 250))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD") if os.environ.get("CI") != "true" \
            else pytest.fail("CI must be able to make a device node (run as root)")
    for args in (["render", "lu"], ["midi", "lu"], ["draw", "lu"]):
        r = runner.guji([*args, "-o", "disk"], tmp_path)
        refused(r, "disk: is a block device", "character devices, named pipes and sockets")
    assert stat.S_ISBLK(os.lstat(disk).st_mode)
    ok(runner.guji(["render", "lu", "-o", "/dev/null"], tmp_path))   # a character device


def test_a_link_into_a_missing_folder_says_so(tmp_path):
    os.symlink("gone/x.wav", tmp_path / "link.wav")
    r = runner.guji(["render", "lu", "-o", "link.wav"], tmp_path)
    refused(r, "link.wav: a link to 'gone/x.wav'", "no such directory", "gone'")
    assert "'.'" not in r.stderr


@pytest.fixture
def read_only(tmp_path):
    """A real read-only file system holding out.wav (a tmpfs, remounted read-only)."""
    where = tmp_path / "ro"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                             capture_output=True).returncode == 0
    if not mounted:
        pytest.skip("mounting a tmpfs needs root")
    try:
        (where / "out.wav").write_bytes(b"old")
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_a_read_only_file_system_is_named_as_such(tmp_path, read_only):
    for target in ("ro/out.wav", "ro/new.wav"):
        r = runner.guji(["render", "lu", "-o", target], tmp_path)
        refused(r, f"{target}: cannot write: read-only file system")
    assert (read_only / "out.wav").read_bytes() == b"old"

"""No local absolute path of a user's text leaves the machine: every writer
(the MEI and TEI editions, MusicXML, LilyPond, MIDI track names, the page,
SVG, and the JSON of show and collate) names a file given by its absolute path by the path relative to the current folder, or by its name
alone when the file is elsewhere (guji.text.reading.bibl.cited)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GUJI = str(Path(sys.executable).with_name("guji"))
DATA = Path(__file__).parent / "data"

WRITERS = {
    "mei": ["edition", "{A}", "-o", "{O}/e.mei"],
    "tei": ["edition", "{A}", "-o", "{O}/e.tei.xml"],
    "musicxml": ["sheet", "lu@{A}", "-o", "{O}/s.musicxml"],
    "lilypond": ["sheet", "lu@{A}", "-o", "{O}/s.ly"],
    "midi": ["midi", "lu@{A}", "-o", "{O}/m.mid"],
    "page": ["page", "lu@{A}", "-o", "{O}/p.html", "--single-file"],
    "svg": ["draw", "lu@{A}", "-o", "{O}/d.svg"],
    "show-json": ["show", "lu@{A}", "--json"],
    "collate-json": ["collate", "{A}", "--json"],
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_no_absolute_path_of_a_user_file_in_any_output(writer, tmp_path):
    texts = tmp_path / "private" / "texts"
    texts.mkdir(parents=True)
    mine = texts / "yishu.txt"
    shutil.copy(DATA / "user-texts" / "18-variant-note-paren.txt", mine)
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "cwd"        # the file is outside the current folder
    elsewhere.mkdir()
    args = [a.format(A=str(mine), O=str(out)) for a in WRITERS[writer]]
    proc = subprocess.run([GUJI, *args], cwd=elsewhere, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    written = [proc.stdout] + [f.read_bytes() for f in out.iterdir()]
    assert any(b"yishu" in w for w in written), writer      # the file is named …
    for data in written:
        assert str(texts).encode() not in data, writer      # … never by its local path
        assert str(texts).encode("utf-16-be") not in data, writer

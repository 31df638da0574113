"""Sheet music engraved and read by real, independent programs.

* MuseScore 3 converts guji's MusicXML to PDF, and its own MusicXML export
  of the import keeps every note;
* LilyPond compiles guji's ``.ly`` to PDF without a warning, and the page,
  rendered to pixels by pdftoppm, has ink where the music is;
* verovio's SVG (what ``guji sheet -o x.svg`` writes) is well-formed XML
  with one note head per stroke and click, the source glyphs in order.

A missing program fails the test under CI and skips it elsewhere
(tests/tools.py). ``GUJI_SHEET_OUT=DIR`` keeps the files made, to look at.
"""

from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import music21
import numpy as np
import pytest

from guji.cli.main import main
from guji.sheet import render_sheet, run_lilypond, sheet_of, to_lilypond, to_musicxml, to_svg
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.layout import lay_out
from guji.timing.performance import Timing, Voice

try:
    from tools import mscore, require
except ModuleNotFoundError:  # pragma: no cover - tests/ made a package
    from tests.tools import mscore, require

SVG_G = "{http://www.w3.org/2000/svg}g"


def layout(ids, rite=Rite.SHE, repeat=1, count_in=0, stacked=False):
    return lay_out([load(i) for i in ids], Timing(rite, 0.6, repeat, count_in), stacked=stacked)


EXAMPLES = {
    "lu-she-x3-count-in": lambda: layout(["lu"], Rite.SHE, repeat=3, count_in=4),
    "lu-xue-in-turn": lambda: layout(["lu", "xue"], Rite.TOUHU, repeat=2, count_in=2),
    "stacked-minus-gu-ghost": lambda: layout(["lu", "xue:2"], Rite.SHE, repeat=2,
                                             stacked=True).muting("鼓", ghost=True),
}


def keep(tmp_path: Path, name: str, data: bytes | str) -> Path:
    """Write *data* under tmp_path (and into $GUJI_SHEET_OUT when set)."""
    for folder in filter(None, [tmp_path, os.environ.get("GUJI_SHEET_OUT")]):
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return tmp_path / name


# --- MuseScore 3 --------------------------------------------------------------------------

@pytest.mark.tools          # MuseScore 3 (tools.mscore)
@pytest.mark.parametrize("name", EXAMPLES)
def test_musescore_engraves_the_musicxml_and_keeps_every_note(name, tmp_path):
    sheet = sheet_of(EXAMPLES[name]())
    source = keep(tmp_path, f"{name}.musicxml", to_musicxml(sheet))
    pdf = tmp_path / f"{name}-musescore.pdf"
    done = mscore(["-o", str(pdf), str(source)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert pdf.read_bytes()[:5] == b"%PDF-"
    keep(tmp_path, pdf.name, pdf.read_bytes())
    export = tmp_path / f"{name}-musescore.musicxml"
    done = mscore(["-o", str(export), str(source)], tmp_path)
    assert done.returncode == 0, done.stderr
    score = music21.converter.parse(export)
    assert len(score.parts) == len(sheet.staves)
    for k, part in enumerate(score.parts):
        written = [n for n in sheet.notes(k) if not n.is_rest]
        assert len(list(part.recurse().notes)) == len(written)
        played = [n for n in sheet.notes(k, played=True) if not n.is_rest]
        assert len(list(part.expandRepeats().recurse().notes)) == len(played)


@pytest.mark.tools          # MuseScore 3 (tools.mscore)
def test_musescore_reads_the_mxl(tmp_path):
    sheet = sheet_of(EXAMPLES["lu-she-x3-count-in"]())
    source = keep(tmp_path, "lu.mxl", render_sheet(sheet, ".mxl"))
    export = tmp_path / "re.musicxml"
    done = mscore(["-o", str(export), str(source)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(re.findall(r"<note[ >]", export.read_text(encoding="utf-8"))) == 4 + 23


# --- LilyPond -----------------------------------------------------------------------------

def ink(pdf: Path, tmp_path: Path) -> np.ndarray:
    """Page 1 of *pdf* as grey pixels (0 black … 255 white), by pdftoppm at 50 dpi."""
    exe = require("pdftoppm")
    subprocess.run([exe, "-gray", "-r", "50", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(tmp_path / "page")], check=True, capture_output=True, timeout=120)
    data = (tmp_path / "page.pgm").read_bytes()
    magic, width, height, top, pixels = re.match(rb"(P5)\s+(\d+)\s+(\d+)\s+(\d+)\s(.*)", data,
                                                 re.S).groups()
    return np.frombuffer(pixels, np.uint8).reshape(int(height), int(width))


@pytest.mark.parametrize("name", ["lu-she-x3-count-in", "stacked-minus-gu-ghost"])
def test_lilypond_compiles_the_source_without_a_warning(name, tmp_path, tool):
    tool("lilypond")
    sheet = sheet_of(EXAMPLES[name]())
    result = run_lilypond(to_lilypond(sheet))
    assert result.warnings == [], result.log
    assert "warning" not in result.log.lower()
    pdf = keep(tmp_path, f"{name}-lilypond.pdf", result.pdf)
    assert result.pdf[:5] == b"%PDF-"
    page = ink(pdf, tmp_path)
    assert page.shape == (585, 414)                     # A4 at 50 dpi
    dark = page < 128
    # ink in the heading and in the music (the upper third), and a white margin
    assert dark[:60].any() and dark[60:300].sum() > 2000
    assert not dark[:, :8].any() and not dark[:, -8:].any()


# --- verovio ------------------------------------------------------------------------------

def classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(SVG_G) if cls in (g.get("class") or "").split()]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_svg_has_one_note_head_per_stroke_and_the_glyphs_in_order(name, tmp_path):
    sheet = sheet_of(EXAMPLES[name]())
    svg = to_svg(sheet)
    keep(tmp_path, f"{name}.svg", svg)
    root = ET.fromstring(svg)                                  # well-formed
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # verovio draws measure by measure, staff by staff within each
    written = [n for m in sheet.measures for k in range(len(sheet.staves))
               for n in m.notes[k] if not n.is_rest]
    assert len(classed(root, "notehead")) == len(written)
    assert len(classed(root, "note")) == len(written)
    strokes = [n for n in written if n.voice in (Voice.SMALL, Voice.BIG)]
    assert len(strokes) == sum(n.voice is not Voice.CLICK for n in written)
    syllables = ["".join(g.itertext()).strip() for g in classed(root, "syl")]
    assert syllables == [n.glyph for n in strokes]
    heading = "".join(classed(root, "guji-heading")[0].itertext())
    assert sheet.title in heading and sheet.credits[0] in heading
    rests = sum(m.rests(k) for m in sheet.measures for k in range(len(sheet.staves)))
    assert len(classed(root, "mRest")) == rests


def test_the_glyphs_stand_over_their_notes(tmp_path):
    """Every syllable at the same offset from its note head, the last before a
    bar of rests too (verovio moves that one: guji puts it back)."""
    svg = to_svg(sheet_of(EXAMPLES["lu-xue-in-turn"]()))
    root = ET.fromstring(svg)
    offsets = set()
    for note in classed(root, "note"):
        syllable = classed(note, "syl")
        if not syllable:
            continue
        head = classed(note, "notehead")[0][0]
        x = int(re.match(r"translate\((-?\d+)", head.get("transform")).group(1))
        offsets.add(int(syllable[0][0].get("x")) - x)
    assert len(offsets) == 1


def test_guji_sheet_writes_svg_and_pdf(tmp_path, capsys, tool):
    tool("lilypond")
    for suffix in (".svg", ".pdf"):
        out = tmp_path / f"lu{suffix}"
        assert main(["sheet", "lu", "--rite", "she", "--count-in", "2", "-o", str(out)]) == 0
        assert capsys.readouterr().err.startswith(f"wrote {out}: 3 bars; 23 strokes")
    assert (tmp_path / "lu.pdf").read_bytes()[:5] == b"%PDF-"
    assert ET.parse(tmp_path / "lu.svg").getroot().tag.endswith("svg")


@pytest.mark.tools          # MuseScore 3 (tools.mscore)
def test_musescore_imports_the_midi_file_with_the_sheets_bars(tmp_path):
    """The same bar lines in MIDI and sheet, as MuseScore 3 sees the MIDI file:
    its bars are the sheet's bars played out (the ring bar, empty, it drops;
    the short count-in bar it reads as a pick-up: its length counts)."""
    from guji.midi import write_midi
    perf = EXAMPLES["lu-xue-in-turn"]()
    sheet = sheet_of(perf)
    midi = write_midi(tmp_path / "lu-xue.mid", perf)
    export = tmp_path / "from-midi.musicxml"
    done = mscore(["-o", str(export), str(midi)], tmp_path)
    assert done.returncode == 0, done.stderr
    part = music21.converter.parse(export).parts[0]
    measures = [m.duration.quarterLength for m in part.getElementsByClass(music21.stream.Measure)]
    played = [m.beats for m in sheet.played()]
    assert measures[:len(played)] == played
    assert measures[len(played):] in ([], [4])          # the ring bar, if kept


@pytest.mark.tools          # MuseScore 3 (tools.mscore)
def test_musescore_plays_the_big_drum_louder_than_the_small_one(tmp_path):
    """guji's MIDI strikes 鼓 at 112 and 鼙 at 80: the MusicXML carries that
    (each note's ``dynamics``, percent of 90), so MuseScore 3's MIDI of it
    has every 鼓 stroke louder than every 鼙 stroke, at guji's velocities."""
    import mido
    from guji.midi.gm import DEFAULT_KEYS, DEFAULT_VELOCITIES
    sheet = sheet_of(EXAMPLES["lu-xue-in-turn"]())
    source = keep(tmp_path, "lu-xue.musicxml", to_musicxml(sheet))
    out = tmp_path / "lu-xue-musescore.mid"
    done = mscore(["-o", str(out), str(source)], tmp_path)
    assert done.returncode == 0, done.stderr
    velocities: dict[int, set[int]] = {}
    for msg in mido.MidiFile(out):
        if msg.type == "note_on" and msg.velocity > 0:
            velocities.setdefault(msg.note, set()).add(msg.velocity)
    big = velocities[DEFAULT_KEYS[Voice.BIG]]
    small = velocities[DEFAULT_KEYS[Voice.SMALL]]
    assert min(big) > max(small), (big, small)
    for voice, played in ((Voice.BIG, big), (Voice.SMALL, small)):
        assert all(abs(v - DEFAULT_VELOCITIES[voice]) <= 2 for v in played), (voice, played)

"""MusicXML 4.0: the sheet for notation programs (MuseScore, Finale, Dorico,
Sibelius, music21, verovio).

:func:`to_musicxml` writes partwise MusicXML 4.0 text, :func:`to_mxl` the
same compressed (``.mxl``: a zip with a ``META-INF/container.xml``).

* Each staff is a ``<part>`` with a percussion clef and three
  ``<score-instrument>``\\ s — 鼙, 鼓 and the click — each on MIDI channel
  10 with its General MIDI key (``<midi-unpitched>`` counts from 1: key + 1),
  the keys of ``guji midi``.
* Notes are ``<unpitched>`` quarter notes at the places of
  :data:`guji.sheet.layout.POSITIONS`, each naming its instrument; the
  source glyph of each stroke is a lyric syllable (over the staff by
  default). Each note's ``dynamics`` is its MIDI velocity as a percent of
  90 (MusicXML's forte): 鼓 at 112 is 124.44, 鼙 at 80 is 88.89, so a
  program plays 鼓 louder, as ``guji midi`` does. A staff resting a whole measure has one measure rest.
* The first measure has the tempo: the words 間若一 and ♩ = 60 ÷ interval.
  半 is a double bar line and a boxed rehearsal mark; a repeat is a pair of
  repeat bar lines with ``times`` and the words ×N.
* The title, the subtitle (how it is played) and the credits (editions and
  where the strokes stand in them) are ``<credit>``\\ s on page 1, and the
  title and sources are in ``<work>``, ``<movement-title>`` and
  ``<identification>`` too.

Part names are Latin first (``<part-name>``: programs list it in menus;
MuseScore 3 turns Chinese there into question marks); the Chinese names are
printed (``<part-name-display>``). Instrument names too: ``Small drum 鼙``.
The output has no date: the same sheet gives the same bytes.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

from .. import __version__
from ..errors import xml_text
from ..midi.gm import DEFAULT_VELOCITIES
from ..timing.performance import Voice
from .layout import (HEADS, POSITIONS, bpm_text, check_glyphs, repeat_text, time_changes,
                     title_lines)
from .model import Measure, Sheet

DOCTYPE = ('<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" '
           '"http://www.musicxml.org/dtds/partwise.dtd">')

#: The instruments of every part, in order (ids ``P1-I1`` …), and their names.
INSTRUMENTS: tuple[tuple[Voice, str], ...] = (
    (Voice.SMALL, "Small drum 鼙"), (Voice.BIG, "Big drum 鼓"), (Voice.CLICK, "Click"))

#: Serif CJK font for every word (traditional character shapes: the sources are 繁體).
CJK_SERIF = "Noto Serif CJK TC"

# A4 in tenths, a staff 7 mm high (40 tenths)
_MM_PER_STAFF = 7.0
PAGE_WIDTH = round(210 / _MM_PER_STAFF * 40)      # 1200
PAGE_HEIGHT = round(297 / _MM_PER_STAFF * 40)     # 1697
MARGIN = 85

#: The height of a line of the title (20 pt), in tenths.
_TITLE_LINE = 30

_BAR_STYLES = {"double": "light-light", "final": "light-heavy", "repeat-end": "light-heavy"}


def note_dynamics(voice: Voice) -> str:
    """The ``dynamics`` attribute of a note of *voice*: its MIDI velocity
    (:data:`guji.midi.gm.DEFAULT_VELOCITIES`) as a percent of 90, the
    velocity MusicXML takes for 100."""
    return f"{DEFAULT_VELOCITIES[voice] / 90 * 100:.2f}"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrib) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.replace("_", "-"): xml_text(str(v))
                                          for k, v in attrib.items()})
    if text is not None:
        element.text = xml_text(text)     # any name, well-formed XML
    return element


def to_musicxml(sheet: Sheet, *, glyphs: str = "above", credits: bool = True) -> str:
    """*sheet* as MusicXML 4.0 partwise text (an XML declaration and the DOCTYPE first).

    *glyphs*: the source glyphs as lyrics ``"above"`` or ``"below"`` the
    staff, or ``"none"``. *credits*: print title, subtitle and sources on
    the page (``<credit>``; engravers with their own heading leave them out).
    """
    check_glyphs(glyphs)
    root = ET.Element("score-partwise", version="4.0")
    _header(root, sheet)
    if credits:
        _credits(root, sheet)
    _part_list(root, sheet)
    printed = time_changes(sheet.measures)
    for p_index in range(len(sheet.staves)):
        part = _sub(root, "part", id=f"P{p_index + 1}")
        for m_index, measure in enumerate(sheet.measures):
            _measure(part, sheet, measure, m_index, p_index, printed[m_index], glyphs)
    ET.indent(root, space="  ")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + DOCTYPE + "\n"
            + ET.tostring(root, encoding="unicode") + "\n")


def to_mxl(sheet: Sheet, *, name: str = "score.musicxml", **options) -> bytes:
    """*sheet* as compressed MusicXML: a zip with ``mimetype`` first (stored),
    ``META-INF/container.xml``, and the score *name*; *options* go to
    :func:`to_musicxml`. Same sheet, same bytes (fixed file dates)."""
    buffer = io.BytesIO()
    stamp = (1980, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype", stamp), "application/vnd.recordare.musicxml",
                   compress_type=zipfile.ZIP_STORED)
        container = ('<?xml version="1.0" encoding="UTF-8"?>\n<container>\n  <rootfiles>\n'
                     f'    <rootfile full-path="{name}" '
                     'media-type="application/vnd.recordare.musicxml+xml"/>\n'
                     '  </rootfiles>\n</container>\n')
        for path, text in (("META-INF/container.xml", container),
                           (name, to_musicxml(sheet, **options))):
            z.writestr(zipfile.ZipInfo(path, stamp), text, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _header(root: ET.Element, sheet: Sheet) -> None:
    """Work and movement titles, identification (sources), page defaults."""
    _sub(_sub(root, "work"), "work-title", sheet.title)
    if sheet.subtitle:
        _sub(root, "movement-title", sheet.subtitle)
    ident = _sub(root, "identification")
    encoding = _sub(ident, "encoding")
    _sub(encoding, "software", f"guji {__version__}")
    if sheet.credits:
        _sub(ident, "source", "\n".join(sheet.credits))
    defaults = _sub(root, "defaults")
    scaling = _sub(defaults, "scaling")
    _sub(scaling, "millimeters", f"{_MM_PER_STAFF:g}")
    _sub(scaling, "tenths", "40")
    page = _sub(defaults, "page-layout")
    _sub(page, "page-height", str(PAGE_HEIGHT))
    _sub(page, "page-width", str(PAGE_WIDTH))
    margins = _sub(page, "page-margins", type="both")
    for side in ("left", "right", "top", "bottom"):
        _sub(margins, f"{side}-margin", str(MARGIN))
    system = _sub(defaults, "system-layout")
    system_margins = _sub(system, "system-margins")
    _sub(system_margins, "left-margin", "0")
    _sub(system_margins, "right-margin", "0")
    _sub(system, "system-distance", "110")
    _sub(system, "top-system-distance", str(170 + 18 * len(sheet.credits)
                                            + _TITLE_LINE * (len(title_lines(sheet.title)) - 1)))
    _sub(defaults, "word-font", font_family=f"{CJK_SERIF},serif", font_size="10")
    _sub(defaults, "lyric-font", font_family=f"{CJK_SERIF},serif", font_size="11")


def _credits(root: ET.Element, sheet: Sheet) -> None:
    """Title and subtitle centred at the top of page 1, the sources at the left
    under them. A title wider than the page is set in lines
    (:func:`~guji.sheet.layout.title_lines`; ``<work-title>`` has it whole).

    The subtitle is a second run of the title's credit, and the sources one
    credit of several lines standing on its ``default-y`` (``valign`` bottom):
    MuseScore 3 sets a left credit's last line there whatever its ``valign``,
    and lets a taller one grow upwards over the subtitle.
    """
    credit = _sub(root, "credit", page="1")
    _sub(credit, "credit-type", "title")
    title = title_lines(sheet.title)
    _sub(credit, "credit-words", "\n".join(title), default_x=PAGE_WIDTH // 2,
         default_y=PAGE_HEIGHT - MARGIN, justify="center", valign="top", font_size="20")
    if sheet.subtitle:
        _sub(credit, "credit-words", "\n" + sheet.subtitle, font_size="12")
    if sheet.credits:
        credit = _sub(root, "credit", page="1")
        # under the title (20 pt) and subtitle (12 pt), lines of 8 pt: 20 tenths each
        bottom = (PAGE_HEIGHT - MARGIN - (80 if sheet.subtitle else 55) - 20 * len(sheet.credits)
                  - _TITLE_LINE * (len(title) - 1))
        _sub(credit, "credit-words", "\n".join(sheet.credits), default_x=MARGIN,
             default_y=bottom, justify="left", valign="bottom", font_size="8")


def _part_list(root: ET.Element, sheet: Sheet) -> None:
    """A ``<score-part>`` per staff: names, and the three instruments on channel 10."""
    part_list = _sub(root, "part-list")
    for p_index, staff in enumerate(sheet.staves, 1):
        pid = f"P{p_index}"
        score_part = _sub(part_list, "score-part", id=pid)
        _sub(score_part, "part-name", staff.name_latin)
        _sub(_sub(score_part, "part-name-display"), "display-text", "\n".join(staff.lines))
        _sub(_sub(score_part, "part-abbreviation-display"), "display-text", staff.short)
        for i, (_, name) in enumerate(INSTRUMENTS, 1):
            _sub(_sub(score_part, "score-instrument", id=f"{pid}-I{i}"), "instrument-name", name)
        for i, (voice, _) in enumerate(INSTRUMENTS, 1):
            midi = _sub(score_part, "midi-instrument", id=f"{pid}-I{i}")
            _sub(midi, "midi-channel", "10")
            _sub(midi, "midi-unpitched", str(sheet.instruments.key(voice) + 1))


def _measure(part: ET.Element, sheet: Sheet, measure: Measure, m_index: int, p_index: int,
             time_printed: bool, glyphs: str) -> None:
    """One measure of one staff: bar lines, attributes, directions, notes."""
    m = _sub(part, "measure", number=str(m_index + 1))
    top = p_index == 0
    if measure.left == "repeat-start":
        barline = _sub(m, "barline", location="left")
        _sub(barline, "bar-style", "heavy-light")
        _sub(barline, "repeat", direction="forward")
    if m_index == 0 or time_printed:
        _attributes(m, measure, first=m_index == 0, time_printed=time_printed)
    if m_index == 0 and top:
        _tempo(m, sheet)
    if measure.rehearsal and top:
        direction = _sub(m, "direction", placement="above")
        _sub(_sub(direction, "direction-type"), "rehearsal", measure.rehearsal,
             enclosure="square")
    if measure.words[p_index]:
        _words(m, measure.words[p_index])
    _notes(m, measure, p_index, glyphs)
    if measure.repeat_times and top:
        # after the last note: the words stand at the end of the measure
        _words(m, repeat_text(measure.repeat_times), justify="right")
    if measure.right != "regular":
        barline = _sub(m, "barline", location="right")
        _sub(barline, "bar-style", _BAR_STYLES[measure.right])
        if measure.right == "repeat-end":
            _sub(barline, "repeat", direction="backward", times=str(measure.repeat_times))


def _attributes(m: ET.Element, measure: Measure, *, first: bool, time_printed: bool) -> None:
    attributes = _sub(m, "attributes")
    if first:
        _sub(attributes, "divisions", "1")
    if time_printed:
        time = _sub(attributes, "time")
        _sub(time, "beats", str(measure.beats))
        _sub(time, "beat-type", "4")
    if first:
        _sub(_sub(attributes, "clef"), "sign", "percussion")
        _sub(_sub(attributes, "staff-details"), "staff-lines", "5")


def _tempo(m: ET.Element, sheet: Sheet) -> None:
    """間若一 and ♩ = bpm, and the tempo players play at."""
    direction = _sub(m, "direction", placement="above")
    _sub(_sub(direction, "direction-type"), "words", sheet.tempo_text)
    metronome = _sub(_sub(direction, "direction-type"), "metronome", parentheses="no")
    _sub(metronome, "beat-unit", "quarter")
    _sub(metronome, "per-minute", bpm_text(sheet.tempo_bpm))
    _sub(direction, "sound", tempo=f"{sheet.tempo_bpm:.10g}")


def _words(m: ET.Element, text: str, *, justify: str | None = None) -> None:
    direction = _sub(m, "direction", placement="above")
    _sub(_sub(direction, "direction-type"), "words", text,
         **({"justify": justify} if justify else {}))


def _notes(m: ET.Element, measure: Measure, p_index: int, glyphs: str) -> None:
    """The staff's notes in *measure*, or one measure rest."""
    if measure.rests(p_index):
        note = _sub(m, "note")
        _sub(note, "rest", measure="yes")
        _sub(note, "duration", str(measure.beats))
        _sub(note, "voice", "1")
        return
    instrument = {voice: f"P{p_index + 1}-I{i}" for i, (voice, _) in enumerate(INSTRUMENTS, 1)}
    for n in measure.notes[p_index]:
        note = _sub(m, "note", **({} if n.is_rest else {"dynamics": note_dynamics(n.voice)}))
        if n.is_rest:
            _sub(note, "rest")
        else:
            step, octave = POSITIONS[n.voice]
            unpitched = _sub(note, "unpitched")
            _sub(unpitched, "display-step", step)
            _sub(unpitched, "display-octave", str(octave))
        _sub(note, "duration", "1")
        if not n.is_rest:
            _sub(note, "instrument", id=instrument[n.voice])
        _sub(note, "voice", "1")
        _sub(note, "type", "quarter")
        if not n.is_rest:
            _sub(note, "stem", "up")
            _sub(note, "notehead", HEADS[n.voice])
        if n.glyph and glyphs != "none":
            lyric = _sub(note, "lyric", number="1", placement=glyphs)
            _sub(lyric, "syllabic", "single")
            _sub(lyric, "text", n.glyph)

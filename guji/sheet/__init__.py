"""Sheet music: the patterns as performers read them.

One concept a module:

* :mod:`guji.sheet.model` — what a page says, as frozen values:
  :class:`Sheet` of :class:`Staff`, :class:`Measure` and :class:`Note`;
* :mod:`guji.sheet.build` — a sheet from a performance, on the bar lines of
  :func:`guji.timing.bars.bars` (the MIDI file's): :func:`sheet_of`;
* :mod:`guji.sheet.fold` — passes written once between repeat signs;
* :mod:`guji.sheet.texts` — title, subtitle, and the credits (editions, and
  where the strokes stand in them);
* :mod:`guji.sheet.musicxml` — MusicXML 4.0 (``.musicxml``, ``.mxl``);
* :mod:`guji.sheet.lilypond` — LilyPond source (``.ly``);
* :mod:`guji.sheet.engrave` — pictures: SVG by verovio, PDF by LilyPond;
* :mod:`guji.sheet.write` — a file of any of these, by its extension:
  :func:`write_sheet`.
"""

from .build import sheet_of
from .engrave import LilyPondError, LilyPondResult, run_lilypond, to_pdf, to_svg
from .lilypond import to_lilypond
from .model import Instruments, Measure, Note, Sheet, Staff
from .musicxml import to_musicxml, to_mxl
from .write import FORMATS, render_sheet, sheet_format, write_sheet

__all__ = ["sheet_of", "Sheet", "Staff", "Measure", "Note", "Instruments",
           "to_musicxml", "to_mxl", "to_lilypond", "to_svg", "to_pdf", "run_lilypond",
           "LilyPondError", "LilyPondResult", "FORMATS", "render_sheet", "sheet_format",
           "write_sheet"]

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

from .model import Instruments, Measure, Note, Sheet, Staff
from ..lazy import later

#: The rest, loaded when first asked for: the engraving modules bring XML and
#: subprocess, which the command line's parsers (``guji --help``) need not load.
_LATER = {"sheet_of": "build", "LilyPondError": "engrave", "LilyPondResult": "engrave",
          "run_lilypond": "engrave", "to_pdf": "engrave", "to_svg": "engrave",
          "to_lilypond": "lilypond", "to_musicxml": "musicxml", "to_mxl": "musicxml",
          "FORMATS": "write", "render_sheet": "write", "sheet_format": "write",
          "write_sheet": "write"}


__getattr__ = later(__name__, _LATER, globals())


__all__ = ["sheet_of", "Sheet", "Staff", "Measure", "Note", "Instruments",
           "to_musicxml", "to_mxl", "to_lilypond", "to_svg", "to_pdf", "run_lilypond",
           "LilyPondError", "LilyPondResult", "FORMATS", "render_sheet", "sheet_format",
           "write_sheet"]

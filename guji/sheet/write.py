"""Writing sheet music to a file, the format from its extension: :func:`write_sheet`.

===============  =================================================  ================
extension        what                                               needs
===============  =================================================  ================
``.musicxml``    MusicXML 4.0 (``.xml`` too)                        nothing
``.mxl``         MusicXML 4.0, compressed                           nothing
``.ly``          LilyPond source                                    nothing
``.svg``         engraved picture, one page as tall as the music    verovio (PyPI)
``.pdf``         engraved A4 pages                                  LilyPond (Debian)
===============  =================================================  ================

The whole file is made first, then written to a temporary name and renamed
into place (:func:`guji.files.writing`): a missing engraver, a failure or
Ctrl-C leaves no file behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from ..i18n import _
from ..errors import UsageError
from ..files import check_target, writing
from ..timing.performance import Performance
from .build import sheet_of
from .engrave import to_pdf, to_svg
from .layout import check_glyphs
from .lilypond import to_lilypond
from .model import Sheet
from .musicxml import to_musicxml, to_mxl

#: Extension → (format name, writer of the sheet's bytes or text).
FORMATS: dict[str, tuple[str, Callable[..., str | bytes]]] = {
    ".musicxml": ("MusicXML", to_musicxml),
    ".xml": ("MusicXML", to_musicxml),
    ".mxl": ("compressed MusicXML", to_mxl),
    ".ly": ("LilyPond", to_lilypond),
    ".svg": ("SVG", to_svg),
    ".pdf": ("PDF", to_pdf),
}


def sheet_format(path: str | os.PathLike) -> str:
    """The extension of *path* if guji writes it, else :class:`UsageError`."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(_('{path}: unknown sheet music format {value}; use .musicxml, .mxl, .ly, .svg or .pdf').format(path=path, value=repr(suffix or '(no extension)')))
    return suffix


def render_sheet(sheet: Sheet, fmt: str, *, glyphs: str = "above") -> bytes:
    """*sheet* in format *fmt* (an extension of :data:`FORMATS`) as bytes."""
    check_glyphs(glyphs)
    data = FORMATS[fmt][1](sheet, glyphs=glyphs)
    return data.encode("utf-8") if isinstance(data, str) else data


def write_sheet(path: str | os.PathLike, what: Sheet | Performance, *,
                glyphs: str = "above") -> Path:
    """Write *what* (a sheet, or a performance made one by
    :func:`~guji.sheet.build.sheet_of`) to *path* in the format of its
    extension (see the module docstring); *glyphs*: the source glyphs
    ``"above"`` or ``"below"`` each staff, or ``"none"``. Returns the path."""
    fmt = sheet_format(path)
    check_target(path)                  # before the work: engraving may take seconds
    sheet = what if isinstance(what, Sheet) else sheet_of(what)
    data = render_sheet(sheet, fmt, glyphs=glyphs)
    with writing(path) as out:
        out.open().write(data)
    return Path(path)

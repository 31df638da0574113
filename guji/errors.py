"""Errors guji raises on purpose.

Every error a user can cause is a :class:`GujiError`. The command line prints
``str(error)`` (one line, plus a caret display for notation errors) and exits
with status 2; it never shows a Python traceback for these.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .i18n import _


class GujiError(Exception):
    """Base class of every error guji reports to a user."""

    exit_status = 2


class UsageError(GujiError):
    """A bad option or argument (unknown id, impossible tempo, bad path...)."""


class EncodingError(GujiError):
    """A text file none of the supported encodings can decode."""


#: Characters never written raw to a terminal, a drawing or a page: C0/C1
#: controls (ESC would drive the terminal, NUL is not XML), format characters
#: (bidirectional overrides reorder what follows), surrogates, and the
#: Unicode line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: What XML 1.0 forbids in a document (its Char production), surrogates aside.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape_controls(text: str) -> str:
    """*text* with every control or format character written as ``U+001B``,
    and each byte of a name that was not UTF-8 (Python's ``surrogateescape``:
    U+DC80–U+DCFF) as ``\\xff``.

    >>> escape_controls("a\x1b[2Jb")
    'aU+001B[2Jb'
    >>> escape_controls("bad\\udcff.txt")
    'bad\\\\xff.txt'
    """
    if text.isprintable():
        return text
    return "".join(_escaped(ch) if unicodedata.category(ch) in _HIDDEN_CATEGORIES else ch
                   for ch in text)


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"


def encodable(text: str) -> str:
    """*text* as it can be written in UTF-8 inside a file (a MIDI track name,
    a page): each byte of a name that was not UTF-8 as ``\\xff``, any other
    lone surrogate as U+FFFD; else unchanged."""
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return text
    return "".join((_escaped(ch) if 0xDC80 <= ord(ch) <= 0xDCFF else "\ufffd")
                   if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def xml_text(text: str) -> str:
    """*text* with what XML 1.0 cannot hold replaced (:func:`encodable`, then the C0
    controls other than tab, newline and carriage return, and U+FFFE / U+FFFF,
    as ``U+FFFE``): every XML guji writes is well formed, whatever the name."""
    text = encodable(text)
    if not _XML_FORBIDDEN.search(text):
        return text
    return _XML_FORBIDDEN.sub(lambda m: f"U+{ord(m.group()):04X}", text)


def describe_char(text: str) -> str:
    """``'▲' (U+25B2)`` for one character; ``'[]'`` for more; controls escaped."""
    if len(text) == 1:
        shown = escape_controls(text)
        return (_("'{char}' (U+{code})").format(char=text, code=f"{ord(text):04X}")
                if shown == text else f"{shown}")
    return quoted(escape_controls(text))


def quoted(text: str) -> str:
    """*text* in the language's quotation marks: ``'text'``, 「text」."""
    return _("'{text}'").format(text=text)


def display_width(text: str) -> int:
    """Terminal columns *text* takes: East Asian wide and full-width count 2."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def caret_pad(text: str, ambiguous_wide: bool = False) -> str:
    """Blank space as wide as *text*: U+3000 under each wide or full-width character
    (and, with *ambiguous_wide*, each of ambiguous width), a space under each other."""
    wide = ("W", "F", "A") if ambiguous_wide else ("W", "F")
    return "".join("\u3000" if unicodedata.east_asian_width(ch) in wide else " "
                   for ch in text if not unicodedata.combining(ch))


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source text.

    ``offset`` is the index of the character in the whole text (0-based);
    ``line`` and ``column`` are 1-based and count characters (code points),
    lines being separated by ``\\n``, ``\\r\\n`` or ``\\r``.
    """

    offset: int
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


class NotationError(GujiError):
    """A drum-score text that cannot be read.

    Attributes
    ----------
    message:
        One line saying what is wrong (no position in it).
    location:
        Where, as a :class:`Location` (``None`` only for whole-input problems
        with no sensible position).
    filename:
        The file the text came from, or ``None`` (shown as ``<text>``).
    source_line:
        The whole source line holding the error, for the caret display.
    """

    def __init__(self, message: str, location: Location | None = None,
                 filename: str | None = None, source_line: str | None = None):
        self.message = message
        self.location = location
        self.filename = filename
        self.source_line = source_line
        super().__init__(self.headline())

    def headline(self) -> str:
        """``file:line:column: message`` on one line."""
        name = escape_controls(self.filename or "<text>")
        message = escape_controls(self.message)
        if self.location is None:
            return _("{file}: {message}").format(file=name, message=message)
        return _("{file}:{line}:{column}: {message}").format(
            file=name, line=self.location.line, column=self.location.column, message=message)

    def caret(self, ambiguous_wide: bool = False) -> str:
        """The source line and a caret under the bad column (two lines), or ''.

        The caret's line mirrors the source line: a full-width space (U+3000) under
        each wide or full-width character, a space under each other, so that it
        stands under the bad character in a terminal (which gives U+3000 two
        columns, as a CJK character) and in a proportional or CJK font alike.
        *ambiguous_wide*: characters of ambiguous width (○ □ …) are full-width too,
        as a CJK font draws them (the studio's page); a terminal draws them one column."""
        if self.location is None or self.source_line is None:
            return ""
        raw = self.source_line.replace("\t", " ")
        col = self.location.column - 1
        # controls are shown escaped (U+001B), the caret moved past their width
        line = escape_controls(raw)
        if line != raw:
            col = len(escape_controls(raw[:col]))
        # Long lines (seed 000 is one 16,000-character line) are cut to a window.
        start = max(0, col - 30)
        end = min(len(line), col + 30)
        shown = line[start:end]
        prefix = "…" if start > 0 else ""
        suffix = "…" if end < len(line) else ""
        pad = caret_pad(prefix + line[start:col], ambiguous_wide)
        return f"    {prefix}{shown}{suffix}\n    {pad}^"

    def with_filename(self, filename: str | None) -> "NotationError":
        """The same error, naming *filename*."""
        return NotationError(self.message, self.location, filename, self.source_line)

    def __str__(self) -> str:
        return self.headline()

"""Text → tokens, each with its source location.

The lexer knows characters, not structure: it says which characters are
strokes, which are the 半 marker, labels, headings, commentary notes, prose or
unknown symbols, and drops what never matters (white space, punctuation,
page-break markup). :mod:`guji.parser` gives the tokens their structure.

Ignored everywhere: white space (including the ideographic space U+3000 and
line breaks), punctuation (ASCII and full-width: the editor's, not the
source's), format characters such as a BOM, the ``¶`` line mark and markup
tags such as ``<pb:…>``.

Notes — ``( )``, ``（ ）``, ``【 】`` — are commentary: one :attr:`Kind.NOTE`
token each, nested notes included, so strokes inside them are not strokes.
"""

from __future__ import annotations

import bisect
import enum
import re
import unicodedata
from dataclasses import dataclass

from .errors import Location
from .notation import HALF, HEADINGS, LABELS, Drum, Tradition, drum_of


class Kind(enum.Enum):
    STROKE = "stroke"      #: a round or square glyph
    HALF = "half"          #: 半
    LABEL = "label"        #: 魯鼓, 薛鼓 and their variants
    HEADING = "heading"    #: 鼓, 鼔, 記鼓: the heading of the first diagram
    NOTE = "note"          #: a bracketed commentary note, whole
    UNCLOSED = "unclosed"  #: a note bracket that is never closed
    SYMBOL = "symbol"      #: a symbol that is not a drum glyph
    TEXT = "text"          #: prose: letters, ideographs, digits


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str
    location: Location
    drum: Drum | None = None
    tradition: Tradition | None = None

    @property
    def offset(self) -> int:
        return self.location.offset

    @property
    def end(self) -> int:
        return self.location.offset + len(self.text)


#: Note brackets: opener → closer.
NOTE_BRACKETS = {"(": ")", "（": "）", "【": "】"}
_CLOSERS = set(NOTE_BRACKETS.values())

_TAG = re.compile(r"<(?:pb|lb|cb|/?[A-Za-z][\w.-]*)(?::[^<>\n]*|\s[^<>\n]*|/)?>")


class SourceText:
    """A text with fast offset → (line, column) lookup and line access."""

    def __init__(self, text: str, filename: str | None = None):
        self.text = text
        self.filename = filename
        starts = [0]
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "\n":
                starts.append(i + 1)
            elif ch == "\r":
                if i + 1 < n and text[i + 1] == "\n":
                    i += 1
                starts.append(i + 1)
            i += 1
        self._starts = starts

    def location(self, offset: int) -> Location:
        line = bisect.bisect_right(self._starts, offset) - 1
        return Location(offset, line + 1, offset - self._starts[line] + 1)

    def line_text(self, line: int) -> str:
        """The text of 1-based *line*, without its line break."""
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    @property
    def line_count(self) -> int:
        return len(self._starts)


def is_ignorable(ch: str) -> bool:
    """White space, punctuation and format characters: never meaningful."""
    if ch.isspace():
        return True
    cat = unicodedata.category(ch)
    return cat[0] == "P" or cat == "Cf"


def _is_symbol(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] == "S" or cat in ("Co", "Cn", "Cs", "Cc")


def tokenize(source: SourceText) -> list[Token]:
    """Every meaningful token of *source*, in order."""
    text = source.text
    n = len(text)
    tokens: list[Token] = []
    i = 0
    loc = source.location
    while i < n:
        ch = text[i]
        drum = drum_of(ch)
        if drum is not None:
            tokens.append(Token(Kind.STROKE, ch, loc(i), drum=drum))
            i += 1
            continue
        if ch == HALF:
            tokens.append(Token(Kind.HALF, ch, loc(i)))
            i += 1
            continue
        pair = text[i:i + 2]
        if pair in LABELS:
            tokens.append(Token(Kind.LABEL, pair, loc(i), tradition=LABELS[pair]))
            i += 2
            continue
        heading = next((h for h in HEADINGS if text.startswith(h, i)), None)
        if heading is not None:
            tokens.append(Token(Kind.HEADING, heading, loc(i)))
            i += len(heading)
            continue
        if ch in NOTE_BRACKETS:
            end = _note_end(text, i)
            if end is None:
                tokens.append(Token(Kind.UNCLOSED, ch, loc(i)))
                i += 1
            else:
                tokens.append(Token(Kind.NOTE, text[i:end], loc(i)))
                i = end
            continue
        if ch == "<":
            m = _TAG.match(text, i)
            if m:
                i = m.end()
                continue
        if ch in _CLOSERS or is_ignorable(ch):
            i += 1
            continue
        if _is_symbol(ch):
            tokens.append(Token(Kind.SYMBOL, ch, loc(i)))
            i += 1
            continue
        # Prose: gather the whole run of letters up to the next token start.
        j = i + 1
        while j < n and _is_plain_text(text, j):
            j += 1
        tokens.append(Token(Kind.TEXT, text[i:j], loc(i)))
        i = j
    return tokens


def _is_plain_text(text: str, j: int) -> bool:
    ch = text[j]
    if drum_of(ch) is not None or ch == HALF or ch in NOTE_BRACKETS or ch == "<":
        return False
    if text[j:j + 2] in LABELS or any(text.startswith(h, j) for h in HEADINGS):
        return False
    return not (is_ignorable(ch) or _is_symbol(ch) or ch in _CLOSERS)


def _note_end(text: str, start: int) -> int | None:
    """Index just past the note opened at *start*, or ``None`` if unclosed.

    Notes nest; a closer that does not match the innermost opener is part of
    the note's text.
    """
    stack = [NOTE_BRACKETS[text[start]]]
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in NOTE_BRACKETS:
            stack.append(NOTE_BRACKETS[ch])
        elif ch == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return None

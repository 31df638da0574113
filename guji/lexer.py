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
from .notation import HALF, HEADINGS, LABELS, ROUND_GLYPHS, SQUARE_GLYPHS, Drum, Tradition, drum_of


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


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class SourceText:
    """A text with fast offset → (line, column) lookup and line access."""

    def __init__(self, text: str, filename: str | None = None):
        self.text = text
        self.filename = filename
        starts = [0]
        starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        self._starts = starts

    def location(self, offset: int) -> Location:
        line = bisect.bisect_right(self._starts, offset) - 1
        return Location(offset, line + 1, offset - self._starts[line] + 1)

    def line_text(self, line: int) -> str:
        """The text of 1-based *line*, without its line break."""
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


def is_ignorable(ch: str) -> bool:
    """White space, punctuation and format characters: never meaningful."""
    if ch.isspace():
        return True
    cat = unicodedata.category(ch)
    return cat[0] == "P" or cat == "Cf"


def _is_symbol(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] == "S" or cat in ("Co", "Cn", "Cs", "Cc")


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


#: Punctuation that editions put between strokes, skipped in runs (any other
#: punctuation is skipped too, one character at a time).
_COMMON_PUNCTUATION = re.escape("。，、；：！？「」『』《》〈〉·…—,.;:!?'\"-¶")
_STROKES = "".join(re.escape(g) for g in (*ROUND_GLYPHS, *SQUARE_GLYPHS))
_WORD_STOP = f"{_alternation(LABELS)}|{_alternation(HEADINGS)}|[{_STROKES}{HALF}]"
#: One regular expression finds the next token; the order of the groups
#: matters (strokes 囗 口 〇 are word characters, labels are longer than headings).
_TOKEN = re.compile(
    rf"(?P<stroke>[{_STROKES}])"
    rf"|(?P<half>{HALF})"
    rf"|(?P<label>{_alternation(LABELS)})"
    rf"|(?P<heading>{_alternation(HEADINGS)})"
    rf"|(?P<text>(?:(?!{_WORD_STOP})[^\W_])+)"   # prose: letters and digits
    rf"|(?P<space>[\s{_COMMON_PUNCTUATION}]+)"   # skipped: the common case, fast
    rf"|(?P<other>.)",
    re.S)
_BRACKET = re.compile("[" + re.escape("".join(NOTE_BRACKETS) + "".join(_CLOSERS)) + "]")


def tokenize(source: SourceText) -> list[Token]:
    """Every meaningful token of *source*, in order."""
    text = source.text
    n = len(text)
    tokens: list[Token] = []
    append = tokens.append
    loc = source.location
    i = 0
    match = _TOKEN.match
    while i < n:
        m = match(text, i)
        kind = m.lastgroup
        value = m.group()
        if kind == "stroke":
            append(Token(Kind.STROKE, value, loc(i), drum=drum_of(value)))
        elif kind == "half":
            append(Token(Kind.HALF, value, loc(i)))
        elif kind == "label":
            append(Token(Kind.LABEL, value, loc(i), tradition=LABELS[value]))
        elif kind == "heading":
            append(Token(Kind.HEADING, value, loc(i)))
        elif kind == "text":
            append(Token(Kind.TEXT, value, loc(i)))
        elif kind == "other":
            if value in NOTE_BRACKETS:
                end = _note_end(text, i)
                if end is None:
                    append(Token(Kind.UNCLOSED, value, loc(i)))
                else:
                    append(Token(Kind.NOTE, text[i:end], loc(i)))
                    i = end
                    continue
            elif value == "<" and (tag := _TAG.match(text, i)):
                i = tag.end()
                continue
            elif value in _CLOSERS or is_ignorable(value):
                pass
            elif _is_symbol(value):
                append(Token(Kind.SYMBOL, value, loc(i)))
            else:  # combining marks and the like: prose
                append(Token(Kind.TEXT, value, loc(i)))
        i = m.end()
    return tokens


def _note_end(text: str, start: int) -> int | None:
    """Index just past the note opened at *start*, or ``None`` if unclosed.

    Notes nest; a closer that does not match the innermost opener is part of
    the note's text.
    """
    stack = [NOTE_BRACKETS[text[start]]]
    for m in _BRACKET.finditer(text, start + 1):
        ch = m.group()
        if ch in NOTE_BRACKETS:
            stack.append(NOTE_BRACKETS[ch])
        elif ch == stack[-1]:
            stack.pop()
            if not stack:
                return m.end()
    return None

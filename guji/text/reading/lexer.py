"""Text → tokens, each with its source location.

The lexer knows characters, not structure: it says which characters are
strokes, which are the 半 marker, labels, headings, commentary notes, prose or
unknown symbols, and drops what never matters (white space, punctuation,
markup). :mod:`guji.text.reading.parser` and :mod:`guji.text.reading.scan` give the tokens
their structure.

Ignored everywhere: white space (including the ideographic space U+3000 and
line breaks), punctuation (ASCII and full-width: the editor's, not the
source's), format characters such as a BOM, the ``¶`` line mark, markup tags
such as ``<pb:…>``, the ASCII markup of notes and mail (`` ` ``, ``|``, ``~``,
``>`` quote marks at the start of a line), and list markers at the start of a
line (``1.``, ``2)``, ``a.``, ``一、``, ``①``, a bullet symbol followed by a
space).

Notes — ``( )``, ``（ ）``, ``【 】`` — are commentary: one :attr:`Kind.NOTE`
token each, nested notes included, so strokes inside them are not strokes.
Brackets holding nothing but white space (``()``, ``[]``, ``【】``) are not
notes but :attr:`Kind.SYMBOL` tokens: typed inside a pattern they usually stand
for a stroke (``()`` for ○, ``[]`` for □), and the parser says so.

The lexer runs in linear time whatever the text: the note brackets are
matched in one pass over the text before the tokens are made.
"""

from __future__ import annotations

import bisect
import enum
import gc
import re
import unicodedata
from array import array
from contextlib import contextmanager
from typing import Iterator, NamedTuple

from ...errors import Location
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


class Token(NamedTuple):
    """One token of a :class:`SourceText`: its kind, where it stands, and for
    a stroke its drum, for a label its tradition.

    Compact, because a whole book is millions of tokens: an immutable tuple
    (quicker to make than a frozen dataclass), and the text and the
    :class:`~guji.errors.Location` are not stored but read from the source
    when asked (:attr:`text`, :attr:`location`).
    """

    kind: Kind
    offset: int                 #: index of the first character in the source text
    end: int                    #: index just past the last character
    source: "SourceText"
    drum: Drum | None = None
    tradition: Tradition | None = None

    @property
    def text(self) -> str:
        return self.source.text[self.offset:self.end]

    @property
    def location(self) -> Location:
        return self.source.location(self.offset)

    def as_text(self) -> "Token":
        """The same characters, read as prose (:attr:`Kind.TEXT`)."""
        return Token(Kind.TEXT, self.offset, self.end, self.source)


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
        # the offset where each line starts: 8 bytes a line (a book has millions)
        starts = array("q", [0])
        starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        self._starts = starts
        self._last_line = (-1, 0)

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        """The offset of the first character of 1-based *line*."""
        return self._starts[line - 1]

    def line_of(self, offset: int) -> int:
        """The 1-based line holding *offset*."""
        return bisect.bisect_right(self._starts, offset)

    def location(self, offset: int) -> Location:
        line = bisect.bisect_right(self._starts, offset) - 1
        return Location(offset, self.line_number(line), offset - self._starts[line] + 1)

    def line_number(self, k: int, numbers=None) -> int:
        """The number of the *k*-th line counted (``numbers[k]``, or ``k + 1``), the
        same int object for the locations of one line asked in turn: a pattern's
        strokes share it, not an int each (28 bytes a stroke of a dense text)."""
        last = self._last_line
        if last[0] == k:
            return last[1]
        number = k + 1 if numbers is None else numbers[k]
        self._last_line = (k, number)
        return number

    #: The line :meth:`line_text` gave last, ``(number, text)``: the patterns
    #: of one line ask for it in turn, and share one string (a text of one long
    #: line: finding and copying the line again for each pattern was quadratic).
    _line_kept: tuple[int, str] = (0, "")

    def line_text(self, line: int) -> str:
        """The text of 1-based *line*, without its line break."""
        kept = self._line_kept
        if kept[0] != line:
            kept = self._line_kept = (line, self.read_line(line))
        return kept[1]

    def read_line(self, line: int) -> str:
        """:meth:`line_text`, read from the text each time."""
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


#: ASCII symbols of markup (Markdown code and tables, strike-through) that are
#: ignored like punctuation.
MARKUP_SYMBOLS = "`|~"


def is_ignorable(ch: str) -> bool:
    """White space, punctuation, markup symbols and format characters: never meaningful."""
    if ch.isspace() or ch in MARKUP_SYMBOLS:
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
_COMMON_PUNCTUATION = re.escape("。，、；：！？「」『』《》〈〉·…—,.;:!?'\"-¶*#_" + MARKUP_SYMBOLS)
_STROKES = "".join(re.escape(g) for g in (*ROUND_GLYPHS, *SQUARE_GLYPHS))
_WORD_STOP = f"{_alternation(LABELS)}|{_alternation(HEADINGS)}|[{_STROKES}{HALF}]"
#: Brackets with nothing but white space inside: not a note (see the module docstring).
_EMPTY_BRACKETS = r"\(\s*\)|（\s*）|\[\s*\]|［\s*］|【\s*】|〔\s*〕"
#: One regular expression finds the next token; the order of the groups
#: matters (strokes 囗 口 〇 are word characters, labels are longer than headings).
_TOKEN = re.compile(
    rf"(?P<stroke>[{_STROKES}])"
    rf"|(?P<half>{HALF})"
    rf"|(?P<label>{_alternation(LABELS)})"
    rf"|(?P<heading>{_alternation(HEADINGS)})"
    rf"|(?P<text>(?:(?!{_WORD_STOP})[^\W_])+)"   # prose: letters and digits
    rf"|(?P<space>[\s{_COMMON_PUNCTUATION}]+)"   # skipped: the common case, fast
    rf"|(?P<empty>{_EMPTY_BRACKETS})"
    rf"|(?P<other>.)",
    re.S)
_BRACKET = re.compile("[" + re.escape("".join(NOTE_BRACKETS) + "".join(_CLOSERS)) + "]")

#: A list marker's word: 1, 12, a, iv, 一, 十二, ① … (followed by one of
#: :data:`_LIST_MARKER_ENDS`, except a circled number, which stands alone).
_LIST_WORD = re.compile(r"(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,4}|[一二三四五六七八九十]{1,3})")
_LIST_MARKER_ENDS = ".)．）、:："
_CIRCLED = re.compile("[\u2460-\u2473\u2474-\u2487\u2488-\u249b\u24f5-\u24fe\u2776-\u2793]")
#: What may stand between the start of a line and a list or quote marker.
_LINE_INDENT = " \t\u3000>"


def _at_line_start(text: str, i: int) -> bool:
    """True if only indentation (and ``>`` quote marks) stands between the
    start of the line and *i*."""
    j = i - 1
    while j >= 0 and text[j] in _LINE_INDENT:
        j -= 1
    return j < 0 or text[j] in "\r\n"


def _is_list_marker(text: str, i: int, word: str) -> bool:
    """Whether the prose *word* at *i* is a list marker (``1.``, ``b)``, ``一、``, ``①``)."""
    if len(word) > 4:
        return False
    if _CIRCLED.fullmatch(word):
        return _at_line_start(text, i)
    end = i + len(word)
    return (end < len(text) and text[end] in _LIST_MARKER_ENDS
            and _LIST_WORD.fullmatch(word) is not None and _at_line_start(text, i))


def match_notes(text: str) -> dict[int, int]:
    """Where each note bracket's note ends: opener offset → offset just past
    its closer, for every opener that is closed.

    Notes nest; a closer that does not match the innermost open note is part
    of that note's text. One pass over the brackets of the text: linear
    time, however many brackets are left open.
    """
    ends: dict[int, int] = {}
    if not any(closer in text for closer in _CLOSERS):
        return ends
    stack: list[tuple[int, str]] = []
    for m in _BRACKET.finditer(text):
        ch = m.group()
        if ch in NOTE_BRACKETS:
            stack.append((m.start(), NOTE_BRACKETS[ch]))
        elif stack and ch == stack[-1][1]:
            ends[stack.pop()[0]] = m.end()
    return ends


def tokenize(source: SourceText, spans: list[tuple[int, int]] | None = None) -> list[Token]:
    """Every meaningful token of *source*, in order (:func:`paused_collector`
    makes a book's quicker).

    With *spans* (``(start, end)`` offsets, in order, each from a line's start
    to a line's start and cutting no note: :mod:`guji.text.reading.prefilter`), only
    the tokens inside them: the same tokens the whole text has there."""
    with paused_collector():
        if spans is None:
            return _tokens(source, 0, len(source.text), match_notes(source.text))
        tokens: list[Token] = []
        for start, end in spans:
            ends = match_notes(source.text[start:end])
            tokens += _tokens(source, start, end, {a + start: b + start for a, b in ends.items()})
        return tokens


@contextmanager
def paused_collector() -> Iterator[None]:
    """Pause the cyclic garbage collector for the ``with`` block (it comes
    back as it was). Reading a text makes millions of tokens and pieces,
    none in a cycle; the collector would walk them over and over (a third
    of the time of a 50 MB text), and frees nothing."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _tokens(source: SourceText, i: int, n: int, note_ends: dict[int, int]) -> list[Token]:
    text = source.text
    tokens: list[Token] = []
    append = tokens.append
    match = _TOKEN.match
    while i < n:
        m = match(text, i)
        kind = m.lastgroup
        end = m.end()
        if kind == "space":
            pass
        elif kind == "text":
            if not _is_list_marker(text, i, m.group()):
                append(Token(Kind.TEXT, i, end, source))
        elif kind == "stroke":
            append(Token(Kind.STROKE, i, end, source, drum_of(m.group())))
        elif kind == "half":
            append(Token(Kind.HALF, i, end, source))
        elif kind == "label":
            append(Token(Kind.LABEL, i, end, source, tradition=LABELS[m.group()]))
        elif kind == "heading":
            append(Token(Kind.HEADING, i, end, source))
        elif kind == "empty":
            append(Token(Kind.SYMBOL, i, end, source))
        else:                                            # "other"
            other, end = _other(text, i, note_ends)
            if other is not None:
                append(Token(other, i, end, source))
        i = end
    return tokens


def _other(text: str, i: int, note_ends: dict[int, int]) -> tuple[Kind | None, int]:
    """What the character at *i*, which no group of :data:`_TOKEN` took,
    starts: the kind of its token (None if it is skipped) and where it ends.

    A note bracket starts a note (to its closer, :func:`match_notes`) or a run
    of unclosed openers; ``<`` may start a markup tag; other punctuation,
    closers and quote marks are skipped; a symbol is a symbol unless it is a
    bullet opening a list item; anything else (combining marks and the like)
    is prose.
    """
    ch = text[i]
    if ch in NOTE_BRACKETS:
        end = note_ends.get(i)
        if end is not None:
            return Kind.NOTE, end
        # a run of unclosed openers is one token (linear time, one break)
        j, n = i + 1, len(text)
        while j < n and text[j] in NOTE_BRACKETS and j not in note_ends:
            j += 1
        return Kind.UNCLOSED, j
    if ch == "<" and (tag := _TAG.match(text, i)):
        return None, tag.end()
    if ch in _CLOSERS or is_ignorable(ch):
        return None, i + 1
    if ch == ">" and _at_line_start(text, i):
        return None, i + 1                            # a quote mark (e-mail, Markdown)
    if _is_symbol(ch):
        if _at_line_start(text, i) and i + 1 < len(text) and text[i + 1] in " \t\u3000":
            return None, i + 1                        # a bullet (▲ ● ◆ …) opening a list item
        return Kind.SYMBOL, i + 1
    return Kind.TEXT, i + 1                           # combining marks and the like: prose

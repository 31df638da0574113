"""What a text hides from the scanner, said: lost symbols, patterns inside brackets.

:func:`~guji.text.reading.scan.scan` reads patterns outside notes only, and only where
the strokes are there. Two digitisation accidents make a text look to the
user like one without the scores, so they are named in warnings:

* **Lost symbols** (:func:`lost_symbols`): the strokes were dropped (a font
  without ○ □, an OCR that took them for blank space) and the score labels
  and 半 stand among blank spaces: ``魯鼓　　半　　``. Each stretch of labels
  and 半 with no stroke beside them (and a 半 with no word glued to it) is
  named, with its position. A stretch stops at a stroke (the strokes are
  there: ``半　○魯鼓`` names nothing) and at prose of :data:`PROSE_BREAK`
  characters or more (where a diagram's reach ends everywhere in the
  scanner), so it never reaches past what
  :mod:`guji.text.reading.prefilter` calls a break.
* **A pattern inside brackets** (:func:`bracketed`): a note ``( )`` ``（ ）``
  ``【 】`` holding a labelled pattern or a run of strokes with 半 — a
  commentary quoting a whole diagram, or a stray 【 that a 】 far later
  closes, swallowing everything between. The pattern is named with its
  position; a note that spans many lines, or holds other notes' brackets,
  is flagged as a probable stray bracket. ``scan(…, read_bracketed=True)``
  (``guji scan --read-bracketed``) reads such patterns as patterns
  (:func:`unbracketed`: the brackets of those notes are read as blank, so
  every position stays where the text has it).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...i18n import _
from .lexer import NOTE_BRACKETS, Kind, SourceText, Token, tokenize
from .notation import HALF
from .segments import Segment, pieces_of

__all__ = ["Hidden", "lost_symbols", "bracketed", "unbracketed", "STRAY_LINES", "PROSE_BREAK"]

#: A note over more line breaks than this is flagged as a probable stray bracket.
STRAY_LINES = 6
#: Fewest strokes of a run with 半 inside a note that is named (a variant note
#: writes a few strokes; a quoted diagram has twenty and more).
_FEWEST = 6
#: How far (in tokens) a label may stand from a lone 半 to be named with it.
_NEAR = 3
#: Prose of this many characters or more (one token) ends a stretch of lost
#: symbols, as it ends a segment, a chain of typos (at most
#: :data:`~guji.text.reading.typos.MAX_TYPO_CHARS`, 4) and a chain of labels.
#: The prefilter's break (five ideographs outside notes and tags,
#: :data:`guji.text.reading.slicemap.BREAK_LENGTH`) always lies inside such a token.
PROSE_BREAK = 5


@dataclass(frozen=True)
class Hidden:
    """A pattern inside the note *note*: at *offset* (its first stroke), with
    its *label* (the label's text, or None for a run of strokes with 半) and
    its *strokes* as written; *stray* when the note looks like a slip."""

    note: Token
    offset: int
    label: str | None
    strokes: str
    stray: bool


def lost_symbols(tokens: Sequence[Token]) -> list[tuple[str, int]]:
    """A warning (message, offset) for each stretch of score labels and 半
    with no stroke beside them: the symbols appear to be lost.

    A stretch starts at a lone 半 and takes the labels and lone 半 near it
    (:func:`_next_word`), never across a stroke or a break of prose; a
    label with a stroke beside it is not taken (it names strokes that are
    there). So every stretch lies between two breaks, with no stroke in it."""
    found: list[tuple[str, int]] = []
    done = -1
    for k in _half_tokens(tokens):
        if k <= done or not _lone_half(tokens, k):
            continue
        lo, hi = k, k
        while (j := _next_word(tokens, hi, 1, lambda j: _lost_word(tokens, j))) is not None:
            hi = j                       # widen over labels and lone 半 nearby
        while (j := _next_word(tokens, lo, -1,
                               lambda j: j > done and _lost_label(tokens, j))) is not None:
            lo = j
        words = [t.text for t in tokens[lo:hi + 1] if t.kind in (Kind.LABEL, Kind.HALF)]
        if any(t.kind is Kind.LABEL for t in tokens[lo:hi + 1]):
            found.append((_("{words}: score labels and 半 with no ○ or □ beside them: "
                            "the drum symbols appear to be lost in this text").format(words=" ".join(words)),
                          tokens[lo].offset))
        done = hi
    return found


def _next_word(tokens: Sequence[Token], k: int, step: int, wanted) -> int | None:
    """The first index from *k* in direction *step* that is *wanted*, within
    :data:`_NEAR` tokens (symbols standing for lost strokes, 〓, not counted),
    with no stroke and no prose of :data:`PROSE_BREAK` characters or more
    before it."""
    j, seen = k + step, 0
    while 0 <= j < len(tokens) and seen < _NEAR:
        if wanted(j):
            return j
        t = tokens[j]
        if t.kind is Kind.STROKE or (t.kind is Kind.TEXT and t.end - t.offset >= PROSE_BREAK):
            return None
        if t.kind is not Kind.SYMBOL:
            seen += 1
        j += step
    return None


def _half_offsets(tokens: Sequence[Token]) -> Iterator[int]:
    """Where 半 stands in the text of *tokens*, in order (a text has few: found
    with ``str.find``, not by walking a book's millions of tokens)."""
    if not tokens:
        return
    text = tokens[0].source.text
    at = text.find(HALF)
    while at >= 0:
        yield at
        at = text.find(HALF, at + 1)


def _half_tokens(tokens: Sequence[Token]) -> Iterator[int]:
    """The indices of the 半 tokens of *tokens*."""
    for at in _half_offsets(tokens):
        k = bisect.bisect_left(tokens, at, key=_offset)
        if k < len(tokens) and tokens[k].offset == at and tokens[k].kind is Kind.HALF:
            yield k


def _offset(token: Token) -> int:
    return token.offset


def _lone_half(tokens: Sequence[Token], k: int) -> bool:
    """Is the 半 at *k* standing where strokes were: no stroke next to it, and
    no word glued to it on either side (``魯鼓之半，`` and ``取半以下`` are prose;
    ``　半　``, ``：半魯鼓`` and ``〓半〓`` are not)?"""
    half = tokens[k]
    left = tokens[k - 1] if k > 0 else None
    right = tokens[k + 1] if k + 1 < len(tokens) else None
    if any(t is not None and t.kind is Kind.STROKE for t in (left, right)):
        return False
    return not ((left is not None and left.kind is Kind.TEXT and left.end == half.offset)
                or (right is not None and right.kind is Kind.TEXT and right.offset == half.end))


def _lost_label(tokens: Sequence[Token], j: int) -> bool:
    """Is ``tokens[j]`` a label with no stroke next to it?"""
    return tokens[j].kind is Kind.LABEL and not any(
        0 <= i < len(tokens) and tokens[i].kind is Kind.STROKE for i in (j - 1, j + 1))


def _lost_word(tokens: Sequence[Token], j: int) -> bool:
    t = tokens[j]
    return _lost_label(tokens, j) or (t.kind is Kind.HALF and _lone_half(tokens, j))


def bracketed(src: SourceText, tokens: Sequence[Token]) -> list[Hidden]:
    """The patterns inside the notes of *tokens* (module docstring), in text order."""
    out: list[Hidden] = []
    last = -1
    for at in _half_offsets(tokens):
        k = bisect.bisect_right(tokens, at, key=_offset) - 1
        if k > last and tokens[k].kind is Kind.NOTE and at < tokens[k].end:
            out.extend(_inside(src, tokens[k]))     # each note once, at its first 半
            last = k
    return out


def _inside(src: SourceText, note: Token) -> Iterator[Hidden]:
    inner = SourceText(src.text[note.offset + 1:note.end - 1])
    pieces = pieces_of(tokenize(inner))
    text = src.text[note.offset:note.end]
    stray = (text.count("\n") > STRAY_LINES
             or any(ch in NOTE_BRACKETS or ch in NOTE_BRACKETS.values() for ch in text[1:-1]))
    for k, piece in enumerate(pieces):
        if not isinstance(piece, Segment) or not piece.halves or len(piece.strokes) < _FEWEST:
            continue
        label = next((p for p in (pieces[k - 1] if k else None,
                                  pieces[k + 1] if k + 1 < len(pieces) else None)
                      if p is not None and not isinstance(p, Segment) and p.kind is Kind.LABEL),
                     None)
        first = piece.first.offset
        written = inner.text[first:piece.last.end]
        yield Hidden(note, note.offset + 1 + first, None if label is None else label.text,
                     written, stray)


def unbracketed(text: str, hidden: Sequence[Hidden]) -> str:
    """*text* with the brackets of the notes holding *hidden* patterns read as
    blank (same length: every offset, line and column unchanged)."""
    chars = list(text)
    for note in {h.note.offset: h.note for h in hidden}.values():
        chars[note.offset] = " "
        chars[note.end - 1] = " "
    return "".join(chars)


def hidden_notices(src: SourceText, hidden: Sequence[Hidden],
                   read: bool) -> list[tuple[str, int]]:
    """A warning (message, offset) for each pattern inside a note; *read*:
    whether they were read as patterns (``read_bracketed``)."""
    out: list[tuple[str, int]] = []
    for h in hidden:
        what = (_("a labelled pattern ({label} {strokes})").format(label=h.label, strokes=_cut(h.strokes))
                if h.label else _("a run of strokes with 半 ({strokes})").format(strokes=_cut(h.strokes)))
        opened = src.location(h.note.offset)
        closed = src.location(h.note.end - 1)
        where = _("inside the note {open}…{close} from {line}:{column} to {end_line}:{end_column}").format(
            open=src.text[h.note.offset], close=src.text[h.note.end - 1], line=opened.line,
            column=opened.column, end_line=closed.line, end_column=closed.column)
        why = (_("probably a stray bracket (the note spans many lines or holds other notes' "
                 "brackets)") if h.stray else _("a quoted diagram, or a bracket that may be a slip"))
        done = (_("read as a pattern (--read-bracketed)") if read
                else _("read as commentary, not as a pattern; guji scan --read-bracketed reads it"))
        out.append((_("{what} stands {where}: {why}; {done}").format(what=what, where=where, why=why,
                                                                     done=done), h.offset))
    return out


def _cut(strokes: str, limit: int = 24) -> str:
    flat = "".join(strokes.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"

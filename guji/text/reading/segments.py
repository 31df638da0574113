"""A whole text in pieces: segments of strokes and 半, and what stands between them.

:func:`~guji.text.reading.scan.scan` reads a text's tokens as *pieces*: a
:class:`Segment` is a stretch of strokes and 半 with only ignorable text
(white space, punctuation, markup, notes) between them; every other token
(prose, a label, a heading, a symbol, an unclosed bracket) is a piece of its
own. A segment keeps the notes inside it and those right after its last
stroke (before the next piece): they may be variant notes
(:mod:`guji.text.apparatus.notes`). Other notes between segments are commentary and
are dropped. The typo check
(:mod:`guji.text.reading.typos`) and the attachment of labels
(:mod:`guji.text.reading.labels`) both read the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import Kind, Token


@dataclass
class Segment:
    """Strokes and 半 with only ignorable text (and notes) between them.

    ``notes`` are the note tokens between its strokes; ``trailing`` those
    right after its last stroke or 半, before the next piece of the text.
    """

    tokens: list[Token]
    notes: list[Token] = field(default_factory=list)
    trailing: list[Token] = field(default_factory=list)

    @property
    def strokes(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.STROKE]

    @property
    def halves(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.HALF]

    @property
    def first(self) -> Token:
        return self.tokens[0]

    @property
    def last(self) -> Token:
        return self.tokens[-1]

    def can_end(self) -> bool:
        """Does it end as a pattern ends: a 半 somewhere, strokes after the last one?"""
        return self.last.kind is Kind.STROKE and any(t.kind is Kind.HALF for t in self.tokens)

    def can_start(self) -> bool:
        """Does it start as a pattern starts: strokes, then a 半?"""
        return self.first.kind is Kind.STROKE and any(t.kind is Kind.HALF for t in self.tokens)

    def is_pattern(self) -> bool:
        halves = self.halves
        return (len(halves) == 1 and self.first.kind is Kind.STROKE
                and self.last.kind is Kind.STROKE)


#: A piece of the text: a segment, or one token that is not part of one.
Piece = "Segment | Token"


def pieces_of(tokens: list[Token]) -> list:
    """Tokens → segments and the tokens between them (notes right after a
    segment are its ``trailing`` notes; other notes between segments are
    dropped: they are commentary). A 半 glued to prose on both sides is a
    word (取半以下, 要縫半下), not the marker: it counts as prose."""
    pieces: list = []
    pending: list[Token] = []

    def close() -> None:
        if pending and pieces and isinstance(pieces[-1], Segment):
            pieces[-1].trailing = list(pending)

    for k, tok in enumerate(tokens):
        if tok.kind is Kind.HALF and _prose_half(tokens, k):
            tok = tok.as_text()
        if tok.kind in (Kind.STROKE, Kind.HALF):
            if pieces and isinstance(pieces[-1], Segment):
                pieces[-1].tokens.append(tok)
                pieces[-1].notes.extend(pending)
            else:
                pieces.append(Segment([tok]))
            pending = []
        elif tok.kind is Kind.NOTE:
            pending.append(tok)
        else:
            close()
            pieces.append(tok)
            pending = []
    close()
    return pieces


def _prose_half(tokens: list[Token], k: int) -> bool:
    """Is the 半 at ``tokens[k]`` glued to prose on both sides?"""
    if not 0 < k < len(tokens) - 1:
        return False
    left, half, right = tokens[k - 1], tokens[k], tokens[k + 1]
    return (left.kind is Kind.TEXT and right.kind is Kind.TEXT
            and left.end == half.offset and half.end == right.offset)


def glued(left, right) -> bool:
    """No character at all between two pieces."""
    a = left.last if isinstance(left, Segment) else left
    b = right.first if isinstance(right, Segment) else right
    return a.end == b.offset

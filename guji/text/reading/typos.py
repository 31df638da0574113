"""Typos in a whole text: what stands between two strokes of one pattern.

A character that is not a stroke, 半 or ignorable, standing between two
strokes of one pattern, is a :class:`~guji.errors.NotationError` at that
character, with a suggestion for the usual look-alikes
(:data:`guji.text.reading.notation.LOOKALIKES`). Segments (:mod:`guji.text.reading.segments`)
joined by short gaps form *chains*; a chain is read as one pattern with typos
only if, joined, it would be one. A lone stroke glued to prose is a section
mark, not part of a pattern. See :func:`~guji.text.reading.scan.scan`, step 2.
"""

from __future__ import annotations

from ...i18n import _
from .lexer import Kind, SourceText, Token
from .parser import error_at, foreign_message, lookalike
from .segments import Segment, glued


#: Longest stretch (in characters, ignorables not counted) of prose or symbols
#: between two strokes that is still read as a typo inside one pattern rather
#: than as words between two things.
MAX_TYPO_CHARS = 4


def check_typos(src: SourceText, pieces: list) -> None:
    """Raise :class:`NotationError` at the first character that is not a
    stroke, 半 or ignorable and stands inside a pattern (see
    :func:`~guji.text.reading.scan.scan`)."""
    segs = [k for k, p in enumerate(pieces) if isinstance(p, Segment)]
    errors: list[Token] = []
    # chains: segments joined by typo-sized gaps; only a chain with a 半 is a pattern
    chain: list[int] = []
    for n, k in enumerate(segs + [None]):
        if chain and (k is None or not _typo_gap(pieces[chain[-1] + 1:k])):
            errors += _chain_errors(pieces, chain)
            chain = []
        if k is not None:
            chain.append(k)
    for seg in (pieces[k] for k in segs):
        halves = seg.halves
        if len(halves) >= 2 and len(seg.strokes) >= 2:
            errors.append(halves[1])
    if errors:
        tok = min(errors, key=lambda t: t.offset)
        if tok.kind is Kind.HALF:
            raise error_at(src, _("a second 半 in one pattern: every pattern has exactly one"),
                           tok.offset)
        raise error_at(src, foreign_message(tok), tok.offset)


def _chain_errors(pieces: list, chain: list[int]) -> list[Token]:
    """The misplaced tokens of one chain of segments (see :func:`check_typos`).

    A chain is read as one pattern with typos only if, joined, it would be
    one: a 半 with strokes before and after it.
    """
    kinds = [t.kind for k in chain for t in pieces[k].tokens]
    strokes = [i for i, kind in enumerate(kinds) if kind is Kind.STROKE]
    if not any(kind is Kind.HALF and strokes[0] < i < strokes[-1]
               for i, kind in enumerate(kinds) if strokes):
        return []
    out = []
    for a, b in zip(chain, chain[1:]):
        if pieces[a].can_end() and pieces[b].can_start():
            continue                                   # two patterns, words between
        if _is_section_mark(pieces, a, -1) or _is_section_mark(pieces, b, +1):
            continue
        out.append(pieces[a + 1])
    # a look-alike glued to either end of the chain
    first, last = chain[0], chain[-1]
    if first > 0 and glued(pieces[first - 1], pieces[first]):
        tok = pieces[first - 1]
        if tok.kind in (Kind.TEXT, Kind.SYMBOL) and lookalike(tok.text):
            out.append(tok)
    if last + 1 < len(pieces) and glued(pieces[last], pieces[last + 1]):
        tok = pieces[last + 1]
        if tok.kind in (Kind.TEXT, Kind.SYMBOL) and lookalike(tok.text):
            out.append(tok)
    return out


def _typo_gap(gap: list) -> bool:
    """Could *gap* (the pieces between two segments) be a typo inside one
    pattern: short, and no score label in it?"""
    if not gap:
        return False
    chars = 0
    for tok in gap:
        if tok.kind is Kind.LABEL:
            return False
        chars += len(tok.text) if tok.kind is not Kind.UNCLOSED else 1
    return chars <= MAX_TYPO_CHARS


def _is_section_mark(pieces: list, k: int, side: int) -> bool:
    """Is segment ``pieces[k]`` a lone stroke glued to prose on its *side*
    (−1 left, +1 right)? Such a ○ is a section mark (``右作樂○記鼓``,
    ``擊鼓○疏曰``, ``○圜音圓``), not part of a pattern. (Glued to a heading
    or a label it is a pattern's first or last stroke: ``右鼔○□…``.)"""
    seg = pieces[k]
    if len(seg.tokens) != 1 or seg.first.kind is not Kind.STROKE:
        return False
    j = k + side
    if not 0 <= j < len(pieces) or isinstance(pieces[j], Segment):
        return False
    other = pieces[j]
    if other.kind is not Kind.TEXT:
        return False
    return glued(other, seg) if side < 0 else glued(seg, other)

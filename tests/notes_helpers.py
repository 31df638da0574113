"""Helpers for the variant-note tests: patterns with notes put in, read back
through guji's own reader."""

from __future__ import annotations

from guji.text.reading.lexer import Kind, SourceText, tokenize
from guji.text.reading.parser import parse
from guji.text.apparatus.witnesses import notes_of

LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"
XUE1 = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
LU2 = "○□○○□□○○半○□○○□○○○○□○□○"
XUE2 = "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"


def plain(pattern: str) -> tuple[str, int]:
    """A pattern without notes → (strokes, index of 半)."""
    return pattern.replace("半", ""), pattern.index("半")


def insert_note(pattern: str, after: int, note: str, *, after_half: bool = False) -> str:
    """*pattern* with *note* after its *after*-th stroke (after 半 if 半 stands
    there and *after_half*)."""
    out, seen, placed = [], 0, False
    for ch in pattern:
        if not placed and seen == after and not (ch == "半" and after_half):
            out.append(note)
            placed = True
        out.append(ch)
        if ch != "半" and not ch.isspace():
            seen += 1
    if not placed:
        out.append(note)
    return "".join(out)


def read(text: str, score: str = "lu"):
    """Every witness's reading of the one pattern in *text*:
    ``({witness: (strokes, half_start)}, unread notes)``."""
    pattern = parse(text, score)
    found = {v.witness: (v.notation(marker=False), v.half_start) for v in pattern.variants}
    return found, list(pattern.unread)


def only(text: str, score: str = "lu"):
    """The one witness reading of *text*, asserting that no note was left unread."""
    found, unread = read(text, score)
    assert unread == []
    assert len(found) == 1
    return next(iter(found.items()))


def split(text: str):
    """*text* (one pattern) → (strokes, half_at, notes, offset of 半) as the
    scanner hands them over."""
    tokens = tokenize(SourceText(text))
    strokes = [t for t in tokens if t.kind is Kind.STROKE]
    half = next(t for t in tokens if t.kind is Kind.HALF)
    notes = notes_of([t.offset for t in strokes], [t for t in tokens if t.kind is Kind.NOTE])
    glyphs = "".join(t.drum.glyph for t in strokes)
    return glyphs, sum(1 for t in strokes if t.offset < half.offset), notes, half.offset

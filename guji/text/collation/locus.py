"""Where a reading stands: the locus of a pattern and of each stroke, and its notes.

A scholar cites a reading by its place: the file, the line and column of
its first stroke, of 半 and of every stroke (1-based, columns in
characters); for a shipped edition the same places in the seed the passage
is cut from (:meth:`Edition.seed_position <guji.text.reading.editions.Edition.seed_position>`).
A witness's reading (``~一本``) is read from notes: its strokes a note writes
stand in the note, and its notes are given with their text and place. The
text's own reading carries the notes of all its witnesses, and the notes
with strokes that were not read.
"""

from __future__ import annotations

from ..reading.editions import edition
from ..reading.notation import Pattern

__all__ = ["locus", "notes_of"]


def _place(pattern: Pattern, line: int, column: int) -> dict:
    place = {"line": line, "column": column}
    if pattern.edition:
        sl, sc = edition(pattern.edition).seed_position(line, column)
        place["seed_line"], place["seed_column"] = sl, sc
    return place


def locus(pattern: Pattern) -> dict:
    """The locus of *pattern*: file, its first stroke's place, 半's, each stroke's."""
    out = {"file": pattern.filename, **_place(pattern, pattern.location.line,
                                               pattern.location.column)}
    if pattern.edition:
        out["seed"] = edition(pattern.edition).seed
    out["half"] = _place(pattern, pattern.half_location.line, pattern.half_location.column)
    out["strokes"] = [{"glyph": s.raw, "drum": s.drum.value,
                       **_place(pattern, s.location.line, s.location.column)}
                      for s in pattern.strokes]
    return out


def notes_of(pattern: Pattern) -> list[dict]:
    """The notes of *pattern*'s reading, with their text and place (see the
    module docstring): ``{"note", "line", "column", "witness", "read"}``."""
    if pattern.witness is not None:
        return [{**n.to_json(), "witness": pattern.witness, "read": True} for n in pattern.notes]
    out = [{**n.to_json(), "witness": v.witness, "read": True}
           for v in pattern.variants for n in v.notes]
    out += [{**n.to_json(), "witness": None, "read": False} for n in pattern.unread]
    return sorted(out, key=lambda n: (n["line"], n["column"]))

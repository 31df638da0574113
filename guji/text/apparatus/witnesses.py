"""Witnesses' whole readings of a pattern, from its variant notes.

:mod:`guji.text.apparatus.notes` reads each note into one edit for one witness;
this module combines every note of one witness in one pattern into that
witness's **whole reading** (:func:`readings`), and makes it a
:class:`~guji.text.reading.notation.Pattern` of its own (:func:`variants_of`): its
id ends ``~WITNESS`` (``lu:1@notes.txt~一本``), so every command takes it as
it takes any reading.

The strokes a witness keeps are the text's own strokes (with their glyphs
and places); the strokes a note writes stand where their glyph stands in
the note (``作二○``: both strokes at the ○), so a display highlights them in
the note itself.

Rules
-----
* All read notes of one witness in one pattern are applied together
  (:func:`~guji.text.apparatus.edits.apply`). If any of them cannot be applied (it
  crosses 半, names strokes that are not there, overlaps another), the
  witness gets no reading at all and each of its notes is listed as not
  read: a reading with one of its differences missing would be a wrong
  reading that looks right.
* The anonymous 一本 and 或本 of two notes are taken to be one witness.
* An insertion at 半 (``○(一本有□)半`` or ``半(一本有□)○``) goes on the side of
  半 the note is written on.
* A replace or delete in a note right after 半 (``半(一本作□)``) applies to the
  strokes before 半: "the strokes just before the note".
* Each note of the reading keeps its edit (:class:`EditNote`), so the
  collation places the witness where its notes say (:func:`origins_of`),
  not where an alignment would find its strokes.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .edits import Edit, EditError, Origin, apply_traced
from ..reading.lexer import SourceText, Token
from ..reading.notation import Pattern, SourceNote, Stroke, UnreadNote, drum_of
from .notes import NotRead, Note, WitnessNote, read_notes, shown

__all__ = ["EditNote", "Reading", "readings", "notes_of", "variants_of", "origins_of"]


@dataclass(frozen=True)
class EditNote(SourceNote):
    """A note a witness's reading is read from, as written, with the edit it
    makes of its text's strokes (:class:`~guji.text.apparatus.edits.Edit`,
    ``at`` an index into the text's strokes) and, for an insertion at 半,
    whether the note stands after 半 (its strokes then go after it).

    The collation places the witness's reading by these edits
    (:func:`origins_of`): a note says where its witness differs, so its place
    of variation is the note's, never one found again by an alignment."""

    edit: Edit | None = None
    after_half: bool = False


def origins_of(text: Pattern, witness: Pattern) -> list[Origin] | None:
    """Where each stroke of *witness* (a reading of *text*'s notes) comes
    from: ``(-1, i)`` the text's stroke *i*, ``(e, k)`` the *k*-th stroke
    written by its note *e* (:attr:`Pattern.notes`, each an :class:`EditNote`);
    None when its notes do not carry their edits (a reading from elsewhere)."""
    notes = witness.notes
    if not notes or not all(isinstance(n, EditNote) and n.edit is not None for n in notes):
        return None
    base = "".join(s.glyph for s in text.strokes)
    after = {e for e, n in enumerate(notes) if n.after_half}
    try:
        origins, half = apply_traced(base, text.half_start, [n.edit for n in notes], after)
    except EditError:
        return None
    if half != witness.half_start or len(origins) != len(witness.strokes):
        return None
    return origins


@dataclass(frozen=True)
class Reading:
    """One witness's whole reading of a pattern.

    ``origins`` say where each of its strokes comes from (the text's stroke,
    or a stroke a note writes: :data:`~guji.text.apparatus.edits.Origin`, edits
    numbered as in ``notes``); ``half_at`` is the index of 半 in it.
    """

    witness: str
    origins: tuple[Origin, ...]
    half_at: int
    notes: tuple[WitnessNote, ...]

    def glyphs(self, strokes: str) -> str:
        """The reading's strokes (○ □), given the text's *strokes*."""
        return "".join(strokes[i] if e < 0 else self.notes[e].edit.strokes[i]
                       for e, i in self.origins)


def _one_witness(witness: str, base: str, half_at: int, notes: list[WitnessNote],
                 half_offset: int) -> Reading | list[NotRead]:
    """The whole reading of *witness*, or its notes as not read.

    An insertion at 半 whose note is written after 半 (at *half_offset* in the
    source) goes after it. When the notes cannot be applied together, each
    is tried alone to say which is at fault.
    """
    after_half = {i for i, wn in enumerate(notes)
                  if wn.edit.kind == "insert" and wn.edit.at == half_at
                  and wn.notes[0].offset > half_offset}
    edits = [wn.edit for wn in notes]
    try:
        origins, half = apply_traced(base, half_at, edits, after_half)
    except EditError as together:
        problems: dict[int, str] = {}
        for i, edit in enumerate(edits):
            try:
                apply_traced(base, half_at, [edit], {0} if i in after_half else ())
            except EditError as alone:
                problems[i] = str(alone)
        if not problems:
            problems = dict.fromkeys(together.edits, str(together))
    else:
        return Reading(witness, tuple(origins), half, tuple(notes))
    out = []
    for i, wn in enumerate(notes):
        reason = problems.get(i)
        if reason is None:
            reason = f"another note of {witness} in this pattern was not read"
        out.append(NotRead(wn.notes, f"note {shown(wn.notes)}: {reason}"))
    return out


def readings(strokes: str, half_at: int, notes: Sequence[Note], source: str,
             half_offset: int) -> tuple[list[Reading], list[NotRead]]:
    """Every witness's whole reading of one pattern.

    *strokes* (normalised ○ □) and *half_at* are the pattern as the text
    writes it; *notes* its bracket groups (inside it and right after its last
    stroke), with ``after_stroke``; *source* the text their offsets refer to,
    and *half_offset* where 半 stands in it.

    Returns the readings, in order of each witness's first note, and the
    notes with strokes that were not read, in source order.
    """
    read, not_read = read_notes(notes, source)
    by_witness: dict[str, list[WitnessNote]] = {}
    for wn in read:
        by_witness.setdefault(wn.witness, []).append(wn)
    result: list[Reading] = []
    for witness, wns in by_witness.items():
        got = _one_witness(witness, strokes, half_at, wns, half_offset)
        if isinstance(got, Reading):
            result.append(got)
        else:
            not_read.extend(got)
    not_read.sort(key=lambda nr: nr.notes[0].offset)
    return result, not_read


# ---------------------------------------------------------------------------
# The scanner's side: notes of a run of tokens, readings as patterns
# ---------------------------------------------------------------------------

def notes_of(stroke_offsets: Sequence[int], tokens: Sequence[Token]) -> list[Note]:
    """The note *tokens* of a pattern as :class:`~guji.text.apparatus.notes.Note`
    values, each with the number of strokes (at *stroke_offsets*, in order)
    written before it."""
    return [Note(t.text, t.location, bisect.bisect_left(stroke_offsets, t.offset))
            for t in tokens]


def _written(src: SourceText, notes: Sequence[Note]) -> SourceNote:
    """A note (one or more bracket groups) as written, first bracket to last."""
    start, end = notes[0].offset, notes[-1].end
    return SourceNote(src.text[start:end], notes[0].location)


def _edit_note(src: SourceText, wn: WitnessNote, pattern: Pattern) -> EditNote:
    """A read note as written, with its edit (:class:`EditNote`)."""
    written = _written(src, wn.notes)
    after = (wn.edit.kind == "insert" and wn.edit.at == pattern.half_start
             and wn.notes[0].offset > pattern.half_location.offset)
    return EditNote(written.text, written.location, wn.edit, after)


def _pattern(pattern: Pattern, reading: Reading, src: SourceText) -> Pattern:
    """The witness's *reading* of *pattern* as a pattern of its own."""
    strokes = []
    for e, i in reading.origins:
        if e < 0:
            old = pattern.strokes[i]
            strokes.append(Stroke(old.drum, len(strokes), old.raw, old.location))
        else:
            offset = reading.notes[e].glyphs[i]
            raw = src.text[offset]
            strokes.append(Stroke(drum_of(raw), len(strokes), raw, src.location(offset)))
    lines = {n for n, _ in pattern.lines}
    lines.update(range(min(lines, default=strokes[0].location.line),
                       max(s.location.line for s in strokes) + 1))
    return dataclasses.replace(
        pattern, strokes=tuple(strokes), half_start=reading.half_at, witness=reading.witness,
        lines=tuple((n, src.line_text(n)) for n in sorted(lines)),
        notes=tuple(_edit_note(src, wn, pattern) for wn in reading.notes), variants=(), unread=())


def variants_of(pattern: Pattern, notes: Sequence[Note], src: SourceText
                ) -> tuple[tuple[Pattern, ...], tuple[UnreadNote, ...]]:
    """The witnesses' readings of *pattern* as patterns, from its *notes*; and
    the notes with strokes not read (:class:`~guji.text.reading.notation.UnreadNote`)."""
    if not notes:
        return (), ()
    base = "".join(s.glyph for s in pattern.strokes)
    found, not_read = readings(base, pattern.half_start, notes, src.text,
                               pattern.half_location.offset)
    variants = tuple(_pattern(pattern, r, src) for r in found)
    unread = tuple(UnreadNote(_written(src, nr.notes).text, nr.location, nr.reason)
                   for nr in not_read)
    return variants, unread

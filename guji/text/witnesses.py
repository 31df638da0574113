"""Witnesses' whole readings of a pattern, from its variant notes.

:mod:`guji.text.notes` reads each note into one edit for one witness;
this module combines every note of one witness in one pattern into that
witness's **whole reading** (:func:`readings`), and makes it a
:class:`~guji.text.notation.Pattern` of its own (:func:`variants_of`): its
id ends ``~WITNESS`` (``lu:1@notes.txt~一本``), so every command takes it as
it takes any reading.

The strokes a witness keeps are the text's own strokes (with their glyphs
and places); the strokes a note writes stand where their glyph stands in
the note (``作二○``: both strokes at the ○), so a display highlights them in
the note itself.

Rules
-----
* All read notes of one witness in one pattern are applied together
  (:func:`~guji.text.edits.apply`). If any of them cannot be applied (it
  crosses 半, names strokes that are not there, overlaps another), the
  witness gets no reading at all and each of its notes is listed as not
  read: a reading with one of its differences missing would be a wrong
  reading that looks right.
* The anonymous 一本 and 或本 of two notes are taken to be one witness.
* An insertion at 半 (``○(一本有□)半`` or ``半(一本有□)○``) goes on the side of
  半 the note is written on: the first stroke or 半 before the note in the
  source (white space, punctuation and other notes skipped) decides.
* A replace or delete in a note right after 半 (``半(一本作□)``) applies to the
  strokes before 半: "the strokes just before the note".
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .edits import EditError, Origin, apply_traced
from .lexer import NOTE_BRACKETS, SourceText, Token
from .notation import HALF, Pattern, SourceNote, Stroke, UnreadNote, drum_of
from .notes import COLUMN_MARKS, NORMAL, NotRead, Note, WitnessNote, read_notes, shown

__all__ = ["Reading", "readings", "notes_of", "variants_of"]

_CLOSERS = set(NOTE_BRACKETS.values())


@dataclass(frozen=True)
class Reading:
    """One witness's whole reading of a pattern.

    ``origins`` say where each of its strokes comes from (the text's stroke,
    or a stroke a note writes: :data:`~guji.text.edits.Origin`, edits
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


def _side_of_half(source: str, offset: int, after_stroke: int) -> str | None:
    """``"before"`` if the first stroke or 半 before *offset* in *source* (white
    space, punctuation, column marks and whole notes skipped) is a stroke,
    ``"after"`` if it is 半; for anything else before the note: ``"before"``
    for a note before the first stroke, else None."""
    i, depth = offset - 1, 0
    while i >= 0:
        ch = source[i]
        if depth:
            depth += ch in _CLOSERS
            depth -= ch in NOTE_BRACKETS
        elif ch in _CLOSERS:
            depth = 1
        elif ch == HALF:
            return "after"
        elif ch in NORMAL:
            return "before"
        elif not (ch.isspace() or ch in COLUMN_MARKS
                  or unicodedata.category(ch)[0] == "P" or unicodedata.category(ch) == "Cf"):
            break
        i -= 1
    return "before" if after_stroke == 0 else None


def _problems(base: str, half_at: int, notes: list[WitnessNote], source: str
              ) -> tuple[dict[int, str], set[int]]:
    """Each note's own problem (index → reason), and the notes that insert
    strokes right after 半."""
    problems: dict[int, str] = {}
    after_half: set[int] = set()
    for i, wn in enumerate(notes):
        side = None
        if wn.edit.kind == "insert" and wn.edit.at == half_at:
            side = _side_of_half(source, wn.notes[0].offset, wn.edit.at)
            if side is None:
                problems[i] = "strokes inserted beside 半: whether before or after it is not known"
                continue
        try:
            apply_traced(base, half_at, [wn.edit], {0} if side == "after" else ())
        except EditError as e:
            problems[i] = str(e)
            continue
        if side == "after":
            after_half.add(i)
    return problems, after_half


def _one_witness(witness: str, base: str, half_at: int, notes: list[WitnessNote],
                 source: str) -> Reading | list[NotRead]:
    """The whole reading of *witness*, or its notes as not read."""
    problems, after_half = _problems(base, half_at, notes, source)
    if not problems:
        try:
            origins, half = apply_traced(base, half_at, [wn.edit for wn in notes], after_half)
        except EditError as e:
            problems = dict.fromkeys(e.edits, str(e))
        else:
            return Reading(witness, tuple(origins), half, tuple(notes))
    out = []
    for i, wn in enumerate(notes):
        reason = problems.get(i)
        if reason is None:
            reason = f"another note of {witness} in this pattern was not read"
        out.append(NotRead(wn.notes, f"note {shown(wn.notes)}: {reason}"))
    return out


def readings(strokes: str, half_at: int, notes: Sequence[Note], source: str
             ) -> tuple[list[Reading], list[NotRead]]:
    """Every witness's whole reading of one pattern.

    *strokes* (normalised ○ □) and *half_at* are the pattern as the text
    writes it; *notes* its bracket groups (inside it and right after its last
    stroke), with ``after_stroke``; *source* the text their offsets refer to.

    Returns the readings, in order of each witness's first note, and the
    notes with strokes that were not read, in source order.
    """
    read, not_read = read_notes(notes, source)
    by_witness: dict[str, list[WitnessNote]] = {}
    for wn in read:
        by_witness.setdefault(wn.witness, []).append(wn)
    result: list[Reading] = []
    for witness, wns in by_witness.items():
        got = _one_witness(witness, strokes, half_at, wns, source)
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
    """The note *tokens* of a pattern as :class:`~guji.text.notes.Note`
    values, each with the number of strokes (at *stroke_offsets*, in order)
    written before it."""
    import bisect
    return [Note(t.text, t.location, bisect.bisect_left(stroke_offsets, t.offset))
            for t in tokens]


def _written(src: SourceText, notes: Sequence[Note]) -> SourceNote:
    """A note (one or more bracket groups) as written, first bracket to last."""
    start, end = notes[0].offset, notes[-1].end
    return SourceNote(src.text[start:end], notes[0].location)


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
        notes=tuple(_written(src, wn.notes) for wn in reading.notes), variants=(), unread=())


def variants_of(pattern: Pattern, notes: Sequence[Note], src: SourceText
                ) -> tuple[tuple[Pattern, ...], tuple[UnreadNote, ...]]:
    """The witnesses' readings of *pattern* as patterns, from its *notes*; and
    the notes with strokes not read (:class:`~guji.text.notation.UnreadNote`)."""
    if not notes:
        return (), ()
    base = "".join(s.glyph for s in pattern.strokes)
    found, not_read = readings(base, pattern.half_start, notes, src.text)
    variants = tuple(_pattern(pattern, r, src) for r in found)
    unread = tuple(UnreadNote(_written(src, nr.notes).text, nr.location, nr.reason)
                   for nr in not_read)
    return variants, unread

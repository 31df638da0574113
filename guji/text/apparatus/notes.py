"""Variant notes: what another witness reads, in a note inside a pattern.

Late-imperial editions print small double-column notes (雙行小注) inside a drum
pattern, or right after its last stroke, that give another witness's reading
(an edition, a manuscript, a commentator's text: 一本, 古本, 宋本, 大戴禮)::

    ○□○○□□○□(一本作○)○○□半…          一本 has ○ instead of the □ before the note
    …○□○□(某/本)(少一/○一□)○○○…       某本 lacks the ○□ just before the note
    …○□○(某書/下)(尚有一□一/○某從之)…  某書 has □○ more at this point

This module reads one such note into an :class:`~guji.text.apparatus.edits.Edit` of the
pattern, for one witness (:func:`read_notes`). It knows nothing of the rest
of the text: the scanner hands it the bracket groups of one pattern, each a
:class:`Note` with the number of strokes written before it; combining the
notes of one witness into its whole reading is :mod:`guji.text.apparatus.witnesses`.
What it cannot read with certainty is a :class:`NotRead`, with the reason:
a note is never dropped silently and a reading is never guessed.
``docs/apparatus.md`` gives the grammar in full, with examples.

Bracket groups (:func:`join_groups`, :func:`read_run`)
------------------------------------------------------
Groups at one place with only layout between them (white space, ``¶``, tags:
``(某/書)¶⏎(本少…)``) are one *run*; brackets, column marks ``/ ／ | ｜``, tags,
white space and punctuation are removed from it, each character kept mapped
to its offset. A run is one note if it reads as one, else notes divided
between groups or at column breaks; a witness is never a fragment of a name.

The grammar of one note, and the :class:`Note` values, are
:mod:`guji.text.apparatus.note_grammar`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

from ...errors import Location, escape_controls
from ..reading.notation import HALF
from .note_grammar import (COLUMN_MARKS, TAG, NotRead, Note, WitnessNote, body_of, has_stroke,
                           note_body, read_body, read_group, shown, words_after)

__all__ = ["Note", "NotRead", "WitnessNote", "COLUMN_MARKS", "is_layout", "join_groups",
           "note_body", "read_group", "read_run", "read_notes", "shown"]

#: What may stand between two bracket groups of one note: the page's layout.
_LAYOUT = re.compile(r"(?:\s|¶|<[^<>\n]*>)*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: Most pieces of a run tried as several notes (real runs have two to four).
_MOST_GROUPS = 8


# ---------------------------------------------------------------------------
# Bracket groups
# ---------------------------------------------------------------------------

def is_layout(between: str) -> bool:
    """Is *between* — what stands between two bracket groups — the page's
    layout only: white space (line breaks and indentation included), the
    ``¶`` line mark and markup tags (``<pb:…>``, ``<lb/>``)?"""
    return _LAYOUT.fullmatch(between) is not None


def join_groups(notes: Iterable[Note], source: str) -> list[tuple[Note, ...]]:
    """The bracket groups *notes* grouped into the runs that may make one
    note, in source order.

    Adjacent groups — the same ``after_stroke``, nothing but layout
    (:func:`is_layout`) between them in *source* — form one run
    (``(某/本)(少一/○一□)``, or a printed line ending ``(某/書)¶`` ⏎
    ``(本少一/○一□)``). Where one note ends and the next begins inside a run
    is decided by their grammar (:func:`read_run`).
    """
    groups: list[tuple[Note, ...]] = []
    current: list[Note] = []
    for note in sorted(notes, key=lambda n: n.offset):
        if current and note.after_stroke == current[-1].after_stroke \
                and note.offset >= current[-1].end \
                and is_layout(source[current[-1].end:note.offset]):
            current.append(note)
        else:
            if current:
                groups.append(tuple(current))
            current = [note]
    if current:
        groups.append(tuple(current))
    return groups


def read_run(run: tuple[Note, ...]) -> list[WitnessNote | NotRead]:
    """Read a run of adjacent bracket groups (:func:`join_groups`) into its notes.

    The run is one note if its joined body reads as one (the column and line
    breaks of a double-column note are layout). Otherwise it is tried as
    several notes divided where the page's layout divides it — between two
    groups, or at a column break — each read by the grammar as witness +
    verb + strokes (+ judgement): ``(一本作○)(某本作□)`` and ``(一本作○/某本作□)``
    are two notes (one in each column). A stretch without strokes never
    stands alone: before a note it may be the start of its witness's name,
    after one the words of a comment not recognised (``(一本作○)(音圜)`` is one
    note, not read), and a second reading inside one column
    (``(一本作○某本作□)``) is not read. The fewest notes win; if no division
    reads, the run is one note not read. Commentary (no stroke in the whole
    run) gives an empty list.
    """
    body, where = body_of(run)
    whole = read_body(run, body, where)
    if not isinstance(whole, NotRead):
        return [] if whole is None else [whole]
    if words_after(body) is None:
        return [whole]                       # not read for a reason no division mends
    if len(run) == 1 and not any(ch in COLUMN_MARKS for ch in run[0].text):
        return [whole]                       # one group, one column: nowhere to divide
    pieces = tuple(piece for group in run for piece in _columns(group))
    if len(pieces) == 1 or len(pieces) > _MOST_GROUPS:
        return [whole]
    cuts = [bisect.bisect_left(where, p.offset) for p in pieces] + [len(body)]
    bodies = [(body[a:b], where[a:b]) for a, b in zip(cuts, cuts[1:])]
    parts = _divide(pieces, bodies, 0, {0: None})
    return [whole] if parts is None else list(parts)


def _divide(pieces: tuple[Note, ...], bodies: list[tuple[str, list[int]]], start: int,
            memo: dict[int, list[WitnessNote] | None]) -> list[WitnessNote] | None:
    """``pieces[start:]`` (with their ``bodies``) as read notes, the fewest, or
    None. A cut can only fall in the words after the first note's strokes
    (:func:`words_after`): before them it would leave a note whose witness
    starts with a stroke. ``memo`` holds what is known (at 0: not one note)."""
    def read(a: int, b: int):
        return read_body(pieces[a:b], "".join(x for x, _ in bodies[a:b]),
                         [o for _, w in bodies[a:b] for o in w])

    if start not in memo:
        got = read(start, len(pieces))
        memo[start] = [got] if isinstance(got, WitnessNote) else None
        if memo[start] is not None:
            return memo[start]
    elif memo[start] is not None or start > 0:
        return memo[start]
    at = words_after("".join(x for x, _ in bodies[start:]))
    if at is None:
        return None
    best: list[WitnessNote] | None = None
    edge = 0
    for cut in range(start + 1, len(pieces)):
        edge += len(bodies[cut - 1][0])
        if edge < at:
            continue
        tail = _divide(pieces, bodies, cut, memo)
        first = read(start, cut) if tail is not None else None
        if isinstance(first, WitnessNote) and (best is None or len(tail) + 1 < len(best)):
            best = [first, *tail]
    memo[start] = best
    return best


def _columns(note: Note) -> list[Note]:
    """*note* cut after each column break inside it (``(一本作○/某本作□)`` →
    ``(一本作○/`` and ``某本作□)``), each piece at its own place in the source."""
    text, loc = note.text, note.location
    in_tag = {i for m in TAG.finditer(text) for i in range(m.start(), m.end())}
    cuts = [i + 1 for i in range(1, len(text) - 2) if text[i] in COLUMN_MARKS and i not in in_tag]
    if not cuts:
        return [note]
    pieces = []
    for a, b in zip([0, *cuts], [*cuts, len(text)]):
        breaks = list(_LINE_BREAK.finditer(text, 0, a))
        line = loc.line + len(breaks)
        column = a - breaks[-1].end() + 1 if breaks else loc.column + a
        pieces.append(Note(text[a:b], Location(loc.offset + a, line, column), note.after_stroke))
    return pieces


def _fragment(run: tuple[Note, ...], before: tuple[Note, ...] | None,
              source: str) -> NotRead | None:
    """A read note whose witness may be a fragment: the run *before* it, at
    the same place, is stroke-less (the start of a name?) and only
    punctuation, not layout, keeps the two apart (``(某/書)，(本少一○)``)."""
    if before is None or before[-1].after_stroke != run[0].after_stroke:
        return None
    between = source[before[-1].end:run[0].offset]
    if HALF in between or has_stroke(source[before[0].offset:before[-1].end]):
        return None
    apart = escape_controls(between.strip())
    apart = apart if len(apart) <= 8 else apart[:7] + "…"
    return NotRead(run, f"note {shown(run)}: its witness may be the end of a name that begins "
                        f"in {shown(before)} before it, which {apart!r} keeps apart: not read")


def read_notes(notes: Sequence[Note], source: str) -> tuple[list[WitnessNote], list[NotRead]]:
    """Read the notes of one pattern.

    The bracket groups are joined into runs first (:func:`join_groups`),
    each run read into its notes (:func:`read_run`). Returns the read notes
    and the notes with strokes that were not read, both in source order.
    Notes without any stroke are commentary: in neither list. A witness is
    never guessed from a fragment of its name (:func:`_fragment`).
    """
    read: list[WitnessNote] = []
    not_read: list[NotRead] = []
    before: tuple[Note, ...] | None = None
    for run in join_groups(notes, source):
        results = read_run(run)
        if results and isinstance(results[0], WitnessNote):
            suspect = _fragment(results[0].notes, before, source)
            if suspect is not None:
                results[0] = suspect
        for result in results:
            (read if isinstance(result, WitnessNote) else not_read).append(result)
        before = run
    return read, not_read

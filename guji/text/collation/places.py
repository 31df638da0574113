"""The collation's table and its places of variation, 半 an anchor never crossed.

:func:`table` lays every reading of one pattern out on one table of
columns, part by part: the strokes before 半, then one column for 半 (every
reading's), then the half. A stroke before 半 never faces one after it.

Two kinds of reading are placed two ways:

* **a text's own reading** (an edition, a file) is aligned stroke by stroke
  with the *reference* — the base reading's text — part by part, with the
  fewest runs of differences among the cheapest alignments
  (:func:`~guji.text.collation.agreement.align_runs`), insertions at one place
  of the reference sharing columns;
* **a witness of a text's notes** (``yishu~一本``) is not aligned at all: its
  notes say where it differs (:class:`~guji.text.apparatus.witnesses.EditNote`).
  The strokes it keeps stand in its text's columns, a replaced stroke in the
  column of the stroke it replaces, a deleted one leaves a gap there, and
  inserted strokes get columns of their own right before the text's stroke
  the note stands before (at the end of the part when none follows on that
  side of 半); witnesses of one text inserting at one place share columns.
  A witness whose notes do not carry their edits (read from elsewhere) is
  aligned like a text.

A **place of variation** is where readings differ, one per difference as
the sources state it: each edit of a note is a *span* (the columns it
changes, the whole of ``作二○`` even where one stroke is the same), and so
is each run of a text's differences from the reference (consecutive
columns of one kind: substitutions, omissions or additions). Spans that
share a column are one place; spans that only touch are two. So one note
makes one place, and ``少一○一□`` one place, not two.

A place is named by where it stands in the base reading, part by part
(:func:`place_name`): ``b9`` (stroke 9 before 半), ``a3-4`` (strokes 3–4 of the
half), ``a13.add`` (strokes the base lacks, after its 13th of the half;
``b0.add`` before its first). The name depends on the base and on the
place alone, never on a column of the table, so adding a reading leaves the
names of the places it does not touch as they were.
"""

from __future__ import annotations

from dataclasses import dataclass

from .agreement import align_runs
from .align import check_patterns
from ..apparatus.witnesses import origins_of
from ..reading.notation import HALF, Pattern

__all__ = ["Place", "Table", "table", "place_name"]

#: A span: (first column, last column, the reading, its note's index or None).
Span = tuple[int, int, str, "int | None"]


@dataclass(frozen=True)
class Place:
    """One place of variation: columns ``first … last`` of the table (its
    part's, 半 column counted), the base's strokes there (whole-reading
    indices), and the notes whose edits it holds, ``(reading, note index)``."""

    name: str
    first: int
    last: int
    before_half: bool
    base_strokes: tuple[int, ...]
    notes: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Table:
    """The table of :func:`table`: for each reading its cells (a glyph, ``半``
    or '' for a gap); the index of the 半 column; the places of variation,
    in order."""

    cells: dict
    half: int
    places: tuple[Place, ...]


def _part(p: Pattern, side: int) -> range:
    """The indices of *p*'s strokes before 半 (*side* 0) or after it (1)."""
    return range(0, p.half_start) if side == 0 else range(p.half_start, len(p.strokes))


def _aligned(ref_name: str, ref: Pattern, rows: list[tuple[str, Pattern]], side: int
             ) -> list[dict]:
    """The columns of one part for the reference and the readings aligned to
    it: each a dict reading → stroke index (a reading with a gap is not in it)."""
    mine = list(_part(ref, side))
    at_rows, extra_rows = [], []
    for name, p in rows:
        theirs = list(_part(p, side))
        at: dict[int, int] = {}
        extra: list[list[int]] = [[] for _ in range(len(mine) + 1)]
        slot = 0
        ops = align_runs([ref.strokes[i].drum for i in mine], [p.strokes[j].drum for j in theirs])
        for _kind, i, j in ops:
            if i is None:
                extra[slot].append(theirs[j])
            else:
                slot = i + 1
                if j is not None:
                    at[i] = theirs[j]
        at_rows.append((name, at))
        extra_rows.append((name, extra))
    columns: list[dict] = []
    for k in range(len(mine) + 1):
        width = max((len(e[k]) for _, e in extra_rows), default=0)
        for w in range(width):
            columns.append({n: e[k][w] for n, e in extra_rows if w < len(e[k])})
        if k < len(mine):
            columns.append({ref_name: mine[k], **{n: at[k] for n, at in at_rows if k in at}})
    return columns


def _column_of(columns: list[dict], name: str) -> dict[int, int]:
    """The column of each stroke (index) of the reading *name*."""
    return {col[name]: c for c, col in enumerate(columns) if name in col}


def _insertions(columns: list[dict], witnesses: list, side: int) -> list[dict]:
    """*columns* with the witnesses' inserted strokes of this part in
    columns of their own, right before the column of the text's stroke each
    note stands before (at the end of the part when none follows), the
    witnesses of one text inserting at one place sharing them."""
    before: dict[int, list[dict]] = {}
    for text_name, text, name, w, origins in witnesses:
        mine = _column_of(columns, text_name)
        by_edit: dict[int, list[int]] = {}
        for j, (e, _k) in enumerate(origins):
            if e >= 0 and w.notes[e].edit.kind == "insert" and (j >= w.half_start) == bool(side):
                by_edit.setdefault(e, []).append(j)
        for e, js in by_edit.items():
            at = w.notes[e].edit.at
            anchor = mine[at] if at in _part(text, side) else len(columns)
            group = before.setdefault(anchor, [])
            slot = next((g for g in group if g["text"] == text_name), None)
            if slot is None:
                slot = {"text": text_name, "rows": []}
                group.append(slot)
            slot["rows"].append((name, js))
    out: list[dict] = []
    for c in range(len(columns) + 1):
        for slot in before.get(c, []):
            for k in range(max(len(js) for _, js in slot["rows"])):
                out.append({n: js[k] for n, js in slot["rows"] if k < len(js)})
        if c < len(columns):
            out.append(dict(columns[c]))
    return out


def _placed(columns: list[dict], witnesses: list, side: int) -> list[Span]:
    """Put each witness's kept and replaced strokes of this part in their
    text's columns; return the spans of their edits."""
    spans: list[Span] = []
    for text_name, text, name, w, origins in witnesses:
        mine = _column_of(columns, text_name)
        edits: dict[int, list[int]] = {}
        for j, (e, k) in enumerate(origins):
            if (j >= w.half_start) != bool(side):
                continue
            if e < 0:
                columns[mine[k]][name] = j
            elif w.notes[e].edit.kind == "replace":
                columns[mine[w.notes[e].edit.at + k]][name] = j
                edits.setdefault(e, []).append(mine[w.notes[e].edit.at + k])
            else:
                edits.setdefault(e, []).append(next(c for c, col in enumerate(columns)
                                                    if col.get(name) == j))
        for e, note in enumerate(w.notes):
            if note.edit.kind == "delete" and note.edit.at in _part(text, side):
                edits[e] = [mine[note.edit.at + k] for k in range(len(note.edit.strokes))]
        spans += [(min(cs), max(cs), name, e) for e, cs in edits.items()]
    return spans


def _runs(columns: list[dict], readings: dict, name: str, ref: str) -> list[Span]:
    """The runs of one reading's differences from the reference: consecutive
    columns of one kind (a column where both have a gap does not part them)."""
    spans: list[Span] = []
    kind, first, last = "match", 0, 0

    def drum(row: str, col: dict):
        return None if row not in col else readings[row].strokes[col[row]].drum

    for c, col in enumerate(columns):
        mine, theirs = drum(ref, col), drum(name, col)
        if mine is None and theirs is None:
            continue
        here = ("ins" if mine is None else "del" if theirs is None
                else "match" if mine == theirs else "sub")
        if here == kind:
            last = c
            continue
        if kind != "match":
            spans.append((first, last, name, None))
        kind, first, last = here, c, c
    if kind != "match":
        spans.append((first, last, name, None))
    return spans


def _merged(spans: list[Span]) -> list[tuple[int, int, list[Span]]]:
    """Spans sharing a column merged into places (first, last, spans)."""
    out: list[tuple[int, int, list[Span]]] = []
    for span in sorted(spans, key=lambda s: (s[0], s[1])):
        if out and span[0] <= out[-1][1]:
            first, last, held = out[-1]
            out[-1] = (first, max(last, span[1]), held + [span])
        else:
            out.append((span[0], span[1], [span]))
    return out


def place_name(side: int, base_numbers: list[int], before: int) -> str:
    """``b9``, ``a3-4``: the base's strokes of a place, numbered within their
    part (*base_numbers*, 1-based); ``a13.add`` for a place the base has no
    stroke in, after its *before*-th stroke of the part."""
    part = "ab"[side == 0]
    if not base_numbers:
        return f"{part}{before}.add"
    first, last = base_numbers[0], base_numbers[-1]
    return f"{part}{first}" if first == last else f"{part}{first}-{last}"


def _text_of(name: str, p: Pattern) -> str | None:
    """The text a witness's reading is of (its name without ``~WITNESS``)."""
    return None if p.witness is None else name[: -len(p.witness) - 1]


def _rows(readings: dict, base: str) -> tuple[str, list[str], list]:
    """The reference's name, the readings aligned to it, and the witnesses
    placed from their notes: (text's name, text, name, reading, origins)."""
    placed = []
    for name, p in readings.items():
        text_name = _text_of(name, p)
        text = readings.get(text_name)
        origins = None if text is None or text.witness else origins_of(text, p)
        if origins is not None:
            placed.append((text_name, text, name, p, origins))
    ref = next((t for t, _, n, _, _ in placed if n == base), base)
    witnesses = {n for _, _, n, _, _ in placed}
    aligned = [n for n in readings if n not in witnesses and n != ref]
    for name in aligned:
        check_patterns(readings[ref], readings[name])       # the limit, before any work
    return ref, aligned, placed


def _part_places(readings: dict, base: str, side: int, offset: int, taken: set
                 ) -> tuple[list[dict], list[Place]]:
    """One part's columns and places (see the module docstring)."""
    ref, aligned, placed = _rows(readings, base)
    columns = _aligned(ref, readings[ref], [(n, readings[n]) for n in aligned], side)
    columns = _insertions(columns, placed, side)
    spans = _placed(columns, placed, side)
    for name in aligned:
        spans += _runs(columns, readings, name, ref)
    first_of_part = readings[base].half_start if side else 0
    places = []
    for first, last, held in _merged(spans):
        numbers = [columns[c][base] - first_of_part + 1
                   for c in range(first, last + 1) if base in columns[c]]
        before = sum(1 for c in range(first) if base in columns[c])
        name, n = place_name(side, numbers, before), 1
        while name + ("" if n == 1 else f"-{n}") in taken:
            n += 1
        name += "" if n == 1 else f"-{n}"
        taken.add(name)
        places.append(Place(name, first + offset, last + offset, side == 0,
                            tuple(columns[c][base] for c in range(first, last + 1)
                                  if base in columns[c]),
                            tuple((s[2], s[3]) for s in held if s[3] is not None)))
    return columns, places


def table(readings: dict[str, Pattern], base: str) -> Table:
    """Every reading of one pattern on one table, part by part, and its
    places of variation (see the module docstring)."""
    taken: set[str] = set()
    before, places = _part_places(readings, base, 0, 0, taken)
    after, later = _part_places(readings, base, 1, len(before) + 1, taken)
    cells = {}
    for name, p in readings.items():
        indices = ([col.get(name) for col in before] + [None]
                   + [col.get(name) for col in after])
        cells[name] = tuple(HALF if c == len(before) else ("" if i is None else p.strokes[i].glyph)
                            for c, i in enumerate(indices))
    return Table(cells, len(before), tuple(places + later))

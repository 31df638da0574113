"""Edits of a pattern — replace, delete, insert — and applying them together.

A variant note (:mod:`guji.text.apparatus.notes`) says how another witness's reading
differs from the text at one place: an :class:`Edit`. :func:`apply` makes the
witness's whole reading from the text's strokes and every edit of that
witness in the pattern, moving 半 as the edits require.

Positions
---------
``at`` is a stroke index of the text: for ``replace`` and ``delete`` the
first stroke affected, for ``insert`` the index the first inserted stroke
takes (``at == len(strokes)``: at the end). Every ``at`` refers to the text
as written, whatever the other edits do: :func:`apply` applies them from the
last position backwards.

半 stands before stroke ``half_at``. An insertion at ``at <= half_at`` goes
before 半 (moving it forward); a deletion that ends at or before 半 moves it
back. An edit whose strokes lie on both sides of 半 is refused, and so is a
reading left with nothing before 半 or nothing after it (every pattern has
strokes on both sides).
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Edit", "EditError", "EditKind", "apply", "apply_traced"]

EditKind = Literal["replace", "delete", "insert"]

#: Where a stroke of a whole reading comes from: ``(-1, i)`` the text's stroke
#: *i*; ``(e, k)`` the *k*-th stroke written in edit *e*.
Origin = tuple[int, int]


@dataclass(frozen=True)
class Edit:
    """One difference of a witness from the text.

    * ``replace``: strokes ``at … at+len(strokes)-1`` become ``strokes``;
    * ``delete``: the witness lacks strokes ``at … at+len(strokes)-1``, which
      are ``strokes`` (checked by :func:`apply`);
    * ``insert``: ``strokes`` stand before stroke ``at``.

    ``strokes`` are normalised glyphs (○ and □).
    """

    kind: EditKind
    at: int
    strokes: tuple[str, ...]


class EditError(ValueError):
    """An edit that cannot be applied; ``edits`` are the indices of the
    offending edits in the sequence given to :func:`apply`."""

    def __init__(self, message: str, edits: tuple[int, ...]):
        super().__init__(message)
        self.edits = edits


def _check(strokes: str, half_at: int, edit: Edit, index: int) -> None:
    """Raise :class:`EditError` if *edit* does not fit *strokes* on its own."""
    n = len(edit.strokes)
    where = (index,)
    if edit.kind not in ("replace", "delete", "insert"):
        raise EditError(f"unknown edit kind {edit.kind!r}", where)
    if n == 0:
        raise EditError("an edit with no strokes", where)
    if edit.kind == "insert":
        if not 0 <= edit.at <= len(strokes):
            raise EditError(f"insertion at stroke {edit.at} outside a pattern of "
                            f"{len(strokes)} strokes", where)
        return
    if edit.at < 0 or edit.at + n > len(strokes):
        raise EditError(f"{edit.kind} of {n} stroke(s) at {edit.at} outside a pattern of "
                        f"{len(strokes)} strokes", where)
    if edit.at < half_at < edit.at + n:
        raise EditError(f"the {edit.kind} of strokes {edit.at + 1}–{edit.at + n} crosses 半",
                        where)
    written = strokes[edit.at:edit.at + n]
    named = "".join(edit.strokes)
    if edit.kind == "delete" and written != named:
        raise EditError(f"it names {named} as missing but the strokes before it are {written}",
                        where)
    if edit.kind == "replace" and written == named:
        raise EditError(f"it reads {named}, the same as the text: it does not fit here", where)


def _first_conflict(edits: Sequence[Edit]) -> tuple[int, int] | None:
    """Two edits that change the same strokes — overlapping ranges, an
    insertion strictly inside a replaced or deleted range, two insertions at
    one place — as indices into *edits*, or None. O(k log k) for k edits."""
    ranges = sorted((e.at, e.at + len(e.strokes), i) for i, e in enumerate(edits)
                    if e.kind != "insert")
    for (_, end, i), (start, _, j) in zip(ranges, ranges[1:]):
        if start < end:                     # sorted by start: overlaps show between neighbours
            return min(i, j), max(i, j)
    starts = [r[0] for r in ranges]
    inserted: dict[int, int] = {}
    for j, e in enumerate(edits):
        if e.kind != "insert":
            continue
        if e.at in inserted:
            return inserted[e.at], j
        inserted[e.at] = j
        k = bisect.bisect_left(starts, e.at) - 1      # the last range starting before it
        if k >= 0 and e.at < ranges[k][1]:
            return tuple(sorted((ranges[k][2], j)))   # type: ignore[return-value]
    return None


def apply_traced(strokes: str, half_at: int, edits: Sequence[Edit],
                 after_half: Collection[int] = ()) -> tuple[list[Origin], int]:
    """:func:`apply`, returning where each stroke of the reading comes from
    (:data:`Origin`) instead of its glyph, and the new index of 半.

    *strokes* are normalised glyphs (○ □). *after_half* are the indices of
    the insertions at ``half_at`` that stand after 半 (by default an
    insertion there goes before it).
    """
    if not 0 <= half_at <= len(strokes):
        raise ValueError(f"half_at {half_at} outside a pattern of {len(strokes)} strokes")
    for i, edit in enumerate(edits):
        _check(strokes, half_at, edit, i)
    clash = _first_conflict(edits)
    if clash is not None:
        raise EditError("two notes of one witness change the same strokes", clash)
    out: list[Origin] = [(-1, i) for i in range(len(strokes))]
    half = half_at
    # last position first; at one position the replace/delete before the insert
    order = sorted(range(len(edits)), key=lambda e: (edits[e].at, edits[e].kind != "insert"),
                   reverse=True)
    for e in order:
        edit = edits[e]
        n = len(edit.strokes)
        new = [(e, k) for k in range(n)]
        if edit.kind == "insert":
            out[edit.at:edit.at] = new
            if edit.at < half_at or (edit.at == half_at and e not in after_half):
                half += n
        elif edit.kind == "delete":
            del out[edit.at:edit.at + n]
            if edit.at + n <= half_at:
                half -= n
        else:
            out[edit.at:edit.at + n] = new
    if half == 0 or half == len(out):
        raise EditError("the reading would leave nothing " + ("before" if half == 0 else "after")
                        + " 半", tuple(range(len(edits))))
    return out, half


def apply(strokes: str, half_at: int, edits: Sequence[Edit]) -> tuple[str, int]:
    """One witness's whole reading: the text's *strokes* (normalised glyphs)
    with 半 before stroke *half_at*, and all *edits* of that witness applied.

    Returns the reading's strokes and the new index of 半 (see the module
    docstring for how edits move it).

    Raises
    ------
    EditError
        For an edit outside the pattern or crossing 半, a delete whose
        strokes are not those written, a replacement equal to the text, two
        edits that overlap, or a reading with nothing before or after 半.

    >>> apply("○□○□", 2, [Edit("replace", 1, ("○",)), Edit("insert", 4, ("□",))])
    ('○○○□□', 2)
    """
    origins, half = apply_traced(strokes, half_at, edits)
    glyphs = "".join(strokes[i] if e < 0 else edits[e].strokes[i] for e, i in origins)
    return glyphs, half

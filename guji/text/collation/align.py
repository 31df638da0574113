"""Stroke-by-stroke alignment of two readings (edit distance).

Editions copy the 投壺 diagrams with small differences (docs/notation.md: seed 003's
diagram-1 魯鼓 reads ○□○□□□ where the others read ○□○○□□; seed 000's
diagram-2 薛鼓 has one ○ more before 半). Comparing two readings position by
position would turn one missing ○ into a "shifted tail" of differences; an
*alignment* instead pairs the strokes up so that the smallest number of edits
turns one reading into the other (Levenshtein distance, every edit costing 1):

* ``match`` — the same item in both (``a`` and ``b`` both set);
* ``sub`` — a substitution: A has one item where B has another;
* ``ins`` — an insertion: an item of B with nothing in A (``a`` is ``None``);
* ``del`` — a deletion: an item of A with nothing in B (``b`` is ``None``).

Insertions and deletions count *from A to B*: ``align("○□", "○○□")`` has one
insertion; ``align("○○□", "○□")`` one deletion.

Tie-breaking
------------
Several alignments often have the same (smallest) cost: one ○ missing from a
run ○○○○ could be any of the four. :func:`align` always returns the same one:
it traces back from the ends of both sequences and, at each step, takes the
first of these that lies on a cheapest path:

1. the diagonal (``match`` when the items are equal, otherwise ``sub``);
2. ``del`` (use up an item of A);
3. ``ins`` (use up an item of B).

Because the trace runs from the end, the diagonal steps are taken as late as
possible, so a gap in a run of equal items lands on the run's *first* item,
and a deletion is preferred to an insertion at the same place.

The cost is symmetric (``align(a, b).distance == align(b, a).distance``) but
the chosen ops of ``align(b, a)`` need not be the mirror image of
``align(a, b)``'s.

Bounded work
------------
Aligning *n* strokes with *m* weighs ``n × m`` pairs: measured before any
work against :attr:`guji.limits.Limits.alignment` (1,000,000 pairs; the
editions' patterns have a few dozen strokes), and traced in memory linear in
the strokes, not the pairs (:mod:`guji.text.collation.hirschberg`), giving the very
ops the whole table's trace gives.

Several readings on one grid of aligned columns (the reference and every
other reading aligned to it with :func:`align_patterns`), and the one walk
over that grid that every display shares, are :mod:`guji.text.collation.grid`.

Examples
--------
>>> al = align("○□○○□", "○□○□□")
>>> al.substitutions, al.insertions, al.deletions
(1, 0, 0)
>>> [op.op for op in align("○□", "○○□").ops]
['ins', 'match', 'match']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...i18n import _
from ...limits import LimitError, current
from .hirschberg import trace_alignment
from ..reading.notation import Pattern

#: The four kinds of :class:`Op`.
MATCH = "match"
SUB = "sub"
INS = "ins"
DEL = "del"
OP_KINDS = (MATCH, SUB, INS, DEL)


@dataclass(frozen=True)
class Op:
    """One column of an alignment.

    Attributes
    ----------
    op:
        ``"match"``, ``"sub"``, ``"ins"`` (an item of B not in A) or ``"del"``
        (an item of A not in B).
    a:
        Index into A, ``None`` for an insertion.
    b:
        Index into B, ``None`` for a deletion.
    """

    op: str
    a: int | None
    b: int | None

    def __post_init__(self) -> None:
        if self.op not in OP_KINDS:
            raise ValueError(f"unknown op {self.op!r}: use one of {', '.join(OP_KINDS)}")
        if (self.a is None) != (self.op == INS) or (self.b is None) != (self.op == DEL):
            raise ValueError(f"op {self.op!r} with a={self.a!r}, b={self.b!r} is inconsistent")

    @property
    def is_difference(self) -> bool:
        """True for ``sub``, ``ins`` and ``del``."""
        return self.op != MATCH

    def to_json(self) -> dict:
        """``{"op": ..., "a": int | None, "b": int | None}``."""
        return {"op": self.op, "a": self.a, "b": self.b}


@dataclass(frozen=True)
class Alignment:
    """A cheapest alignment of A with B (see the module docstring).

    Attributes
    ----------
    ops:
        The columns, in order: reading the ``a`` indices that are not ``None``
        gives 0, 1, … len(A)−1, and likewise for ``b``.
    substitutions, insertions, deletions:
        How many ops of each kind (counting from A to B).
    """

    ops: tuple[Op, ...]
    substitutions: int
    insertions: int
    deletions: int

    @property
    def distance(self) -> int:
        """The edit distance: substitutions + insertions + deletions."""
        return self.substitutions + self.insertions + self.deletions

    @property
    def matches(self) -> int:
        return len(self.ops) - self.distance

    @property
    def identical(self) -> bool:
        """True when A and B are equal (no differences at all)."""
        return self.distance == 0

    def counts_text(self) -> str:
        """``1 substitution, 0 insertions, 2 deletions``: the counts in words."""
        return ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in (
            (self.substitutions, "substitution"), (self.insertions, "insertion"),
            (self.deletions, "deletion")))

    @property
    def differences(self) -> tuple[Op, ...]:
        """The ops that are not matches, in order."""
        return tuple(op for op in self.ops if op.is_difference)

    def to_json(self) -> dict:
        """The JSON of ``guji diff --json`` counts, then the ops."""
        return {
            "substitutions": self.substitutions,
            "insertions": self.insertions,
            "deletions": self.deletions,
            "distance": self.distance,
            "ops": [op.to_json() for op in self.ops],
        }


def align(a: Sequence, b: Sequence, sides: tuple[Sequence, Sequence] | None = None,
          what: tuple[str, str] | None = None) -> Alignment:
    """Align two sequences with the Levenshtein edit distance (unit costs).

    Parameters
    ----------
    a, b:
        Any sequences; items are compared with ``==`` (hashable items are
        compared by their hash classes, the same thing for equal hashes).
    sides:
        Optionally, a label for each item of *a* and of *b* (the side of 半
        each stroke stands on): among the cheapest alignments, those that
        pair the fewest items with different labels are preferred, before
        the tie-breaking rule of the module docstring.
    what:
        The names of *a* and *b*, for the message of a request over the limit.

    Returns
    -------
    Alignment
        One cheapest alignment, chosen by the documented tie-breaking rule
        (module docstring), so the same inputs always give the same ops.

    Raises
    ------
    guji.limits.LimitError
        When ``len(a) × len(b)`` is over :attr:`guji.limits.Limits.alignment`,
        before any work.

    Notes
    -----
    Time O(len(a) × len(b) × log len(a)), memory O(len(b) × log len(a))
    (:mod:`guji.text.collation.hirschberg`: the table is never held whole, yet the
    alignment is the one the whole table's trace gives).
    """
    a = list(a)
    b = list(b)
    check_alignment(len(a), len(b), what)
    return _ops_to_alignment(trace_alignment(a, b, sides))


def check_alignment(n: int, m: int, what: tuple[str, str] | None = None) -> int:
    """The pairs (``n × m``) weighed to align *n* items with *m* (named *what*),
    or :class:`~guji.limits.LimitError` when over :attr:`guji.limits.Limits.alignment`."""
    pairs = n * m
    most = current().alignment
    if pairs > most:
        name_a, name_b = (f"{what[0]} ", f"{what[1]} ") if what else ("", "")
        raise LimitError(_("aligning {name_a}({n:,} strokes) with {name_b}({m:,} strokes) would weigh {pairs:,} pairs of strokes: over guji's limit of {most:,.0f} pairs").format(name_a=name_a, n=n, name_b=name_b, m=m, pairs=pairs, most=most))
    return pairs


def check_patterns(a: Pattern, b: Pattern) -> int:
    """:func:`check_alignment` for :func:`align_patterns` of *a* with *b*, before any work."""
    return check_alignment(len(a.strokes), len(b.strokes), (a.id, b.id))


def _ops_to_alignment(ops: list[tuple[str, int | None, int | None]]) -> Alignment:
    """The :class:`Alignment` of ``(kind, i, j)`` columns in order."""
    counts = {MATCH: 0, SUB: 0, INS: 0, DEL: 0}
    for kind, _, _ in ops:
        counts[kind] += 1
    return Alignment(tuple(Op(kind, i, j) for kind, i, j in ops),
                     counts[SUB], counts[INS], counts[DEL])


def align_patterns(a: Pattern, b: Pattern) -> Alignment:
    """Align two patterns' strokes over the whole pattern (before and after 半).

    The strokes are compared by drum (○ 鼙 or □ 鼓), not by the glyph an
    edition wrote (囗 and □ are the same stroke). Among the cheapest
    alignments, those that pair the fewest strokes standing on different
    sides of 半 are taken (so a witness lacking ○□ after 半 lacks them
    there, not one stroke before 半 and 半 shifted), then the tie-breaking
    rule of the module docstring. The ``a`` and ``b`` indices of the ops are
    indices into ``a.strokes`` and ``b.strokes`` (:attr:`Stroke.index
    <guji.text.reading.notation.Stroke.index>`).
    """
    sides = ([i >= a.half_start for i in range(len(a.strokes))],
             [i >= b.half_start for i in range(len(b.strokes))])
    check_patterns(a, b)
    return align([s.drum for s in a.strokes], [s.drum for s in b.strokes], sides)

"""Collation: every edition's reading of each pattern, aligned and checked.

For each of the four patterns (魯鼓 and 薛鼓 × diagrams 1 and 2),
:func:`collate` takes the reading of every shipped edition, aligns each
against the base edition's (the default, 禮記正義) stroke by stroke on one
grid (:func:`guji.text.grid.align_many`, walked with
:meth:`~guji.text.grid.Grid.walk_with_halves` as every display of a grid
is), and gathers the differences into
*variant readings*: one variant per place where some edition reads
otherwise, naming which editions read what.

It also holds each reading's counts of 鼙 (○) and 鼓 (□), for the half and the
whole, against 徐伯鲁's claims (``patterns/counts.toml``), and flags every
mismatch. One claim is printed 七 where the pattern and the whole count imply
3 (diagram-1 薛鼓, half, 鼓): the claim is kept as printed, so every reading
is flagged against it, with a note that it agrees with the implied count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .grid import Grid, HalfColumn, align_many
from .editions import default_edition, editions, scan_edition
from .notation import HALF, Drum, Pattern, Rite, Tradition

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: The two extents of a pattern a count can be of: the half (from 半, played in
#: 投壺) and the whole (射禮). JSON writes the extent under the key "part".
EXTENTS = {"half": Rite.TOUHU, "whole": Rite.SHE}
DRUMS = {"鼙": Drum.SMALL, "鼓": Drum.BIG}


@dataclass(frozen=True)
class Claim:
    """A commentator's count for one pattern (``patterns/counts.toml``)."""

    tradition: Tradition
    diagram: int
    counts: dict            #: {"half": {"鼙": n, "鼓": n}, "whole": {...}} as printed
    implied: dict           #: the same shape, only where the printed count is doubted
    printed: str            #: the words of the source
    note: str
    commentator: str


@lru_cache(maxsize=None)
def claims() -> tuple[Claim, ...]:
    """The commentators' counts, from ``patterns/counts.toml``."""
    data = tomllib.loads(resources.files("guji").joinpath("data", "patterns", "counts.toml")
                         .read_text(encoding="utf-8"))
    return tuple(Claim(Tradition.from_name(c["score"]), c["diagram"],
                       {"half": c["half"], "whole": c["whole"]}, c.get("implied", {}),
                       c["printed"], c.get("note", ""), data["commentator"])
                 for c in data["claim"])


def claim_for(tradition: Tradition, diagram: int) -> Claim | None:
    return next((c for c in claims() if c.tradition is tradition and c.diagram == diagram), None)


@dataclass(frozen=True)
class Mismatch:
    """A reading whose count differs from the commentator's claim."""

    edition: str
    extent: str            #: "half" or "whole"
    drum: str              #: "鼙" or "鼓"
    counted: int
    claimed: int
    implied: int | None    #: the count the claim implies, where the printed one is doubted

    def describe(self) -> str:
        text = f"{self.edition}: {self.extent} {self.drum} {self.counted}, claimed {self.claimed}"
        if self.implied is not None:
            agree = "agrees with" if self.counted == self.implied else "differs from"
            text += f" as printed (implied {self.implied}; the reading {agree} it)"
        return text

    def to_json(self) -> dict:
        return {"edition": self.edition, "part": self.extent, "drum": self.drum,
                "counted": self.counted, "claimed": self.claimed, "implied": self.implied}


@dataclass(frozen=True)
class Variant:
    """One place where editions disagree.

    ``column`` is the place in the collation's columns; ``base_index`` the
    index of the base reading's stroke there (``None`` where the base has no
    stroke, i.e. other editions insert one). ``readings`` maps each edition to
    the glyph it reads there ('' for none).
    """

    column: int
    base_index: int | None
    before_half: bool
    readings: dict

    def describe(self, base: str) -> str:
        where = (f"stroke {self.base_index + 1} of {base}" if self.base_index is not None
                 else "a stroke that " + base + " lacks")
        side = "before 半" if self.before_half else "after 半"
        groups: dict[str, list[str]] = {}
        for ed, glyph in self.readings.items():
            groups.setdefault(glyph or "(none)", []).append(ed)
        return f"{where} ({side}): " + "; ".join(f"{g} {', '.join(eds)}"
                                                for g, eds in groups.items())

    def to_json(self) -> dict:
        return {"column": self.column, "base_index": self.base_index,
                "before_half": self.before_half, "readings": self.readings}


@dataclass(frozen=True)
class Collation:
    """Every edition's reading of one pattern, aligned, with variants and count checks.

    ``columns`` is the aligned table: one tuple per edition (in ``readings``
    order) of equal length, each cell a glyph (○ □), ``半``, or '' for a gap.
    """

    tradition: Tradition
    diagram: int
    base: str
    readings: dict                 #: edition slug -> Pattern
    columns: dict                  #: edition slug -> tuple of cells
    variants: tuple[Variant, ...]
    claim: Claim | None
    mismatches: tuple[Mismatch, ...]

    def to_json(self) -> dict:
        return {
            "score": self.tradition.value,
            "diagram": self.diagram,
            "base": self.base,
            "readings": {ed: {"before": "".join(s.glyph for s in p.before),
                              "after": "".join(s.glyph for s in p.half),
                              "counts": {extent: {name: p.counts(rite)[drum]
                                                for name, drum in DRUMS.items()}
                                         for extent, rite in EXTENTS.items()},
                              "aligned": list(self.columns[ed])}
                         for ed, p in self.readings.items()},
            "variants": [v.to_json() for v in self.variants],
            "claim": None if self.claim is None else {
                "commentator": self.claim.commentator, "counts": self.claim.counts,
                "implied": self.claim.implied, "printed": self.claim.printed,
                "note": self.claim.note},
            "mismatches": [m.to_json() for m in self.mismatches],
        }


def _grid(readings: dict[str, Pattern], base: str) -> tuple[Grid, dict[str, int]]:
    """The readings on one aligned grid, the base as the reference (row 0) and
    the others in *readings* order; and the grid row of each edition."""
    order = [base] + [ed for ed in readings if ed != base]
    return align_many([readings[ed] for ed in order]), {ed: r for r, ed in enumerate(order)}


def _half_column(grid: Grid, row: int) -> int:
    """Where the collation puts a reading's 半: just before the column of its
    first stroke after 半 (after the last column when it has none).

    This is the collation's own convention, not :attr:`Grid.half_columns`
    (which puts 半 at one boundary for every row where it can): a gap just
    before that stroke stands before 半 here.
    """
    first_after = grid.patterns[row].half_start
    return next((c for c, col in enumerate(grid.columns) if col[row] == first_after),
                len(grid.columns))


def _table(readings: dict[str, Pattern], base: str
           ) -> tuple[dict[str, tuple[str, ...]], tuple[Variant, ...]]:
    """The aligned table of :attr:`Collation.columns` and its variants.

    The table follows :meth:`Grid.walk_with_halves <guji.text.grid.Grid.walk_with_halves>`:
    a cell per column, each a glyph or '' for a gap, and a column for 半
    wherever some reading's 半 stands (``半`` in that reading, '' in the others).
    A variant is a column where some reading differs from the base; its
    :attr:`Variant.column` counts the 半 columns too.
    """
    grid, row_of = _grid(readings, base)
    halves = [_half_column(grid, r) for r in range(grid.rows)]
    rows: dict[str, list[str]] = {ed: [] for ed in readings}
    variants = []
    for place, column in enumerate(grid.walk_with_halves(halves)):
        if isinstance(column, HalfColumn):
            for ed, row in rows.items():
                row.append(HALF if column.rows[row_of[ed]] else "")
            continue
        glyphs = {}
        for ed, row in rows.items():
            stroke = column.cells[row_of[ed]].stroke
            glyphs[ed] = "" if stroke is None else stroke.glyph
            row.append(glyphs[ed])
        if column.differs:
            variants.append(Variant(place, column.cells[0].index, column.index < halves[0],
                                    glyphs))
    return {ed: tuple(row) for ed, row in rows.items()}, tuple(variants)


def _mismatches(readings: dict[str, Pattern], claim: Claim | None) -> tuple[Mismatch, ...]:
    """Every reading's count (half and whole, 鼙 and 鼓) that differs from *claim*."""
    mismatches = []
    if claim is not None:
        for ed, pat in readings.items():
            for extent, rite in EXTENTS.items():
                counted = pat.counts(rite)
                for name, drum in DRUMS.items():
                    claimed = claim.counts[extent][name]
                    if counted[drum] != claimed:
                        implied = claim.implied.get(extent, {}).get(name)
                        mismatches.append(Mismatch(ed, extent, name, counted[drum], claimed,
                                                   implied))
    return tuple(mismatches)


def collate_pattern(tradition: Tradition, diagram: int,
                    readings: dict[str, Pattern], base: str) -> Collation:
    """Collate the *readings* (edition → pattern) of one pattern against *base*."""
    columns, variants = _table(readings, base)
    claim = claim_for(tradition, diagram)
    return Collation(tradition, diagram, base, dict(readings), columns, variants,
                     claim, _mismatches(readings, claim))


def collate() -> tuple[Collation, ...]:
    """Collate the four patterns over every shipped edition."""
    base = default_edition()
    out = []
    for diagram in (1, 2):
        for tradition in (Tradition.LU, Tradition.XUE):
            readings = {}
            for ed in editions():
                pat = scan_edition(ed.slug).find(tradition, diagram)
                if pat is not None:
                    readings[ed.slug] = pat
            if base in readings:
                out.append(collate_pattern(tradition, diagram, readings, base))
    return tuple(out)

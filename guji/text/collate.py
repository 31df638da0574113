"""Collation: every edition's reading of each pattern, aligned and checked.

For each of the four patterns (魯鼓 and 薛鼓 × diagrams 1 and 2),
:func:`collate` takes the reading of every shipped edition, aligns each
against the base edition's (the default, 禮記正義) stroke by stroke
(:func:`guji.align.align_patterns`), and gathers the differences into
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

from .align import align_patterns
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


def _columns(readings: dict[str, Pattern], base: str):
    """Multi-align the readings on the base: cell keys, then one row per edition."""
    base_pat = readings[base]
    n = len(base_pat.strokes)
    # Column keys: (base index, 0, k) for the k-th insertion before base stroke i,
    # (base index, 1, 0) for base stroke i itself; i == n for insertions at the end.
    cells: dict[str, dict[tuple, str]] = {}
    half_keys: dict[str, tuple] = {}
    for ed, pat in readings.items():
        row: dict[tuple, str] = {}
        key_of_b: dict[int, tuple] = {}
        if ed == base:
            for i, s in enumerate(pat.strokes):
                row[(i, 1, 0)] = s.glyph
                key_of_b[i] = (i, 1, 0)
        else:
            al = align_patterns(base_pat, pat)
            pending: list[int] = []
            for op in al.ops:
                if op.op == "ins":
                    pending.append(op.b)
                    continue
                for k, bj in enumerate(pending):
                    row[(op.a, 0, k)] = pat.strokes[bj].glyph
                    key_of_b[bj] = (op.a, 0, k)
                pending = []
                if op.op == "del":
                    row[(op.a, 1, 0)] = ""
                else:
                    row[(op.a, 1, 0)] = pat.strokes[op.b].glyph
                    key_of_b[op.b] = (op.a, 1, 0)
            for k, bj in enumerate(pending):
                row[(n, 0, k)] = pat.strokes[bj].glyph
                key_of_b[bj] = (n, 0, k)
        cells[ed] = row
        half_keys[ed] = key_of_b[pat.half_start]
    keys = sorted(set().union(*(row.keys() for row in cells.values())))
    return keys, cells, half_keys


def collate_pattern(tradition: Tradition, diagram: int,
                    readings: dict[str, Pattern], base: str) -> Collation:
    """Collate the *readings* (edition → pattern) of one pattern against *base*."""
    keys, cells, half_keys = _columns(readings, base)
    # Where 半 stands: before the column each reading's half starts at.
    half_columns = sorted(set(half_keys.values()))
    columns: dict[str, tuple[str, ...]] = {}
    for ed in readings:
        row = []
        for key in keys:
            if key in half_columns:
                row.append(HALF if half_keys[ed] == key else "")
            row.append(cells[ed].get(key, ""))
        columns[ed] = tuple(row)
    base_half = half_keys[base]
    variants = []
    col = 0
    for key in keys:
        col += 1 if key in half_columns else 0
        glyphs = {ed: cells[ed].get(key, "") for ed in readings}
        if len(set(glyphs.values())) > 1:
            base_index = key[0] if key[1] == 1 else None
            variants.append(Variant(col, base_index, key < base_half, glyphs))
        col += 1
    claim = claim_for(tradition, diagram)
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
    return Collation(tradition, diagram, base, dict(readings), columns, tuple(variants),
                     claim, tuple(mismatches))


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

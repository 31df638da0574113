"""Collation: every edition's reading of each pattern, aligned, grouped and checked.

For each of the four patterns (魯鼓 and 薛鼓 × diagrams 1 and 2),
:func:`collate` takes the reading of every text it is given
(:mod:`guji.text.collation.corpus`: the shipped editions and any text files) and of
every witness their variant notes name (``yishu~一本``), and

* lays them out on one table (:mod:`guji.text.collation.places`): 半 an anchor
  the alignment never crosses, each text's reading aligned part by part with
  the base's text (the base: the one asked for, else the first text's — the
  default edition, 禮記正義, unless only files are collated), each witness of
  a text's notes placed where its notes say; and gathers the differences
  into *variants*: one per place of variation (one note's edit, one run of a
  text's differences), naming who reads what;
* gathers the readings into *agreement groups* (:mod:`guji.text.collation.agreement`):
  who shares which whole reading, largest group first, each other group's
  differences from the largest stated in words;
* holds every reading's counts of 鼙 (○) and 鼓 (□), for the half and the
  whole, against every count claim any of the texts states about that
  pattern (:mod:`guji.text.collation.checked`), and lists each mismatch with the claim
  and who states it. A printed count that ``patterns/counts.toml`` doubts
  (徐伯鲁's 七 where his pattern and whole count imply 3) is kept as printed:
  every reading is flagged against it, with the implied count beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ...i18n import _
from ...errors import UsageError
from .agreement import Group, groups
from .checked import PARTS, CheckedClaim, part_word
from .corpus import Text, texts as default_texts
from .locus import locus, notes_of
from .places import table
from ..reading.notation import Drum, Pattern, Tradition

#: The drums by the names the JSON gives them.
DRUMS = {"鼙": Drum.SMALL, "鼓": Drum.BIG}


@dataclass(frozen=True)
class Mismatch:
    """A reading whose count differs from a claim.

    ``edition`` names the reading; ``extent`` is ``half`` or ``whole``;
    ``implied`` is the count the claim implies where the printed one is
    doubted; ``claim`` is the claim, with who states it and where.
    """

    edition: str
    extent: str
    drum: str
    counted: int
    claimed: int
    implied: int | None
    claim: CheckedClaim | None = None

    def describe(self) -> str:
        """What does not agree, in the user's language (:mod:`guji.i18n`)."""
        text = _("{edition}: {extent} {drum} {counted}, claimed {claimed}").format(
            edition=self.edition, extent=part_word(self.extent), drum=self.drum, counted=self.counted,
            claimed=self.claimed)
        if self.implied is not None:
            if self.counted == self.implied:
                said = _("{text} as printed (implied {implied}; the reading agrees with it)")
            else:
                said = _("{text} as printed (implied {implied}; the reading differs from it)")
            text = said.format(text=text, implied=self.implied)
        if self.claim is not None:
            loc = self.claim.location
            text = _("{text} — {source} {line}:{column} {claim}").format(
                text=text, source=self.claim.source, line=loc.line, column=loc.column,
                claim=self.claim.claim.text)
        return text

    def to_json(self) -> dict:
        by = None
        if self.claim is not None:
            by = {"source": self.claim.source, "text": self.claim.claim.text,
                  "line": self.claim.location.line, "column": self.claim.location.column}
        return {"edition": self.edition, "part": self.extent, "drum": self.drum,
                "counted": self.counted, "claimed": self.claimed, "implied": self.implied,
                "claimed_by": by}


@dataclass(frozen=True)
class Variant:
    """One place where readings disagree (:class:`~guji.text.collation.places.Place`):
    one note's edit, or one run of a text's differences, or those that overlap.

    ``column`` is the first of the place's ``width`` columns in the
    collation's table; ``base_strokes`` the indices of the base reading's
    strokes there (``base_index`` the first, ``None`` where the base has none,
    i.e. other readings add strokes). ``readings`` maps each reading to the
    glyphs it has there ('' for none). ``place`` names the place by where it
    stands in the base (``b9``, ``a3-4``, ``a13.add``: the edition's ``<app>``
    ids); ``notes`` are the notes whose edits it holds, ``(reading, note
    index)`` into that reading's :attr:`Pattern.notes`.
    """

    column: int
    base_index: int | None
    before_half: bool
    readings: dict
    width: int = 1
    base_strokes: tuple[int, ...] = ()
    place: str = ""
    notes: tuple[tuple[str, int], ...] = ()

    def describe(self, base: str) -> str:
        """Where the readings differ and how, in the user's language (:mod:`guji.i18n`)."""
        n = len(self.base_strokes)
        if n > 1:
            where = _("strokes {first}–{last} of {base}").format(
                first=self.base_strokes[0] + 1, last=self.base_strokes[-1] + 1, base=base)
        elif self.base_index is not None:
            where = _("stroke {n} of {base}").format(n=self.base_index + 1, base=base)
        else:
            where = _("a stroke that {base} lacks").format(base=base) if self.width == 1 else \
                _("strokes that {base} lacks").format(base=base)
        side = _("before 半") if self.before_half else _("after 半")
        glyphs: dict[str, list[str]] = {}
        for ed, glyph in self.readings.items():
            glyphs.setdefault(glyph or _("(none)"), []).append(ed)
        readings = _("; ").join(f"{g} {', '.join(eds)}" for g, eds in glyphs.items())
        return _("{where} ({side}): {readings}").format(where=where, side=side, readings=readings)

    def to_json(self) -> dict:
        return {"place": self.place, "column": self.column, "width": self.width,
                "base_index": self.base_index, "base_strokes": list(self.base_strokes),
                "before_half": self.before_half, "readings": self.readings,
                "notes": [{"reading": name, "note": k} for name, k in self.notes]}


def claim_summary(claims: Sequence[CheckedClaim]) -> dict | None:
    """The first claiming text's counts of one pattern, in one object:
    ``{"edition", "counts": {"half": {"鼙": n, …}, "whole": {…}}, "implied",
    "printed", "note"}`` (None without claims)."""
    if not claims:
        return None
    source = claims[0].source
    mine = [c for c in claims if c.source == source]
    counts: dict = {}
    implied: dict = {}
    for c in mine:
        counts.setdefault(c.claim.part, {}).setdefault(c.claim.drum.value, c.claim.count)
        if c.doubt is not None:
            implied.setdefault(c.claim.part, {})[c.claim.drum.value] = c.doubt.implied
    return {"edition": source, "counts": counts, "implied": implied,
            "printed": " ".join(c.claim.text for c in mine),
            "note": "; ".join(c.doubt.reason for c in mine if c.doubt is not None)}


@dataclass(frozen=True)
class Collation:
    """Every reading of one pattern, aligned, grouped, with variants and count checks.

    ``columns`` is the aligned table: one tuple per reading (in ``readings``
    order) of equal length, each cell a glyph (○ □), ``半``, or '' for a gap.
    ``claims`` are the count claims about this pattern, from every text;
    ``sources`` for each reading its text's description (siglum, language,
    :class:`~guji.text.reading.bibl.Bibl`), as :func:`collate` knows them.
    """

    tradition: Tradition
    diagram: int
    base: str
    readings: dict                 #: reading name -> Pattern
    columns: dict                  #: reading name -> tuple of cells
    variants: tuple[Variant, ...]
    claims: tuple[CheckedClaim, ...]
    mismatches: tuple[Mismatch, ...]
    groups: tuple[Group, ...]
    sources: dict = field(default_factory=dict, compare=False)   #: reading name -> Source

    def edition_of(self, name: str) -> str:
        """The text a reading is of: its name without ``~WITNESS``."""
        witness = self.readings[name].witness
        return name if witness is None else name[: -len(witness) - 1]

    def agreement(self, claim: CheckedClaim) -> dict:
        """Each reading's count of what *claim* counts, and whether it agrees."""
        out = {}
        for name, p in self.readings.items():
            counted = p.counts(PARTS[claim.claim.part])[claim.claim.drum]
            out[name] = {"counted": counted, "agrees": counted == claim.claim.count}
        return out

    def to_json(self) -> dict:
        readings = {}
        for ed, p in self.readings.items():
            source = self.sources.get(ed)
            readings[ed] = {"id": p.id, "edition": self.edition_of(ed), "witness": p.witness,
                            "siglum": None if source is None else source.siglum,
                            "lang": None if source is None else source.lang,
                            "bibl": None if source is None else source.text.bibl.to_json(),
                            "locus": locus(p), "notes": notes_of(p),
                            "before": "".join(s.glyph for s in p.before),
                            "after": "".join(s.glyph for s in p.half),
                            "counts": {extent: {name: p.counts(rite)[drum]
                                                for name, drum in DRUMS.items()}
                                       for extent, rite in PARTS.items()},
                            "aligned": list(self.columns[ed])}
        return {
            "score": self.tradition.value,
            "diagram": self.diagram,
            "base": self.base,
            "readings": readings,
            "variants": [v.to_json() for v in self.variants],
            "claim": claim_summary(self.claims),
            "claims": [{**c.to_json(), "readings": self.agreement(c)} for c in self.claims],
            "mismatches": [m.to_json() for m in self.mismatches],
            "groups": [g.to_json() for g in self.groups],
        }


def _table(readings: dict[str, Pattern], base: str
           ) -> tuple[dict[str, tuple[str, ...]], tuple[Variant, ...]]:
    """The aligned table of :attr:`Collation.columns` and its variants
    (:func:`guji.text.collation.places.table`: 半 a column of its own, every
    reading's, each part aligned on its own, a witness of notes placed by its
    notes)."""
    laid = table(readings, base)
    variants = []
    for place in laid.places:
        span = range(place.first, place.last + 1)
        glyphs = {ed: "".join(laid.cells[ed][c] for c in span) for ed in readings}
        variants.append(Variant(place.first, place.base_strokes[0] if place.base_strokes else None,
                                place.before_half, glyphs, len(span), place.base_strokes,
                                place.name, place.notes))
    return laid.cells, tuple(variants)


def _mismatches(readings: dict[str, Pattern], claims: Sequence[CheckedClaim]
                ) -> tuple[Mismatch, ...]:
    """Every reading's count (half and whole, 鼙 and 鼓) that differs from a claim."""
    out = []
    for ed, pattern in readings.items():
        for c in claims:
            counted = pattern.counts(PARTS[c.claim.part])[c.claim.drum]
            if counted != c.claim.count:
                implied = None if c.doubt is None else c.doubt.implied
                out.append(Mismatch(ed, c.claim.part, c.claim.drum.value, counted, c.claim.count,
                                    implied, c))
    return tuple(out)


def collate_pattern(tradition: Tradition, diagram: int, readings: dict[str, Pattern],
                    base: str, claims: Sequence[CheckedClaim] = (),
                    sources: dict | None = None) -> Collation:
    """Collate the *readings* (name → pattern) of one pattern against *base*,
    and check them against the *claims* about it."""
    columns, variants = _table(readings, base)
    return Collation(tradition, diagram, base, dict(readings), columns, variants,
                     tuple(claims), _mismatches(readings, claims), groups(readings),
                     dict(sources or {}))


@dataclass(frozen=True)
class Source:
    """A reading's witness as described: its siglum (the text's, with
    ``~WITNESS`` for a witness of its notes), language and description."""

    siglum: str
    lang: str
    text: Text


def _sources(texts: Sequence[Text], readings: dict[str, Pattern]) -> dict[str, Source]:
    by_name = {t.name: t for t in texts}
    out = {}
    for name, p in readings.items():
        text = by_name[name if p.witness is None else name[: -len(p.witness) - 1]]
        siglum = text.siglum or text.name
        out[name] = Source(siglum if p.witness is None else f"{siglum}~{p.witness}",
                           text.lang, text)
    return out


def collate(texts: Sequence[Text] | None = None, base: str | None = None
            ) -> tuple[Collation, ...]:
    """Collate the four patterns over *texts* (default: the shipped
    editions, :func:`guji.text.collation.corpus.texts`), in the order 魯鼓 1, 薛鼓 1,
    魯鼓 2, 薛鼓 2; a pattern no text has is left out.

    *base* names the base reading (a text's name, or ``name~WITNESS``):
    default the first text's; a pattern it does not read takes the first
    reading. :class:`UsageError` when no pattern has a reading of that name.
    """
    texts = default_texts() if texts is None else list(texts)
    claims = [c for t in texts for c in t.claims]
    out = []
    for diagram in (1, 2):
        for tradition in (Tradition.LU, Tradition.XUE):
            readings: dict[str, Pattern] = {}
            for text in texts:
                readings.update(text.readings(tradition, diagram))
            if readings:
                about = [c for c in claims if c.about(tradition, diagram)]
                first = base if base in readings else next(iter(readings))
                out.append(collate_pattern(tradition, diagram, readings, first, about,
                                           _sources(texts, readings)))
    if base is not None and not any(base in c.readings for c in out):
        names = sorted({n for c in out for n in c.readings})
        raise UsageError(_("--base {base} names no reading: the readings are {names}").format(
            base=repr(base), names=", ".join(names)))
    return tuple(out)

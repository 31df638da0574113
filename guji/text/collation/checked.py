"""A text's count claims, placed and held against the text's own reading.

:mod:`guji.text.collation.claims` reads what a commentator says a pattern holds;
:func:`text_claims` reads the claims of a whole text and makes each a
:class:`CheckedClaim`: where it stands (line and column), which diagram it
is about, and the count the text's own pattern gives (``counted``), so that
``agrees`` says whether the commentary and the diagram of one text agree.
:mod:`guji.text.collation.collate` holds every edition against them too.

Where claims are read
---------------------
Claims are read near the diagrams: from :data:`NEAR` characters before the
first pattern of the text to :data:`NEAR` characters after its last (the
commentary printed with the diagrams). A text without any pattern is read
whole (a commentary on its own). Counts read outside that stretch, and counts
no score names (:class:`~guji.text.collation.claims.Unattributed`), are reported as
notices, never dropped silently.

Which diagram
-------------
A claim names its diagram (前圖 / 上 → 1; 後圖 / 此 / 下 → 2) or not. When it
does not, it is about the diagram of its score that it follows in the text
(commentary follows what it comments on): ``diagram_stated`` is then False.
A claim that follows no pattern of its score has no diagram, and nothing
to be counted against.

What no text states
-------------------
``patterns/counts.toml`` keeps what no text states: a count that is printed
but doubted, with the count the text implies and the reasoning (徐伯鲁's
鼔声七 for the half of the first diagram's 薛鼓, where the pattern and his
own whole count imply 3). A claim it matches carries that ``implied`` count.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...errors import Location
from ...i18n import _, ngettext, pgettext
from .claims import Claim, Unattributed, read_claims
from ..reading.lexer import SourceText
from ..reading.notation import Drum, Pattern, Rite, Tradition
from ..reading.parser import Notice
from .speakers import Speakers

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["NEAR", "PARTS", "Doubt", "CheckedClaim", "doubts", "part_word", "text_claims"]

#: How far from its diagrams (in characters) a text's claims are read.
NEAR = 1500
#: The parts of a pattern a count is of, and the rite that plays each.
PARTS = {"half": Rite.TOUHU, "whole": Rite.SHE}


def part_word(part: str) -> str:
    """*part* (``half`` or ``whole``, as the data has it) as a person reads it:
    半 / 全 in Chinese (the words the commentaries use)."""
    if part == "half":
        return pgettext("part of a pattern", "half")
    return pgettext("part of a pattern", "whole")


@dataclass(frozen=True)
class Doubt:
    """A printed count that is doubted (``patterns/counts.toml``): the claim
    of *tradition*'s diagram *diagram*, *part*, *drum*, printed *printed*,
    implies *implied*, for *reason*."""

    tradition: Tradition
    diagram: int
    part: str
    drum: Drum
    printed: int
    implied: int
    reason: str

    def said(self) -> str:
        """The reason in the user's language (its English is data: ``counts.toml``, the
        JSON's ``note``; the catalogs hold its translation: ``python -m guji.i18n_tools``
        extracts the file's reasons)."""
        return _(self.reason)


@lru_cache(maxsize=None)
def doubts() -> tuple[Doubt, ...]:
    """The doubted counts of ``patterns/counts.toml``."""
    data = tomllib.loads(resources.files("guji").joinpath("data", "patterns", "counts.toml")
                         .read_text(encoding="utf-8"))
    return tuple(Doubt(Tradition.from_name(d["score"]), d["diagram"], d["part"],
                       Drum(d["drum"]), d["printed"], d["implied"], d["reason"])
                 for d in data["implied"])


@dataclass(frozen=True)
class CheckedClaim:
    """A count claim of one text, placed and counted.

    Attributes
    ----------
    claim:
        The claim as read (:class:`~guji.text.collation.claims.Claim`).
    diagram:
        The diagram it is about: the one it names, else the one it follows
        (``diagram_stated`` False), else None.
    source:
        The edition or file name of the text it is read from.
    location:
        Where its count stands (the drum word), 1-based line and column.
    counted:
        The count the text's own pattern gives (None without a pattern).
    doubt:
        The :class:`Doubt` of ``counts.toml`` it matches, if any.
    filename:
        The file it is read from, if any (for messages).
    commentator:
        Whose words it stands in (徐伯鲁 …: :func:`guji.text.collation.speakers.speaker`),
        None where the text names no one guji knows.
    """

    claim: Claim
    diagram: int | None
    diagram_stated: bool
    source: str
    location: Location
    counted: int | None
    doubt: Doubt | None = None
    filename: str | None = None
    commentator: str | None = None

    @property
    def tradition(self) -> Tradition:
        return self.claim.tradition

    @property
    def agrees(self) -> bool | None:
        """Whether the text's own reading has the count claimed (None: nothing to count)."""
        return None if self.counted is None else self.counted == self.claim.count

    def about(self, tradition: Tradition, diagram: int) -> bool:
        """Is this a claim about *tradition*'s diagram *diagram*?"""
        return self.claim.tradition is tradition and self.diagram == diagram

    def describe(self) -> str:
        """``薛鼓 1 half 鼓 7 (鼔声七, lijing-benyi 3:2176)``, in the user's language
        (:mod:`guji.i18n`: ``薛鼓 1 半 鼓 7（鼔声七，lijing-benyi 3:2176）``)."""
        c = self.claim
        return _("{score} {diagram} {part} {drum} {count} ({text}, {source} {line}:{column})").format(
            score=c.tradition.label, diagram=self.diagram or "?", part=part_word(c.part),
            drum=c.drum.value, count=c.count, text=c.text.replace(chr(10), "⏎"),
            source=self.source, line=self.location.line, column=self.location.column)

    def to_json(self) -> dict:
        c = self.claim
        return {"score": c.tradition.value, "diagram": self.diagram, "part": c.part,
                "drum": c.drum.value, "count": c.count, "counted": self.counted,
                "agrees": self.agrees, "text": c.text, "line": self.location.line,
                "column": self.location.column, "diagram_stated": self.diagram_stated,
                "source": self.source, "commentator": self.commentator,
                "implied": None if self.doubt is None else self.doubt.implied,
                "note": None if self.doubt is None else self.doubt.reason}


class _Placer:
    """Where each claim of a text stands among its *patterns* (in text order):
    built once, so that a text of many claims and many patterns costs their
    sum, not their product."""

    def __init__(self, patterns: tuple[Pattern, ...]):
        self._ends: dict[Tradition, list[int]] = {t: [] for t in Tradition}
        self._diagrams: dict[Tradition, list[int]] = {t: [] for t in Tradition}
        self._own: dict[tuple[Tradition, int], Pattern] = {}
        for p in patterns:
            self._ends[p.tradition].append(p.strokes[-1].location.offset)
            self._diagrams[p.tradition].append(p.diagram)
            if p.witness is None:
                self._own.setdefault((p.tradition, p.diagram), p)
        self._patterns = patterns
        self._sorted = all(e == sorted(e) for e in self._ends.values())

    def placed(self, claim: Claim) -> tuple[int | None, bool]:
        """The diagram of *claim*: named, or the last of its score it follows."""
        if claim.diagram is not None:
            return claim.diagram, True
        if not self._sorted:                       # (patterns not in text order: each looked at)
            before = [p for p in self._patterns if p.tradition is claim.tradition
                      and p.strokes[-1].location.offset < claim.offset]
            return (before[-1].diagram if before else None), False
        k = bisect.bisect_left(self._ends[claim.tradition], claim.offset)
        return (self._diagrams[claim.tradition][k - 1] if k else None), False

    def counted(self, claim: Claim, diagram: int | None) -> int | None:
        """What the text's own reading of *claim*'s diagram counts of its drum and part."""
        pattern = self._own.get((claim.tradition, diagram)) if diagram is not None else None
        return None if pattern is None else pattern.counts(PARTS[claim.part])[claim.drum]


def _doubt(claim: Claim, diagram: int | None) -> Doubt | None:
    return next((d for d in doubts() if d.tradition is claim.tradition and d.diagram == diagram
                 and d.part == claim.part and d.drum is claim.drum
                 and d.printed == claim.count), None)


def _window(patterns: tuple[Pattern, ...], length: int) -> tuple[int, int]:
    """The stretch of the text its claims are read from (module docstring)."""
    if not patterns:
        return 0, length
    return (min(p.strokes[0].location.offset for p in patterns) - NEAR,
            max(p.strokes[-1].location.offset for p in patterns) + NEAR)


def text_claims(text: str, patterns: tuple[Pattern, ...], source: str,
                filename: str | None = None) -> tuple[tuple[CheckedClaim, ...], tuple[Notice, ...]]:
    """The count claims of *text*, whose patterns (as scanned) are *patterns*.

    *source* names the text in the claims (an edition's slug, a file's stem
    or name); *filename* names it in the notices. Returns the claims, in
    text order, and notices for the counts not read (far from the
    diagrams, or named by no score).
    """
    src = SourceText(text, filename)
    found, lost = read_claims(text)
    lo, hi = _window(patterns, len(text))
    notices: list[Notice] = []
    far = [c for c in found if not lo <= c.offset <= hi]
    if far:
        notices.append(Notice(ngettext(
            "{n} count claim more than {near} characters from the diagrams: not read",
            "{n} count claims more than {near} characters from the diagrams: not read",
            len(far)).format(n=len(far), near=NEAR), src.location(far[0].offset), filename))
    for u in lost:
        if lo <= u.offset <= hi:
            notices.append(Notice(_lost_message(u), src.location(u.offset), filename))
    out = []
    placer, speaker = _Placer(patterns), Speakers(text)
    for claim in found:
        if lo <= claim.offset <= hi:
            diagram, stated = placer.placed(claim)
            out.append(CheckedClaim(claim, diagram, stated, source, src.location(claim.offset),
                                    placer.counted(claim, diagram), _doubt(claim, diagram),
                                    filename, speaker(claim.offset)))
    return tuple(out), tuple(notices)


def _lost_message(u: Unattributed) -> str:
    return _("count {text} not read as a claim: {reason}").format(
        text=u.text.replace(chr(10), "⏎"), reason=u.why.shown() if u.why else u.reason)

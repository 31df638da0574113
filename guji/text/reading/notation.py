"""The values of the notation: drums, strokes, patterns, and the glyph table.

The 投壺 chapter of the 禮記 writes its drum scores with two glyphs (鄭玄:
圜者擊鼙，方者擊鼓):

* a round glyph ○ — one stroke on the 鼙, the small drum (:attr:`Drum.SMALL`);
* a square glyph □ — one stroke on the 鼓, the big drum (:attr:`Drum.BIG`);

and one marker, 半 ("half"): from 半 to the end is played for the 投壺
(pitch-pot) rite, the whole pattern for the 射禮 (archery) rite (取半以下為投壺禮，
盡用之為射禮).

Editions write the two glyphs with different code points. :data:`ROUND_GLYPHS`
and :data:`SQUARE_GLYPHS` are the one table of accepted glyphs; everything
else inside a pattern is an error.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ...errors import Location
from ...i18n import N_


class Drum(enum.Enum):
    """The two drums of the scores."""

    #: 鼙, the small drum, written round (○). 陸德明: 其聲下，其音榻榻然 — soft, damped "ta-ta".
    SMALL = "鼙"
    #: 鼓, the big drum, written square (□). 陸德明: 其聲高，其音鏜鏜然 — loud, booming "tang".
    BIG = "鼓"

    @property
    def glyph(self) -> str:
        """The normalised glyph: ○ U+25CB for 鼙, □ U+25A1 for 鼓."""
        return ROUND if self is Drum.SMALL else SQUARE

    @property
    def english(self) -> str:
        return "small drum" if self is Drum.SMALL else "big drum"


class Tradition(enum.Enum):
    """Which state's drumming a pattern records: the 'score' of the JSON output.

    鄭玄 on the second diagram: 此二者，記兩家之異 — two traditions (家).
    """

    LU = "魯"   #: 魯鼓, the drum of Lu
    XUE = "薛"  #: 薛鼓, the drum of Xue

    @property
    def slug(self) -> str:
        return self.name.lower()

    @property
    def label(self) -> str:
        """The label as the texts write it: 魯鼓 or 薛鼓."""
        return self.value + "鼓"

    @classmethod
    def from_name(cls, name: str) -> "Tradition":
        """``lu``/``魯``/``鲁``/``魯鼓`` → LU, ``xue``/``薛``/``薛鼓`` → XUE."""
        key = name.strip().lower()
        for trad, names in _TRADITION_NAMES.items():
            if key in names:
                return trad
        raise ValueError(f"unknown score {name!r}: use lu (魯) or xue (薛)")


_TRADITION_NAMES = {
    Tradition.LU: {"lu", "魯", "鲁", "魯鼓", "鲁鼓", "魯鼔", "鲁鼔"},
    Tradition.XUE: {"xue", "薛", "薜", "薛鼓", "薛鼔", "薜鼓", "薜鼔"},
}


class Rite(enum.Enum):
    """Which part of a pattern is played.

    * ``TOUHU`` — 投壺, pitch-pot: from 半 to the end (the half).
    * ``SHE`` — 射禮, the archery rite (孔穎達: 燕射): the whole pattern.
    """

    TOUHU = "touhu"
    SHE = "she"

    @property
    def chinese(self) -> str:
        return "投壺" if self is Rite.TOUHU else "射禮"


#: Normalised glyphs.
ROUND = "\u25cb"   # ○
SQUARE = "\u25a1"  # □
HALF = "半"

#: Accepted round glyphs (鼙), code point → where it is seen (English: data, the JSON's
#: ``note``; marked for the catalogs and said translated by ``guji glyphs``): the shipped
#: edition, or the Kanripo work and file (of the 55 works the project searched for each glyph
#: near 魯鼓/薛鼓: 樂律表微 writes 魯鼓薛鼓有○口之譜), or "source unknown" where no edition
#: or digitisation guji holds writes it so.
ROUND_GLYPHS: dict[str, str] = {
    "\u25cb": N_("○ WHITE CIRCLE: 禮記正義 卷第五十九之二, 礼经本义, 五礼通考 卷一百六十五 (the shipped editions); 樂律表微 (Kanripo KR1i0019, KR1i0019_008.txt)"),
    "\u25ef": N_("◯ LARGE CIRCLE: seen in no edition or digitisation guji holds (source unknown)"),
    "\u3007": N_("〇 IDEOGRAPHIC NUMBER ZERO: seen in no edition or digitisation guji holds (source unknown)"),
}

#: Accepted square glyphs (鼓), code point → where it is seen.
SQUARE_GLYPHS: dict[str, str] = {
    "\u25a1": N_("□ WHITE SQUARE: 禮記正義 卷第五十九之二, 礼经本义 (the shipped editions)"),
    "\u56d7": N_("囗 CJK 'enclosure': 五礼通考 卷一百六十五 (the shipped edition)"),
    "\u53e3": N_("口 CJK 'mouth': 樂律表微 (Kanripo KR1i0019, KR1i0019_008.txt)"),
    "\u25cd": N_("◍ CIRCLE WITH VERTICAL FILL: seen in no edition or digitisation guji holds (source unknown)"),
    "\u25db": N_("◛ LOWER HALF INVERSE WHITE CIRCLE: seen in no edition or digitisation guji holds (source unknown)"),
    "\u25a0": N_("■ BLACK SQUARE: seen in no edition or digitisation guji holds (source unknown)"),
    "\u25a2": N_("▢ WHITE SQUARE WITH ROUNDED CORNERS: seen in no edition or digitisation guji holds (source unknown)"),
}

#: Characters typed for a stroke that are *not* accepted, with the glyph they
#: were probably meant for: inside a pattern each is an error that suggests
#: the glyph (``guji glyphs`` lists them). Empty brackets count as one
#: character here: ``()`` drawn for ○, ``[]`` for □.
LOOKALIKES: dict[str, str] = {
    **dict.fromkeys(["o", "O", "0", "°", "º", "ｏ", "Ｏ", "０", "●", "◎", "◦", "∘", "⚪", "⭕",
                     "❍", "⚬", "⊙", "◌", "◉", "()", "（）", "〔〕"], "\u25cb"),
    **dict.fromkeys(["☐", "◻", "◽", "⬜", "▫", "❑", "❒", "◼", "▣", "[]", "［］", "【】"],
                    "\u25a1"),
}

#: Score labels as editions write them (鼔 is a variant of 鼓, 薜 a miscopy of 薛).
LABELS: dict[str, Tradition] = {
    "魯鼓": Tradition.LU, "鲁鼓": Tradition.LU, "魯鼔": Tradition.LU, "鲁鼔": Tradition.LU,
    "薛鼓": Tradition.XUE, "薛鼔": Tradition.XUE, "薜鼓": Tradition.XUE, "薜鼔": Tradition.XUE,
}

#: Headings that open the first diagram (seed 000 writes 右鼔: 右 "the above" + 鼔).
HEADINGS: tuple[str, ...] = ("記鼓", "记鼓", "記鼔", "记鼔", "鼓", "鼔")


def drum_of(glyph: str) -> Drum | None:
    """The drum a glyph stands for, or ``None`` if it is not a stroke glyph."""
    if glyph in ROUND_GLYPHS:
        return Drum.SMALL
    if glyph in SQUARE_GLYPHS:
        return Drum.BIG
    return None


@dataclass(frozen=True, slots=True)
class Stroke:
    """One stroke of a pattern, with the glyph exactly as the source wrote it.

    ``index`` is the stroke's place in the whole pattern (0-based);
    ``location`` is where its glyph stands in the source text.
    """

    drum: Drum
    index: int
    raw: str
    location: Location

    @property
    def glyph(self) -> str:
        """The normalised glyph (○ or □)."""
        return self.drum.glyph


@dataclass(frozen=True, slots=True)
class SourceNote:
    """A note as the source writes it: ``text`` from its first bracket to its
    last (a note flattened into several bracket groups included, line breaks
    and all), at ``location``."""

    text: str
    location: Location

    def to_json(self) -> dict:
        return {"note": self.text, "line": self.location.line, "column": self.location.column}


@dataclass(frozen=True, slots=True)
class UnreadNote(SourceNote):
    """A note with strokes in it that guji did not read as a variant, and why."""

    reason: str = ""

    def to_json(self) -> dict:
        return {**SourceNote.to_json(self), "reason": self.reason}   # (slots: no bare super())


@dataclass(frozen=True, slots=True)
class Pattern:
    """One drum pattern: strokes split by 半 into a first part and the half.

    Attributes
    ----------
    tradition:
        魯 or 薛 (:class:`Tradition`).
    diagram:
        1 or 2: which of the chapter's two diagrams (前圖 / 後圖) it comes from.
    strokes:
        Every stroke, in order.
    half_start:
        Index in ``strokes`` of the first stroke after 半.
    half_location:
        Where 半 stands in the source.
    edition:
        Slug of the shipped edition (``None`` for user text).
    filename:
        The file the text came from (``None`` for a string).
    lines:
        The source lines the pattern spans, as ``(line number, text)`` pairs,
        so displays can show and highlight the very glyphs.
    label_location:
        Where the score label (魯鼓 / 薛鼓) stands, ``None`` if the score was
        given by the caller.
    witness:
        For another witness's reading given in the text's variant notes (一本,
        宋本 …: :mod:`guji.text.apparatus.witnesses`), its name; ``None`` for the text's
        own reading.
    notes:
        For a witness's reading, the notes it is read from.
    variants:
        The witnesses' readings of this pattern in its notes, each a pattern
        of its own (:meth:`variant`).
    unread:
        The notes with strokes in them that were not read as variants, with
        the reason (:class:`UnreadNote`).
    """

    tradition: Tradition
    diagram: int
    strokes: tuple[Stroke, ...]
    half_start: int
    half_location: Location
    edition: str | None = None
    filename: str | None = None
    lines: tuple[tuple[int, str], ...] = field(default=(), compare=False, repr=False)
    label_location: Location | None = field(default=None, compare=False)
    witness: str | None = None
    notes: tuple[SourceNote, ...] = field(default=(), compare=False, repr=False)
    variants: tuple["Pattern", ...] = field(default=(), compare=False, repr=False)
    unread: tuple[UnreadNote, ...] = field(default=(), compare=False, repr=False)

    # -- parts ----------------------------------------------------------
    @property
    def before(self) -> tuple[Stroke, ...]:
        """The strokes before 半 (played only in the 射禮)."""
        return self.strokes[: self.half_start]

    @property
    def half(self) -> tuple[Stroke, ...]:
        """The strokes from 半 to the end: the 投壺 part (取半以下為投壺禮)."""
        return self.strokes[self.half_start:]

    @property
    def whole(self) -> tuple[Stroke, ...]:
        """Every stroke: the 射禮 part (盡用之為射禮)."""
        return self.strokes

    def strokes_for(self, rite: Rite) -> tuple[Stroke, ...]:
        """The strokes played in *rite*."""
        return self.half if rite is Rite.TOUHU else self.whole

    # -- views ----------------------------------------------------------
    @property
    def location(self) -> Location:
        """Where the first stroke stands."""
        return self.strokes[0].location

    @property
    def id(self) -> str:
        """The id that names this pattern: ``lu:1@liji-zhengyi``, and for a
        witness's reading ``lu:1@notes.txt~一本``."""
        base = f"{self.tradition.slug}:{self.diagram}"
        if self.edition:
            base = f"{base}@{self.edition}"
        elif self.filename:
            base = f"{base}@{self.filename}"
        return base if self.witness is None else f"{base}~{self.witness}"

    def variant(self, witness: str) -> "Pattern | None":
        """The reading of *witness* (一本, 宋本 …) given in this pattern's notes, if any."""
        return next((v for v in self.variants if v.witness == witness), None)

    def notation(self, rite: Rite = Rite.SHE, marker: bool = True) -> str:
        """The strokes as normalised glyphs, with 半 in place when *marker*.

        ``notation(Rite.TOUHU)`` gives only the half.
        """
        before = "".join(s.glyph for s in self.before)
        after = "".join(s.glyph for s in self.half)
        if rite is Rite.TOUHU:
            return after
        return before + (HALF if marker else "") + after

    def counts(self, rite: Rite = Rite.SHE) -> dict[Drum, int]:
        """How many strokes of each drum *rite* plays."""
        strokes = self.strokes_for(rite)
        small = sum(1 for s in strokes if s.drum is Drum.SMALL)
        return {Drum.SMALL: small, Drum.BIG: len(strokes) - small}

    def to_json(self) -> dict:
        """The documented JSON form (see README: "JSON of one pattern")."""
        whole = self.counts(Rite.SHE)
        half = self.counts(Rite.TOUHU)
        loc = self.location
        return {
            "id": self.id,
            "score": self.tradition.value,   # the JSON keeps the key "score"
            "diagram": self.diagram,
            "edition": self.edition,
            "before": "".join(s.glyph for s in self.before),
            "after": "".join(s.glyph for s in self.half),
            "line": loc.line,
            "column": loc.column,
            "half_line": self.half_location.line,
            "half_column": self.half_location.column,
            "raw": "".join(s.raw for s in self.before) + HALF + "".join(s.raw for s in self.half),
            "counts": {
                "whole": {"鼙": whole[Drum.SMALL], "鼓": whole[Drum.BIG]},
                "half": {"鼙": half[Drum.SMALL], "鼓": half[Drum.BIG]},
            },
            "file": self.filename,
            "witness": self.witness,
            "notes": [n.to_json() for n in self.notes],
            "variants": [v._variant_json() for v in self.variants],
            "unread": [n.to_json() for n in self.unread],
        }

    def _variant_json(self) -> dict:
        """This witness's reading as an entry of its pattern's ``variants``."""
        first = self.notes[0].to_json() if self.notes else {"note": None, "line": None,
                                                            "column": None}
        return {"witness": self.witness, "id": self.id,
                "before": "".join(s.glyph for s in self.before),
                "after": "".join(s.glyph for s in self.half),
                **first, "notes": [n.to_json() for n in self.notes]}

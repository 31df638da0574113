"""The grammar of one variant note, and the values a note is read into.

:mod:`guji.text.apparatus.notes` finds the notes of a pattern and divides runs of
bracket groups into notes; this module reads one note — one or more bracket
groups, a :class:`Note` each — into a :class:`WitnessNote` (a witness and an
:class:`~guji.text.apparatus.edits.Edit`) or a :class:`NotRead` with the reason
(:func:`read_group`). ``docs/apparatus.md`` gives the grammar with examples.

Grammar of a body
-----------------
::

    body     = [按 | 案 | 今按 | 今案] witness adverb* verb [此] strokes comment
    adverb   = 此下 | 其下 | 於此 | 于此 | 此處 | 此处 | 此 | 下 | 亦 | 並 | 并 | 皆
             | 俱 | 尚 | 又 | 則 | 则
    verb     = 作                                   → replace
             | 少 | 無 | 无 | 闕 | 阙 | 缺 | 脫 | 脱   → delete
             | 有 | 多                              → insert
    strokes  = ( [numeral] stroke )+                a stroke without numeral counts 1
    comment  = ε | [name] 從之 [也] | 是也 | 是 | 非也 | 非 | 誤 [也] | 為是 | 為長 | 亦通
               (and their simplified forms)

* **Witness**: the name before the adverbs and verb, as short as the grammar
  allows (無錫本無○ is witness 無錫本); 《》 and a leading 按/案 are not part of
  it; 一 and 或 alone (一作○) are 一本 and 或本. Spellings are not merged. A
  witness that is empty, only adverbs (``下有○``), or holds a stroke or 半
  is no witness: the note is not read.
* **Strokes**: spelt out in written order, a numeral multiplying the stroke
  after it (``少一○一□`` is ○□, ``作二○`` is ○○); any accepted glyph
  (:data:`~guji.text.reading.notation.ROUND_GLYPHS`, ``SQUARE_GLYPHS``).
* **Replace** / **delete** (作; 少 無 …, 無此○): the n strokes just before the
  note (for a delete, the strokes named); **insert** (有 多): at the note.
* **Comment**: after the strokes only the judgements above may follow;
  anything else (a second reading, 疑誤, 未詳) makes the note not read.

A note without any stroke glyph is commentary, not listed; a prose note using
〇 or 口 (ordinary characters too) is listed as not read: over-reporting.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...errors import Location, escape_controls
from .edits import Edit, EditKind
from ..reading.lexer import NOTE_BRACKETS
from ..reading.notation import HALF, ROUND, ROUND_GLYPHS, SQUARE, SQUARE_GLYPHS
from .numerals import NUMERAL, numeral_value

__all__ = ["Note", "NotRead", "WitnessNote", "COLUMN_MARKS", "STROKE_GLYPHS", "TAG", "has_stroke",
           "body_of", "note_body", "read_body", "read_group", "shown", "words_after"]

#: Every accepted stroke glyph, and its normalised form (○ or □).
STROKE_GLYPHS = "".join(ROUND_GLYPHS) + "".join(SQUARE_GLYPHS)
NORMAL = {**dict.fromkeys(ROUND_GLYPHS, ROUND), **dict.fromkeys(SQUARE_GLYPHS, SQUARE)}
#: Column-break marks inside a note.
COLUMN_MARKS = "/／|｜"
_ANY_STROKE = re.compile("[" + re.escape(STROKE_GLYPHS) + "]").search
#: A markup tag (``<pb:…>``, ``<lb/>``) inside a note: layout, not text.
TAG = re.compile(r"<[^<>\n]*>")


@dataclass(frozen=True)
class Note:
    """One bracket group as the source writes it.

    ``text`` is the group with its brackets, exactly as written, at
    ``location`` in the source; ``after_stroke`` is the number of the
    pattern's strokes written before it (0 … number of strokes).
    """

    text: str
    location: Location
    after_stroke: int

    @property
    def offset(self) -> int:
        """Where the opening bracket stands in the source."""
        return self.location.offset

    @property
    def end(self) -> int:
        """Offset just past the closing bracket."""
        return self.location.offset + len(self.text)


@dataclass(frozen=True)
class WitnessNote:
    """A read note: *witness* reads the pattern with *edit*.

    ``notes`` are the bracket groups it was read from (one or more);
    ``glyphs`` the source offset of the glyph written for each stroke of the
    edit (a numeral's strokes share their glyph: ``二○`` gives two).
    """

    witness: str
    edit: Edit
    notes: tuple[Note, ...]
    glyphs: tuple[int, ...]


@dataclass(frozen=True)
class NotRead:
    """A note with strokes that was not read, and why (one English sentence)."""

    notes: tuple[Note, ...]
    reason: str

    @property
    def location(self) -> Location:
        return self.notes[0].location


def has_stroke(text: str) -> bool:
    """Does *text* hold any stroke glyph?"""
    return _ANY_STROKE(text) is not None


def _skipped(ch: str) -> bool:
    if ch in COLUMN_MARKS or ch.isspace():
        return True
    cat = unicodedata.category(ch)
    return cat[0] == "P" or cat == "Cf"


def _body(notes: Iterable[Note]) -> tuple[str, list[int]]:
    """The body of the note made by *notes* (see the module docstring), and
    the source offset of each of its characters."""
    chars: list[str] = []
    where: list[int] = []
    for note in notes:
        text, start = note.text, note.offset
        if len(text) >= 2 and NOTE_BRACKETS.get(text[0]) == text[-1]:
            text, start = text[1:-1], start + 1
        tags = ({i for m in TAG.finditer(text) for i in range(m.start(), m.end())}
                if "<" in text else ())        # a page-break tag inside the note: layout
        for i, ch in enumerate(text):
            if not _skipped(ch) and i not in tags:
                chars.append(ch)
                where.append(start + i)
    return "".join(chars), where


def body_of(notes: Iterable[Note]) -> tuple[str, list[int]]:
    """The body of the note made by *notes*, and the source offset of each of
    its characters: the bodies of consecutive groups concatenate."""
    return _body(notes)


def note_body(notes: Iterable[Note]) -> str:
    """The body of the note made by *notes*: their texts without the outer
    brackets, joined, with column marks, white space and punctuation removed
    (stroke glyphs kept as written)."""
    return _body(notes)[0]


def shown(notes: Sequence[Note], limit: int = 40) -> str:
    """The note as written, for a message: line breaks as ⏎, long notes cut."""
    text = escape_controls("".join(n.text for n in notes).replace("\n", "⏎"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------------------
# Reading one note
# ---------------------------------------------------------------------------

_ADVERBS = ("此下", "其下", "於此", "于此", "此處", "此处", "此", "下", "亦", "並", "并", "皆",
            "俱", "尚", "又", "則", "则")
_VERBS: dict[str, EditKind] = {"作": "replace",
                               **dict.fromkeys("少無无闕阙缺脫脱", "delete"),
                               **dict.fromkeys("有多", "insert")}
_STROKE_CLASS = "[" + re.escape(STROKE_GLYPHS) + "]"
_ITEM = re.compile(f"(?P<num>{NUMERAL})?(?P<glyph>{_STROKE_CLASS})")
_NOTE = re.compile(
    r"(?P<lead>今按|今案|按|案)?"
    r"(?P<witness>.+?)"
    r"(?P<adverbs>(?:" + "|".join(_ADVERBS) + r")*)"
    r"(?P<verb>[" + "".join(_VERBS) + r"])"
    r"(?P<this>此)?"
    r"(?P<strokes>(?:" + NUMERAL + r"?" + _STROKE_CLASS + r")+)"
    r"(?P<comment>.*)",
    re.S)
_COMMENT = re.compile(
    r"(?:[^" + re.escape(STROKE_GLYPHS) + HALF + r"]{0,8}?[從从]之也?"
    r"|是也|是|非也|非|誤也|误也|誤|误|為是|为是|為長|为长|亦通)")
_ADVERB_ONLY = re.compile("(?:" + "|".join(_ADVERBS) + ")+")
_ABBREVIATED = {"一": "一本", "或": "或本"}


def _witness_name(raw: str) -> str | None:
    """The witness named by *raw* (abbreviations expanded), or None if it names none."""
    if not raw or has_stroke(raw) or HALF in raw or _ADVERB_ONLY.fullmatch(raw):
        return None
    return _ABBREVIATED.get(raw, raw)


def _spell(body: str, where: list[int], m: re.Match) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The strokes of the note's ``strokes`` group, normalised, and the source
    offset of the glyph written for each."""
    strokes: list[str] = []
    glyphs: list[int] = []
    start = m.start("strokes")
    for item in _ITEM.finditer(m["strokes"]):
        n = numeral_value(item["num"]) if item["num"] else 1
        strokes.extend(NORMAL[item["glyph"]] * n)
        glyphs.extend([where[start + item.start("glyph")]] * n)
    return tuple(strokes), tuple(glyphs)


def read_group(group: tuple[Note, ...]) -> WitnessNote | NotRead | None:
    """Read the note made by the bracket groups *group*: a :class:`WitnessNote`,
    a :class:`NotRead`, or None for commentary (no stroke glyph in it).

    Whether the edit fits the pattern (a delete names the strokes written, an
    edit does not cross 半) is checked when it is applied
    (:mod:`guji.text.apparatus.witnesses`); here only that it does not reach before
    the first stroke.
    """
    return read_body(group, *_body(group))


def read_body(group: tuple[Note, ...], body: str, where: list[int]
              ) -> WitnessNote | NotRead | None:
    """:func:`read_group`, given the *body* of *group* and the source offset
    of each of its characters (:func:`body_of`)."""
    if not has_stroke(body):
        return None
    text = shown(group)
    m = _NOTE.fullmatch(body)
    if m is None:
        return NotRead(group, f"note {text} has strokes but no witness + 作/少/無/有 … + "
                              "strokes")
    witness = _witness_name(m["witness"])
    if witness is None:
        return NotRead(group, f"note {text} names no witness before {m['adverbs']}{m['verb']}")
    kind = _VERBS[m["verb"]]
    if m["this"] and kind != "delete":
        return NotRead(group, f"note {text}: 此 after {m['verb']} is read only with 無/少 (無此○)")
    comment = m["comment"]
    if comment and not _COMMENT.fullmatch(comment):
        return NotRead(group, f"note {text}: the words after the strokes ({comment}) are not a "
                              "recognised comment (某從之, 是也, 誤 …)")
    strokes, glyphs = _spell(body, where, m)
    after = group[0].after_stroke
    n = len(strokes)
    at = after if kind == "insert" else after - n
    if at < 0:
        verb = "replaces" if kind == "replace" else "deletes"
        return NotRead(group, f"note {text} {verb} {n} stroke{'s' if n > 1 else ''} "
                              f"but only {after} stand before it")
    return WitnessNote(witness, Edit(kind, at, strokes), group, glyphs)


def words_after(body: str) -> int | None:
    """Where the words after the strokes begin in *body*, if it reads as a
    note but for those words (a second note may begin there); else None."""
    m = _NOTE.fullmatch(body)
    if m is None or not m["comment"] or _COMMENT.fullmatch(m["comment"]) \
            or _witness_name(m["witness"]) is None:
        return None
    return m.start("comment")

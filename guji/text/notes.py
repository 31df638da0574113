"""Variant notes: what another witness reads, in a note inside a pattern.

Late-imperial editions print small double-column notes (雙行小注) inside a drum
pattern, or right after its last stroke, that give another witness's reading
(an edition, a manuscript, a commentator's text: 一本, 古本, 宋本, 大戴禮)::

    ○□○○□□○□(一本作○)○○□半…          一本 has ○ instead of the □ before the note
    …○□○□(某/本)(少一/○一□)○○○…       某本 lacks the ○□ just before the note
    …○□○(某書/下)(尚有一□一/○某從之)…  某書 has □○ more at this point

This module reads one such note into an :class:`~guji.text.edits.Edit` of the
pattern, for one witness (:func:`read_notes`). It knows nothing of the rest
of the text: the scanner hands it the bracket groups of one pattern, each a
:class:`Note` with the number of strokes written before it; combining the
notes of one witness into its whole reading is :mod:`guji.text.witnesses`.
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
  (:data:`~guji.text.notation.ROUND_GLYPHS`, ``SQUARE_GLYPHS``).
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

from ..errors import Location, escape_controls
from .edits import Edit, EditKind
from .lexer import NOTE_BRACKETS
from .notation import HALF, ROUND, ROUND_GLYPHS, SQUARE, SQUARE_GLYPHS
from .numerals import NUMERAL, numeral_value

__all__ = ["Note", "NotRead", "WitnessNote", "COLUMN_MARKS", "is_layout", "join_groups",
           "note_body", "read_run", "read_notes", "shown"]

#: Every accepted stroke glyph, and its normalised form (○ or □).
STROKE_GLYPHS = "".join(ROUND_GLYPHS) + "".join(SQUARE_GLYPHS)
NORMAL = {**dict.fromkeys(ROUND_GLYPHS, ROUND), **dict.fromkeys(SQUARE_GLYPHS, SQUARE)}
#: Column-break marks inside a note.
COLUMN_MARKS = "/／|｜"
#: What may stand between two bracket groups of one note: the page's layout.
_LAYOUT = re.compile(r"(?:\s|¶|<[^<>\n]*>)*")
#: A markup tag (``<pb:…>``, ``<lb/>``) inside a note: layout, not text.
_TAG = re.compile(r"<[^<>\n]*>")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: Most pieces of a run tried as several notes (real runs have two to four).
_MOST_GROUPS = 8


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
    return any(ch in NORMAL for ch in text)


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
        tags = {m.start(): m.end() for m in _TAG.finditer(text)} if "<" in text else {}
        i = 0
        while i < len(text):
            if i in tags:                       # a page-break tag inside the note: layout
                i = tags[i]
                continue
            if not _skipped(text[i]):
                chars.append(text[i])
                where.append(start + i)
            i += 1
    return "".join(chars), where


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
    (:mod:`guji.text.witnesses`); here only that it does not reach before
    the first stroke.
    """
    body, where = _body(group)
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
    whole = read_group(run)
    if not isinstance(whole, NotRead):
        return [] if whole is None else [whole]
    pieces = tuple(piece for group in run for piece in _columns(group))
    if len(pieces) == 1 or len(pieces) > _MOST_GROUPS:
        return [whole]
    best: dict[int, list[WitnessNote]] = {0: []}
    for end in range(1, len(pieces) + 1):
        for start in range(end):
            if start not in best or (end in best and len(best[start]) + 1 >= len(best[end])):
                continue
            got = read_group(pieces[start:end])
            if isinstance(got, WitnessNote):
                best[end] = best[start] + [got]
    parts = best.get(len(pieces))
    return [whole] if parts is None else list(parts)


def _columns(note: Note) -> list[Note]:
    """*note* cut after each column break inside it (``(一本作○/某本作□)`` →
    ``(一本作○/`` and ``某本作□)``), each piece at its own place in the source."""
    text, loc = note.text, note.location
    in_tag = {i for m in _TAG.finditer(text) for i in range(m.start(), m.end())}
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
    if any(has_stroke(g.text) for g in before):
        return None
    between = source[before[-1].end:run[0].offset]
    if HALF in between:
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

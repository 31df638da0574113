"""Count claims: how many strokes a commentator says a pattern holds, read from prose.

Commentators state stroke counts in words. 徐伯鲁 in the 礼经本义 gives the
counts first, then the sentence naming them ("this is the half of the Lu
drum; its whole is …")::

    今按前图鼙声七鼔声五此鲁鼓之半也其全则鼙声十三鼔声十鼙声五鼔声七此薛鼔之半也…

others the other way round, the score first (圜 round = 鼙, 方 square = 鼓)::

    魯則圜十三方十薛則圜十六方十二

:func:`read_claims` reads both into :class:`Claim` values — score, diagram,
half or whole, drum, count — as the text prints them: a count that
disagrees with the pattern is kept as printed (徐伯鲁's 鼓声七 for the 薛 half
of the first diagram is 7); holding claims against readings is
:mod:`guji.text.collation.checked`. The counts it finds but cannot attribute to a
score come back as :class:`Unattributed`, so none is dropped silently.
The words are :mod:`guji.text.collation.claim_words`; ``docs/apparatus.md`` gives the
grammar with examples.

The reading
-----------
A **count** is a drum word directly followed by a number that is not
followed by a measure word (十三字, 鼓三通 are not counts). A weak drum word
(bare 鼙 鼓 圜 方) makes a count only in a context: a score or part already
given, counts pending, or a diagram or part word since the last prose; a
strong one (with 聲) always does.

* **Score, closing form** — ``[此] SCORE [之] PART [也]`` or ``[此] SCORE 也``
  (此鲁鼓之半也): the counts pending are that score's, with that part (else
  the part word before them, else whole). Without counts pending it opens
  the score for the counts that follow.
* **Score, other form** (魯則, 魯鼓鼙聲…) — opens the score (whole) for the
  counts that follow. Counts pending before it are unattributed.
* **Part** alone (其全則) — changes the part of the open score; else, with a
  score named just before (其, "its"), opens it with that part; else it is
  the part of the counts that follow.
* **Count** — with a score open, a claim for it, unless that drum was
  already counted there: then the next group of counts begins (徐伯鲁: 其全则
  鼙声十三鼔声十 鼙声五… — the second 鼙 opens the next score's half).
  Without a score open the count is pending.
* **Diagram** (strong) sets the diagram and closes everything; **此** before
  a score or drum word is the second diagram (but 此鲁鼓之半也 is "this is");
  a **stop** (。！？) or **prose** closes the open score and the weak diagram,
  and leaves pending counts unattributed; a stop keeps the score just named
  (此魯鼓之半也。其全則…), prose forgets it.

A claim's diagram is the weak diagram word's if one is in force, else the
strong one's, else None (the text does not say).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...i18n import N_, Words
from .claim_words import MEASURES, WORDS, Token, compact, tokens
from ..reading.notation import Drum, Tradition

__all__ = ["Claim", "Unattributed", "Part", "read_claims", "find_claims"]

#: Which part of a pattern a count is of: ``half`` (from 半 to the end) or ``whole``.
Part = Literal["half", "whole"]


@dataclass(frozen=True)
class Claim:
    """One count a text states: *tradition*'s diagram *diagram* (1, 2, or None
    where the text does not say), its *part*, has *count* strokes on *drum*.

    ``text`` is the count as written, drum word through numeral
    (``鼙声十三``), at ``offset`` in the text read (``text ==
    source[offset:offset + len(text)]``: it may hold a line break).
    """

    tradition: Tradition
    diagram: int | None
    part: Part
    drum: Drum
    count: int
    text: str
    offset: int

    @property
    def numeral(self) -> str:
        """The number as written (``鼙声二十一`` → ``二十一``)."""
        c = compact(self.text)[0]
        size = max(n for n in range(1, len(c)) if WORDS.get(c[:n], ("",))[0] == "drum")
        return c[size:]


@dataclass(frozen=True)
class Unattributed:
    """A count the text states (drum word + number) that no score names, and why
    (``reason`` in English, ``why`` the same words said in the user's language)."""

    drum: Drum
    count: int
    text: str
    offset: int
    reason: str
    why: Words | None = None


_NO_NAME = Words.of(N_("prose follows the counts before any score names them"))


class _Reader:
    """The state of the reading (see the module docstring)."""

    def __init__(self, text: str):
        self.text = text
        self.c, self.where = compact(text)
        self.toks = tokens(self.c)
        self.claims: list[Claim] = []
        self.lost: list[Unattributed] = []
        self.diagram: int | None = None       # strong: until the next diagram word
        self.local: int | None = None         # weak: until the next prose
        self.subject: Tradition | None = None  # the score last named
        self.open: tuple[Tradition, str] | None = None   # (score, part) the counts belong to
        self.counted: set[Drum] = set()       # drums counted under the open score
        self.pending: list[tuple[Drum, int, int, int]] = []   # drum, count, start, end
        self.pending_part: str | None = None
        self.context = False

    # -- results ----------------------------------------------------------
    def span(self, start: int, end: int) -> tuple[int, int]:
        """Compact positions → offsets in the text."""
        return self.where[start], self.where[end - 1] + 1

    def claim(self, score: Tradition, part: str, drum: Drum, count: int, s: int, e: int) -> None:
        diagram = self.local if self.local is not None else self.diagram
        self.claims.append(Claim(score, diagram, part, drum, count, self.text[s:e], s))  # type: ignore[arg-type]

    def flush(self, reason: Words) -> None:
        for drum, count, s, e in self.pending:
            self.lost.append(Unattributed(drum, count, self.text[s:e], s, reason.english, reason))
        self.pending.clear()
        self.pending_part = None

    def prose(self, reason: Words = _NO_NAME) -> None:
        self.open, self.subject, self.local, self.context = None, None, None, False
        if self.pending:
            self.flush(reason)

    # -- the tokens ---------------------------------------------------------
    def closing(self, k: int) -> tuple[bool, str | None, int]:
        """Whether the score at *k* is in closing form; its part; the index
        just past the form."""
        toks = self.toks
        j = k + 1
        if j + 1 < len(toks) and toks[j].value == "之" and toks[j + 1].kind == "part":
            j += 1
        part = None
        if j < len(toks) and toks[j].kind == "part":
            part = toks[j].value
            j += 1
        if j < len(toks) and toks[j].kind == "filler" and toks[j].value == "也":
            return True, part, j + 1
        return part is not None, part, j

    def score(self, k: int) -> int:
        """A score word at *k*; returns the index of the next token to read."""
        t = self.toks[k]
        closing, part, end = self.closing(k)
        if closing and self.pending:
            for drum, count, s, e in self.pending:
                self.claim(t.value, part or self.pending_part or "whole", drum, count, s, e)
            self.pending.clear()
            self.pending_part = None
            self.open = None
        else:
            if self.pending:
                word = self.c[t.start:t.end]
                self.flush(Words.of(N_("{word} after the counts is not in the closing form "
                                       "({word}之半也, {word}也), so it names the counts after it, "
                                       "not these"), word=word))
            self.open, self.counted = (t.value, part or "whole"), set()
        self.subject = t.value
        return end

    def part(self, t: Token) -> None:
        if self.open is not None:
            self.open, self.counted = (self.open[0], t.value), set()
        elif self.subject is not None:
            self.open, self.counted = (self.subject, t.value), set()
        else:
            if self.pending:
                self.flush(Words.of(N_("a 半/全 word follows the counts before any score names them")))
            self.pending_part, self.context = t.value, True

    def drum(self, k: int) -> int:
        """A drum word at *k*; returns the index of the next token to read."""
        t = self.toks[k]
        nxt = self.toks[k + 1] if k + 1 < len(self.toks) else None
        drum, strong = t.value
        number = nxt if nxt is not None and nxt.kind == "number" else None
        is_count = (number is not None and number.start == t.end
                    and not (number.end < len(self.c) and self.c[number.end] in MEASURES))
        if not is_count or not (strong or self.open is not None or self.pending or self.context):
            self.prose()
            return k + 2 if is_count else k + 1
        s, e = self.span(t.start, number.end)
        if self.open is not None and drum in self.counted:
            self.open = None
        if self.open is not None:
            self.claim(self.open[0], self.open[1], drum, number.value, s, e)
            self.counted.add(drum)
        else:
            if any(p[0] is drum for p in self.pending):
                self.flush(Words.of(N_("a second count of the same drum follows before any score "
                                       "names them")))
            self.pending.append((drum, number.value, s, e))
        return k + 2

    def step(self, k: int) -> int:
        """Read the token at *k*; returns the index of the next token to read."""
        t = self.toks[k]
        nxt = self.toks[k + 1] if k + 1 < len(self.toks) else None
        before_word = nxt is not None and nxt.kind in ("score", "drum")
        if t.kind == "diagram":
            if self.pending:
                self.flush(Words.of(N_("a diagram word follows the counts before any score names them")))
            self.diagram, self.local, self.open, self.subject, self.context = \
                t.value, None, None, None, True
        elif t.kind == "weak" and before_word:
            self.local, self.context = t.value, True
        elif t.kind == "this" and before_word:
            if not (nxt.kind == "score" and self.closing(k + 1)[0]):   # 此鲁鼓之半也: "this is"
                self.local, self.context = 2, True
        elif t.kind == "score":
            return self.score(k)
        elif t.kind == "part":
            self.part(t)
        elif t.kind == "drum":
            return self.drum(k)
        elif t.kind == "stop":
            kept = self.subject                       # 其 in the next sentence is still its
            self.prose(Words.of(N_("the sentence ends before any score names the counts")))
            self.subject = kept
        elif t.kind != "filler":                      # prose, a number alone, a lone 此/前/後
            self.prose()
        return k + 1

    def read(self) -> tuple[list[Claim], list[Unattributed]]:
        k = 0
        while k < len(self.toks):
            k = self.step(k)
        if self.pending:
            self.flush(Words.of(N_("the text ends before any score names the counts")))
        return self.claims, self.lost


def read_claims(text: str) -> tuple[list[Claim], list[Unattributed]]:
    """The count claims of *text*, and the counts it states that no score names.

    Both lists are in text order. See the module docstring for the reading.

    >>> [(c.tradition.value, c.diagram, c.part, c.drum.value, c.count)
    ...  for c in read_claims("後圖魯則圜十四方七")[0]]
    [('魯', 2, 'whole', '鼙', 14), ('魯', 2, 'whole', '鼓', 7)]
    """
    return _Reader(text).read()


def find_claims(text: str) -> list[Claim]:
    """Every count claim in *text*, in text order (:func:`read_claims`)."""
    return read_claims(text)[0]

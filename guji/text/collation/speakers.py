"""Who says it: the commentator whose words a count claim stands in.

The passages quote commentators by name, the name followed by 曰 ("says"):
礼经本义 quotes 郝仲舆曰… 徐伯鲁曰…, and 徐伯鲁's words hold the stroke counts
(鼙声七鼔声五此鲁鼓之半也…). :func:`speaker` finds, before a place in a text,
the last such name within the same bracketed note (【…】): the commentator a
claim there belongs to. Only the names of :data:`NAMES` are known — the
names the shipped passages quote, in the forms they write them (simplified
and traditional); elsewhere the commentator is unknown (None), not guessed
from the characters before 曰.
"""

from __future__ import annotations

import bisect

__all__ = ["NAMES", "Speakers", "speaker"]

#: Commentators the passages quote by name, as written (both scripts).
NAMES = ("徐伯鲁", "徐伯魯", "郝仲舆", "郝仲輿", "郑康成", "鄭康成", "陆德明", "陸德明")

#: Brackets that close a note: a name before one of them says nothing after it.
_CLOSERS = "】]）)"


def speaker(text: str, offset: int) -> str | None:
    """The commentator whose words stand at *offset* of *text*: the last
    ``NAME曰`` of :data:`NAMES` before it in the same note, or None."""
    start = max(text.rfind(c, 0, offset) for c in "【" + _CLOSERS) + 1
    best, where = None, -1
    for name in NAMES:
        i = text.rfind(name + "曰", start, offset)
        if i > where:
            best, where = name, i
    return best


class Speakers:
    """:func:`speaker` for many places of one *text*: its brackets and its
    ``NAME曰`` found once, each place then looked up (a text of many claims
    costs its length once, not once a claim)."""

    def __init__(self, text: str):
        marks = "【" + _CLOSERS
        self._brackets = [i for i, c in enumerate(text) if c in marks] if any(
            c in text for c in marks) else []
        found: list[tuple[int, str]] = []
        for name in NAMES:
            said = name + "曰"
            i = text.find(said)
            while i >= 0:
                found.append((i, name))
                i = text.find(said, i + len(said))
        found.sort()
        self._at = [i for i, _name in found]
        self._names = [name for _i, name in found]

    def __call__(self, offset: int) -> str | None:
        """The commentator whose words stand at *offset* (as :func:`speaker`)."""
        k = bisect.bisect_left(self._brackets, offset)
        start = self._brackets[k - 1] + 1 if k else 0
        k = bisect.bisect_right(self._at, offset - len(NAMES[0]) - 1)   # NAME曰 ends by offset
        return self._names[k - 1] if k and self._at[k - 1] >= start else None

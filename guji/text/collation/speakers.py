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

__all__ = ["NAMES", "speaker"]

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

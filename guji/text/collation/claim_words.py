"""The words of a count claim: prose cut into the tokens :mod:`guji.text.collation.claims` reads.

What the page's layout put into the prose is removed first (:func:`compact`):
white space and format characters (a count broken over a line, 鼙声十\\n三, is
13), the ``¶`` line mark, markup tags (``<pb:…>``), the column breaks of a
double-column note (``/ ／ | ｜``: 鼓聲/五 is 鼓聲五) and the line end between
two bracket groups of one note (``)`` [¶] ⏎ [indent] ``(``, and with （）【】:
此薛鼓)¶⏎(之半也 is 此薛鼓之半也). Every token keeps where it stands in the
compact text, and :func:`compact` maps that back to every character's place
in the text. The rest is cut into
tokens, longest word first:

=========  ==================================================================
score      魯鼓 鲁鼓 魯鼔 鲁鼔 薛鼓 薛鼔 薜鼓 薜鼔, and alone 魯 鲁 (魯), 薛 薜 (薛)
diagram    前圖 前图 上圖 上图 第一圖 第一图 → 1; 後圖 后图 此圖 此图 下圖 下图 第二圖
           第二图 → 2 ("strong": it holds until the next diagram word)
weak       前 上 → 1; 後 后 下 → 2 (a diagram word only directly before a score
           or drum word, and only until the next prose)
this       此
part       半 → half; 全 → whole
drum       strong: 鼙聲 鼙声 鞞聲 鞞声 → 鼙; 鼓聲 鼓声 鼔聲 鼔声 → 鼓;
           weak: 鼙 鞞 圜 圓 圆 (and with 者) → 鼙; 鼓 鼔 方 (and with 者) → 鼓
number     a numeral (:mod:`guji.text.apparatus.numerals`): 一 … 九十九, 兩, 廿, 卅, digits
filler     則 则 之 其 也 者 為 为 是 凡 共 計 计 皆 乃 即 有 得 各 並 并 亦 又, and
           punctuation other than 。！？
stop       。！？ (the end of a sentence)
prose      any other character
=========  ==================================================================

圜 (round) is the ○ glyph, 鼙; 方 (square) the □ glyph, 鼓 (鄭注: 圜者擊鼙，方者擊鼓).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..reading.notation import Drum, Tradition
from ..apparatus.numerals import NUMBER, numeral_value

__all__ = ["Token", "WORDS", "MEASURES", "compact", "tokens"]

#: Word → (kind, value): every word of the table above but numbers, stops and prose.
WORDS: dict[str, tuple[str, Any]] = {}


def _add(kind: str, value: Any, *words: str) -> None:
    for w in words:
        WORDS[w] = (kind, value)


_add("score", Tradition.LU, "魯鼓", "鲁鼓", "魯鼔", "鲁鼔", "魯", "鲁")
_add("score", Tradition.XUE, "薛鼓", "薛鼔", "薜鼓", "薜鼔", "薛", "薜")
_add("diagram", 1, "前圖", "前图", "上圖", "上图", "第一圖", "第一图")
_add("diagram", 2, "後圖", "后图", "此圖", "此图", "下圖", "下图", "第二圖", "第二图")
_add("weak", 1, "前", "上")
_add("weak", 2, "後", "后", "下")
_add("this", None, "此")
_add("part", "half", "半")
_add("part", "whole", "全")
_add("drum", (Drum.SMALL, True), "鼙聲", "鼙声", "鞞聲", "鞞声")
_add("drum", (Drum.BIG, True), "鼓聲", "鼓声", "鼔聲", "鼔声")
for _w in "鼙鞞圜圓圆":
    _add("drum", (Drum.SMALL, False), _w, _w + "者")
for _w in "鼓鼔方":
    _add("drum", (Drum.BIG, False), _w, _w + "者")
_add("filler", None, *"則则之其也者為为是凡共計计皆乃即有得各並并亦又")
_LONGEST = max(map(len, WORDS))

#: Words after a number that make it something other than a stroke count
#: (十三字, 鼓三通, 方十里).
MEASURES = frozenset("字卷年篇章尺寸里人歲岁日月通嚴严步矢算馬马次遍丈斤句節节頁页行種种等事家代世倍"
                     "分處处條条")
_STOPS = frozenset("。！？!?")
_NUMBER = re.compile(NUMBER)


@dataclass(frozen=True)
class Token:
    """One word of a claim's prose: its *kind* (the table above), *value*
    (a :class:`~guji.text.reading.notation.Tradition`, a diagram number, ``half`` /
    ``whole``, ``(drum, strong)``, a number, or the word itself), and where it
    stands in the compact text (``start`` … ``end``)."""

    kind: str
    value: Any
    start: int
    end: int


#: Layout of more than one character: a markup tag, the line end between two
#: bracket groups (``)`` [¶ tags white space] ``(``).
_LAYOUT = re.compile(r"<[^<>\n]*>|[)）】](?:[\s¶]|<[^<>\n]*>)*[(（【]")
#: One-character layout besides white space and format characters.
_LAYOUT_MARKS = frozenset("¶/／|｜")


def compact(text: str) -> tuple[str, list[int]]:
    """*text* without its layout (the module docstring: white space, format
    characters, ¶, markup tags, column breaks, the line end between two
    bracket groups), and for each of its characters the offset in *text*."""
    skip = {m.start(): m.end() for m in _LAYOUT.finditer(text)}
    chars, where = [], []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if i in skip:
            i = skip[i]
            continue
        if not (ch.isspace() or ch in _LAYOUT_MARKS or unicodedata.category(ch) == "Cf"):
            chars.append(ch)
            where.append(i)
        i += 1
    return "".join(chars), where


def _word(c: str, i: int) -> Token | None:
    """The longest word of :data:`WORDS` at *i*, if any."""
    for size in range(min(_LONGEST, len(c) - i), 0, -1):
        hit = WORDS.get(c[i:i + size])
        if hit is not None:
            kind, value = hit
            return Token(kind, c[i:i + size] if value is None else value, i, i + size)
    return None


def tokens(c: str) -> list[Token]:
    """The compact text *c* cut into tokens, longest word first."""
    out: list[Token] = []
    i, n = 0, len(c)
    while i < n:
        tok = _word(c, i)
        if tok is None:
            m = _NUMBER.match(c, i)
            if m:
                tok = Token("number", numeral_value(m.group()), i, m.end())
            else:
                ch = c[i]
                kind = ("stop" if ch in _STOPS
                        else "filler" if unicodedata.category(ch)[0] == "P" else "prose")
                tok = Token(kind, ch, i, i + 1)
        out.append(tok)
        i = tok.end
    return out

"""Numbers as the commentators write them: 一, 十三, 二十一, 兩, 廿, 卅二, and 13.

Two readers count in words: the variant notes (``少一○一□``, ``作二○``:
:mod:`guji.text.apparatus.notes`) and the count claims (``鼙聲十三``:
:mod:`guji.text.collation.claims`). They share this one reading of a number.

A Chinese numeral here is 1 … 99:

* a digit 一 二 三 四 五 六 七 八 九, or 兩 / 两 (2, alone only);
* 十 (10), 十一 … 十九, 二十 … 九十九 (``[digit]十[digit]``);
* 廿 (20), 廿一 … 廿九; 卅 (30), 卅一 … 卅九.

The claims also take ASCII or full-width digits (``13``, ``１３``):
:data:`NUMBER` matches both, :data:`NUMERAL` the Chinese numeral alone.

>>> numeral_value("二十一"), numeral_value("廿"), numeral_value("１３")
(21, 20, 13)
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["NUMERAL", "NUMBER", "numeral_value"]

_DIGIT = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
          "兩": 2, "两": 2}

#: A Chinese numeral 1 … 99, as a regular expression (no groups).
NUMERAL = ("(?:[二三四五六七八九]?十[一二三四五六七八九]?|[廿卅][一二三四五六七八九]?"
           "|[一二三四五六七八九兩两])")
#: A Chinese numeral or a run of ASCII or full-width digits.
NUMBER = f"(?:{NUMERAL}|[0-9０-９]+)"
_NUMERAL = re.compile(NUMERAL)
_DIGITS = re.compile("[0-9０-９]+")


def numeral_value(numeral: str) -> int:
    """The value of a number matching :data:`NUMBER`.

    ``十`` 10, ``十三`` 13, ``二十一`` 21, ``兩`` 2, ``廿`` 20, ``卅二`` 32,
    ``13`` and ``１３`` 13.

    Raises
    ------
    ValueError
        For anything else (``十十``, ``百``, an empty string).
    """
    if _DIGITS.fullmatch(numeral):
        return int(unicodedata.normalize("NFKC", numeral))
    if not _NUMERAL.fullmatch(numeral):
        raise ValueError(f"not a numeral: {numeral!r}")
    if numeral[0] in "廿卅":
        tens = 20 if numeral[0] == "廿" else 30
        return tens + (_DIGIT[numeral[1]] if len(numeral) > 1 else 0)
    if "十" in numeral:
        tens, _, units = numeral.partition("十")
        return (_DIGIT[tens] if tens else 1) * 10 + (_DIGIT[units] if units else 0)
    return _DIGIT[numeral]

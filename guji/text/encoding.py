"""Reading text files of unknown encoding.

Chinese text files come as UTF-8 (with or without BOM), UTF-16 (with BOM),
GB18030 (mainland; a superset of GBK and GB2312) or Big5 (Taiwan, Hong Kong).
:func:`decode` tells them apart:

1. A BOM decides: UTF-8 or UTF-16 LE/BE.
2. Valid UTF-8 is UTF-8 (other encodings of Chinese text are almost never
   valid UTF-8).
3. Otherwise GB18030 and Big5 are both tried. Each of them decodes many byte
   strings meant for the other, into rare characters. The one whose result
   holds more characters of its encoding's *frequent* range wins: GB2312
   level 1 (lead bytes 0xB0–0xD7) for GB18030, Big5 level 1 (lead bytes
   0xA4–0xC6) for Big5; the drum glyphs and 半 count double.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from ..errors import EncodingError

ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "gb18030", "big5")

_NOTATION = set("○□囗口半鼓鼔魯鲁薛")


def _frequent_ratio(text: str, encoding: str) -> float:
    lo, hi = (0xB0, 0xD7) if encoding == "gb18030" else (0xA4, 0xC6)
    probe = "gb2312" if encoding == "gb18030" else "big5"
    score = 0
    total = 0
    for ch in text:
        if ord(ch) < 0x80:
            continue
        total += 1
        if ch in _NOTATION:
            score += 2
            continue
        try:
            b = ch.encode(probe)
        except UnicodeEncodeError:
            continue
        if len(b) == 2 and lo <= b[0] <= hi:
            score += 1
    return score / total if total else 0.0


def decode(data: bytes, encoding: str | None = None, filename: str = "<input>") -> tuple[str, str]:
    """Decode *data*; return ``(text, encoding used)``.

    With *encoding*, use it (a BOM is still stripped). Raise
    :class:`EncodingError` when nothing fits.
    """
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise EncodingError(f"{filename}: unknown encoding {encoding!r}") from None
        if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
            encoding = "utf-8-sig"
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as e:
            raise EncodingError(f"{filename}: not valid {encoding} "
                                f"(byte {e.start}: {data[e.start:e.start + 1]!r})") from None
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[3:], "utf-8", filename), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, "utf-16", filename), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    candidates = []
    for enc in ("gb18030", "big5"):
        try:
            candidates.append((_frequent_ratio(text := data.decode(enc), enc), enc, text))
        except UnicodeDecodeError:
            continue
    if not candidates:
        raise EncodingError(f"{filename}: not UTF-8, UTF-16, GB18030 or Big5 text; "
                            "name the encoding with --encoding")
    candidates.sort(key=lambda c: (c[0], c[1] == "gb18030"), reverse=True)
    _, enc, text = candidates[0]
    return text, enc


def _strict(data: bytes, encoding: str, filename: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        raise EncodingError(f"{filename}: has a {encoding} byte-order mark but is not valid "
                            f"{encoding} (byte {e.start})") from None


def read_text(path: str | os.PathLike, encoding: str | None = None) -> tuple[str, str]:
    """Read a text file (``-`` for standard input); return ``(text, encoding)``."""
    import sys
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        p = Path(path)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            raise EncodingError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise EncodingError(f"{name}: is a directory, not a text file") from None
        except OSError as e:
            raise EncodingError(f"{name}: cannot read: {e.strerror}") from None
    return decode(data, encoding, name)

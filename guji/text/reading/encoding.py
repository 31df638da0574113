"""Reading text files of unknown encoding.

Chinese text files come as UTF-8 (with or without BOM), UTF-16 or UTF-32
(with BOM), GB18030 (mainland; a superset of GBK and GB2312) or Big5
(Taiwan, Hong Kong). :func:`decode` tells them apart:

1. A BOM decides: UTF-8, UTF-32 LE/BE (whose BOM starts as UTF-16 LE's
   does, so it is looked for first) or UTF-16 LE/BE.
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
import io
import os
import stat
import sys

from ...i18n import _
from ...errors import EncodingError
from ...files import reason
from ...limits import LimitError, current

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


def check_encoding(encoding: str) -> str:
    """*encoding* if it names a text encoding Python knows, else :class:`EncodingError`:
    codecs such as ``rot13``, ``base64``, ``hex`` or ``zlib`` turn bytes
    into bytes or text into text, not bytes into text, and ``undefined``
    decodes nothing."""
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):
        raise EncodingError(_('unknown encoding {encoding}').format(encoding=repr(encoding))) from None
    if not getattr(info, "_is_text_encoding", True) or info.name == "undefined":
        raise EncodingError(_('{encoding} is not a text encoding (give one such as utf-8, gb18030 or big5)').format(encoding=repr(encoding)))
    return encoding


def decode(data: bytes, encoding: str | None = None, filename: str = "<input>") -> tuple[str, str]:
    """Decode *data*; return ``(text, encoding used)``.

    With *encoding*, use it (a BOM is still stripped; it must be a text
    encoding: :func:`check_encoding`). Raise :class:`EncodingError` when
    nothing fits.
    """
    if encoding:
        try:
            check_encoding(encoding)
        except EncodingError as e:
            raise EncodingError(f"{filename}: {e}") from None
        if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
            encoding = "utf-8-sig"
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as e:
            raise EncodingError(_('{filename}: not valid {encoding} (byte {start}: {value})').format(filename=filename, encoding=encoding, start=e.start, value=repr(data[e.start:e.start + 1]))) from None
        except (UnicodeError, LookupError, ValueError, TypeError) as e:
            raise EncodingError(_('{filename}: cannot decode as {encoding}: {e}').format(filename=filename, encoding=encoding, e=e)) from None
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[3:], "utf-8", filename), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return _strict(data, "utf-32", filename), "utf-32"
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
        raise EncodingError(_('{filename}: not UTF-8, UTF-16, GB18030 or Big5 text; name the encoding with --encoding').format(filename=filename))
    candidates.sort(key=lambda c: (c[0], c[1] == "gb18030"), reverse=True)
    _rank, enc, text = candidates[0]
    return text, enc


def _strict(data: bytes, encoding: str, filename: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        raise EncodingError(_('{filename}: has a {encoding} byte-order mark but is not valid {encoding} (byte {start})').format(filename=filename, encoding=encoding, start=e.start)) from None


def open_text_file(path: str | os.PathLike, name: str):
    """*path* opened for reading, in binary, or :class:`EncodingError` (one line,
    calling it *name*): no such file, a directory, or why it cannot be read."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise EncodingError(_('{name}: no such file').format(name=name)) from None
    except IsADirectoryError:
        raise EncodingError(_('{name}: is a directory, not a text file').format(name=name)) from None
    except OSError as e:
        raise EncodingError(_('{name}: cannot read: {value}').format(name=name, value=reason(e))) from None


def read_text(path: str | os.PathLike, encoding: str | None = None, digest=None
              ) -> tuple[str, str]:
    """Read a text file (``-`` for standard input); return ``(text, encoding)``.
    *digest* (a :mod:`hashlib` object), if given, is updated with its bytes:
    a named pipe gives them once.

    A text over :attr:`guji.limits.Limits.text_bytes` (64 MiB) is refused
    with :class:`~guji.limits.LimitError` after reading one byte more than
    the limit, whatever the input (``/dev/zero`` is endless).
    """
    name = str(path)
    if name == "-":
        return read_open(sys.stdin.buffer, "<stdin>", encoding, digest=digest)
    with open_text_file(path, name) as f:
        return read_open(f, name, encoding, digest=digest)


def read_open(f, name: str, encoding: str | None = None, head: bytes = b"", digest=None
              ) -> tuple[str, str]:
    """:func:`read_text` of the file *f*, open for reading in binary, whose
    first bytes *head* were read already: a named pipe or a device cannot be
    opened again for them (its writer has gone, or they are not there twice)."""
    most = current().text_bytes
    try:
        data = head + _read(f, most - len(head), name)
    except OSError as e:
        raise EncodingError(_('{name}: cannot read: {value}').format(name=name, value=reason(e))) from None
    if len(data) > most:
        shown = f"{most / 2 ** 20:g} MiB" if most >= 2 ** 20 else f"{most:,.0f} bytes"
        raise LimitError(_("{name}: over guji's limit of {shown} for an input text").format(name=name, shown=shown))
    if len(data) > HARD_TEXT_BYTES:
        raise LimitError(_('{name}: over {value} GiB, more than any input text can be (reading it would take about 20 times that in memory)').format(name=name, value=HARD_TEXT_BYTES // 2 ** 30),
                         forcible=False)
    if digest is not None:
        digest.update(data)
    return decode(data, encoding, name)


#: The largest input text whatever the limits (``--force``): scanning prose
#: takes a few bytes of memory a byte of text, a text dense with patterns more
#: (measured before it is read: :mod:`guji.text.reading.cost`).
HARD_TEXT_BYTES = 2 ** 30


def _read(f, most: float, name: str) -> bytes:
    """All of *f*, or one byte more than *most* (without a limit, ``--force``:
    than :data:`HARD_TEXT_BYTES`). A file is read at its size; a device or a
    pipe a block at a time, so nothing near the limit is taken before it is
    read. An input larger than memory (``/dev/zero`` is endless) is one line."""
    bound = int(min(most, HARD_TEXT_BYTES)) + 1
    try:
        info = os.fstat(f.fileno())
        size = info.st_size if stat.S_ISREG(info.st_mode) else None
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        size = None
    try:
        if size is not None:
            return f.read(min(size + 1, bound))
        data = bytearray()
        while len(data) < bound:
            chunk = f.read(min(2 ** 20, bound - len(data)))
            if not chunk:
                break
            data += chunk
        return data if len(data) >= bound else bytes(data)     # over: only its length counts
    except MemoryError:
        raise EncodingError(_('{name}: ran out of memory reading it (is it endless, like /dev/zero?)').format(name=name)) from None

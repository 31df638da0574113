"""The ``xml:id`` of each witness in an MEI edition: :func:`source_ids`.

MEI points from every ``<rdg source="#…">`` to a ``<source xml:id="…">``;
an ``xml:id`` is an XML name without a colon (NCName). A shipped edition's
id is its slug (``liji-zhengyi``); a user's file its stem; a witness of a
text's notes the text's id, ``.`` and the witness (``yishu.一本``: ``~`` is
no name character). A character that may not stand in a name becomes ``_``,
an id that may not begin so gets ``_`` before it, and a second text with the
same id gets ``-2``, ``-3`` … after it.
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

__all__ = ["ncname", "source_ids"]

#: Unicode categories of NCName characters (XML 1.0 fifth edition, near enough:
#: letters, marks, digits, and the CJK ideographs among the letters).
_NAME_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc", "Nd", "Pc"}


def ncname(text: str) -> str:
    """*text* made an NCName (see the module docstring)."""
    chars = [ch if ch in "-._" or unicodedata.category(ch) in _NAME_CATEGORIES else "_"
             for ch in text] or ["_"]
    if not (chars[0] == "_" or unicodedata.category(chars[0]).startswith("L")):
        chars.insert(0, "_")
    return "".join(chars)


def source_ids(names: Iterable[str], witness_of: dict[str, tuple[str, str]]) -> dict[str, str]:
    """The ``xml:id`` of each reading name: *witness_of* maps the name of a
    witness's reading to (its text's name, the witness)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        if name in witness_of:
            text, witness = witness_of[name]
            base = ncname(text) + "." + ncname(witness).lstrip("_")
        else:
            base = ncname(name)
        xml_id, n = base, 1
        while xml_id in taken:
            n += 1
            xml_id = f"{base}-{n}"
        taken.add(xml_id)
        out[name] = xml_id
    return out

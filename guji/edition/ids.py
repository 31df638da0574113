"""The ``xml:id`` of every element of an MEI edition that a citation may name.

Ids that last: an id is made from what the element is, never from where it
falls in a table, so adding or removing a witness leaves every other id as
it was (and a citation into a published edition keeps its target):

==================  ==========================================  =====================
element             made from                                   example
==================  ==========================================  =====================
``<source>``        the text's slug or file stem, and witness   ``yishu.一本``
``<note>``          pattern, the base, the stroke's number in   ``lu-1.liji-zhengyi.n5``
                    the base's reading (a shared note, or one
                    in a ``<lem>``); in an ``<rdg>``: the       ``lu-1.a12.add.rdg.gp.n1``
                    ``<rdg>``, its number there
``<app>``           pattern, the place in the base's reading    ``lu-1.a3-4``, ``lu-1.a12.add``
                    (:func:`guji.text.collation.places.place_name`)
``<lem>``           its ``<app>``                               ``lu-1.a3-4.lem``
``<rdg>``           its ``<app>`` and what it reads             ``lu-1.a3-4.rdg.none``,
                    (``p`` 鼙, ``g`` 鼓, ``none``)               ``lu-1.b8.rdg.p``
variant note        its witness and place in its text           ``yishu.一本.note-1-19``
count claim         pattern, the text, its place                ``lu-1.claim.lijing-benyi.4-12``
a source's annot    the source and the annot's type             ``wuli-tongkao.glyphs``
==================  ==========================================  =====================

Every id is an NCName (:func:`ncname`).

The source ids (:func:`source_ids`)
-----------------------------------

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

__all__ = ["ncname", "source_ids", "cited", "note_id", "rdg_note_id", "app_id", "reading_id", "Taken"]

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


#: The letter of each drum's glyph in an ``<rdg>``'s id.
_LETTERS = {"○": "p", "□": "g"}


def note_id(mdiv: str, source: str, index: int) -> str:
    """The ``<note>`` of stroke *index* (0-based) of the reading of *source*:
    ``lu-1.liji-zhengyi.n5``."""
    return f"{mdiv}.{source}.n{index + 1}"


def rdg_note_id(rdg: str, number: int) -> str:
    """The *number*-th (1-based) ``<note>`` of an ``<rdg>``: ``lu-1.a12.add.rdg.gp.n1``.
    Not its first witness's stroke: the witnesses of an ``<rdg>`` may be added
    or removed, and what it reads stays."""
    return f"{rdg}.n{number}"


def app_id(mdiv: str, place: str) -> str:
    """The ``<app>`` of a place of variation: ``lu-1.a3-4``."""
    return f"{mdiv}.{place}"


def reading_id(app: str, glyphs: str | None) -> str:
    """The ``<lem>`` (*glyphs* None) or the ``<rdg>`` reading *glyphs* (○ □,
    '' for none) of *app*: ``lu-1.a3-4.lem``, ``lu-1.a3-4.rdg.pg``, ``….rdg.none``."""
    if glyphs is None:
        return f"{app}.lem"
    return f"{app}.rdg." + ("".join(_LETTERS.get(g, "x") for g in glyphs) or "none")


class Taken:
    """The ids given so far in one document: :meth:`give` makes a second
    element of the same id ``-2``, ``-3`` … (two count claims at one place)."""

    def __init__(self) -> None:
        self._ids: set[str] = set()

    def give(self, wanted: str) -> str:
        xml_id, n = ncname(wanted), 1
        while xml_id in self._ids:
            n += 1
            xml_id = f"{ncname(wanted)}-{n}"
        self._ids.add(xml_id)
        return xml_id


def cited(collations) -> tuple[dict, dict[str, tuple[str, str]], dict[str, str]]:
    """What an edition of *collations* cites, for MEI and TEI alike: each reading's
    source (the first collation's that names it), the witnesses of notes
    (name → (edition, witness)), and their source ids (:func:`source_ids`)."""
    sources: dict = {}
    witnesses: dict[str, tuple[str, str]] = {}
    for c in collations:
        for name, p in c.readings.items():
            sources.setdefault(name, c.sources[name])
            if p.witness is not None:
                witnesses[name] = (c.edition_of(name), p.witness)
    return sources, witnesses, source_ids(sources, witnesses)

"""The textual apparatus as one TEI P5 document: :func:`to_tei`.

``guji edition -o FILE.tei.xml`` (or ``--tei``) writes what a philologist
reads, valid against TEI P5's ``tei_all.rng`` (TEI 4.3.0, in the tests):

* ``<teiHeader>``: the title, the editor (``<editor>``), the publication
  statement (publisher, date, the licence as ``<availability><licence>``),
  a ``<witness>`` in ``<listWit>`` per reading — its siglum, its description,
  the SHA-256 of its text and the address given for it — each text without
  a diagram of the patterns a witness saying so; the glyph normalisation as
  ``<normalization>``, the apparatus's method (``<variantEncoding
  method="parallel-segmentation">``), guji as the application and a
  ``<revisionDesc>`` saying what was collated, when;
* ``<text>``: a ``<div>`` per pattern (``xml:id`` ``lu-1`` …, as the MEI's
  ``<mdiv>``), the passage written once with its strokes as characters (○
  鼙, □ 鼓, 半 the half marker) and, at each place of variation of the
  collation (the very places and ids of the MEI edition:
  :mod:`guji.edition.ids`), an ``<app>`` of the base reading's strokes as
  ``<lem wit>`` and each other reading once as ``<rdg wit>`` naming every
  witness that reads it (empty: no strokes there). The variant notes are
  ``<note type="variant-note">`` standing right after the ``<app>`` they
  change, the count claims ``<note type="count-claim">`` after the passage.

Choosing, at every ``<app>``, the ``<lem>`` or ``<rdg>`` whose ``wit``
names a witness gives exactly that witness's strokes (tests/test_tei.py).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Sequence

from .. import __version__
from ..text.collation.collate import Collation, Source
from ..text.reading.notation import HALF
from .header import Header, collated, licence_url, normalization, today
from .ids import Taken, app_id, cited, ncname, reading_id
from .mei import SUBTITLE, TITLE, NO_DIAGRAM, address_of, digital_source
from .music import _places_of, mdiv_id
from .xml import NS, XML, clean

__all__ = ["to_tei", "TEI_NS"]

TEI_NS = "http://www.tei-c.org/ns/1.0"
_TEI = "{" + TEI_NS + "}"
SCHEMA = "https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrib: str) -> ET.Element:
    """A child ``tag`` of *parent* in TEI's namespace; ``lang=`` is ``xml:lang``,
    ``id=`` is ``xml:id``."""
    attrs = {(XML + key if key in ("lang", "id") else key): clean(str(v))
             for key, v in attrib.items()}
    element = ET.SubElement(parent, _TEI + tag, attrs)
    if text is not None:
        element.text = clean(text)
    return element


def _after(element: ET.Element, text: str) -> None:
    """*text* after *element*'s end tag."""
    element.tail = (element.tail or "") + clean(text)


def _witness(wits: ET.Element, ident: str, source: Source, witness_of=None,
             host: str = "") -> None:
    """One ``<witness>``: its siglum and description (or, for a witness of a
    text's notes, whose notes give it)."""
    wit = _sub(wits, "witness", id=ident, n=source.siglum)
    _sub(wit, "abbr", source.siglum, type="siglum")
    bibl = _sub(wit, "bibl", lang=source.lang)
    if witness_of is not None:
        text, witness = witness_of
        _sub(bibl, "title", witness)
        _sub(bibl, "note", f"The reading of {witness} given in the variant notes of {text}.",
             lang="en")
        _sub(bibl, "ref", text, target="#" + host)
        return
    b = source.text.bibl
    _sub(bibl, "title", b.title or source.text.name)
    if b.author:
        _sub(bibl, "author", b.author)
    for value, tag, unit in ((b.printed, "edition", None), (b.date, "date", None),
                             (b.volume, "biblScope", "volume"),
                             (b.chapter, "biblScope", "chapter"), (b.page, "biblScope", "page")):
        if value:
            _sub(bibl, tag, value, **({"unit": unit} if unit else {}))
    _sub(bibl, "note", digital_source(source.text), type="digital-source", lang="en")
    if source.text.sha256:
        _sub(bibl, "idno", source.text.sha256, type="sha256")
    if address_of(source.text):
        _sub(bibl, "ptr", target=address_of(source.text))
    if b.unknown:
        _sub(bibl, "note", "Not stated by the source (left out): " + ", ".join(b.unknown),
             type="unknown", lang="en")


def _head(root: ET.Element, header: Header, collations, sources, ids, witnesses,
          absent) -> None:
    head = _sub(root, "teiHeader")
    file_desc = _sub(head, "fileDesc")
    title_stmt = _sub(file_desc, "titleStmt")
    _sub(title_stmt, "title", header.title or TITLE, type="main",
         **({} if header.title else {"lang": "zh-Hant"}))
    _sub(title_stmt, "title", SUBTITLE, type="sub")
    if header.editor:
        _sub(title_stmt, "editor", header.editor)
    pub = _sub(file_desc, "publicationStmt")
    if header.editor or header.licence:
        _sub(pub, "publisher", header.editor or "guji")
        _sub(pub, "date", header.date, when=header.date)
        if header.licence:
            _sub(_sub(pub, "availability"), "licence", header.licence,
                 **({"target": licence_url(header.licence)} if licence_url(header.licence)
                    else {}))
    else:
        _sub(pub, "p", "Not published: no editor or licence named (guji edition --editor NAME "
             "--licence SPDX-ID).")
    wits = _sub(_sub(file_desc, "sourceDesc"), "listWit")
    for name, source in sources.items():
        host = ids.get(witnesses[name][0], "") if name in witnesses else ""
        _witness(wits, ids[name], source, witnesses.get(name), host)
    for text in absent:
        ident = ncname(text.name)
        while ident in ids.values():
            ident += "-"
        _witness(wits, ident, Source(text.siglum or text.name, text.lang, text))
        _sub(wits[-1], "note", NO_DIAGRAM, type="no-diagram", lang="en")
    encoding = _sub(head, "encodingDesc")
    app = _sub(_sub(encoding, "appInfo"), "application", ident="guji", version=__version__)
    _sub(app, "label", "guji")
    _sub(_sub(_sub(encoding, "editorialDecl"), "normalization"), "p", normalization())
    _sub(encoding, "variantEncoding", method="parallel-segmentation", location="internal")
    _sub(_sub(head, "revisionDesc"), "change", f"guji {__version__}: "
         + collated(collations, absent), when=header.date)


def _readings(c: Collation, v) -> dict[str, list[str]]:
    """The distinct readings at place *v*, the base's first: strokes → names."""
    out: dict[str, list[str]] = {}
    for name in [c.base, *c.readings]:
        if name not in out.get(v.readings[name], ()):
            out.setdefault(v.readings[name], []).append(name)
    return out


def _passage(div: ET.Element, c: Collation, ids: dict[str, str]) -> dict[str, ET.Element]:
    """The passage of pattern *c* in parallel segmentation; the ``<app>`` of
    each place, by its name."""
    me = mdiv_id(c)
    p = _sub(div, "p", lang="zh-Hant")
    places = {v.column: v for v in c.variants}
    apps: dict[str, ET.Element] = {}
    base = c.columns[c.base]
    col, last = 0, None
    while col < len(base):
        v = places.get(col)
        if v is None:
            if base[col]:
                if last is None:
                    p.text = (p.text or "") + base[col]
                else:
                    _after(last, base[col])
            col += 1
            continue
        app = _sub(p, "app", id=app_id(me, v.place))
        for k, (glyphs, names) in enumerate(_readings(c, v).items()):
            _sub(app, "lem" if k == 0 else "rdg", glyphs or None,
                 id=reading_id(app_id(me, v.place), None if k == 0 else glyphs),
                 wit=" ".join("#" + ids[n] for n in names))
        apps[v.place], last = app, app
        col += v.width
    return apps


def _notes(div: ET.Element, c: Collation, ids, apps, taken: Taken) -> None:
    """Each variant note after the ``<app>`` it changes (else at the
    passage's end), with its text and place."""
    p = div[-1]
    for name, pattern in c.readings.items():
        if pattern.witness is None:
            continue
        text = c.edition_of(name)
        for k, note in enumerate(pattern.notes):
            changed = _places_of(c, name, k)
            loc = note.location
            attrs = {"type": "variant-note", "id": taken.give(
                f"{ids[name]}.note-{loc.line}-{loc.column}")}
            if changed:
                attrs["target"] = " ".join("#" + app_id(mdiv_id(c), v.place) for v in changed)
            element = _sub(p, "note", **attrs)
            if changed:                       # move it to stand right after its <app>
                p.remove(element)
                anchor = apps[changed[0].place]
                parent = next(e for e in p.iter() if anchor in list(e))
                parent.insert(list(parent).index(anchor) + 1, element)
                element.tail, anchor.tail = anchor.tail, None
            _sub(element, "quote", note.text, lang=c.sources[text].lang)
            where = pattern.filename or text
            _after(element[-1], f" — the reading of {pattern.witness} (#{ids[name]}), "
                   f"{where} line {loc.line}, column {loc.column}")
            element.set(XML + "lang", "en")


def _claims(div: ET.Element, c: Collation, ids, taken: Taken) -> None:
    """The count claims, after the passage: as printed, who, where, and each
    reading's count."""
    for claim in c.claims:
        cl = claim.claim
        source = ids.get(claim.source, claim.source)
        note = _sub(div, "note", type="count-claim", lang="en", id=taken.give(
            f"{mdiv_id(c)}.claim.{source}.{claim.location.line}-{claim.location.column}"))
        said = c.sources[claim.source].lang if claim.source in c.sources else "zh"
        last = _sub(note, "quote", cl.text.replace("\n", ""), lang=said)
        if claim.commentator:
            _after(last, ", said by ")
            last = _sub(note, "persName", claim.commentator, lang=said)
        counts = "; ".join(f"{ids[n]} counts {a['counted']}"
                           + ("" if a["agrees"] else " (differs)")
                           for n, a in c.agreement(claim).items())
        _after(last, f", {claim.source} line {claim.location.line}, column "
               f"{claim.location.column}: the {cl.part} has {cl.count} {cl.drum.value}. "
               f"{counts}.")


def to_tei(collations: Sequence[Collation], header: Header | None = None,
           absent: Sequence = ()) -> str:
    """The collations' textual apparatus as one TEI document (see the module
    docstring)."""
    header = Header(date=today()) if header is None else header
    sources, witnesses, ids = cited(collations)
    root = ET.Element(_TEI + "TEI", {XML + "lang": "en"})
    _head(root, header, collations, sources, ids, witnesses, absent)
    body = _sub(_sub(root, "text"), "body")
    taken = Taken()
    for c in collations:
        div = _sub(body, "div", type="pattern", id=mdiv_id(c), n=str(c.diagram))
        _sub(div, "head", f"{c.tradition.label} {c.diagram}", lang="zh-Hant")
        apps = _passage(div, c, ids)
        _notes(div, c, ids, apps, taken)
        _claims(div, c, ids, taken)
    ET.indent(root, space="  ")
    ET.register_namespace("", TEI_NS)     # TEI's the default namespace while written …
    try:
        written = ET.tostring(root, encoding="unicode")
    finally:
        ET.register_namespace("", NS)      # … and MEI's again after
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<?xml-model href="{SCHEMA}" type="application/xml" '
            'schematypens="http://relaxng.org/ns/structure/1.0"?>\n' + written + "\n")

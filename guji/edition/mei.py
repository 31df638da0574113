"""A critical edition of the drum scores as one MEI 4.0.1 document: :func:`to_mei`.

The document (validated against MEI's own RELAX NG, ``mei-all.rng`` of MEI
4.0.1, in the tests) has

* ``<meiHead>``: the title; guji as the application that encoded it and the
  editorial principles (the glyphs, the base, the apparatus); and in
  ``<sourceDesc>`` a ``<source xml:id>`` per witness — each text with its
  siglum and bibliographic description (:mod:`guji.text.reading.bibl`) and the glyphs
  it writes for each drum (``<annot type="glyphs">``: the notes' glyphs are
  the base's where witnesses share a stroke, the orthography normalised, and
  each source's own is given here), each witness of a text's variant notes
  (一本 …) as a source read from that text;
* ``<music>``: an ``<mdiv>`` per pattern (:mod:`guji.edition.music`), the
  base reading as ``<lem>`` and every other as ``<rdg source>``.

Languages: the header's prose is English (``xml:lang="en"`` on
``<meiHead>``); every Chinese text carries its own tag: ``zh-Hant`` for the
traditional characters of 禮記正義 and of guji's own words (魯鼓, 半),
``zh-Hans`` for the simplified of 礼经本义 and 五礼通考, ``zh`` for a user's
file unless its description says more.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Sequence

from .. import __version__
from ..text.collation.collate import Collation, Source
from .header import Header, collated, licence_url, normalization, today
from .ids import Taken, cited, ncname
from .music import score_of
from .xml import MEI, sub, xml_id

__all__ = ["to_mei", "MEI_VERSION"]

MEI_VERSION = "4.0.1"
SCHEMA = "https://music-encoding.org/schema/4.0.1/mei-all.rng"

TITLE = "投壺 魯鼓 薛鼓"
SUBTITLE = ("The drum scores of the Book of Rites, chapter Touhu (pitch-pot): a critical "
            "edition of the four patterns")

#: The editorial principles: paragraphs of (text, language) runs, Chinese
#: quoted in its own language.
PRINCIPLES = (
    (("A round glyph is a stroke of the small drum (pi), a square one of the big drum (gu): ",
      "en"), ("圜者擊鼙，方者擊鼓", "zh-Hant"),
     (" (Zheng Xuan's note). The orthography is normalised: under a note stands the glyph of "
      "its reading's first witness; each source declares the glyphs it writes "
      "(annot type=\"glyphs\"). The marker ", "en"), ("半", "zh-Hant"),
     (" divides each pattern: the pitch-pot rite plays from it to the end, the archery rite "
      "the whole: ", "en"), ("取半以下為投壺禮，盡用之為射禮", "zh-Hant"), (".", "en")),
    (("Each pattern's readings are aligned stroke by stroke (guji collate), the strokes "
      "before the marker ", "en"), ("半", "zh-Hant"),
     (" and those after it each on their own; a witness given in a text's variant notes "
      "stands where its note says. The base reading is the lemma (lem); at every place of "
      "variation (one note's edit, or one run of a text's differences) an app gives each "
      "distinct reading once, its source attribute naming every witness that has it; an "
      "empty rdg is strokes the witness lacks.", "en")),
)


#: What a text without a diagram of the patterns edited says in the edition.
NO_DIAGRAM = ("This source holds no diagram of the patterns edited: it was collated and "
              "gives no reading of them.")


def glyphs_text(patterns) -> str:
    """The glyphs a text writes for each drum, with their code points:
    ``鼙 ○ U+25CB; 鼓 囗 U+56D7`` (read back by :mod:`guji.edition.read`)."""
    seen: dict[str, list[str]] = {"鼙": [], "鼓": []}
    for p in patterns:
        for s in p.strokes:
            if s.raw not in seen[s.drum.value]:
                seen[s.drum.value].append(s.raw)
    return "; ".join(f"{drum} " + " ".join(f"{g} U+{ord(g):04X}" for g in gs)
                     for drum, gs in seen.items() if gs)


def digital_source(text) -> str:
    """The text as a reader finds it: its collection, file (a user's by its
    name, :func:`~guji.text.reading.bibl.cited`), commit, the SHA-256 of the
    text guji read; ``unknown`` said for what its source does not state."""
    b = text.bibl
    parts = [f"file {text.path}"] if text.path else []
    for key in ("collection", "file", "commit", "printed"):
        if getattr(b, key) and not (key == "file" and text.path):
            parts.append(f"{key} {getattr(b, key)}")
        elif key in b.unknown:
            parts.append(f"{key} unknown")
    if "printed" in b.unknown:
        parts.append("printed edition unknown")
    if text.sha256:
        what = "the file" if text.path else "the passage guji reads (guji/data/patterns)"
        parts.append(f"SHA-256 of {what} {text.sha256}")
    return "Digital source: " + ", ".join(parts)


def address_of(text) -> str:
    """Where a reader finds *text*: the address its description or the
    project gives (empty where none is given)."""
    return text.bibl.address


def _bibl(parent: ET.Element, source: Source, me: str) -> None:
    """The bibliographic description of a text, as its seed states it; *me*
    its ``<source>``'s id (each ``<annot>`` is ``ME.TYPE``)."""
    b = source.text.bibl

    def annot(text: str, kind: str, **attrs: str) -> None:
        sub(bibl, "annot", text, type=kind, **attrs, **{xml_id(): f"{me}.{kind}"})

    bibl = sub(parent, "bibl", lang=source.lang)
    sub(bibl, "identifier", source.siglum, type="siglum")
    sub(bibl, "title", b.title or source.text.name)
    if b.author:
        resp = sub(bibl, "respStmt")
        sub(resp, "resp", b.responsibility or "author")
        sub(resp, "persName", b.author)
        if b.author_office:
            annot(b.author_office, "author-office")
    for value, tag, kind in ((b.printed, "edition", None), (b.date, "date", None),
                             (b.volume, "biblScope", "volume"), (b.chapter, "biblScope", "chapter"),
                             (b.page, "biblScope", "page")):
        if value:
            sub(bibl, tag, value, **({"type": kind} if kind else {}))
    if b.classification:
        sub(bibl, "genre", b.classification)
    annot(digital_source(source.text), "digital-source", lang="en")
    if source.text.sha256:
        sub(bibl, "identifier", source.text.sha256, type="sha256")
    address = address_of(source.text)
    if address:
        sub(bibl, "ptr", target=address)
    annot(glyphs_text(source.text.patterns), "glyphs", lang="en")
    if b.quoted:
        annot("Quotes " + ", ".join(b.quoted), "quoted", lang="en")
    if b.unknown:
        annot("Not stated by the source (left out): " + ", ".join(b.unknown), "unknown",
              lang="en")


def _source_desc(head: ET.Element, sources: dict[str, Source], ids: dict[str, str],
                 witnesses: dict[str, tuple[str, str]], absent=()) -> None:
    desc = sub(head, "sourceDesc")
    _absent(desc, sources, ids, absent)
    for name, source in sources.items():
        el = sub(desc, "source", **{xml_id(): ids[name], "label": source.siglum})
        if name in witnesses:
            text, witness = witnesses[name]
            bibl = sub(el, "bibl", lang=source.lang)
            sub(bibl, "identifier", source.siglum, type="siglum")
            sub(bibl, "title", witness)
            sub(bibl, "annot", f"The reading of {witness} given in the variant notes of "
                f"{text} (#{ids[text]})", type="witness-of-notes", lang="en",
                **{xml_id(): f"{ids[name]}.witness-of-notes"})
            sub(bibl, "relatedItem", rel="host", target="#" + ids[text])
        else:
            _bibl(el, source, ids[name])


def _absent(desc: ET.Element, sources, ids, absent) -> None:
    """A ``<source>`` for each text that holds no diagram of the patterns
    edited (it was collated, and its silence is evidence), saying so."""
    for text in absent:
        ident = ncname(text.name)
        while ident in ids.values():
            ident += "-"
        el = sub(desc, "source", **{xml_id(): ident, "label": text.siglum or text.name})
        _bibl(el, Source(text.siglum or text.name, text.lang, text), ident)
        sub(el[0], "annot", NO_DIAGRAM, type="no-diagram", lang="en",
            **{xml_id(): f"{ident}.no-diagram"})


def _pub_stmt(pub: ET.Element, header: Header) -> None:
    """Who publishes it, when, under which licence; ``<unpub>`` when the
    editor names neither himself nor a licence."""
    if not (header.editor or header.licence):
        sub(pub, "unpub", "Not published: no editor or licence named (guji edition --editor "
            "NAME --licence SPDX-ID).")
        return
    if header.editor:
        sub(sub(pub, "respStmt"), "persName", header.editor, role="publisher")
    sub(pub, "date", header.date, isodate=header.date)
    if header.licence:
        use = sub(sub(pub, "availability"), "useRestrict", f"Licence: {header.licence}")
        url = licence_url(header.licence)
        if url:
            sub(use, "ptr", target=url)


def _head(root: ET.Element, sources, ids, witnesses, header: Header, collations,
          absent=()) -> None:
    head = sub(root, "meiHead", lang="en")
    file_desc = sub(head, "fileDesc")
    title_stmt = sub(file_desc, "titleStmt")
    if header.title:
        sub(title_stmt, "title", header.title, type="main")
    sub(title_stmt, "title", TITLE, lang="zh-Hant", type="main" if not header.title else "alternative")
    sub(title_stmt, "title", SUBTITLE, type="subordinate")
    if header.editor:
        resp = sub(title_stmt, "respStmt")
        sub(resp, "persName", header.editor, role="editor")
    _pub_stmt(sub(file_desc, "pubStmt"), header)
    _source_desc(file_desc, sources, ids, witnesses, absent)
    encoding = sub(head, "encodingDesc")
    app = sub(sub(encoding, "appInfo"), "application", version=__version__)
    sub(app, "name", "guji")
    decl = sub(encoding, "editorialDecl")
    sub(sub(decl, "normalization"), "p", normalization())
    for runs in PRINCIPLES:
        p = sub(decl, "p")
        last = None
        for text, lang in runs:
            if lang == "en":
                if last is None:
                    p.text = (p.text or "") + text
                else:
                    last.tail = (last.tail or "") + text
            else:
                last = sub(p, "q", text, lang=lang)
    change = sub(sub(head, "revisionDesc"), "change", isodate=header.date)
    sub(sub(change, "respStmt"), "name", f"guji {__version__}")
    sub(sub(change, "changeDesc"), "p", collated(collations, absent))


def _check_ids(root: ET.Element) -> None:
    """Every ``xml:id`` once (:mod:`guji.edition.ids` makes them so; a
    second one would be guji's fault, not the input's)."""
    seen: set[str] = set()
    for el in root.iter():
        ident = el.get(xml_id())
        if ident is not None:
            if ident in seen:
                raise RuntimeError(f"guji made the xml:id {ident!r} twice")
            seen.add(ident)


def to_mei(collations: Sequence[Collation], header: Header | None = None,
           absent: Sequence = ()) -> str:
    """The collations as one MEI document (see the module docstring): its
    header signed by *header*'s editor, each text of *absent* (texts
    collated that hold none of these diagrams) a source saying so."""
    header = Header(date=today()) if header is None else header
    sources, witnesses, ids = cited(collations)
    lang = {name: s.lang for name, s in sources.items()}
    root = ET.Element(MEI + "mei", {"meiversion": MEI_VERSION})
    _head(root, sources, ids, witnesses, header, collations, absent)
    body = sub(sub(root, "music"), "body")
    taken = Taken()
    for c in collations:
        body.append(score_of(c, ids, lang, taken))
    _check_ids(root)
    ET.indent(root, space="  ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<?xml-model href="{SCHEMA}" type="application/xml" '
            'schematypens="http://relaxng.org/ns/structure/1.0"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")

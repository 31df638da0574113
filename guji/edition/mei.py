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
from .ids import Taken, source_ids
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
    keys = ("collection", "commit") if source.text.path else ("collection", "file", "commit")
    digital = ", ".join(f"{k} {getattr(b, k)}" for k in keys if getattr(b, k))
    if source.text.path:
        digital = f"file {source.text.path}" + (f", {digital}" if digital else "")
    if digital:
        annot(f"Digital source: {digital}", "digital-source", lang="en")
    annot(glyphs_text(source.text.patterns), "glyphs", lang="en")
    if b.quoted:
        annot("Quotes " + ", ".join(b.quoted), "quoted", lang="en")
    if b.unknown:
        annot("Not stated by the source (left out): " + ", ".join(b.unknown), "unknown",
              lang="en")


def _source_desc(head: ET.Element, sources: dict[str, Source], ids: dict[str, str],
                 witnesses: dict[str, tuple[str, str]]) -> None:
    desc = sub(head, "sourceDesc")
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


def _head(root: ET.Element, sources, ids, witnesses) -> None:
    head = sub(root, "meiHead", lang="en")
    file_desc = sub(head, "fileDesc")
    title_stmt = sub(file_desc, "titleStmt")
    sub(title_stmt, "title", TITLE, lang="zh-Hant", type="main")
    sub(title_stmt, "title", SUBTITLE, type="subordinate")
    sub(file_desc, "pubStmt")
    _source_desc(file_desc, sources, ids, witnesses)
    encoding = sub(head, "encodingDesc")
    app = sub(sub(encoding, "appInfo"), "application", version=__version__)
    sub(app, "name", "guji")
    decl = sub(encoding, "editorialDecl")
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


def to_mei(collations: Sequence[Collation]) -> str:
    """The collations as one MEI document (see the module docstring)."""
    sources: dict[str, Source] = {}
    witnesses: dict[str, tuple[str, str]] = {}
    for c in collations:
        for name, p in c.readings.items():
            sources.setdefault(name, c.sources[name])
            if p.witness is not None:
                witnesses[name] = (c.edition_of(name), p.witness)
    ids = source_ids(sources, witnesses)
    lang = {name: s.lang for name, s in sources.items()}
    root = ET.Element(MEI + "mei", {"meiversion": MEI_VERSION})
    _head(root, sources, ids, witnesses)
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

"""A witness's reading of a pattern, read back from an MEI edition: :func:`load_mei`.

An edition written by ``guji edition`` holds every witness's reading of each
pattern; the id ``lu:1@edition.mei~wuli-tongkao`` names one: the ``<mdiv>``
of the pattern (``lu-1``), and at every ``<app>`` the ``<lem>`` or ``<rdg>``
whose ``source`` names that witness (by its ``xml:id`` or its siglum, the
``<source>``'s ``label``); without ``~WITNESS`` the base reading (the
``<lem>``). The strokes are the notes so chosen, in order: the drum from the
glyph under the note (``<syl>``: ○ 鼙, □ 鼓 …), else from its staff place;
the glyph the source writes for that drum where its ``<source>`` declares
one (``<annot type="glyphs">``: 五礼通考's 囗), else the note's; 半 stands
between the two measures (the whole's first part and the half), or where
the witness's own ``<barLine>`` stands inside an ``<app>`` (guji writes none:
its collation never moves 半, but another encoder may).

Each stroke's place is its ``<note>``'s start tag in the MEI file (line and
column, 1-based), so messages and displays point into the edition. A file
that is no well-formed XML, has no such pattern or witness, or a note that
is no stroke is one :class:`~guji.errors.UsageError` line with its place.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field

from ..i18n import _
from ..errors import Location, UsageError
from ..text.reading.bibl import cited
from ..text.reading.editions import PatternId
from ..text.reading.encoding import read_text
from ..text.reading.notation import Drum, Pattern, Stroke, drum_of
from .music import PLACES
from .xml import NS

__all__ = ["load_mei", "is_mei"]

_XML_NS = "http://www.w3.org/XML/1998/namespace"
_DRUM_AT = {str(loc): drum for drum, loc in PLACES.items()}


@dataclass
class _Node:
    """An element of the file: tag (MEI local name), attributes, children, text, place."""

    tag: str
    attrs: dict
    where: Location
    children: list = field(default_factory=list)
    text: str = ""


def is_mei(source: str) -> bool:
    """Whether an id's EDITION names an MEI file (by its extension)."""
    return source.lower().endswith(".mei")


def _parse(path: str) -> _Node:
    """The elements of the MEI file *path* (bounded by guji's input limit)."""
    text, _encoding = read_text(path, "utf-8")
    lines = text.encode("utf-8").split(b"\n")
    parser = xml.parsers.expat.ParserCreate("utf-8", namespace_separator=" ")
    root = _Node("", {}, Location(0, 1, 1))
    stack = [root]

    def where() -> Location:
        line, col = parser.CurrentLineNumber, parser.CurrentColumnNumber
        chars = len(lines[line - 1][:col].decode("utf-8", "replace")) if line <= len(lines) else col
        return Location(parser.CurrentByteIndex, line, chars + 1)

    def start(name: str, attrs: dict) -> None:
        ns, _space, local = name.rpartition(" ")
        node = _Node(local if ns == NS else name, {k.replace(_XML_NS + " ", "xml:"): v
                                                    for k, v in attrs.items()}, where())
        stack[-1].children.append(node)
        stack.append(node)

    def end(_name: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text.encode("utf-8"), True)
    except xml.parsers.expat.ExpatError as e:
        raise UsageError(_('{path}:{lineno}:{value}: not well-formed XML: {value2}').format(path=path, lineno=e.lineno, value=e.offset + 1, value2=xml.parsers.expat.ErrorString(e.code))) from None
    return root


def _find(node: _Node, tag: str):
    for child in node.children:
        if child.tag == tag:
            yield child
        yield from _find(child, tag)


def _witness_id(root: _Node, path: str, witness: str) -> str:
    """The ``xml:id`` of the source *witness* names (its id or its siglum)."""
    sources = list(_find(root, "source"))
    for s in sources:
        if witness in (s.attrs.get("xml:id"), s.attrs.get("label")):
            return s.attrs["xml:id"]
    named = ", ".join(s.attrs.get("xml:id", "?") for s in sources) or "none"
    raise UsageError(_('{path}: no source {witness} in its <sourceDesc> (sources: {named})').format(path=path, witness=repr(witness), named=named))


def _chosen(app: _Node, witness: str | None, path: str, pid: str) -> _Node:
    """The child of *app* the witness reads (the ``<lem>`` for the base)."""
    kids = [k for k in app.children if k.tag in ("lem", "rdg")]
    for k in kids:
        if witness is None and k.tag == "lem":
            return k
        if witness is not None and "#" + witness in k.attrs.get("source", "").split():
            return k
    if witness is None and kids:
        return kids[0]
    raise UsageError(_('{path}:{where}: {pid}: the witness {witness} has no reading at this <app> (it is no witness of this pattern)').format(path=path, where=app.where, pid=pid, witness=repr(witness)))


def _stroke(note: _Node, index: int, path: str, own: dict) -> Stroke:
    """The stroke of *note*, in the glyph its source writes for the drum (*own*)."""
    syl = next(_find(note, "syl"), None)
    glyph = syl.text.strip() if syl is not None else ""
    drum = drum_of(glyph) if glyph else _DRUM_AT.get(note.attrs.get("loc", ""))
    if drum is None:
        raise UsageError(_('{path}:{where}: a <note> that is no stroke of 鼙 or 鼓 (glyph {glyph}, loc {value})').format(path=path, where=note.where, glyph=repr(glyph), value=repr(note.attrs.get('loc'))))
    return Stroke(drum, index, own.get(drum) or glyph or drum.glyph, note.where)


def _own_glyphs(root: _Node, witness: str | None) -> dict:
    """The one glyph the source *witness* writes for each drum, where its
    ``<annot type="glyphs">`` gives one (``鼙 ○ U+25CB; 鼓 囗 U+56D7``)."""
    source = next((s for s in _find(root, "source") if s.attrs.get("xml:id") == witness), None)
    if source is None:
        return {}
    said = next((a.text for a in _find(source, "annot") if a.attrs.get("type") == "glyphs"), "")
    out = {}
    for part in said.split(";"):
        words = part.split()
        glyphs = words[1::2]
        if len(glyphs) == 1 and words[0] in ("鼙", "鼓") and drum_of(glyphs[0]) is Drum(words[0]):
            out[Drum(words[0])] = glyphs[0]
    return out


def _notes(node: _Node, witness: str | None, path: str, pid: str) -> list[_Node]:
    """The notes of a layer (or a reading) as the witness reads them, in
    order, and its own 半 where it puts it elsewhere (a ``<barLine>``)."""
    out = []
    for child in node.children:
        if child.tag in ("note", "barLine"):
            out.append(child)
        elif child.tag == "app":
            out += _notes(_chosen(child, witness, path, pid), witness, path, pid)
    return out


def _base_source(mdiv: _Node) -> str | None:
    """The base reading's source: the first named by the pattern's first ``<lem>``,
    else the first of its witnesses."""
    lem = next(_find(mdiv, "lem"), None)
    if lem is not None and lem.attrs.get("source"):
        return lem.attrs["source"].split()[0][1:]
    listed = next((a for a in _find(mdiv, "annot") if a.attrs.get("type") == "witnesses"), None)
    names = [] if listed is None else listed.attrs.get("plist", "").split()
    return names[0][1:] if names else None


def _check_witness(mdiv: _Node, witness: str | None, path: str, pid: str) -> None:
    """:class:`UsageError` unless *witness* reads the pattern of *mdiv* (its
    ``<annot type="witnesses">`` names the sources that do)."""
    listed = next((a for a in _find(mdiv, "annot") if a.attrs.get("type") == "witnesses"), None)
    if witness is None or listed is None:
        return
    names = [p[1:] for p in listed.attrs.get("plist", "").split()]
    if witness not in names:
        raise UsageError(_('{path}:{where}: {pid}: the source {witness} has no reading of this pattern (its witnesses: {value})').format(path=path, where=mdiv.where, pid=pid, witness=repr(witness), value=', '.join(names)))


def load_mei(pattern_id: str) -> Pattern:
    """The reading named by *pattern_id* (``SCORE[:DIAGRAM]@FILE.mei[~WITNESS]``)."""
    pid = PatternId.parse(pattern_id)
    path = pid.source
    root = _parse(path)
    if not any(n.tag == "mei" for n in root.children):
        raise UsageError(_("{path}: not an MEI document (its root is not <mei> in MEI's namespace)").format(path=path))
    want = f"{pid.tradition.slug}-{pid.diagram}"
    mdivs = {m.attrs.get("xml:id"): m for m in _find(root, "mdiv")}
    if want not in mdivs:
        have = ", ".join(str(k) for k in mdivs if k and re.fullmatch(r"(lu|xue)-[12]", k))
        raise UsageError(_('{pattern_id}: {path} has no {label} {diagram} (mdiv {want}; it has: {value})').format(pattern_id=pattern_id, path=path, label=pid.tradition.label, diagram=pid.diagram, want=want, value=have or 'none'))
    witness = None if pid.witness is None else _witness_id(root, path, pid.witness)
    _check_witness(mdivs[want], witness, path, pattern_id)
    measures = list(_find(mdivs[want], "measure"))
    parts = [_notes(layer, witness, path, pattern_id)
             for m in measures for layer in _find(m, "layer")]
    if len(parts) == 1:          # no strokes before 半: the half alone
        parts.insert(0, [])
    if len(parts) != 2 or not parts[1]:
        raise UsageError(_('{path}:{where}: {want} is not two measures, the strokes before 半 and the half, as guji edition writes them').format(path=path, where=mdivs[want].where, want=want))
    own = _own_glyphs(root, witness or _base_source(mdivs[want]))
    return _pattern(pid, parts, measures[-1].where, own, witness, pattern_id)


def _pattern(pid: PatternId, parts: list, boundary: Location, own: dict,
             witness: str | None, pattern_id: str) -> Pattern:
    """The reading of the two measures' *parts* (notes, and a 半 of the
    witness's own where it stands elsewhere than at the measures' *boundary*)."""
    path = pid.source
    items = parts[0] + parts[1]
    bars = [k for k, n in enumerate(items) if n.tag == "barLine"]
    if len(bars) > 1:
        raise UsageError(_('{path}:{where}: {pattern_id}: a second 半 in one reading').format(path=path, where=items[bars[1]].where, pattern_id=pattern_id))
    notes = [n for n in items if n.tag == "note"]
    half, half_at = ((bars[0], items[bars[0]].where) if bars else (len(parts[0]), boundary))
    strokes = tuple(_stroke(n, i, path, own) for i, n in enumerate(notes))
    return Pattern(pid.tradition, pid.diagram, strokes, half, half_at, filename=cited(path),
                   witness=witness)

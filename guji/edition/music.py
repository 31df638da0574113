"""One pattern's collation as MEI music: an ``<mdiv>`` with its apparatus.

Each of the four patterns is an ``<mdiv xml:id="lu-1">`` (``xue-2`` …) of
one ``<score>``: a five-line percussion staff holding both drums, as ``guji
sheet`` writes them (:mod:`guji.sheet.layout`): ○ 鼙 in the snare's space
(``loc="5"``), □ 鼓 in the bass drum's (``loc="1"``), stems up, one stroke a
quarter note, the two drums named by an ``<instrDef>`` each (General MIDI
percussion, channel 10, the keys of :data:`guji.midi.gm.DEFAULT_KEYS` as
``pnum``), the glyph the source writes under each note (``<syl>``), at guji's
default tempo (``midi.bpm``: one stroke every 0.6 s).

The rite's half and whole are two measures: the strokes before 半 (played
only in the 射禮, the whole: 盡用之為射禮) and, after a double bar line and a
boxed 半, the half (取半以下為投壺禮).

The apparatus
-------------
The strokes all readings share are written once. At every place where some
reading differs (a place of variation of :func:`guji.text.collation.collate.collate`)
stands an ``<app>``: the base reading's stroke (or none) as ``<lem>``, every
other reading's as an ``<rdg>``, readings that agree sharing one element
whose ``source`` names them all (``#liji-zhengyi #lijing-benyi``); a reading
without a stroke there has an empty one. So the ``<app>`` count is the
collation's count of variants, and choosing one source at every ``<app>``
(verovio's ``appXPathQuery``) gives exactly that witness's strokes.

The measures part at the base's 半. A reading that puts 半 elsewhere (a
copy that reads the chapter's other diagram, a 半 misplaced) has its own:
an ``<app type="half">`` where it stands, its ``<rdg>`` a double bar line
(``<barLine label="半">``), the ``<lem>`` empty; such an ``<app>`` is no
place of variation of the strokes: the untyped ``<app>`` elements stay their count.

The variant notes (``(一本作○)``) are ``<annot type="variant-note">`` in the
measure of the places they change, pointing to them (``plist``), with their
text and place; the count claims are ``<annot type="count-claim">`` of the
section: the claim as printed, its commentator (``<persName>``), and each
reading's count in an ``<annot type="agrees">`` or ``type="differs"`` pointing
to its source.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..midi.gm import DEFAULT_KEYS
from ..text.collation.collate import Collation
from ..text.reading.notation import HALF, Drum
from ..timing.performance import Voice
from ..timing.score import DEFAULT_INTERVAL
from .xml import MEI, clean, sub, xml_id

#: Staff position (``loc``: 0 the bottom line) and voice of each drum, as
#: ``guji sheet`` places them (C5 and F4 in a treble clef's places).
PLACES = {Drum.SMALL: 5, Drum.BIG: 1}
VOICES = {Drum.SMALL: Voice.SMALL, Drum.BIG: Voice.BIG}
#: The instrument names, Chinese first.
NAMES = {Drum.SMALL: "鼙 pi (small drum)", Drum.BIG: "鼓 gu (big drum)"}


def mdiv_id(c: Collation) -> str:
    """``lu-1``, ``xue-2``: the id of a pattern's ``<mdiv>``."""
    return f"{c.tradition.slug}-{c.diagram}"


def _half_index(c: Collation) -> int:
    """The column of the collation's table where the base reading's 半 stands."""
    return c.columns[c.base].index(HALF)


def _cells(c: Collation, row: str) -> list[tuple[str, object]]:
    """The table row of one reading with each cell's stroke: (glyph, Stroke or None)."""
    strokes = iter(c.readings[row].strokes)
    return [(g, next(strokes) if g and g != HALF else None) for g in c.columns[row]]


def score_of(c: Collation, ids: dict[str, str], lang: dict[str, str]) -> ET.Element:
    """The ``<mdiv>`` of collation *c*; *ids* the ``xml:id`` of each reading's
    source, *lang* each reading's language tag."""
    me = mdiv_id(c)
    mdiv = ET.Element(MEI + "mdiv", {xml_id(): me, "n": str(c.diagram),
                                    "label": f"{c.tradition.label} {c.diagram}"})
    score = sub(mdiv, "score")
    _score_def(sub(score, "scoreDef", **{"midi.bpm": f"{60 / DEFAULT_INTERVAL:g}"}), c, me)
    section = sub(score, "section")
    half = _half_index(c)
    cells = {name: _cells(c, name) for name in c.readings}
    width = len(next(iter(c.columns.values())))
    parts = [(range(0, half), "1"), (range(half + 1, width), "2")]
    apps: dict[int, str] = {}
    measures = []
    for columns, n in parts:
        if not columns:
            continue
        measure = sub(section, "measure", n=n, right="dbl" if n == "1" else "end")
        layer = sub(sub(measure, "staff", n="1"), "layer", n="1")
        for col in columns:
            _column(layer, c, cells, col, me, ids, apps)
        _marks(measure, n)
        measures.append((measure, columns))
    _variant_notes(measures, c, cells, apps, ids, lang)
    sub(section, "annot", "Witnesses of this pattern: " + ", ".join(ids[n] for n in c.readings),
        type="witnesses", plist=" ".join("#" + ids[n] for n in c.readings), lang="en")
    for claim in c.claims:
        _claim(section, c, claim, ids, lang)
    return mdiv


def _score_def(score_def: ET.Element, c: Collation, me: str) -> None:
    staff_grp = sub(score_def, "staffGrp")
    staff_def = sub(staff_grp, "staffDef", n="1", lines="5", **{"clef.shape": "perc",
                                                                "clef.line": "3"})
    sub(staff_def, "label", f"{c.tradition.label} {c.diagram}", lang="zh-Hant")
    for drum in (Drum.SMALL, Drum.BIG):
        sub(staff_def, "instrDef", **{xml_id(): f"{me}-{'pi' if drum is Drum.SMALL else 'gu'}",
                                      "label": NAMES[drum], "midi.channel": "9"})


def _note(parent: ET.Element, cell, me: str, note_id: str, lang: str) -> None:
    """The stroke of a table *cell* (glyph, stroke) as an unpitched note with
    its source glyph (in the language of its source's writing, *lang*)."""
    stroke = cell[1]
    drum = stroke.drum
    note = sub(parent, "note", **{xml_id(): note_id, "dur": "4", "loc": str(PLACES[drum]),
                                  "pnum": str(DEFAULT_KEYS[VOICES[drum]]), "stem.dir": "up",
                                  "instr": f"#{me}-{'pi' if drum is Drum.SMALL else 'gu'}"})
    sub(sub(note, "verse", n="1"), "syl", stroke.raw, lang=lang)


def _half_app(layer, c: Collation, cells, col: int, me: str, ids) -> None:
    """Where some readings put 半 and the base does not: an ``<app type="half">``,
    the ``<lem>`` (the base, and all who agree) empty, the ``<rdg>`` of those
    whose 半 stands here a double bar line."""
    here = [n for n in c.readings if cells[n][col][0] == HALF]
    app = sub(layer, "app", **{xml_id(): f"{me}-half{col}", "type": "half"})
    sub(app, "lem", source=" ".join("#" + ids[n] for n in c.readings if n not in here))
    rdg = sub(app, "rdg", source=" ".join("#" + ids[n] for n in here))
    sub(rdg, "barLine", form="dbl", label=HALF)


def _lang(c: Collation, name: str) -> str:
    """The language tag of a reading's source (``zh`` where not known)."""
    source = c.sources.get(name)
    return "zh" if source is None else source.lang


def _column(layer, c: Collation, cells, col: int, me: str, ids, apps) -> None:
    """One column of the table: a shared note, an ``<app>``, or where some
    readings (not the base) put 半, an ``<app type="half">``."""
    glyphs: dict[str, list[str]] = {}
    for name in c.readings:
        glyphs.setdefault(cells[name][col][0], []).append(name)
    if HALF in glyphs:
        _half_app(layer, c, cells, col, me, ids)
        return
    if len(glyphs) == 1:
        _note(layer, cells[c.base][col], me, f"{me}-c{col}", _lang(c, c.base))
        return
    app_id = f"{me}-app{len(apps) + 1}"
    apps[col] = app_id
    app = sub(layer, "app", **{xml_id(): app_id})
    base_glyph = cells[c.base][col][0]
    order = [base_glyph] + [g for g in glyphs if g != base_glyph]
    for k, glyph in enumerate(order):
        names = glyphs[glyph]
        tag = "lem" if k == 0 else "rdg"
        element = sub(app, tag, **{xml_id(): f"{app_id}-{tag}{k or ''}",
                                   "source": " ".join("#" + ids[n] for n in names)})
        if glyph:
            _note(element, cells[names[0]][col], me, f"{app_id}-{tag}{k or ''}-note",
                  _lang(c, names[0]))


def _marks(measure: ET.Element, n: str) -> None:
    """The rite's words over a measure, and the boxed 半 over the half."""
    if n == "2":
        reh = sub(measure, "reh", staff="1", tstamp="1", place="above", lang="zh-Hant")
        sub(reh, "rend", HALF, rend="box")
        sub(measure, "dir", "投壺：取半以下", staff="1", tstamp="1", place="below",
            lang="zh-Hant")
    else:
        sub(measure, "dir", "射禮：盡用之", staff="1", tstamp="1", place="below",
            lang="zh-Hant")


def _variant_notes(measures, c: Collation, cells, apps, ids, lang) -> None:
    """An ``<annot>`` per variant note, in the measure of the places it changes."""
    for name, pattern in c.readings.items():
        if pattern.witness is None:
            continue
        text = c.edition_of(name)
        changed = [col for col in apps if cells[name][col][0] != cells[text][col][0]]
        for note in pattern.notes:
            measure = next((m for m, cols in measures if changed and changed[0] in cols),
                           measures[0][0])
            attrs = {"type": "variant-note", "source": "#" + ids[text], "lang": "en"}
            if changed:
                attrs["plist"] = " ".join("#" + apps[col] for col in changed)
            annot = sub(measure, "annot", **attrs)
            sub(annot, "q", note.text, lang=lang[text])
            where = pattern.filename or text
            annot[-1].tail = clean(f" — the reading of {pattern.witness} ({'#' + ids[name]}), "
                              f"{where} line {note.location.line}, column {note.location.column}")


def _claim(section: ET.Element, c: Collation, claim, ids, lang) -> None:
    """A count claim: as printed, who says it, where; and every reading's
    count of it (``<annot type="agrees|differs" plist="#source">``)."""
    cl = claim.claim
    source = ids.get(claim.source, claim.source)
    annot = sub(section, "annot", type="count-claim", source="#" + source, lang="en")
    said = lang.get(claim.source, "zh")
    last = sub(annot, "q", cl.text.replace("\n", ""), lang=said)
    who = " (the text names no commentator)"
    if claim.commentator:
        last.tail, who = ", said by ", ""
        last = sub(annot, "persName", claim.commentator, lang=said)
    implied = "" if claim.doubt is None else f" (as printed; implied {claim.doubt.implied})"
    last.tail = clean(f"{who}, {claim.source} line {claim.location.line}, column "
                      f"{claim.location.column}: the {cl.part} has {cl.count} {cl.drum.value}"
                      f"{implied}.")
    for name, a in c.agreement(claim).items():
        sub(annot, "annot", f"{ids[name]} counts {a['counted']}",
            type="agrees" if a["agrees"] else "differs", plist="#" + ids[name])

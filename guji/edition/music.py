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
The strokes all readings share are written once. At every place of
variation of :func:`guji.text.collation.collate.collate` — one note's edit (a
substitution, an omission, an addition where the note puts it), or one run
of a text's differences from the base's text — stands one ``<app>``: the
base reading's strokes there (or none) as ``<lem>``, every other reading's
as an ``<rdg>``, readings that agree sharing one element whose ``source``
names them all (``#liji-zhengyi #lijing-benyi``); a reading without strokes
there has an empty one. So the ``<app>`` count is the collation's count of
places, and choosing one source at every ``<app>`` (verovio's
``appXPathQuery``) gives exactly that witness's strokes.

The measures part at 半, every reading's: 半 is an anchor the collation never
crosses (:mod:`guji.text.collation.places`), so no ``<app>`` holds strokes of
both sides and none moves 半.

The variant notes (``(一本作○)``) are ``<annot type="variant-note">`` in the
measure of the place they change, pointing to its ``<app>`` (``plist``), with
their text and place; the count claims are ``<annot type="count-claim">`` of
the section: the claim as printed, its commentator (``<persName>``), and each
reading's count in an ``<annot type="agrees">`` or ``type="differs"`` pointing
to its source.

Every ``<note>``, ``<app>``, ``<lem>``, ``<rdg>`` and ``<annot>`` has an
``xml:id`` made from what it is (:mod:`guji.edition.ids`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..midi.gm import DEFAULT_KEYS, DEFAULT_VELOCITIES
from ..text.collation.collate import Collation
from ..text.reading.notation import HALF, Drum
from ..timing.performance import Voice
from ..timing.score import DEFAULT_INTERVAL
from .ids import Taken, app_id, note_id, rdg_note_id, reading_id
from .xml import MEI, clean, sub, xml_id

#: Staff position (``loc``: 0 the bottom line) and voice of each drum, as
#: ``guji sheet`` places them (C5 and F4 in a treble clef's places).
PLACES = {Drum.SMALL: 5, Drum.BIG: 1}
#: The same places as written pitch (``pname``, ``oct``): what readers that
#: place notes by pitch, not ``loc``, take (music21 reads a note without them as C4).
PITCHES = {Drum.SMALL: ("c", 5), Drum.BIG: ("f", 4)}
VOICES = {Drum.SMALL: Voice.SMALL, Drum.BIG: Voice.BIG}
#: The instrument names, Chinese first.
NAMES = {Drum.SMALL: "鼙 pi (small drum)", Drum.BIG: "鼓 gu (big drum)"}


def mdiv_id(c: Collation) -> str:
    """``lu-1``, ``xue-2``: the id of a pattern's ``<mdiv>``."""
    return f"{c.tradition.slug}-{c.diagram}"


def _cells(c: Collation, row: str) -> list[tuple[str, object, int | None]]:
    """The table row of one reading: (glyph, Stroke or None, its index)."""
    strokes = enumerate(c.readings[row].strokes)
    out = []
    for g in c.columns[row]:
        k, stroke = next(strokes) if g and g != HALF else (None, None)
        out.append((g, stroke, k))
    return out


def score_of(c: Collation, ids: dict[str, str], lang: dict[str, str],
             taken: Taken | None = None) -> ET.Element:
    """The ``<mdiv>`` of collation *c*; *ids* the ``xml:id`` of each reading's
    source, *lang* each reading's language tag, *taken* the ids of the
    annotations given so far in the document."""
    taken = Taken() if taken is None else taken
    me = mdiv_id(c)
    mdiv = ET.Element(MEI + "mdiv", {xml_id(): me, "n": str(c.diagram),
                                    "label": f"{c.tradition.label} {c.diagram}"})
    score = sub(mdiv, "score")
    _score_def(sub(score, "scoreDef", **{"midi.bpm": f"{60 / DEFAULT_INTERVAL:g}"}), c, me)
    section = sub(score, "section")
    half = c.columns[c.base].index(HALF)
    cells = {name: _cells(c, name) for name in c.readings}
    width = len(c.columns[c.base])
    places = {v.column: v for v in c.variants}
    measures = []
    for columns, n in ((range(0, half), "1"), (range(half + 1, width), "2")):
        if not columns:
            continue
        measure = sub(section, "measure", n=n, right="dbl" if n == "1" else "end")
        layer = sub(sub(measure, "staff", n="1"), "layer", n="1")
        col = columns.start
        while col < columns.stop:
            if col in places:
                _app(layer, c, cells, places[col], me, ids)
                col += places[col].width
                continue
            glyph, stroke, k = cells[c.base][col]
            if stroke is not None:
                _note(layer, (glyph, stroke), me, note_id(me, ids[c.base], k), _lang(c, c.base))
            col += 1
        _marks(measure, n)
        measures.append((measure, columns))
    _variant_notes(measures, c, me, ids, lang, taken)
    sub(section, "annot", "Witnesses of this pattern: " + ", ".join(ids[n] for n in c.readings),
        type="witnesses", plist=" ".join("#" + ids[n] for n in c.readings), lang="en",
        **{xml_id(): taken.give(f"{me}.witnesses")})
    for claim in c.claims:
        _claim(section, c, claim, ids, lang, taken.give(
            f"{me}.claim.{ids.get(claim.source, claim.source)}."
            f"{claim.location.line}-{claim.location.column}"))
    return mdiv


def _score_def(score_def: ET.Element, c: Collation, me: str) -> None:
    staff_grp = sub(score_def, "staffGrp")
    staff_def = sub(staff_grp, "staffDef", n="1", lines="5", **{"clef.shape": "perc",
                                                                "clef.line": "3"})
    sub(staff_def, "label", f"{c.tradition.label} {c.diagram}", lang="zh-Hant")
    for drum in (Drum.SMALL, Drum.BIG):
        sub(staff_def, "instrDef", **{xml_id(): f"{me}-{'pi' if drum is Drum.SMALL else 'gu'}",
                                      "label": NAMES[drum], "midi.channel": "9"})


def _note(parent: ET.Element, cell, me: str, ident: str, lang: str) -> None:
    """The stroke of a table *cell* (glyph, stroke) as a note on its drum's
    staff place (``loc``, and ``pname``/``oct`` for readers that go by pitch),
    with its General MIDI key (``pnum``) and ``guji midi``'s velocity
    (``vel``: 鼓 112, 鼙 80), and its source glyph (in the language of its
    source's writing, *lang*)."""
    stroke = cell[1]
    drum = stroke.drum
    pname, octave = PITCHES[drum]
    note = sub(parent, "note", **{xml_id(): ident, "dur": "4", "pname": pname,
                                  "oct": str(octave), "loc": str(PLACES[drum]),
                                  "pnum": str(DEFAULT_KEYS[VOICES[drum]]),
                                  "vel": str(DEFAULT_VELOCITIES[VOICES[drum]]), "stem.dir": "up",
                                  "instr": f"#{me}-{'pi' if drum is Drum.SMALL else 'gu'}"})
    sub(sub(note, "verse", n="1"), "syl", stroke.raw, lang=lang)


def _lang(c: Collation, name: str) -> str:
    """The language tag of a reading's source (``zh`` where not known)."""
    source = c.sources.get(name)
    return "zh" if source is None else source.lang


def _app(layer, c: Collation, cells, v, me: str, ids) -> None:
    """One place of variation *v* as an ``<app>``: the base's strokes there as
    ``<lem>``, each other reading once as an ``<rdg>`` naming all who read it."""
    span = range(v.column, v.column + v.width)
    readings: dict[str, list[str]] = {}
    for name in [c.base, *c.readings]:
        if name not in readings.get(v.readings[name], ()):
            readings.setdefault(v.readings[name], []).append(name)
    me_app = app_id(me, v.place)
    app = sub(layer, "app", **{xml_id(): me_app})
    for k, (glyphs, names) in enumerate(readings.items()):
        tag = "lem" if k == 0 else "rdg"
        me_reading = reading_id(me_app, None if k == 0 else glyphs)
        element = sub(app, tag, **{xml_id(): me_reading,
                                   "source": " ".join("#" + ids[n] for n in names)})
        first = names[0]
        strokes = [cells[first][col] for col in span if cells[first][col][1] is not None]
        for n, (glyph, stroke, index) in enumerate(strokes, 1):
            ident = note_id(me, ids[first], index) if k == 0 else rdg_note_id(me_reading, n)
            _note(element, (glyph, stroke), me, ident, _lang(c, first))


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


def _places_of(c: Collation, name: str, index: int) -> list:
    """The places holding note *index* of reading *name*; for a reading whose
    notes carry no edits, every place where it reads otherwise than its text."""
    held = [v for v in c.variants if (name, index) in v.notes]
    if held or any(n == name for v in c.variants for n, _k in v.notes):
        return held
    text = c.edition_of(name)
    return [v for v in c.variants if v.readings[name] != v.readings.get(text, v.readings[name])]


def _variant_notes(measures, c: Collation, me: str, ids, lang, taken: Taken) -> None:
    """An ``<annot>`` per variant note, in the measure of the place it changes."""
    for name, pattern in c.readings.items():
        if pattern.witness is None:
            continue
        text = c.edition_of(name)
        for k, note in enumerate(pattern.notes):
            changed = _places_of(c, name, k)
            measure = next((m for m, cols in measures if changed and changed[0].column in cols),
                           measures[0][0])
            loc = note.location
            attrs = {"type": "variant-note", "source": "#" + ids[text], "lang": "en",
                     xml_id(): taken.give(f"{ids[name]}.note-{loc.line}-{loc.column}")}
            if changed:
                attrs["plist"] = " ".join("#" + app_id(me, v.place) for v in changed)
            annot = sub(measure, "annot", **attrs)
            sub(annot, "q", note.text, lang=lang[text])
            where = pattern.filename or text
            annot[-1].tail = clean(f" — the reading of {pattern.witness} ({'#' + ids[name]}), "
                                   f"{where} line {loc.line}, column {loc.column}")


def _claim(section: ET.Element, c: Collation, claim, ids, lang, me_claim: str) -> None:
    """A count claim: as printed, who says it, where; and every reading's
    count of it (``<annot type="agrees|differs" plist="#source">``)."""
    cl = claim.claim
    source = ids.get(claim.source, claim.source)
    annot = sub(section, "annot", type="count-claim", source="#" + source, lang="en",
                **{xml_id(): me_claim})
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
            type="agrees" if a["agrees"] else "differs", plist="#" + ids[name],
            **{xml_id(): f"{me_claim}.{ids[name]}"})

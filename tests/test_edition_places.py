"""The apparatus from what the notes say, and ids that last (issue 40, items 1 and 2).

A witness read from a variant note differs where its note says: a
substitution before 半 and an omission after it (欽定禮記義疏's 吴澄本), an
addition at the end (大戴禮's 下尚有一□一○), an omission at the start of the
half. 半 is an anchor no alignment crosses: each note's edit is one place of
variation — one row of ``guji collate``, one ``<app>`` — and no ``<app
type="half">`` says a witness puts 半 elsewhere when no source says so. The
MEI is valid (jing), verovio's reading of every witness is guji's, and every
``xml:id`` of an edition stays, naming the same element, when a witness is
added.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mido
import pytest

from tools import executable, module

GUJI = str(Path(sys.executable).with_name("guji"))
DATA = Path(__file__).parent / "data"
SCHEMA = DATA / "schemas" / "mei-4.0.1" / "mei-all.rng"
M = "{http://www.music-encoding.org/ns/mei}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
KEYS = {62: "○", 41: "□"}

#: 魯鼓 as 欽定禮記義疏 prints it: 吴澄本 reads ○ for the 8th stroke before 半 and
#: lacks the ○□ before its second note (strokes 3–4 of the half); 大戴禮 has □○
#: more at the end.
YISHU = ("魯鼓：○□○○□□○□【吴澄本作○】○○□半○□○□【吴澄本少一○一□】○○○□□○□○"
         "【大戴禮下尚有一□一○】\n")
#: 薛鼓 with an omission at the start of the half (某本 lacks its first ○□) and
#: an addition right after 半, on the side its note is written (宋本 has □ more).
XUE = "薛鼓：○□○○○□□○□○○□□○□○○□□○半【宋本有□】○□【某本少一○一□】○○○□□○\n"

#: (score, diagram) -> every place of variation: (its name, the part, and the
#: readings that differ from the text there, with what they read).
EXPECTED = {
    ("魯", 1): [("b8", True, {"yishu~吴澄本": "○"}),
                ("a3-4", False, {"yishu~吴澄本": ""}),
                ("a12.add", False, {"yishu~大戴禮": "□○"})],
    ("薛", 1): [("a0.add", False, {"xue~宋本": "□"}),
                ("a1-2", False, {"xue~某本": ""})],
}


def guji(*args, cwd, check=True):
    proc = subprocess.run([GUJI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def texts(tmp_path_factory):
    where = tmp_path_factory.mktemp("places")
    (where / "yishu.txt").write_text(YISHU, encoding="utf-8")
    (where / "xue.txt").write_text(XUE, encoding="utf-8")
    guji("edition", "--only", "lu:1@yishu.txt", "xue:1@xue.txt", "-o", "notes.mei", cwd=where)
    collated = json.loads(guji("collate", "--only", "yishu.txt", "xue.txt", "--json",
                               cwd=where).stdout)
    return where, collated


def _collation(collated, score, diagram):
    return next(c for c in collated if c["score"] == score and c["diagram"] == diagram)


def test_the_places_are_exactly_the_notes_edits(texts):
    _, collated = texts
    for (score, diagram), places in EXPECTED.items():
        c = _collation(collated, score, diagram)
        text = c["base"]
        got = [(v["place"], v["before_half"],
                {n: g for n, g in v["readings"].items() if g != v["readings"][text]})
               for v in c["variants"]]
        assert got == places
        for v in c["variants"]:
            assert "半" not in "".join(v["readings"].values())
            # every reading but the witness of the note reads the text there
            assert len(v["notes"]) == 1
        # 半 one column, every reading's
        halves = {row.index("半") for row in (r["aligned"] for r in c["readings"].values())}
        assert len(halves) == 1


def test_collate_text_and_csv_say_the_same_places(texts):
    where, collated = texts
    out = guji("collate", "--only", "yishu.txt", "xue.txt", cwd=where).stdout
    said = [line for line in out.splitlines() if line.strip().startswith("variant:")]
    assert said[:3] == [
        "  variant: stroke 8 of yishu (before 半): □ yishu, yishu~大戴禮; ○ yishu~吴澄本",
        "  variant: strokes 14–15 of yishu (after 半): ○□ yishu, yishu~大戴禮; (none) yishu~吴澄本",
        "  variant: strokes that yishu lacks (after 半): (none) yishu, yishu~吴澄本; □○ yishu~大戴禮"]
    assert "yishu~吴澄本 (1): before 半: ○ for □ at stroke 8; after 半: one ○□ fewer at strokes 3–4" in out
    assert "yishu~大戴禮 (1): after 半: one □○ more after stroke 12" in out
    assert "xue~某本 (1): after 半: one ○□ fewer at strokes 1–2" in out
    assert "xue~宋本 (1): after 半: one □ more before stroke 1" in out
    for fmt, delimiter in (("csv", ","), ("tsv", "\t")):
        table = guji("collate", "--only", "yishu.txt", "xue.txt", "--format", fmt, cwd=where).stdout
        rows = list(csv.DictReader(io.StringIO(table), delimiter=delimiter))
        assert [(r["score"], r["id"], r["part"]) for r in rows] == [
            (s, name, "before 半" if before else "after 半")
            for (s, _), places in EXPECTED.items() for name, before, _ in places]
        assert [r["base_stroke"] for r in rows] == ["8", "14-15", "", "", "21-22"]
        assert rows[2]["yishu~大戴禮"] == "□○" and rows[1]["yishu~吴澄本"] == "-"


def _tree(path):
    return ET.parse(path).getroot()


def test_the_apps_are_the_notes_edits_and_no_half_app(texts):
    where, _ = texts
    root = _tree(where / "notes.mei")
    apps = {m.get(XML_ID): [a.get(XML_ID) for a in m.iter(M + "app")] for m in root.iter(M + "mdiv")}
    assert apps == {"lu-1": ["lu-1.b8", "lu-1.a3-4", "lu-1.a12.add"],
                    "xue-1": ["xue-1.a0.add", "xue-1.a1-2"]}
    assert not [a for a in root.iter(M + "app") if a.get("type") is not None]
    assert not list(root.iter(M + "barLine"))
    # each note points to its one <app>
    notes = {a.find(M + "q").text: a.get("plist") for a in root.iter(M + "annot")
             if a.get("type") == "variant-note"}
    assert notes == {"【吴澄本作○】": "#lu-1.b8", "【吴澄本少一○一□】": "#lu-1.a3-4",
                     "【大戴禮下尚有一□一○】": "#lu-1.a12.add", "【宋本有□】": "#xue-1.a0.add",
                     "【某本少一○一□】": "#xue-1.a1-2"}
    # the omission is one <app>: the text's ○□ as <lem>, an empty <rdg>
    app = next(a for a in root.iter(M + "app") if a.get(XML_ID) == "lu-1.a3-4")
    assert [n.find(f".//{M}syl").text for n in app.find(M + "lem").iter(M + "note")] == ["○", "□"]
    assert [(r.get(XML_ID), r.get("source"), len(r)) for r in app.findall(M + "rdg")] == [
        ("lu-1.a3-4.rdg.none", "#yishu.吴澄本", 0)]


def _valid(path):
    jing = executable("jing", "apt-get install jing")
    proc = subprocess.run([jing, str(SCHEMA), str(path)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout[:2000]


def _heard(mei: str, mdiv: str, source: str) -> str:
    verovio = module("verovio", "pip install verovio")
    verovio.enableLog(verovio.LOG_OFF)
    tk = verovio.toolkit()
    tk.setOptions({"appXPathQuery": [f"./*[contains(concat(' ', @source, ' '), ' #{source} ')]"],
                   "mdivXPathQuery": f"./mdiv[@xml:id='{mdiv}']"})
    assert tk.loadData(mei)
    midi = mido.MidiFile(file=io.BytesIO(base64.b64decode(tk.renderToMIDI())))
    t, out = 0.0, []
    for msg in midi:
        t += msg.time
        if msg.type == "note_on" and msg.velocity and msg.note in KEYS:
            out.append((t, KEYS[msg.note]))
    return "".join(d for _, d in sorted(out, key=lambda x: x[0]))


@pytest.mark.tools
def test_valid_and_verovio_reads_each_witness_as_guji_does(texts):
    where, collated = texts
    _valid(where / "notes.mei")
    mei = (where / "notes.mei").read_text(encoding="utf-8")
    checked = 0
    for c in collated:
        mdiv = f"{'lu' if c['score'] == '魯' else 'xue'}-{c['diagram']}"
        for name, reading in c["readings"].items():
            assert _heard(mei, mdiv, name.replace("~", ".")) == reading["before"] + reading["after"]
            checked += 1
    assert checked == 6


NCNAME = re.compile(r"[^\W\d.-][\w.-]*")
CITED = ("note", "app", "lem", "rdg", "annot", "source")


def _signature(el) -> tuple:
    """What an element is, whatever its witnesses: tag, and what it holds."""
    tag = el.tag[len(M):]
    if tag == "note":          # the drum (the glyph under it is its first witness's)
        return tag, el.get("loc"), el.get("pnum")
    if tag in ("app", "lem", "rdg"):
        return tag, tuple(n.get(XML_ID) for n in el.iter(M + "note"))
    if tag == "annot":
        q = el.find(M + "q")
        return tag, el.get("type"), None if q is None else q.text
    return tag, el.get("label")


def _ids(root) -> dict:
    out = {}
    for el in root.iter():
        if el.tag[len(M):] in CITED:
            ident = el.get(XML_ID)
            assert ident is not None and NCNAME.fullmatch(ident), (el.tag, ident)
            assert ident not in out, ident
            out[ident] = _signature(el)
    return out


@pytest.mark.tools
def test_ids_last_when_a_witness_is_added(texts, tmp_path):
    """The shipped texts' edition, then the same with one more text (the
    義疏 case, three notes): every id of the first names the same element in
    the second; every cited element has one, unique, an NCName."""
    where, _ = texts
    guji("edition", "-o", str(tmp_path / "shipped.mei"), cwd=where)
    guji("edition", "yishu.txt", "-o", str(tmp_path / "more.mei"), cwd=where)
    _valid(tmp_path / "more.mei")
    first, second = _ids(_tree(tmp_path / "shipped.mei")), _ids(_tree(tmp_path / "more.mei"))
    assert len(first) > 150 and len(second) > len(first)
    lost = {i: s for i, s in first.items() if second.get(i) != s}
    assert not lost, list(lost.items())[:5]
    # the added witness's places are new <app>s; the shared notes they reach keep their ids
    assert {"lu-1.b8", "lu-1.a3-4", "lu-1.a12.add"} <= set(second) - set(first)
    assert first["lu-1.liji-zhengyi.n8"] == second["lu-1.liji-zhengyi.n8"]


def _random_text(rng) -> str:
    """A 魯鼓 of random strokes with random notes of three witnesses: a
    replace, a delete naming the strokes before it, an insertion."""
    parts = ["".join(rng.choice("○□") for _ in range(rng.randint(3, 9))) for _ in range(2)]
    out = []
    for side, strokes in enumerate(parts):
        for k, glyph in enumerate(strokes, 1):
            out.append(glyph)
            if rng.random() < 0.3:
                witness = rng.choice(("一本", "宋本", "某本"))
                n = rng.randint(1, min(2, k))
                kind = rng.choice("作少有")
                if kind == "少":
                    named = strokes[k - n:k]
                else:
                    named = "".join(rng.choice("○□") for _ in range(n))
                out.append(f"【{witness}{kind}" + "".join("一" + g for g in named) + "】")
        if side == 0:
            out.append("半")
    return "魯鼓：" + "".join(out) + "\n"


def test_random_notes_every_reading_in_place(tmp_path):
    """On random texts with notes, alone or two together: each reading's row
    is its strokes, 半 one column; every column where a reading differs from
    the base lies in a place; no place crosses 半; each note's edit is in
    exactly one place; the edition reads every witness back as guji reads it."""
    import random

    from guji.edition.ids import source_ids
    from guji.edition.mei import to_mei
    from guji.edition.read import load_mei
    from guji.text.collation.collate import collate
    from guji.text.collation.corpus import texts
    rng = random.Random(40)
    checked = 0
    for k in range(150):
        path = tmp_path / f"r{k}.txt"
        path.write_text(_random_text(rng), encoding="utf-8")
        # alone, or after the text before it (a witness of a text aligned to the base)
        files = [str(path)] if k % 2 == 0 else [str(tmp_path / f"r{k - 1}.txt"), str(path)]
        collated = collate(texts(files, only=True))
        mei = tmp_path / f"r{k}.mei"
        mei.write_text(to_mei(collated), encoding="utf-8")
        for c in collated:
            # the edition reads back every witness as guji reads it
            ids = source_ids(c.readings, {n: (c.edition_of(n), p.witness)
                                          for n, p in c.readings.items() if p.witness})
            for name, p in c.readings.items():
                back = load_mei(f"lu:1@{mei}~{ids[name]}")
                assert [s.glyph for s in back.strokes] == [s.glyph for s in p.strokes]
                assert back.half_start == p.half_start
            half = c.columns[c.base].index("半")
            for name, p in c.readings.items():
                row = c.columns[name]
                assert row.index("半") == half
                assert "".join(g for g in row if g != "半") == "".join(s.glyph for s in p.strokes)
                assert "".join(row[:half]) == "".join(s.glyph for s in p.before)
            placed = {v.column + i for v in c.variants for i in range(v.width)}
            for col in range(len(c.columns[c.base])):
                if len({c.columns[n][col] for n in c.readings}) > 1:
                    assert col in placed, (path.read_text("utf-8"), col)
            for v in c.variants:
                assert v.column + v.width <= half or v.column > half
            for name, p in c.readings.items():
                for e in range(len(p.notes) if p.witness else 0):
                    assert sum((name, e) in v.notes for v in c.variants) == 1
                    checked += 1
    assert checked > 100


@pytest.mark.tools
def test_the_shipped_and_test_texts_notes_are_their_apps(tmp_path):
    """tests/data's texts with notes (一本作□ after 半; 宋本此處有○ before 半, in a
    copy that reads the chapter's other diagram) beside the shipped editions:
    no <app type="half">, and each note points to one <app> where its witness
    reads what the note writes."""
    for name, src in (("yishu.txt", "18-variant-note-paren.txt"),
                      ("song.txt", "19-variant-note-lenticular.txt")):
        (tmp_path / name).write_text((DATA / "user-texts" / src).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    guji("edition", "yishu.txt", "song.txt", "-o", "e.mei", cwd=tmp_path)
    _valid(tmp_path / "e.mei")
    root = _tree(tmp_path / "e.mei")
    apps = {a.get(XML_ID): a for a in root.iter(M + "app")}
    assert not [a for a in apps.values() if a.get("type")] and not list(root.iter(M + "barLine"))
    writes = {"（一本作□）": ("#yishu.一本", "□"), "【宋本此處有○】": ("#song.宋本", "○")}
    notes = [a for a in root.iter(M + "annot") if a.get("type") == "variant-note"]
    assert sorted(n.find(M + "q").text for n in notes) == sorted(writes)
    for note in notes:
        source, strokes = writes[note.find(M + "q").text]
        (target,) = note.get("plist").split()
        app = apps[target[1:]]
        (read,) = [k for k in app if source in k.get("source").split()]
        assert "".join(s.text for s in read.iter(M + "syl")) == strokes
        text = source.split(".")[0]
        assert not any(text in k.get("source").split() for k in app if k is read)


def test_ids_last_when_a_witness_of_a_shared_reading_is_removed(tmp_path):
    """五禮通考 and a copy reading as it does share one <rdg>: without 五禮通考
    (the first it names), every id of the smaller edition names the same
    element in the larger."""
    (tmp_path / "jishuo.txt").write_text("○□○□□□○□○○□半○□○□○○○□□○□○魯鼓\n", encoding="utf-8")
    guji("edition", "--only", "lu:1@liji-zhengyi", "lu:1@wuli-tongkao", "lu:1@jishuo.txt",
         "-o", "three.mei", cwd=tmp_path)
    guji("edition", "--only", "lu:1@liji-zhengyi", "lu:1@jishuo.txt", "-o", "two.mei",
         cwd=tmp_path)
    three, two = _ids(_tree(tmp_path / "three.mei")), _ids(_tree(tmp_path / "two.mei"))
    rdg = next(r for r in _tree(tmp_path / "three.mei").iter(M + "rdg"))
    assert rdg.get("source") == "#wuli-tongkao #jishuo"
    assert {i: s for i, s in two.items() if three.get(i) != s} == {}
    assert "lu-1.b4.rdg.g.n1" in two

"""guji edition: the MEI critical edition validates against MEI 4.0.1's RELAX NG
(jing), verovio engraves it and plays each witness exactly as guji midi plays
that witness's id, stroke by stroke; one <app> per place of variation, every
<rdg source> pointing to a described <source>; and the MEI read back by every command."""

from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mido
import pytest

import runner
from tools import module

GUJI = str(Path(sys.executable).with_name("guji"))
DATA = Path(__file__).parent / "data"
SCHEMA = DATA / "schemas" / "mei-4.0.1" / "mei-all.rng"
NS = {"m": "http://www.music-encoding.org/ns/mei"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
KEYS = {62: "鼙", 41: "鼓"}


def guji(*args, cwd, check=True):
    """``guji ARGS…`` (:func:`runner.guji`, the console script); with *check*, it must succeed."""
    proc = runner.guji(list(args), cwd, script=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


CASES = {
    # the shipped editions and a user's file with a variant note ((一本作□), a witness)
    "notes": (["lu:1@yishu.txt", "xue:1@yishu.txt", "lu:2", "xue:2"], ["yishu.txt"]),
    # … and a copy that reads the other diagram, 半 elsewhere, with a note of 宋本
    "halves": (["song.txt", "yishu.txt"], ["song.txt", "yishu.txt"]),
}


def _made(where: Path, case: str):
    shutil.copy(DATA / "user-texts" / "18-variant-note-paren.txt", where / "yishu.txt")
    shutil.copy(DATA / "user-texts" / "19-variant-note-lenticular.txt", where / "song.txt")
    (where / "yishu.source.toml").write_text('title = "投壺鼓譜 (a teacher\'s copy)"\n'
                                             'author = "A. Teacher"\nsiglum = "Y"\n',
                                             encoding="utf-8")
    ids, files = CASES[case]
    guji("edition", *ids, "-o", "edition.mei", cwd=where)
    collation = json.loads(guji("collate", *files, "--json", cwd=where).stdout)
    return where, collation


@pytest.fixture(scope="module", params=sorted(CASES))
def folder(request, tmp_path_factory):
    """An edition (edition.mei) and the collation of the same texts as JSON, for each case."""
    return _made(tmp_path_factory.mktemp(request.param), request.param)


@pytest.fixture(scope="module")
def notes_folder(tmp_path_factory):
    """The edition of the case with one variant note."""
    return _made(tmp_path_factory.mktemp("notes"), "notes")


def mei_tree(folder):
    return ET.parse(folder[0] / "edition.mei").getroot()


def test_validates_against_mei_4_0_1(folder, tool):
    jing = tool("jing")
    proc = subprocess.run([jing, str(SCHEMA), str(folder[0] / "edition.mei")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout[:2000]


def test_jing_rejects_what_mei_forbids(notes_folder, tmp_path, tool):
    """The validator is not blind: a <rdg> outside an <app> is refused."""
    jing = tool("jing")
    text = (notes_folder[0] / "edition.mei").read_text(encoding="utf-8")
    bad = tmp_path / "bad.mei"
    bad.write_text(text.replace("<layer n=\"1\">", "<layer n=\"1\"><rdg/>", 1), encoding="utf-8")
    proc = subprocess.run([jing, str(SCHEMA), str(bad)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode != 0 and "rdg" in proc.stdout


def test_one_app_per_place_of_variation_and_shared_readings(folder):
    root = mei_tree(folder)
    for c in folder[1]:
        mdiv = root.find(f".//m:mdiv[@{{http://www.w3.org/XML/1998/namespace}}id="
                         f"'{'lu' if c['score'] == '魯' else 'xue'}-{c['diagram']}']", NS)
        apps = [a for a in mdiv.iter(f"{{{NS['m']}}}app") if a.get("type") is None]
        assert len(apps) == len(c["variants"])
        for app, v in zip(apps, c["variants"]):
            seen = []
            glyphs = []
            for child in app:
                names = [s[1:] for s in child.get("source").split()]
                seen += names
                glyphs.append("".join(s.text for s in child.iter(f"{{{NS['m']}}}syl")))
            # every reading once, each distinct reading once (agreeing ones share it)
            assert sorted(seen) == sorted(_ids(root, v["readings"]))
            assert len(set(glyphs)) == len(glyphs) == len(set(v["readings"].values()))


def _ids(root, names):
    """The source ids of reading names (by the <source>'s label = siglum or name)."""
    by_label = {s.get("label"): s.get(XML_ID) for s in root.iter(f"{{{NS['m']}}}source")}
    out = []
    for n in names:
        out.append(n.replace("~", ".") if n.replace("~", ".") in by_label.values()
                   else by_label[n])
    return out


def test_every_source_pointed_to_is_described(notes_folder):
    root = mei_tree(notes_folder)
    sources = {s.get(XML_ID): s for s in root.iter(f"{{{NS['m']}}}source")}
    pointed = {p[1:] for el in root.iter() if el.tag in (f"{{{NS['m']}}}rdg", f"{{{NS['m']}}}lem")
               for p in el.get("source").split()}
    assert pointed and pointed <= set(sources)
    for s in sources.values():
        bibl = s.find("m:bibl", NS)
        assert bibl.find("m:title", NS).text and bibl.find("m:identifier", NS).text == s.get("label")
    tongkao = sources["wuli-tongkao"].find("m:bibl", NS)
    assert tongkao.find("m:respStmt/m:persName", NS).text == "秦蕙田"
    assert tongkao.find("m:edition", NS).text == "钦定四库全书"
    assert tongkao.get("{http://www.w3.org/XML/1998/namespace}lang") == "zh-Hans"
    assert sources["liji-zhengyi"].find("m:bibl", NS).get(
        "{http://www.w3.org/XML/1998/namespace}lang") == "zh-Hant"
    mine = sources["yishu"]
    assert mine.get("label") == "Y" and "A. Teacher" in ET.tostring(mine, encoding="unicode")
    assert sources["yishu.一本"].find("m:bibl/m:relatedItem", NS).get("target") == "#yishu"


#: Elements whose own text is Chinese where it holds CJK ideographs.
WORDS = {"title", "q", "persName", "syl", "label", "dir", "rend", "edition", "biblScope",
         "genre", "identifier", "resp"}


def _cjk(text):
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text or "")


def test_chinese_text_is_tagged_chinese(folder):
    """Every title, quotation, name, glyph, label and direction holding Chinese is in the scope
    of an xml:lang zh-Hant, zh-Hans or zh; the header's prose is English."""
    lang_of = "{http://www.w3.org/XML/1998/namespace}lang"
    root = mei_tree(folder)
    assert root.find("m:meiHead", NS).get(lang_of) == "en"
    checked = 0

    def walk(el, lang):
        nonlocal checked
        lang = el.get(lang_of, lang)
        if el.tag.split("}")[1] in WORDS and _cjk(el.text):
            assert lang in ("zh-Hant", "zh-Hans", "zh"), (el.tag, el.text, lang)
            checked += 1
        for child in el:
            walk(child, lang)

    walk(root, None)
    assert checked > 20          # titles, labels, directions, quotations, 囗 …
    glyphs = [s for s in root.iter(f"{{{NS['m']}}}syl") if s.text == "囗"]
    assert glyphs and all(s.get(lang_of) == "zh-Hans" for s in glyphs)


def test_variant_note_and_claims_at_their_places(notes_folder):
    root = mei_tree(notes_folder)
    notes = [a for a in root.iter(f"{{{NS['m']}}}annot") if a.get("type") == "variant-note"]
    assert [n.find("m:q", NS).text for n in notes] == ["（一本作□）"]
    target = notes[0].get("plist")[1:]
    app = next(a for a in root.iter(f"{{{NS['m']}}}app") if a.get(XML_ID) == target)
    assert any("#yishu.一本" in k.get("source").split() for k in app)
    claims = [a for a in root.iter(f"{{{NS['m']}}}annot") if a.get("type") == "count-claim"]
    assert len(claims) == 16
    kinds = set()
    for c in notes_folder[1]:
        mdiv = next(m for m in root.iter(f"{{{NS['m']}}}mdiv")
                    if m.get(XML_ID) == f"{'lu' if c['score'] == '魯' else 'xue'}-{c['diagram']}")
        annots = [a for a in mdiv.iter(f"{{{NS['m']}}}annot") if a.get("type") == "count-claim"]
        assert len(annots) == len(c["claims"]) == 4
        for annot, claim in zip(annots, c["claims"]):
            assert annot.find("m:q", NS).text == claim["text"].replace("\n", "")
            assert annot.find("m:persName", NS).text == claim["commentator"] == "徐伯鲁"
            said = {a.get("plist")[1:]: a.get("type") for a in annot.findall("m:annot", NS)}
            assert said == {i: "agrees" if claim["readings"][n]["agrees"] else "differs"
                            for n, i in zip(claim["readings"], _ids(root, claim["readings"]))}
            kinds.update(said.values())
    assert kinds == {"agrees", "differs"}


def _strokes(midi: mido.MidiFile) -> list[tuple[float, str]]:
    """(seconds from the first stroke, drum) of every drum stroke, in time order."""
    t, out = 0.0, []
    for msg in midi:
        t += msg.time
        if msg.type == "note_on" and msg.velocity and msg.note in KEYS:
            out.append((t, KEYS[msg.note]))
    return [(round(s - out[0][0], 3), d) for s, d in out]


def _witness_query(source_id):
    return [f"./*[contains(concat(' ', @source, ' '), ' #{source_id} ')]"]


def test_verovio_plays_every_witness_as_guji_midi_does(folder):
    verovio = module("verovio", "pip install verovio")
    verovio.enableLog(verovio.LOG_OFF)
    where, collation = folder
    root = mei_tree(folder)
    mei = (where / "edition.mei").read_text(encoding="utf-8")
    checked = 0
    for c in collation:
        mdiv = f"{'lu' if c['score'] == '魯' else 'xue'}-{c['diagram']}"
        for name, reading in c["readings"].items():
            (source_id,) = _ids(root, [name])
            tk = verovio.toolkit()
            tk.setOptions({"appXPathQuery": _witness_query(source_id),
                           "mdivXPathQuery": f"./mdiv[@xml:id='{mdiv}']"})
            assert tk.loadData(mei)
            assert tk.renderToSVG(1).count('class="note"') == len(reading["locus"]["strokes"])
            heard = _strokes(mido.MidiFile(file=io.BytesIO(base64.b64decode(tk.renderToMIDI()))))
            guji("midi", reading["id"], "--rite", "she", "-o", "ref.mid", cwd=where)
            expected = _strokes(mido.MidiFile(where / "ref.mid"))
            assert heard == expected, (name, mdiv)
            assert "".join(d for _, d in heard) == "".join(
                "鼙" if s["drum"] == "鼙" else "鼓" for s in reading["locus"]["strokes"])
            checked += 1
    assert checked == sum(len(c["readings"]) for c in collation) >= 3 * 4 + 2 + 1


def test_every_command_reads_an_edition_reading(folder):
    where, collation = folder
    c = next(c for c in collation if c["score"] == "魯" and c["diagram"] == 1)
    for name, reading in c["readings"].items():
        (source_id,) = _ids(mei_tree(folder), [name])
        guji("midi", f"lu:1@edition.mei~{source_id}", "--rite", "she", "-o", "mei.mid", cwd=where)
        guji("midi", reading["id"], "--rite", "she", "-o", "text.mid", cwd=where)
        assert _strokes(mido.MidiFile(where / "mei.mid")) == _strokes(
            mido.MidiFile(where / "text.mid"))
    # each text's own glyphs come back (五礼通考's 囗, declared in its <source>)
    from guji.edition.read import load_mei
    for name, reading in c["readings"].items():
        (source_id,) = _ids(mei_tree(folder), [name])
        back = load_mei(f"lu:1@{where / 'edition.mei'}~{source_id}")
        assert [s.raw for s in back.strokes] == [s["glyph"] for s in reading["locus"]["strokes"]]
        assert back.half_start == len(reading["before"])
    # a siglum names a source too; sheet and render take it
    guji("sheet", "lu:1@edition.mei~T", "--rite", "she", "-o", "t.musicxml", cwd=where)
    steps = [u.findtext("display-step") for u in ET.parse(where / "t.musicxml").iter("unpitched")]
    assert "".join({"C": "○", "F": "□"}[s] for s in steps) == "○□○□□□○□○○□○□○□○○○□□○□○"
    guji("render", "lu:1@edition.mei~T", "-o", "t.wav", cwd=where)


def test_a_file_alone_is_collated_for_every_pattern_it_has(notes_folder, tmp_path):
    where, _ = notes_folder
    guji("edition", "yishu.txt", "-o", str(tmp_path / "f.mei"), cwd=where)
    root = ET.parse(tmp_path / "f.mei").getroot()
    assert [m.get(XML_ID) for m in root.iter(f"{{{NS['m']}}}mdiv")] == [
        "lu-1", "xue-1", "lu-2", "xue-2"]
    assert {s.get(XML_ID) for s in root.iter(f"{{{NS['m']}}}source")} == {
        "liji-zhengyi", "lijing-benyi", "wuli-tongkao", "yishu", "yishu.一本"}
    witnesses = {m.get(XML_ID): next(a.get("plist").split() for a in m.iter(f"{{{NS['m']}}}annot")
                                     if a.get("type") == "witnesses")
                 for m in root.iter(f"{{{NS['m']}}}mdiv")}
    assert ["#yishu" in w for w in witnesses.values()] == [True, True, False, False]
    assert "#yishu.一本" in witnesses["lu-1"] and "#yishu.一本" not in witnesses["xue-1"]


def test_base_is_the_lemma(notes_folder, tmp_path):
    where, _ = notes_folder
    guji("edition", "lu:1", "--base", "wuli-tongkao", "-o", str(tmp_path / "t.mei"), cwd=where)
    (app,) = ET.parse(tmp_path / "t.mei").getroot().iter(f"{{{NS['m']}}}app")
    lem = app.find("m:lem", NS)
    assert lem.get("source") == "#wuli-tongkao"
    assert lem.find(".//m:syl", NS).text == "囗"
    assert app.find("m:rdg", NS).get("source") == "#liji-zhengyi #lijing-benyi"


@pytest.mark.parametrize("args, says", [
    (["midi", "lu@edition.mei~nobody", "-o", "x.mid"], "no source 'nobody'"),
    (["midi", "lu:2@edition.mei~yishu", "-o", "x.mid"], "has no reading of this pattern"),
    (["midi", "lu@broken.mei", "-o", "x.mid"], "broken.mei:2:"),
    (["edition", "-o", "edition.txt"], "a .mei file"),
    (["edition", "lu", "--base", "nobody", "-o", "x.mei"], "--base 'nobody' names no reading"),
])
def test_bad_input_is_one_line(notes_folder, args, says):
    where, _ = notes_folder
    (where / "broken.mei").write_text("<mei>\n<music></mei>\n", encoding="utf-8")
    proc = guji(*args, cwd=where, check=False)
    assert proc.returncode == 2 and says in proc.stderr and len(proc.stderr.splitlines()) == 1, \
        proc.stderr
    assert not (where / "x.mid").exists() and not (where / "x.mei").exists()


def test_play_plays_an_edition_reading_on_a_real_stream(notes_folder, tmp_path, null_alsa):
    """``guji play lu:1@edition.mei~T`` on ALSA's null device: every stroke of 五礼通考's reading."""
    import os
    where, collation = notes_folder
    env = dict(os.environ, ALSA_CONFIG_PATH=str(null_alsa), PYTHONIOENCODING="utf-8")
    proc = subprocess.run([GUJI, "play", "lu:1@edition.mei~T", "--json", "--rite", "she",
                           "--interval", "0.02", "--rate", "8000"], cwd=where, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    played = [json.loads(line) for line in proc.stdout.splitlines()]
    reading = collation[0]["readings"]["wuli-tongkao"]
    assert [p["drum"] for p in played] == [s["drum"] for s in reading["locus"]["strokes"]]
    assert {p["part"] for p in played} == {"魯鼓 1 edition.mei~wuli-tongkao"}


def test_music21_reads_each_drum_at_its_place_and_velocity_is_guji_midis(folder):
    """Every note has its drum's written pitch (``pname``/``oct``: C5 鼙, F4
    鼓, the places of ``loc``) and guji midi's velocity (``vel``: 鼓 112, 鼙
    80): music21, which places notes by pitch only, reads the two drums apart
    (without them every note is C4). music21 reads the first ``<mdiv>`` and
    skips ``<app>``: its notes are that mdiv's notes outside the apparatus."""
    import music21
    root = mei_tree(folder)
    first = root.find(".//m:mdiv/m:score/..", NS)
    in_app = {id(n) for app in first.iter(f"{{{NS['m']}}}app")
              for n in app.iter(f"{{{NS['m']}}}note")}
    expected = []
    for note in first.iter(f"{{{NS['m']}}}note"):
        drum = KEYS[int(note.get("pnum"))]
        assert note.get("vel") == {"鼓": "112", "鼙": "80"}[drum]
        if id(note) not in in_app:
            expected.append({"鼙": "C5", "鼓": "F4"}[drum])
    score = music21.converter.parse((folder[0] / "edition.mei").read_text(encoding="utf-8"),
                                    format="mei")
    assert [n.nameWithOctave for n in score.parts[0].recurse().notes] == expected

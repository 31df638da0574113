"""guji edition --tei: the textual apparatus as TEI P5, valid against TEI's
tei_all.rng (jing); each witness's strokes read back from the TEI (its <lem>
or <rdg wit> at every <app>) are guji's reading of that witness; the places
and ids are the MEI edition's; the header an editor signs (editor, licence,
date, revisionDesc, <normalization>) in MEI and TEI alike, from the options
or a project TOML; a text without a diagram recorded, and said on stderr."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tools import executable

GUJI = str(Path(sys.executable).with_name("guji"))
DATA = Path(__file__).parent / "data"
TEI_SCHEMA = DATA / "schemas" / "tei-4.3.0" / "tei_all.rng"
MEI_SCHEMA = DATA / "schemas" / "mei-4.0.1" / "mei-all.rng"
T = {"t": "http://www.tei-c.org/ns/1.0"}
M = {"m": "http://www.music-encoding.org/ns/mei"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
SIGNED = ["--editor", "A. Editor", "--licence", "CC-BY-4.0", "--title", "投壺鼓譜 collated"]


def guji(*args, cwd):
    proc = subprocess.run([GUJI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A TEI and an MEI edition of the shipped editions, a file with a
    variant note, a copy with 半 elsewhere and a text without any diagram."""
    where = tmp_path_factory.mktemp("tei")
    shutil.copy(DATA / "user-texts" / "18-variant-note-paren.txt", where / "yishu.txt")
    shutil.copy(DATA / "user-texts" / "19-variant-note-lenticular.txt", where / "song.txt")
    (where / "plain.txt").write_text("投壺之禮，主人奉矢。此本無鼓譜。\n", encoding="utf-8")
    files = ["yishu.txt", "song.txt", "plain.txt"]
    tei = guji("edition", *files, *SIGNED, "-o", "e.tei.xml", cwd=where)
    guji("edition", *files, *SIGNED, "-o", "e.mei", cwd=where)
    return where, tei


def _validate(schema: Path, file: Path) -> subprocess.CompletedProcess:
    jing = executable("jing", "apt-get install jing")
    return subprocess.run([jing, str(schema), str(file)], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.tools
def test_tei_is_valid_tei_p5(folder):
    proc = _validate(TEI_SCHEMA, folder[0] / "e.tei.xml")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.tools
def test_jing_rejects_what_tei_forbids(folder, tmp_path):
    bad = tmp_path / "bad.tei.xml"
    text = (folder[0] / "e.tei.xml").read_text(encoding="utf-8")
    bad.write_text(text.replace("<listWit>", "<listWit><lem/>", 1), encoding="utf-8")
    assert _validate(TEI_SCHEMA, bad).returncode != 0


@pytest.mark.tools
def test_mei_with_its_header_is_valid_mei(folder):
    proc = _validate(MEI_SCHEMA, folder[0] / "e.mei")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _witness_reading(div: ET.Element, wit: str) -> str:
    """The strokes of witness *wit* in a pattern's passage: the text outside
    the apparatus, and at each <app> the <lem> or <rdg> naming it."""
    out = []

    def walk(el: ET.Element) -> None:
        out.append(el.text or "")
        for child in el:
            tag = child.tag.split("}")[1]
            if tag == "app":
                chosen = [r for r in child if "#" + wit in r.get("wit", "").split()]
                assert len(chosen) == 1, (child.get(XML_ID), wit)
                out.append(chosen[0].text or "")
            elif tag not in ("note",):
                walk(child)
            out.append(child.tail or "")
    walk(div.find("t:p", T))
    return "".join("".join(out).split())


def test_each_witness_read_back_from_the_tei_is_gujis_reading(folder):
    from guji.edition.ids import source_ids
    from guji.text.collation.collate import collate
    from guji.text.collation.corpus import texts
    where = folder[0]
    results = collate(texts([str(where / f) for f in ("yishu.txt", "song.txt", "plain.txt")]))
    root = ET.parse(where / "e.tei.xml").getroot()
    divs = {d.get(XML_ID): d for d in root.iterfind(".//t:body/t:div", T)}
    checked = 0
    for c in results:
        witnesses = {n: (c.edition_of(n), p.witness) for n, p in c.readings.items() if p.witness}
        ids = source_ids(c.readings, witnesses)
        div = divs[f"{c.tradition.slug}-{c.diagram}"]
        for name, pattern in c.readings.items():
            assert _witness_reading(div, ids[name]) == pattern.notation(), (c.diagram, name)
            checked += 1
    assert checked >= 14 and any(p.witness for c in results for p in c.readings.values())
    assert len(root.findall(".//t:app", T)) == sum(len(c.variants) for c in results) > 0


def test_the_tei_uses_the_mei_places_and_ids(folder):
    tei = ET.parse(folder[0] / "e.tei.xml").getroot()
    mei = ET.parse(folder[0] / "e.mei").getroot()
    for tag in ("app", "lem", "rdg"):
        ids = [e.get(XML_ID) for e in tei.iter("{%s}%s" % (T["t"], tag))]
        assert ids and ids == [e.get(XML_ID) for e in mei.iter("{%s}%s" % (M["m"], tag))]


def test_variant_notes_stand_after_their_app(folder):
    root = ET.parse(folder[0] / "e.tei.xml").getroot()
    notes = root.findall(".//t:note[@type='variant-note']", T)
    assert notes
    for p in root.iterfind(".//t:body/t:div/t:p", T):
        kids = list(p)
        for k, note in enumerate(kids):
            if note.get("type") == "variant-note" and note.get("target"):
                before = kids[k - 1]
                while before.tag.endswith("note"):
                    before = kids[kids.index(before) - 1]
                assert "#" + before.get(XML_ID) in note.get("target").split()
    assert root.findall(".//t:div/t:note[@type='count-claim']", T)


def test_the_header_is_signed(folder):
    for name, ns, paths in (
            ("e.tei.xml", T, [".//t:titleStmt/t:editor", ".//t:publicationStmt/t:publisher",
                              ".//t:availability/t:licence", ".//t:revisionDesc/t:change",
                              ".//t:editorialDecl/t:normalization",
                              ".//t:listWit/t:witness/t:note[@type='no-diagram']"]),
            ("e.mei", M, [".//m:titleStmt/m:respStmt/m:persName", ".//m:pubStmt/m:respStmt",
                          ".//m:pubStmt/m:availability/m:useRestrict",
                          ".//m:revisionDesc/m:change/m:changeDesc",
                          ".//m:editorialDecl/m:normalization",
                          ".//m:source/m:bibl/m:annot[@type='no-diagram']"])):
        root = ET.parse(folder[0] / name).getroot()
        for path in paths:
            assert root.find(path, ns) is not None, (name, path)
        said = ET.tostring(root, encoding="unicode")
        assert "A. Editor" in said and "CC-BY-4.0" in said and "投壺鼓譜 collated" in said
        assert "U+56D7" in said                    # 囗 normalised, said where
        assert "plain" in said and str(folder[0]) not in said


def test_a_text_without_a_diagram_is_said_on_stderr(folder):
    lines = [l for l in folder[1].stderr.splitlines() if "plain.txt" in l]
    assert len(lines) == 1 and "no diagram" in lines[0]


def test_the_project_toml_signs_the_edition_and_gives_addresses(tmp_path):
    shutil.copy(DATA / "user-texts" / "18-variant-note-paren.txt", tmp_path / "yishu.txt")
    (tmp_path / "guji-edition.toml").write_text(
        'editor = "B. Editor"\nlicence = "CC0-1.0"\n'
        '[addresses]\nyishu = "https://example.org/yishu.txt"\n', encoding="utf-8")
    guji("edition", "yishu.txt", "-o", "e.tei.xml", cwd=tmp_path)
    guji("edition", "yishu.txt", "--editor", "C. Other", "-o", "e.mei", cwd=tmp_path)
    tei = (tmp_path / "e.tei.xml").read_text(encoding="utf-8")
    mei = (tmp_path / "e.mei").read_text(encoding="utf-8")
    assert "B. Editor" in tei and "CC0-1.0" in tei and "https://example.org/yishu.txt" in tei
    assert "C. Other" in mei and "B. Editor" not in mei            # the option wins
    import hashlib
    digest = hashlib.sha256((tmp_path / "yishu.txt").read_bytes()).hexdigest()
    assert digest in tei and digest in mei


@pytest.mark.parametrize("args, said", [
    (["--licence", "CC BY"], "SPDX"),
    (["--project", "nothere.toml"], "nothere.toml"),
    (["-o", "e.tei.txt", "--tei"], ".xml"),
])
def test_bad_header_input_is_one_line(args, said, tmp_path):
    argv = [GUJI, "edition", "lu:1", *args] + ([] if "-o" in args else ["-o", "e.mei"])
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and said in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_collate_says_a_text_without_a_diagram(tmp_path):
    (tmp_path / "plain.txt").write_text("投壺之禮，主人奉矢。此本無鼓譜。\n", encoding="utf-8")
    proc = guji("collate", "plain.txt", "--json", cwd=tmp_path)
    said = [l for l in proc.stderr.splitlines() if "plain.txt" in l]
    assert len(said) == 1 and "no diagram" in said[0]

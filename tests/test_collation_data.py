"""Collation data a scholar can cite: collate --json readings carry id, locus and notes
(held against scan --json); --base; the apparatus as CSV/TSV read back by the csv
module; the witnesses' descriptions in editions.toml attested by their seeds."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

import runner

from guji.text.reading.bibl import FIELDS, file_bibl
from guji.text.reading.editions import editions

DATA = Path(__file__).parent / "data"


def guji(*args, cwd):
    """The standard output of ``guji ARGS…`` (:func:`runner.guji`, the console
    script), which must succeed."""
    proc = runner.guji(list(args), cwd, script=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def yishu(tmp_path):
    shutil.copy(DATA / "user-texts" / "18-variant-note-paren.txt", tmp_path / "yishu.txt")
    return tmp_path


def test_collate_json_readings_match_scan_json(yishu):
    scanned = {p["id"]: p for p in json.loads(guji("scan", "yishu.txt", "--json", cwd=yishu))}
    witnesses = {v["id"]: v for p in scanned.values() for v in p["variants"]}
    collated = json.loads(guji("collate", "yishu.txt", "--json", cwd=yishu))
    seen = set()
    for c in collated:
        for name, r in c["readings"].items():
            if r["edition"] != "yishu":
                assert r["locus"]["file"].endswith(".txt") and "seed_line" in r["locus"]
                ed = next(e for e in editions() if e.slug == r["edition"])
                assert (r["siglum"], r["lang"], r["bibl"]["title"]) == (
                    ed.siglum, ed.lang, ed.bibl.title)
                continue
            assert r["bibl"]["title"] == "yishu" and r["siglum"] == name
            seen.add(r["id"])
            if r["witness"] is None:
                p = scanned[r["id"]]
                assert (r["locus"]["line"], r["locus"]["column"]) == (p["line"], p["column"])
                assert (r["locus"]["half"]["line"], r["locus"]["half"]["column"]) == (
                    p["half_line"], p["half_column"])
                assert "".join(s["glyph"] for s in r["locus"]["strokes"]) == p["raw"].replace(
                    "半", "")
                assert [(n["note"], n["line"], n["column"]) for n in r["notes"] if n["read"]] == [
                    (n["note"], n["line"], n["column"]) for v in p["variants"] for n in v["notes"]]
                assert r["locus"]["file"] == p["file"] == "yishu.txt"
            else:
                v = witnesses[r["id"]]
                assert name == f"yishu~{v['witness']}" and r["witness"] == v["witness"]
                assert [(n["note"], n["line"], n["column"]) for n in r["notes"]] == [
                    (n["note"], n["line"], n["column"]) for n in v["notes"]]
                assert (r["before"], r["after"]) == (v["before"], v["after"])
    assert seen == set(scanned) | set(witnesses)
    # the count claims: commentator, and each reading's count against them
    claims = [cl for c in collated for cl in c["claims"]]
    assert claims and all(cl["commentator"] == "徐伯鲁" for cl in claims)
    for c in collated:
        for cl in c["claims"]:
            for name, a in cl["readings"].items():
                counted = c["readings"][name]["counts"][cl["part"]][cl["drum"]]
                assert a == {"counted": counted, "agrees": counted == cl["count"]}


def test_base_chooses_the_lemma(yishu):
    collated = json.loads(guji("collate", "--base", "wuli-tongkao", "--json", cwd=yishu))
    assert {c["base"] for c in collated} == {"wuli-tongkao"}
    lu1 = collated[0]
    assert lu1["variants"][0]["readings"]["wuli-tongkao"] == "□"


@pytest.mark.parametrize("fmt, delimiter", [("csv", ","), ("tsv", "\t")])
def test_apparatus_table_one_row_per_place(yishu, fmt, delimiter):
    collated = json.loads(guji("collate", "yishu.txt", "--json", cwd=yishu))
    table = guji("collate", "yishu.txt", "--format", fmt, cwd=yishu)
    rows = list(csv.DictReader(io.StringIO(table), delimiter=delimiter))
    variants = [(c, v) for c in collated for v in c["variants"]]
    assert len(rows) == len(variants) == 3
    for row, (c, v) in zip(rows, variants):
        assert (row["score"], int(row["diagram"]), int(row["column"])) == (
            c["score"], c["diagram"], v["column"] + 1)
        for name, glyph in v["readings"].items():
            assert row[name] == (glyph or "-")
        assert row["base_glyph"] == (v["readings"][c["base"]] or "-")
        assert all(n in row["witnesses"] for n in v["readings"])


@pytest.mark.parametrize("ed", editions(), ids=lambda e: e.slug)
def test_every_description_is_attested_by_its_seed(ed):
    """Each field of a shipped edition's description is quoted from its seed at
    the line and column recorded (never invented); the unknown ones are said."""
    seed = (DATA / "seeds" / ed.seed).read_text(encoding="utf-8").split("\n")
    for ev in ed.bibl.evidence:
        assert seed[ev.line - 1][ev.column - 1:].startswith(ev.text), ev
    given = ed.bibl.given()
    assert given["file"] == ed.seed
    for name, value in given.items():
        if name == "file":
            continue
        quotes = [e.text for e in ed.bibl.evidence if e.field == name]
        assert quotes and any(_written_in(value, q) for q in quotes), (name, value)
    for name in ed.bibl.quoted:
        assert any(e.text == name + "曰" for e in ed.bibl.evidence if e.field == "quoted")
    assert set(ed.bibl.unknown) == {f for f in FIELDS if f not in given}
    assert ed.siglum and ed.lang in ("zh-Hant", "zh-Hans")


def _written_in(value: str, quote: str) -> bool:
    """The value is in the quote, as written (a list of the catalogue's words too)."""
    return value in quote or all(part in quote for part in value.split(","))


def test_a_user_file_described_beside_it(tmp_path):
    text = tmp_path / "copy.txt"
    text.write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    bibl, siglum, lang = file_bibl(text)
    assert (bibl.title, bibl.file, siglum, lang) == ("copy", "copy.txt", "copy", "zh")
    (tmp_path / "copy.source.toml").write_text('title = "抄本"\ndate = "1990"\nsiglum = "C"\n'
                                               'lang = "zh-Hant"\n', encoding="utf-8")
    bibl, siglum, lang = file_bibl(text)
    assert (bibl.title, bibl.date, siglum, lang) == ("抄本", "1990", "C", "zh-Hant")
    assert "date" not in bibl.unknown and "author" in bibl.unknown
    (tmp_path / "copy.source.toml").write_text('titel = "x"\n', encoding="utf-8")
    proc = runner.guji(["collate", "copy.txt"], tmp_path, script=True, text=True, timeout=300)
    assert proc.returncode == 2 and "unknown field titel" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1

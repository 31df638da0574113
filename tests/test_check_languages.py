"""``guji check`` in the user's language (issue 23): the report and its picture.

A Chinese session reads the whole practice report in Chinese — the summary,
the tempo, the deviation and drift, the worst places, the table's header and
the kind of every row — with the table's columns padded by display width; the
picture's headline, strip labels, scale and tooltips too. What is data stays:
the ids, file names, part names, ``--json`` (the same bytes in every language)
and the picture's ``data-*`` attributes. ``guji play --check`` prints the same
report (guji.practice.report.report_text), so it is covered here too.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import soundfile as sf

from runner import environment, run

sys.path.insert(0, str(Path(__file__).parent))
from practice_set import perform, shipped_patterns  # noqa: E402

from guji.errors import display_width  # noqa: E402

GUJI = str(Path(sys.executable).with_name("guji"))
SVG = "{http://www.w3.org/2000/svg}"
LANGS = {"en": "C.UTF-8", "zh-Hant": "zh_TW.UTF-8", "zh-Hans": "zh_CN.UTF-8"}
PATTERN = shipped_patterns()[0]


def _check(tmp_path, lang, *args):
    return run([GUJI, "check", *args], tmp_path, env=environment(LANG=LANGS[lang]))


def _english_left(text: str, data: set[str]) -> list[str]:
    """Latin words of three letters or more in *text* that are not *data*
    (ids, file names, part names) or the units ms and bpm."""
    for word in sorted(data, key=len, reverse=True):
        text = text.replace(word, " ")
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ("bpm",)]


def _data_words(report: dict, *names: str) -> set[str]:
    """What the report's JSON holds as data: ids, the recording, part names."""
    parts = {s["part"] for s in report["strokes"] if s["part"]}
    return {*report["ids"], report["recording"], *parts, *names}


def _table(text: str) -> tuple[str, list[str]]:
    """The table's header and its stroke rows (lines starting with a number)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    return lines[head], [line for line in lines[head + 1:] if re.match(r"\s+\d+ ", line)]


def _column_ends(line: str) -> list[int]:
    """The display columns where each run of non-spaces in *line* ends."""
    return [display_width(line[:m.end()]) for m in re.finditer(r"\S+", line)]


def test_a_rendered_recording_checked_in_chinese_has_no_english_left(tmp_path):
    render = run([GUJI, "render", "lu", "-o", "REC.wav"], tmp_path)
    assert render.returncode == 0, render.stderr
    runs = {lang: _check(tmp_path, lang, "REC.wav", "lu") for lang in LANGS}
    jsons = {lang: _check(tmp_path, lang, "REC.wav", "lu", "--json") for lang in LANGS}
    assert {r.returncode for r in runs.values()} == {0}, [r.stderr for r in runs.values()]
    assert {r.returncode for r in jsons.values()} == {0}
    assert len({r.stdout for r in jsons.values()}) == 1          # JSON: the same bytes
    report = json.loads(jsons["en"].stdout)
    data = _data_words(report)
    english = runs["en"].stdout.decode()
    assert english.startswith("REC.wav: 12 of 12 strokes right (0 wrong drum, 0 missing, 0 extra)")
    assert len(_english_left(english, data)) > 20                 # the check can fail
    for lang in ("zh-Hant", "zh-Hans"):
        text = runs[lang].stdout.decode()
        assert _english_left(text, data) == [], (lang, text)
        assert len(text.splitlines()) == len(english.splitlines())
    hant, hans = runs["zh-Hant"].stdout.decode(), runs["zh-Hans"].stdout.decode()
    assert hant.startswith("REC.wav：12 擊中對了 12 擊（錯鼓 0，漏擊 0，多擊 0）\n速度由錄音求得")
    assert "平穩" in hant and "偏差最大處：第 " in hant and " 鼙 對\n" in hant
    assert hans.startswith("REC.wav：12 击中对了 12 击") and "平稳" in hans
    # the table padded by display width: every header word ends where its column ends
    for lang in LANGS:
        head, body = _table(runs[lang].stdout.decode())
        assert len(body) == 12
        ends = _column_ends(head)
        assert len(ends) == 6                                     # # pass expected played ms drum
        for row in body:
            row_ends = _column_ends(row)
            assert row_ends[:2] == ends[:2] and row_ends[3:6] == ends[2:5], (lang, head, row)


def _take(tmp_path):
    x, truth = perform(PATTERN, seed=3, jitter=0.01, repeat=2, wrong=2, missing=2, extra=2,
                       late=(7, 0.045))
    sf.write(tmp_path / "take.wav", x, 48000)
    return truth


def test_mistakes_and_their_picture_in_chinese(tmp_path):
    _take(tmp_path)
    argv = ["take.wav", PATTERN.id, "--rite", "she", "--repeat", "2"]
    runs = {lang: _check(tmp_path, lang, *argv, "-o", f"{lang}.svg") for lang in LANGS}
    jsons = {lang: _check(tmp_path, lang, *argv, "--json") for lang in LANGS}
    assert len({r.returncode for r in [*runs.values(), *jsons.values()]}) == 1
    assert runs["en"].returncode == 0, runs["en"].stderr
    assert len({r.stdout for r in jsons.values()}) == 1
    report = json.loads(jsons["en"].stdout)
    kinds = {s["kind"] for s in report["strokes"]}
    assert kinds == {"ok", "wrong drum", "missing", "extra"}
    data = _data_words(report, "take.wav", "en.svg", "zh-Hant.svg", "zh-Hans.svg")
    hant = runs["zh-Hant"].stdout.decode()
    assert _english_left(hant, data) == [], hant
    assert _english_left(runs["zh-Hans"].stdout.decode(), data) == []
    assert _english_left(runs["zh-Hant"].stderr, data) == [], runs["zh-Hant"].stderr
    assert "已寫出 zh-Hant.svg：報告之圖（" in runs["zh-Hant"].stderr
    for word in (" 錯鼓\n", "  漏擊\n", " 多擊\n"):
        assert word in hant, word
    # the picture: its words translated, its data the same as in English
    trees = {lang: ET.parse(tmp_path / f"{lang}.svg").getroot() for lang in LANGS}
    words = {lang: " ".join(t.text or "" for t in tree.iter() if t.tag in (f"{SVG}text", f"{SVG}title"))
             for lang, tree in trees.items()}
    han = words["zh-Hant"]
    for label in ("遲 ↑", "早 ↓", " · 第 1 遍", " · 第 2 遍", "：漏擊", "（錯鼓）", "多擊 ",
                  "take.wav 對照 " + PATTERN.id, "毫秒"):
        assert label in han, label
    assert "late ↑" in words["en"] and " · pass 2" in words["en"]
    assert _english_left(han, data) == [], _english_left(han, data)
    assert _english_left(words["zh-Hans"], data) == []
    attrs = {lang: [sorted((k, v) for k, v in e.attrib.items() if k.startswith("data-"))
                    for e in tree.iter() if e.get("data-kind")] for lang, tree in trees.items()}
    assert attrs["en"] and attrs["en"] == attrs["zh-Hant"] == attrs["zh-Hans"]

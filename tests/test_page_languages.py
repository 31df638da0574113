"""What a reader looks at, in 繁體中文, 简体中文 and English (gettext domain ``page``).

The page (``guji page``) and the drawings (``guji draw``, SVG and PNG) are
made in each language and looked at in a real headless Chromium: the
translated legend and key are what the browser shows (its DOM text), the
screenshots of the Chinese drawings are saved in the test's folder and
differ from the English ones where the words stand, and the page says its
language (``<html lang>``). The studio's page carries its script's words
in the chosen language and the script shows them. The sheet's titles and
credits are translated, the names tools match on (part and instrument
names, ids) are not. And every JSON a command prints is the same bytes in
the three languages. (axe-core on the Chinese pages: tests/test_accessibility.py;
the catalogs' checks: tests/test_i18n.py, every domain.)
"""

from __future__ import annotations

import contextlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from guji import i18n
from guji.cli.main import main
from guji.sheet import sheet_of, to_lilypond, to_musicxml
from guji.studio import words
from guji.studio.documents import Library
from guji.studio.server import asset, start
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.layout import lay_out
from guji.timing.performance import Timing
from guji.views.draw import drawing_svg
from guji.views.page import write_page

import runner
import tools
from test_draw import read_png
from test_page import BROWSER, BROWSER_ARGS, _browser
from test_studio import FIXED

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "zh-Hant", "zh-Hans")
IDS = ("xue:2", "xue:2@lijing-benyi")
#: The key's first item and the legend's diagram, as each language writes them.
KEY = {"en": "鼙 small drum (○)", "zh-Hant": "鼙，小鼓（○）", "zh-Hans": "鼙，小鼓（○）"}
LEGEND = {"en": "薛鼓 · 後圖 (diagram 2) · 禮記正義", "zh-Hant": "薛鼓 · 後圖（第2圖）· 禮記正義",
          "zh-Hans": "薛鼓 · 後圖（第2图）· 禮記正義"}
GAP = {"en": "no stroke here (a gap in the alignment)", "zh-Hant": "此處無擊（對齊之空位）",
       "zh-Hans": "此处无击（对齐之空位）"}
#: Three English words in a row: a sentence left untranslated.
ENGLISH = re.compile(r"\b[A-Za-z]{2,}\b[ ,;:]+\b[a-z]{2,}\b[ ,;:]+\b[a-z]{2,}\b")


@contextlib.contextmanager
def speaking(lang: str):
    """guji speaks *lang* inside (in this process), English again after."""
    before = i18n.language()
    i18n.use(lang)
    try:
        yield
    finally:
        i18n.use(before)


def patterns():
    return [load(i) for i in IDS]


# -- the drawings: the words change, the picture does not ------------------------------

def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg.split("?>", 1)[-1])
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def _shapes(svg: str) -> list[tuple]:
    """The strokes drawn (their keys and kinds): the same in every language."""
    return re.findall(r'class="stroke (small|big)" data-stroke="([\d-]+)"', svg)


@pytest.mark.parametrize("lang", LANGS)
def test_the_drawings_legend_and_key_are_in_the_language(lang):
    with speaking(lang):
        svg = drawing_svg(patterns())
    texts = _texts(svg)
    assert KEY[lang] in texts and LEGEND[lang] in texts and GAP[lang] in svg
    with speaking("en"):
        english = drawing_svg(patterns())
    assert _shapes(svg) == _shapes(english) and len(_shapes(svg)) > 40
    if lang != "en":
        assert KEY["en"] not in texts and not any(ENGLISH.search(t) for t in texts), texts


def test_a_chinese_drawing_from_the_command_line_svg_and_png(tmp_path, chromium):
    """``guji --lang zh-Hant draw`` writes the translated legend; its PNG (through
    Chromium) differs from the English one, and both have ink."""
    shots = {}
    for lang in ("en", "zh-Hant"):
        svg = runner.guji(["--lang", lang, "draw", *IDS, "-o", "-"], tmp_path)
        assert svg.returncode == 0, svg.stderr
        assert KEY[lang] in _texts(svg.stdout.decode("utf-8"))
        with speaking("en"):           # in this process (Chromium needs more than runner's bounds)
            assert main(["--lang", lang, "draw", *IDS, "-o", str(tmp_path / f"draw-{lang}.png")]) == 0
        shots[lang] = read_png(tmp_path / f"draw-{lang}.png")[..., :3].astype(int)
    for img in shots.values():
        assert (img.mean(axis=2) < 100).sum() > 500
    en, zh = shots["en"], shots["zh-Hant"]
    h, w = min(en.shape[0], zh.shape[0]), min(en.shape[1], zh.shape[1])
    assert np.abs(en[:h, :w] - zh[:h, :w]).sum(axis=2).astype(bool).sum() > 2000


# -- the page, in Chromium -----------------------------------------------------------------

LOOK = """() => ({
  lang: document.documentElement.lang,
  key: Array.from(document.querySelectorAll('#timeline svg text')).map(t => t.textContent),
  legend: Array.from(document.querySelectorAll('#source svg text.legend')).map(t => t.textContent),
  headings: Array.from(document.querySelectorAll('h2')).map(h => h.innerText),
  prose: Array.from(document.querySelectorAll('main > p, main h2, main h3, .player p'))
              .map(p => p.innerText),
  schedule: Array.from(document.querySelectorAll('pre.schedule')).map(p => p.innerText),
})"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The same page written in each language (one compare mode: less audio)."""
    out = {}
    for lang in LANGS:
        with speaking(lang):
            out[lang] = write_page(tmp_path_factory.mktemp(f"page-{lang}") / "xue2", patterns(),
                                   Timing(rite=Rite.SHE, interval=0.3), modes=("diff",),
                                   rate=16000)
    return out


def test_the_page_in_chinese_looked_at_in_chromium(pages, tmp_path, chromium):
    sync_api = _browser()
    seen, shots = {}, {}
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=BROWSER, args=BROWSER_ARGS,
                                     env=tools.browser_environment())
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            for lang, index in pages.items():
                page.goto(index.as_uri())
                page.wait_for_load_state("load")
                seen[lang] = page.evaluate(LOOK)
                shots[lang] = tmp_path / f"timeline-{lang}.png"
                page.locator("#timeline svg").screenshot(path=str(shots[lang]))
                page.screenshot(path=str(tmp_path / f"page-{lang}.png"), full_page=True)
        finally:
            browser.close()
    for lang in LANGS:
        assert seen[lang]["lang"] == lang
        assert KEY[lang] in seen[lang]["key"] and LEGEND[lang] in seen[lang]["legend"]
    assert seen["zh-Hant"]["headings"] == ["依原書所載", "對齊", "聆聽"]
    assert seen["zh-Hans"]["headings"] == ["依原书所载", "对齐", "聆听"]
    for lang in ("zh-Hant", "zh-Hans"):
        left = [p for p in seen[lang]["prose"] if ENGLISH.search(p)]
        assert left == [], left
    assert any(ENGLISH.search(p) for p in seen["en"]["prose"])
    # the compare schedule's box (guji.compare's Words) speaks the page's language too
    assert "標出之處（該擊上響鈴）：" in seen["zh-Hant"]["schedule"][0]
    assert "标出之处（该击上响铃）：" in seen["zh-Hans"]["schedule"][0]
    assert "marked (a bell on the stroke):" in seen["en"]["schedule"][0]
    for lang in ("zh-Hant", "zh-Hans"):
        assert not [line for line in seen[lang]["schedule"][0].splitlines() if ENGLISH.search(line)]
    # the screenshots: Chinese words where the English ones stood, the picture the same
    en, zh = (read_png(shots[k])[..., :3].astype(int) for k in ("en", "zh-Hant"))
    assert (zh.mean(axis=2) < 100).sum() > 500
    h, w = min(en.shape[0], zh.shape[0]), min(en.shape[1], zh.shape[1])
    assert np.abs(en[:h, :w] - zh[:h, :w]).sum(axis=2).astype(bool).sum() > 2000


def test_the_pages_data_is_the_same_in_every_language(pages):
    """The audio files, their names and what the script follows do not change."""
    def data(index: Path) -> tuple:
        text = index.read_text("utf-8")
        files = sorted(p.name for p in index.parent.iterdir())
        return (files, re.findall(r'data-follow="([^"]*)"', text),
                re.findall(r'data-stroke="([^"]*)"', text), re.findall(r'<source src="([^"]*)"', text),
                {p.name: p.read_bytes() for p in index.parent.iterdir() if p.suffix == ".flac"})
    assert data(pages["en"]) == data(pages["zh-Hant"]) == data(pages["zh-Hans"])


def test_every_message_the_page_side_writes_is_in_its_catalog():
    """Each ``_("…")``, ``T("…")`` and ``{{_ …}}`` written in the page side's files is
    extracted (one hidden in an f-string is not: Babel does not look inside them)."""
    from guji import i18n_tools
    extracted = {m.id if isinstance(m.id, str) else m.id[0]
                 for m in i18n_tools.extract("page") if m.id}
    written = set()
    for path in i18n_tools._page_files():
        text = re.sub(r"``.*?``", "", path.read_text("utf-8"), flags=re.S)   # docs' examples
        written |= {m[1] for m in re.findall(r"\b(?:_|T|TN|N_)\((['\"])((?:(?!\1).)+)\1\s*[,)]", text)}
        written |= set(re.findall(r"\{\{_ (.+?)\}\}", text))
    assert len(written) > 100 and written - extracted == set()


#: The glossary's terms (docs/glossary.md) a message with the English word must use.
TERMS = {"count-in": ("預備拍",), "edition": ("版本", "校勘本"), "touhu": ("投壺",),
         "witness": ("本",), "pattern": ("圖",), "patterns": ("圖",), "warning": ("注意",),
         "click": ("節拍聲", "預備拍"), "clicks": ("節拍聲", "預備拍"), "substitution": ("異",),
         "insertion": ("衍",), "deletion": ("脫",), "stroke": ("擊", "鼓點")}


def test_the_page_words_keep_the_glossarys_terms():
    from guji.i18n_tools import po_path, read
    wrong = []
    for message in read(po_path("page", "zh_Hant"), "zh_Hant"):
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        chinese = message.string if isinstance(message.string, str) else message.string[0]
        english = re.sub(r"\{\w+\}", "", english)             # the placeholders' names
        for word, terms in TERMS.items():
            pattern = f"(?:{re.escape(word)}|{re.escape(word.capitalize())})"   # not WITNESS
            if re.search(rf"(?<![-\w]){pattern}\b", english) and \
                    not any(t in chinese for t in terms):
                wrong.append((word, english[:50], chinese))
    assert wrong == []


# -- the studio: its page and its script's words -------------------------------------------

@pytest.mark.parametrize("lang", ("zh-Hant", "zh-Hans"))
def test_the_studio_page_is_written_in_the_language(lang):
    with speaking(lang):
        text = words.page(asset("index.html").decode("utf-8"), "TOKEN")
    assert f'<html lang="{lang}">' in text and "{{" not in text
    carried = json.loads(re.search(r'id="guji-words">(.*?)</script>', text).group(1))
    found = "得圖 {n} 幅" if lang == "zh-Hant" else "得图 {n} 幅"
    assert carried["Play"] == "播放" and carried["{n} pattern found"] == [found]
    visible = re.sub(r"<script.*?</script>|<[^>]+>", " ", text, flags=re.S)
    assert not ENGLISH.search(visible), ENGLISH.search(visible)


def test_the_studio_script_speaks_from_the_catalog(chromium):
    """In a zh-Hant studio, the words the script writes (the reading's status,
    the Play button after a stop) are the catalog's, not the script's English."""
    sync_api = _browser()
    with speaking("zh-Hant"):
        server, thread = start(Library())
        try:
            with sync_api.sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=BROWSER, args=BROWSER_ARGS,
                                             env=tools.browser_environment())
                try:
                    page = browser.new_page()
                    page.goto(server.url)
                    page.locator("#readings input").first.wait_for()
                    page.fill("#editor", FIXED)
                    page.locator("#found > li").nth(1).wait_for()
                    status = page.inner_text("#status")
                    page.evaluate("() => window.gujiStudio.player.stop()")
                    play = page.inner_text("#play")
                    chosen = page.inner_text("#chosen")
                    lang = page.evaluate("() => document.documentElement.lang")
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()
            thread.join(5)
    assert lang == "zh-Hant"
    assert re.fullmatch(r"得圖 2 幅，注意 \d+ 則（.+）", status), status
    assert play == "播放" and chosen == "尚未選擇。"


# -- the sheet: credits translated, names kept ----------------------------------------------

def _sheet(lang: str):
    with speaking(lang):
        sheet = sheet_of(lay_out([load("lu:1")], Timing(rite=Rite.TOUHU, repeat=2)))
        return sheet, to_musicxml(sheet), to_lilypond(sheet)


def test_the_sheets_words_are_translated_its_names_are_not():
    (en, en_xml, en_ly), (zh, zh_xml, zh_ly) = _sheet("en"), _sheet("zh-Hant")
    assert "鼓點起於其數位文本第" in "".join(zh.credits) and "strokes from line" in en.credits[1]
    assert zh.subtitle == "投壺 touhu：自「半」至終 · 凡2遍" and en.subtitle.startswith("投壺 touhu: from")
    assert zh.title == "魯鼓 · 前圖（第1圖）· 禮記正義"
    for xml in (en_xml, zh_xml):
        ET.fromstring(xml.encode("utf-8"))
    names = lambda x: re.findall(r"<(part-name|instrument-name|score-part|part|instrument)\b[^>]*>"
                                 r"([^<]*)", x)
    assert names(en_xml) == names(zh_xml) and names(en_xml)
    # without the words a reader reads, the two files are the same
    words_ = re.compile(r"<(credit-words|work-title|movement-title|source)\b([^>]*)>[^<]*<")
    assert words_.sub(r"<\1\2><", en_xml) == words_.sub(r"<\1\2><", zh_xml)
    assert "凡2遍" in zh_ly and "instrumentName" in zh_ly


# -- JSON: the same bytes in every language ----------------------------------------------------

JSON_COMMANDS = (
    ["show", "lu:1", "--json"],
    ["list", "--json"],
    ["diff", "xue:2", "xue:2@lijing-benyi", "--json"],
    ["compare", "xue:2", "xue:2@lijing-benyi", "--mode", "diff", "--rite", "she", "--json"],
    ["claims", "texts/benyi.txt", "--json"],
    ["collate", "texts", "--format", "json"],
    ["glyphs", "--json"],
    ["scan", "texts/benyi.txt", "--json"],
)


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda a: a[0])
def test_json_is_the_same_bytes_in_every_language(args, tmp_path):
    (tmp_path / "texts").mkdir()
    for name in ("liji-zhengyi", "lijing-benyi", "wuli-tongkao"):     # not the editions' names
        (tmp_path / "texts" / f"{name.split('-')[1]}.txt").write_bytes(
            (ROOT / "patterns" / f"{name}.txt").read_bytes())
    runs = {}
    for lang, env in (("en", {"LANG": "C"}), ("zh-Hant", {"LANG": "zh_TW.UTF-8"}),
                      ("zh-Hans", {"LANG": "zh_CN.UTF-8"})):
        by_option = runner.guji(["--lang", lang, *args], tmp_path)
        by_system = runner.guji(args, tmp_path, env=runner.environment(**env))
        runs[lang] = by_option
        assert (by_system.returncode, by_system.stdout) == (by_option.returncode, by_option.stdout)
    assert runs["en"].returncode in (0, 1), runs["en"].stderr    # 1: guji diff found some
    json.loads(runs["en"].stdout)
    assert runs["en"].returncode == runs["zh-Hant"].returncode == runs["zh-Hans"].returncode
    assert runs["en"].stdout == runs["zh-Hant"].stdout == runs["zh-Hans"].stdout

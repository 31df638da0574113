"""The studio and the shared page (``guji page``) for everyone: audited in headless Chromium.

At a phone's width (390 px) and a desktop's (1280 px), each page gets an
axe-core audit (the npm package, installed outside guji by ``.ci/run``:
``npm install --prefix .ci/node axe-core``) with no violation, and is
checked for what the audit does not see: no horizontal scroll of the page
itself, the timeline's text at least 10 CSS px as drawn, no literal
``U+000A`` where a schedule should break its lines, a ``<main>`` landmark,
and every run of Chinese text inside an element whose ``lang`` says so
(the prose around it being English, the page's own ``lang``). The same
audits pass on the pages in 繁體中文 and 简体中文 (``<html lang>`` zh-Hant /
zh-Hans, the sources' words marked zh-Hant inside a zh-Hans page).
"""

from __future__ import annotations

import pytest

from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.timing.performance import Timing
from guji.views.page import write_page

from browsers import AXE, launched, serving
from test_page_languages import speaking
from test_studio import FIXED

WIDTHS = (390, 1280)

CHECKS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  const html = document.documentElement;
  const sizes = Array.from(document.querySelectorAll('#timeline svg text')).map(t => {
    const svg = t.ownerSVGElement, box = svg.viewBox.baseVal;
    const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
    return parseFloat(getComputedStyle(t).fontSize) * scale;
  });
  const wrong = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!/[\\u3400-\\u9fff○□]/.test(n.textContent)) { continue; }
    const el = n.parentElement;
    if (el.closest('svg, script, style, textarea, option')) { continue; }  // an option holds text only
    const lang = el.closest('[lang]').getAttribute('lang');
    if (!lang.startsWith('zh')) { wrong.push(n.textContent.trim().slice(0, 40)); }
  }
  return {violations: result.violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})),
          scroll: [html.scrollWidth, html.clientWidth], sizes: sizes,
          text: document.body.innerText, main: document.querySelectorAll('main').length,
          lang: html.lang, wrong: wrong};
}"""


@pytest.fixture(scope="module")
def browser(chromium):
    with launched(axe=True) as b:
        yield b


def audit(browser, url: str, width: int, prepare=None) -> dict:
    # bypass_csp: axe is injected as a script of the test's (the studio's CSP refuses it)
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url)
        if prepare:
            prepare(page)
        page.add_script_tag(path=str(AXE))
        return page.evaluate(CHECKS)
    finally:
        context.close()


def check(found: dict, width: int, lang: str = "en") -> None:
    assert found["violations"] == [], found["violations"]
    assert found["scroll"][0] <= found["scroll"][1], f"scrolls sideways at {width} px"
    assert found["sizes"] and min(found["sizes"]) >= 10, min(found["sizes"] or [0])
    assert "U+000A" not in found["text"]
    assert found["main"] == 1 and found["lang"] == lang
    assert found["wrong"] == [], found["wrong"]


@pytest.fixture(scope="module")
def shared_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("a11y") / "xue2"
    return write_page(folder, [load("xue:2"), load("xue:2@lijing-benyi")],
                      Timing(rite=Rite.SHE, interval=0.3), rate=16000)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_shared_page(browser, shared_page, width):
    check(audit(browser, shared_page.as_uri(), width), width)


@pytest.fixture(scope="module", params=("zh-Hant", "zh-Hans"))
def chinese_page(request, tmp_path_factory):
    with speaking(request.param):
        folder = tmp_path_factory.mktemp("a11y") / "xue2"
        return request.param, write_page(folder, [load("xue:2"), load("xue:2@lijing-benyi")],
                                         Timing(rite=Rite.SHE, interval=0.3), rate=16000)


def test_the_shared_page_in_chinese(browser, chinese_page):
    lang, index = chinese_page
    for width in WIDTHS:
        check(audit(browser, index.as_uri(), width), width, lang)


@pytest.fixture(scope="module")
def studio():
    with serving() as server:
        yield server


def _use(page) -> None:
    """The studio as used: a text pasted, two readings chosen, a compare mode's schedule."""
    page.locator("#readings input").first.wait_for()
    page.fill("#editor", FIXED)
    page.locator("#found > li").nth(1).wait_for()
    page.check('#readings input[value="edition:liji-zhengyi|lu:1|"]')
    page.check('#readings input[value="edition:wuli-tongkao|lu:1|"]')
    page.locator("#alignments table").wait_for()
    page.check('input[name=mode][value="diff"]')
    page.locator("#schedule").wait_for()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_studio(browser, studio, width):
    check(audit(browser, studio.url, width, _use), width)


@pytest.mark.parametrize("lang", ("zh-Hant", "zh-Hans"))
def test_the_studio_in_chinese(browser, studio, lang):
    with speaking(lang):                    # the studio speaks the language it runs in
        for width in WIDTHS:
            check(audit(browser, studio.url, width, _use), width, lang)


def test_the_studio_by_keyboard_alone(browser, studio):
    """Every control is reached with Tab, and named; Space plays; B switches."""
    context = browser.new_context(viewport={"width": 390, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(studio.url)
        _use(page)
        seen = []
        page.keyboard.press("Tab")
        for _ in range(200):
            seen.append(page.evaluate("""() => { const e = document.activeElement;
                return e.id || e.getAttribute('data-kind') || e.value || e.tagName; }"""))
            page.keyboard.press("Tab")
        for wanted in ("editor", "play", "stop", "loop", "rite", "interval", "bpm", "repeat",
                       "count-in", "drums", "midi", "page", "json", "source", "timeline"):
            assert wanted in seen, wanted
        page.focus("#stop")
        page.keyboard.press("Space")                   # on a button: the button (stop)
        page.locator("#readings input").first.focus()
        page.keyboard.press("b")                        # B sounds (at the next stroke)
        assert page.get_attribute("#switch button:nth-child(2)", "aria-pressed") == "true"
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_studio_as_it_opens(browser, studio, width):
    """Nothing chosen yet (the switch's group empty, named all the same): no violation."""
    found = audit(browser, studio.url, width,
                  lambda page: page.locator("#readings input").first.wait_for())
    assert found["violations"] == [], found["violations"]
    assert found["scroll"][0] <= found["scroll"][1], f"scrolls sideways at {width} px"
    assert found["wrong"] == [], found["wrong"]

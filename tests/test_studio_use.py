"""The studio used in a real headless Chromium: the cases that once went wrong.

* Two texts pasted are two texts: ``pasted-1.txt`` and ``pasted-2.txt``, two
  ids, and each export (JSON, MIDI) holds its own text — the bytes ``guji``
  writes from the two files.
* Looping while switching A/B over several passes: the lit row is always the
  reading sounding (the switches are frames from the start, the loop's
  position is not), measured from the audio clock.
* By keyboard alone: Space on a reading's checkbox chooses it (and on Loop
  ticks Loop) and never plays; the focus on "Open a file…" is seen.
* The error's caret stands under the typo as the page draws it, however many
  full-width ○□ stand before it.
* Looped, the last stroke rings on into the next pass; the stroke sounding is
  said in words (``A · stroke 5 · □ 鼓``) and lit in a hue of its own, not
  the yellow of "differs from A".
"""

from __future__ import annotations

import colorsys
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from browsers import launched, serving
from test_studio import FIXED

#: every test here drives the studio in a real headless Chromium
pytestmark = pytest.mark.browser

GUJI = str(Path(sys.executable).with_name("guji"))
A, B = "edition:liji-zhengyi|lu:1|", "edition:wuli-tongkao|lu:1|"
OTHER = FIXED.replace("○□○○□□○○半", "□□○○□□○○半")      # the 薛鼓 line with a stroke changed
TIMING = ["--rite", "she", "--interval", "0.6", "--repeat", "1", "--count-in", "0"]


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


@pytest.fixture
def page(browser):
    """The page of a fresh studio, the test's probes allowed (bypass_csp)."""
    with serving() as studio:
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      accept_downloads=True, bypass_csp=True)
        p = context.new_page()
        p.problems = []
        p.on("pageerror", lambda e: p.problems.append(str(e)))
        p.goto(studio.url)
        p.locator("#readings input").first.wait_for()
        try:
            yield p
        finally:
            context.close()


def _paste(page, text, n):
    """*text* pasted as a new text, the studio's *n*-th."""
    page.select_option("#doc", "")
    page.fill("#editor", text)
    page.wait_for_function(f"Object.keys(window.gujiStudio.state.docs).length === {n} && "
                           f"window.gujiStudio.state.docs['paste:{n}'].patterns.length === 2")


def _download(page, kind) -> bytes:
    with page.expect_download(timeout=120000) as got:
        page.click(f'#exports button[data-kind="{kind}"]')
    return Path(got.value.path()).read_bytes()


def test_two_pasted_texts_each_exported_as_itself(page, tmp_path):
    _paste(page, FIXED, 1)
    _paste(page, OTHER, 2)
    legends = page.eval_on_selector_all("#readings legend", "els => els.map(e => e.textContent)")
    assert legends[:2] == ["pasted-1.txt", "pasted-2.txt"]
    ids = ["xue:1@pasted-1.txt", "xue:1@pasted-2.txt"]
    for i, ref in enumerate(["paste:1|xue:1|", "paste:2|xue:1|"]):
        assert page.get_attribute(f'#readings input[value="{ref}"]', "data-id") == ids[i]
        page.check(f'#readings input[value="{ref}"]')
    page.wait_for_function("window.gujiStudio.player.view && "
                           "window.gujiStudio.player.view.readings.length === 2")
    assert "1 substitution" in page.locator("#alignments h3").inner_text()
    (tmp_path / "pasted-1.txt").write_text(FIXED, encoding="utf-8")
    (tmp_path / "pasted-2.txt").write_text(OTHER, encoding="utf-8")
    json_made = subprocess.run([GUJI, "compare", *ids, "--mode", "sequence", *TIMING, "--json"],
                               cwd=tmp_path, capture_output=True, check=True).stdout
    subprocess.run([GUJI, "midi", *ids, *TIMING, "-o", "x.mid"], cwd=tmp_path,
                   capture_output=True, check=True)
    assert _download(page, "json") == json_made
    assert _download(page, "midi") == (tmp_path / "x.mid").read_bytes()
    assert page.locator("#command").inner_text() == (
        "guji render xue:1@pasted-1.txt xue:1@pasted-2.txt " + " ".join(TIMING)
        + " -o guji-xue1-pasted-1-xue1-pasted-2-ab-she.wav")
    assert page.problems == []


SAMPLE = """() => {
  // the light as the screen shows it, in each animation frame after the page's own update,
  // with the frame heard then (the audio clock less its output latency)
  window.litSamples = [];
  const p = window.gujiStudio.player;
  function sample() {
    const c = p.ctx;
    if (c && p.playing) {
      window.litSamples.push({
        frame: (c.currentTime - (c.outputLatency || 0) - p.startAt) * c.sampleRate,
        lit: Array.from(document.querySelectorAll('#source .sounding')).map(e => e.dataset.stroke)});
    }
    window.requestAnimationFrame(sample);
  }
  window.requestAnimationFrame(sample);
}"""


def _at(page, frame):
    page.wait_for_function(f"(() => {{ const p = window.gujiStudio.player; return "
                           f"(p.ctx.currentTime - p.startAt) * 48000 > {frame}; }})()",
                           timeout=60000)


def test_looping_while_switching_lights_the_reading_sounding(page):
    page.check("#loop")
    page.fill("#interval", "0.1")
    page.dispatch_event("#interval", "change")
    for ref in (A, B):
        page.check(f'#readings input[value="{ref}"]')
    page.wait_for_function("window.gujiStudio.player.view && "
                           "window.gujiStudio.player.view.readings.length === 2 && "
                           "window.gujiStudio.player.buffers.length === 2 && "
                           "window.gujiStudio.player.buffers.every(b => b)")
    page.evaluate(SAMPLE)
    page.focus("#stop")
    page.click("#play")
    page.wait_for_function("window.gujiStudio.player.playing")
    loop = page.evaluate("window.gujiStudio.player.loopFrames")
    # B a third into pass 1, A two thirds into pass 2, B a third into pass 3: in passes 2 and
    # 3 the position within the loop is before a switch that has already sounded
    for at, key in ((loop / 3, "b"), (loop * 5 / 3, "a"), (loop * 7 / 3, "b")):
        _at(page, at)
        page.keyboard.press(key)
    _at(page, loop * 3.8)
    samples = page.evaluate("window.litSamples")
    switches = page.evaluate("window.gujiStudio.player.switches")
    page.click("#stop")
    assert [s["to"] for s in switches] == [1, 0, 1]
    tolerance = 0.03 * 48000
    wrong, checked = [], 0
    for got in samples:
        frame = got["frame"]
        if frame < 0 or not got["lit"]:
            continue
        near = [s for s in switches if abs(frame - s["frame"]) <= tolerance]
        if near:
            continue                                    # at a switch, within the tolerance
        sounding = 0
        for s in switches:
            if s["frame"] <= frame:
                sounding = s["to"]
        rows = {int(key.split("-")[0]) for key in got["lit"]}
        checked += 1
        if rows != {sounding}:
            wrong.append((round(frame), rows, sounding))
    assert checked >= 40 and max(g["frame"] for g in samples) > 3 * loop
    assert wrong == [], f"{len(wrong)} of {checked} lit in the wrong row: {wrong[:5]}"
    # more passes than one were scheduled, each whole (the last stroke rings on)
    assert page.evaluate("window.gujiStudio.player.passes") >= 4
    assert page.problems == []


def test_choosing_every_reading_by_keyboard(page):
    page.keyboard.press("Tab")
    boxes = page.locator("#readings input[type=checkbox]").count()
    chosen, seen_open, seen_loop = set(), False, False
    for _ in range(boxes + 80):
        focus = page.evaluate("""() => { const e = document.activeElement;
            return {id: e.id, value: e.value, type: e.type, checked: e.checked,
                    inReadings: !!e.closest('#readings')}; }""")
        if focus["id"] == "open":
            seen_open = True
            outline = page.evaluate("getComputedStyle(document.querySelector('label[for=open]'))"
                                    ".outlineStyle")
            assert outline == "solid", "the focus on Open a file… is not seen"
        if focus["type"] == "checkbox" and focus["inReadings"]:
            page.keyboard.press("Space")                 # chosen …
            assert page.evaluate("document.activeElement.checked") is True, focus["value"]
            assert page.evaluate("window.gujiStudio.state.chosen") == [focus["value"]]
            page.keyboard.press("Space")                 # … and left again
            assert page.evaluate("window.gujiStudio.state.chosen") == []
            chosen.add(focus["value"])
        if focus["id"] == "loop":
            seen_loop = True
            page.keyboard.press("Space")
            assert page.is_checked("#loop")
        assert not page.evaluate("window.gujiStudio.player.playing"), focus
        page.keyboard.press("Tab")
        if seen_loop:
            break
    assert seen_open and seen_loop
    assert len(chosen) == boxes
    assert page.problems == []


def test_the_caret_stands_under_the_typo(page):
    typo = "投壺\n鼓：" + "○□" * 10 + "○□○○□□○□o○□半○□○□○○○□□○□○ 魯鼓\n"
    page.fill("#editor", typo)
    page.locator("#problems .problem.error pre").wait_for()
    xs = page.evaluate("""() => {
      const pre = document.querySelector('#problems .problem.error pre'), text = pre.firstChild;
      const [shown, caret] = text.textContent.split('\\n');
      const x = at => { const r = document.createRange(); r.setStart(text, at); r.setEnd(text, at + 1);
                        return r.getBoundingClientRect().left; };
      return [x(shown.indexOf('o')), x(shown.length + 1 + caret.indexOf('^'))];
    }""")
    assert abs(xs[0] - xs[1]) < 3, xs
    # on a phone's width, the line scrolled to show the caret
    page.set_viewport_size({"width": 390, "height": 900})
    page.fill("#editor", typo.replace("o", "○"))
    page.locator("#found > li").first.wait_for()
    page.fill("#editor", typo)
    page.locator("#problems .problem.error pre").wait_for()
    seen = page.evaluate("""() => {
      const pre = document.querySelector('#problems .problem.error pre'), text = pre.firstChild;
      const at = text.textContent.lastIndexOf('^'), r = document.createRange();
      r.setStart(text, at); r.setEnd(text, at + 1);
      const box = pre.getBoundingClientRect(), x = r.getBoundingClientRect().left;
      return [box.left, x, box.right];
    }""")
    assert seen[0] <= seen[1] <= seen[2] - 8, seen


def test_a_loop_lets_the_last_stroke_ring(page, tmp_path):
    """Looped, each pass is the whole of guji's render, its last stroke's decay sounding
    on under the next pass: the page's output (tapped live on the audio thread) is the
    render added to itself a loop later, not cut at the loop's end."""
    from test_studio_browser import TAP, TAPPED, _floats
    page.check("#loop")
    page.fill("#interval", "0.1")
    page.dispatch_event("#interval", "change")
    page.check(f'#readings input[value="{A}"]')
    page.wait_for_function("window.gujiStudio.player.buffers.length === 1 && "
                           "window.gujiStudio.player.buffers[0]")
    subprocess.run([GUJI, "render", "lu:1@liji-zhengyi", "--rite", "she", "--interval", "0.1",
                    "-o", "a.wav"], cwd=tmp_path, check=True, capture_output=True)
    a = sf.read(str(tmp_path / "a.wav"), dtype="float32", always_2d=True)[0]
    page.evaluate(TAP)
    for _ in range(3):                       # a take the loaded machine spoiled is taken again
        page.evaluate("window.tapped.blocks = []")
        page.click("#play")
        page.wait_for_function("window.gujiStudio.player.playing")
        loop = page.evaluate("window.gujiStudio.player.loopFrames")
        _at(page, 2.2 * loop)
        live = page.evaluate(TAPPED)
        page.click("#stop")
        if live["gaps"] == 0 and not page.evaluate("window.gujiStudio.player.lateStart"):
            break
    assert live["gaps"] == 0
    assert len(a) > loop + 4800                  # the render rings on past the loop's end
    heard = _floats(live["data"])[live["startFrame"] - live["start"]:][:2 * loop]
    expected = np.zeros((2 * loop, 2), dtype=np.float64)
    for start in (0, loop):
        n = min(len(a), 2 * loop - start)
        expected[start:start + n] += a[:n]
    assert len(heard) == 2 * loop
    assert np.abs(heard - expected).max() < 1e-5, np.abs(heard - expected).max()


def _hue(css: str) -> float:
    r, g, b = (int(x) / 255 for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return colorsys.rgb_to_hsv(r, g, b)[0] * 360


def test_the_stroke_sounding_in_words_and_in_a_colour_of_its_own(page):
    page.fill("#interval", "0.25")
    page.dispatch_event("#interval", "change")
    for ref in (A, B):
        page.check(f'#readings input[value="{ref}"]')
    page.wait_for_function("window.gujiStudio.player.buffers.length === 2 && "
                           "window.gujiStudio.player.buffers.every(b => b)")
    page.click("#play")
    page.wait_for_function("document.querySelector('#sounding').textContent.length > 0 && "
                           "document.querySelector('#source .sounding')")
    said = page.inner_text("#sounding")
    lit = page.evaluate("getComputedStyle(document.querySelector('#source .sounding')).fill")
    differs = page.evaluate("getComputedStyle(document.querySelector('td.differs'))"
                            ".backgroundColor")
    page.click("#stop")
    assert re.fullmatch(r"sounding: A · stroke \d+ · (○ 鼙|□ 鼓)", said), said
    gap = abs(_hue(lit) - _hue(differs))
    assert min(gap, 360 - gap) > 60, (lit, differs)


STAND_IN = """window.gujiBackendFor = (token, answered) => {
  const asked = window.askedOfGuji = [];
  const made = %s;
  return {
    state: () => { asked.push('state'); return Promise.resolve({documents: [], editions: made.editions}); },
    paste: text => { asked.push('paste'); return Promise.resolve(Object.assign({}, made.pasted)); },
    edit: (key, text) => { asked.push('edit'); return Promise.resolve(Object.assign({}, made.pasted)); },
  };
};"""


def test_the_page_asks_guji_only_through_its_backend(browser):
    """Another backend in place of the server's (as guji run in the browser would be): the
    page lists its editions and reads a text through it, and asks the server for nothing
    but the page and its files."""
    import json
    from guji.studio.documents import Library, editions_json, reading_json
    made = {"editions": editions_json()[:1],
            "pasted": reading_json(Library().add("paste", None, FIXED))}
    with serving() as studio:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            p = context.new_page()
            p.add_init_script(STAND_IN % json.dumps(made, ensure_ascii=False))
            paths = []
            p.on("request", lambda r: paths.append(r.url.split("?")[0].split(str(studio.port))[1]))
            p.goto(studio.url)
            p.locator("#readings input").first.wait_for()
            p.fill("#editor", FIXED)
            p.locator("#found > li").nth(1).wait_for()
            ids = p.eval_on_selector_all("#found > li", "els => els.map(e => e.dataset.id)")
            assert ids == ["lu:1@pasted-1.txt", "xue:1@pasted-1.txt"]
            assert p.evaluate("window.askedOfGuji") == ["state", "paste"]
            assert sorted(set(paths)) == ["/", "/assets/backend.js", "/assets/studio.css",
                                          "/assets/studio.js"]
            assert "lu:1@liji-zhengyi" in p.inner_text("#readings")
        finally:
            context.close()

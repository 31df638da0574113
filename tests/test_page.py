"""The shared page (guji.views.page, ``guji page``), checked in a real headless Chromium.

The browser tests load ``index.html`` from the file system in Debian's
chromium driven by Playwright, and check: no console error, every
``<audio>`` has a source the browser can play and whose duration is the
file's, a screenshot shows the drawing, and while a player plays the stroke
lit in the pictures is the one at the player's current time (with scripts
off: none lit, the players still play); a single-file page plays with no
other file. They are skipped only when Playwright or the browser is
missing, and never under CI, where they fail instead (``tests/tools.py``;
``.ci/run`` installs both).
"""

from __future__ import annotations

import html.parser

import numpy as np
import pytest
import soundfile as sf

from guji.cli.main import main
from guji.compare.modes import MODES, Timing, compare
from guji.text.reading.editions import load
from guji.text.reading.notation import Rite
from guji.views.page import AUDIO_FORMATS, Track, alignment_table, build_html, write_page

import tools
from browsers import BROWSER, BROWSER_ARGS, launched, playwright as _browser


RATE = 16000


class _Collector(html.parser.HTMLParser):
    """Every tag with its attributes, and the text, of an HTML document."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(page: str) -> list[tuple[str, dict]]:
    c = _Collector()
    c.feed(page)
    return c.tags


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A page of the diagram-2 薛鼓 of two editions (one insertion), written for real."""
    folder = tmp_path_factory.mktemp("page") / "xue2"
    patterns = [load("xue:2"), load("xue:2@lijing-benyi")]
    timing = Timing(rite=Rite.SHE, interval=0.3)
    index = write_page(folder, patterns, timing, rate=RATE)
    return folder, index, patterns, timing


def test_page_is_self_contained(site):
    folder, index, patterns, _ = site
    page = index.read_text(encoding="utf-8")
    found = tags(page)
    # No address outside the folder: nothing with a scheme or an absolute path.
    for tag, attrs in found:
        for key in ("src", "href"):
            if key in attrs:
                value = attrs[key]
                assert "://" not in value and not value.startswith("/") \
                    and not value.startswith("//"), (tag, value)
                assert (folder / value).is_file(), value
    assert not [t for t, _ in found if t in ("link", "iframe", "img")]
    # one script, inline (it lights the stroke sounding now), nothing loaded
    assert [a for t, a in found if t == "script"] == [{}]
    assert "@import" not in page and "url(" not in page
    # Pictures inline; one player per variant and per mode.
    assert sum(1 for t, _ in found if t == "svg") == 2
    sources = [a["src"] for t, a in found if t == "source"]
    assert len(sources) == len(patterns) + len(MODES)
    assert len(set(sources)) == len(sources)


def test_audio_files_hold_what_the_page_says(site):
    folder, index, patterns, timing = site
    found = tags(index.read_text(encoding="utf-8"))
    audios = [a for t, a in found if t == "audio"]
    sources = [a for t, a in found if t == "source"]
    for audio, source in zip(audios, sources):
        info = sf.info(str(folder / source["src"]))
        assert info.samplerate == RATE
        assert float(audio["data-duration"]) == pytest.approx(info.duration, abs=1e-5)
        data, _ = sf.read(str(folder / source["src"]))
        assert np.abs(data).max() > 0.01, source["src"]
    # Variant A's file holds at least its score (the tail rings on after).
    a_info = sf.info(str(folder / sources[0]["src"]))
    assert a_info.duration >= timing.score(patterns[0]).duration


def test_alignment_table_marks_the_insertion():
    a, b = load("xue:2"), load("xue:2@lijing-benyi")
    table = alignment_table(a, b)
    cells = [attrs for tag, attrs in tags(table) if tag == "td"]
    marked = [c for c in cells if "differs" in c.get("class", "")]
    assert len(marked) == 2          # the column, in both rows
    assert sum("gap" in c.get("class", "") for c in cells) == 1


def test_build_html_names_every_track():
    a, b = load("lu:1"), load("lu:1@wuli-tongkao")
    tracks = [Track("variant-a", "A", "a.flac", "audio/flac", 1.5, schedule="0.00 s  A")]
    page = build_html([a, b], Timing(), tracks)
    assert page.startswith("<!DOCTYPE html>")
    assert 'src="a.flac"' in page and "1 substitution" in page


def test_page_command(tmp_path, capsys):
    out = tmp_path / "share"
    assert main(["page", "lu:1", "lu:1@wuli-tongkao", "-o", str(out) + "/",
                 "--interval", "0.2", "--modes", "stereo", "--audio-format", "wav"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert "index.html" in names and "compare-stereo.wav" in names
    assert len([n for n in names if n.endswith(".wav")]) == 3


def test_page_command_bad_parent(tmp_path, capsys):
    assert main(["page", "lu:1", "lu:2", "-o", str(tmp_path / "no" / "such" / "dir")]) == 2
    assert "no such directory" in capsys.readouterr().err


# -- in a real browser -----------------------------------------------------------

def test_page_in_headless_chromium(site, tmp_path, chromium):
    folder, index, patterns, _ = site
    with launched() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        # A media element that has its metadata stops loading (preload="metadata"):
        # Chromium reports that as net::ERR_ABORTED, which is not a failure.
        page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}")
                if "ERR_ABORTED" not in (r.failure or "") else None)
        page.goto(index.as_uri())
        page.wait_for_load_state("load")
        # Every audio element: a source the browser can play, of the file's duration.
        audios = page.eval_on_selector_all("audio", """els => Promise.all(els.map(a =>
            new Promise(done => {
                const report = () => done({duration: a.duration, error: a.error && a.error.code,
                    src: a.currentSrc,
                    can: a.canPlayType(a.querySelector('source').type)});
                if (a.readyState >= 1 || a.error) report();
                else { a.addEventListener('loadedmetadata', report);
                       a.addEventListener('error', report, true); }
            })))""")
        assert len(audios) == len(patterns) + len(MODES)
        for a in audios:
            assert a["error"] is None, a
            assert a["can"] in ("probably", "maybe"), a
            name = a["src"].rsplit("/", 1)[-1]
            assert a["duration"] == pytest.approx(sf.info(str(folder / name)).duration,
                                                  abs=0.01), a
        # The drawing is on the page and visible.
        svg = page.locator("#source svg")
        box = svg.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100
        page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
        shots = {}
        for which in ("source", "timeline"):
            shots[which] = tmp_path / f"{which}.png"
            page.locator(f"#{which} svg").screenshot(path=str(shots[which]))
        assert problems == []
    from test_draw import read_png
    for which, path in shots.items():
        img = read_png(path)
        grey = img[..., :3].astype(float).mean(axis=2)
        assert grey.std() > 10, f"the {which} picture looks blank"
        assert (grey < 100).sum() > 200, f"no ink in the {which} picture"
    # The timeline's coloured strokes are in the picture: blue 鼙 and red 鼓 pixels.
    img = read_png(shots["timeline"]).astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    assert ((b - r > 60) & (b > 120)).sum() > 100
    assert ((r - b > 60) & (r > 120) & (g < 100)).sum() > 100


def test_formats_table_is_consistent():
    for ext, (mime, fmt, subtype) in AUDIO_FORMATS.items():
        assert mime.startswith("audio/") and fmt in sf.available_formats()


# -- the page follows its players --------------------------------------------------

AUTOPLAY = BROWSER_ARGS + ["--autoplay-policy=no-user-gesture-required"]


def expected_lit(performance, patterns, t: float) -> set[str]:
    """``row-stroke`` of the stroke sounding at *t* in each part (from the scores)."""
    lit = set()
    for part in performance.parts:
        score = part.score
        i = int((t - score.start) // score.interval)
        if score.count_in <= i < len(score):
            row = next(k for k, p in enumerate(patterns) if p is score.pattern)
            lit.add(f"{row}-{score.event(i).stroke.index}")
    return lit


PLAY_AND_PAUSE = """async ([selector, wait]) => {
    const audio = document.querySelector(selector);
    await audio.play();
    await new Promise(done => setTimeout(done, wait));
    audio.pause();
    await new Promise(done => setTimeout(done, 100));      // the pause event has run
    const lit = Array.from(document.querySelectorAll('.sounding'));
    return {time: audio.currentTime,
            lit: lit.map(e => e.getAttribute('data-stroke')),
            where: lit.map(e => e.closest('figure').id)};
}"""


def _open(sync_api, index, **context):
    pw = sync_api.sync_playwright().start()
    browser = pw.chromium.launch(executable_path=BROWSER, args=AUTOPLAY,
                                 env=tools.browser_environment())
    page = browser.new_context(**context).new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(index.as_uri())
    page.wait_for_load_state("load")
    return pw, browser, page, problems


def test_the_stroke_sounding_now_is_lit(site, chromium):
    sync_api = _browser()
    folder, index, patterns, timing = site
    pw, browser, page, problems = _open(sync_api, index)
    try:
        from guji.timing.layout import perform
        cases = [("#variant-a audio", perform(patterns[0], timing), 1300),
                 ("#variant-b audio", perform(patterns[1], timing), 2100),
                 ("#compare-stereo audio", compare(patterns, "stereo", timing).performance, 900)]
        for selector, performance, wait in cases:
            got = page.evaluate(PLAY_AND_PAUSE, [selector, wait])
            want = expected_lit(performance, patterns, got["time"])
            assert got["time"] > 0.3 and want, got
            assert set(got["lit"]) == want, (selector, got)
            # each stroke lit in both pictures: the sources' columns and the timeline
            assert sorted(got["where"]) == sorted(["source", "timeline"] * len(want))
        # the end puts the light out
        ended = page.evaluate("""async () => {
            const audio = document.querySelector('#variant-a audio');
            audio.currentTime = audio.duration - 0.2;
            await audio.play();
            await new Promise(done => audio.addEventListener('ended', done, {once: true}));
            return document.querySelectorAll('.sounding').length; }""")
        assert ended == 0
        assert problems == []
    finally:
        browser.close()
        pw.stop()


def test_without_scripts_the_page_still_plays_unlit(site, chromium):
    sync_api = _browser()
    folder, index, patterns, timing = site
    pw, browser, page, problems = _open(sync_api, index, java_script_enabled=False)
    try:
        # no timers run in a page without scripts: wait here, not in the page
        page.evaluate("() => { document.querySelector('#variant-a audio').play(); }")
        page.wait_for_timeout(800)
        got = page.evaluate("""() => { const a = document.querySelector('#variant-a audio');
            a.pause(); return {time: a.currentTime,
                               lit: document.querySelectorAll('.sounding').length}; }""")
        assert got["time"] > 0.3 and got["lit"] == 0
    finally:
        browser.close()
        pw.stop()


def test_a_single_file_page_plays_with_no_other_file(tmp_path, chromium):
    sync_api = _browser()
    folder = tmp_path / "mail"
    folder.mkdir()
    patterns = [load("lu:1"), load("lu:1@wuli-tongkao")]
    timing = Timing(rite=Rite.SHE, interval=0.25)
    index = write_page(folder / "lu1.html", patterns, timing, rate=RATE, modes=("diff",),
                       single_file=True)
    assert [p.name for p in folder.iterdir()] == ["lu1.html"]
    found = tags(index.read_text(encoding="utf-8"))
    sources = [a["src"] for t, a in found if t == "source"]
    assert len(sources) == 3 and all(s.startswith("data:audio/flac;base64,") for s in sources)
    pw, browser, page, problems = _open(sync_api, index)
    try:
        durations = page.eval_on_selector_all("audio", """els => Promise.all(els.map(a =>
            new Promise(done => a.readyState >= 1 ? done(a.duration)
                                : a.addEventListener('loadedmetadata', () => done(a.duration)))))""")
        assert [round(d, 2) for d in durations] == \
            [round(float(a["data-duration"]), 2) for t, a in found if t == "audio"]
        got = page.evaluate(PLAY_AND_PAUSE, ["#variant-b audio", 1000])
        from guji.timing.layout import perform
        assert set(got["lit"]) == expected_lit(perform(patterns[1], timing), patterns,
                                               got["time"])
        assert problems == []
    finally:
        browser.close()
        pw.stop()


def test_single_file_command(tmp_path, capsys):
    out = tmp_path / "one.html"
    assert main(["page", "xue:1", "--single-file", "-o", str(out), "--rate", "16000",
                 "--audio-format", "ogg"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.html"]
    assert 'src="data:audio/ogg;base64,' in out.read_text(encoding="utf-8")
    assert main(["page", "xue:1", "--single-file", "-o", str(tmp_path / "no" / "x.html")]) == 2

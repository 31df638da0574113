"""The studio in a real headless Chromium (Playwright, Debian's /usr/bin/chromium).

What a user does, done for real against a running studio: paste a text with a
typo (the error marked at its line and column, with ``guji scan``'s message),
fix it (the patterns appear, with their ids); choose ``lu:1`` and
``lu:1@wuli-tongkao``, play, switch A→B while it plays — the audio leaving the
page's graph (tapped live by an AudioWorklet on the page's output, every
block with its frame, and the same schedule rendered by an
OfflineAudioContext) is ``guji render`` of A
up to the switch's stroke and of B from it, sample for sample, with no gap;
the stroke lit matches the audio clock (less its output latency) within
30 ms; each export downloads the bytes the command writes.

Chromium gets ``PULSE_SERVER=unix:/nonexistent``: with a PulseAudio server
reachable its audio clock stalls; without one it runs on its own clock.
"""

from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from browsers import launched, serving
from test_studio import FIXED, TYPO

GUJI = str(Path(sys.executable).with_name("guji"))
A, B = "edition:liji-zhengyi|lu:1|", "edition:wuli-tongkao|lu:1|"
INTERVAL = 0.25


@pytest.fixture(scope="module")
def browser(chromium):
    with launched() as b:
        yield b


@pytest.fixture
def studio():
    with serving() as server:
        yield server


def _open(browser, studio, *, bypass_csp: bool, width: int = 1280):
    """The studio's page in a fresh context, its errors collected in ``.problems``.
    *bypass_csp* lets the test's own probes (``wait_for_function``) evaluate
    strings, which the studio's Content-Security-Policy forbids its page."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  accept_downloads=True, bypass_csp=bypass_csp)
    p = context.new_page()
    problems: list[str] = []
    p.on("pageerror", lambda e: problems.append(str(e)))
    p.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    p.goto(studio.url)
    p.locator("#readings input").first.wait_for()      # the editions listed: ready
    p.problems = problems
    return context, p


@pytest.fixture
def page(browser, studio):
    """The page as a user has it: under its Content-Security-Policy."""
    context, p = _open(browser, studio, bypass_csp=False)
    try:
        yield p
    finally:
        context.close()


@pytest.fixture
def probed(browser, studio):
    """The page with the test's probes allowed (see :func:`_open`)."""
    context, p = _open(browser, studio, bypass_csp=True)
    try:
        yield p
    finally:
        context.close()


def test_a_typo_then_the_fix(page, tmp_path):
    page.fill("#editor", TYPO)
    error = page.locator("#problems .problem.error")
    error.wait_for()
    assert (error.get_attribute("data-line"), error.get_attribute("data-column")) == ("4", "9")
    (tmp_path / "pasted-1.txt").write_text(TYPO, encoding="utf-8")
    said = subprocess.run([GUJI, "scan", "pasted-1.txt"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert error.inner_text().splitlines()[0] == "error: " + said.stderr.splitlines()[0][6:]
    # marked in place: the very character
    assert page.locator("#marked .error").inner_text() == "o"
    page.fill("#editor", FIXED)
    page.locator("#found > li").nth(1).wait_for()
    ids = page.eval_on_selector_all("#found > li", "els => els.map(e => e.dataset.id)")
    assert ids == ["lu:1@pasted-1.txt", "xue:1@pasted-1.txt"]
    assert page.locator("#problems .error").count() == 0
    badges = page.eval_on_selector_all("#marked .pid", "els => els.map(e => e.textContent)")
    assert badges == ["lu:1", "xue:1"]
    # the badge stands right before the pattern's first stroke
    first = page.eval_on_selector("#marked .pid", "e => e.nextSibling.textContent")
    assert first == "○"
    assert page.problems == []


def _choose(page, refs, interval=INTERVAL):
    page.fill("#interval", str(interval))
    page.dispatch_event("#interval", "change")
    for ref in refs:
        page.check(f'#readings input[value="{ref}"]')
    page.wait_for_function(f"window.gujiStudio.player.view && "
                           f"window.gujiStudio.player.view.readings.length === {len(refs)}")
    page.wait_for_function("window.gujiStudio.player.ready && "
                           "window.gujiStudio.player.buffers.length === "
                           f"{len(refs)} && window.gujiStudio.player.buffers.every(b => b)")


def _render(tmp_path, pattern_id, name):
    subprocess.run([GUJI, "render", pattern_id, "--rite", "she", "--interval", str(INTERVAL),
                    "-o", name], cwd=tmp_path, check=True, capture_output=True)
    return sf.read(str(tmp_path / name), dtype="float32", always_2d=True)[0]


TAP = """async () => {
  // an AudioWorklet on the page's output: it runs on the audio thread, so it sees every
  // frame the page plays, each block with its frame number (currentFrame)
  const p = window.gujiStudio.player, ctx = p.context();
  const code = `class Tap extends AudioWorkletProcessor {
    process(inputs) {
      const i = inputs[0];
      if (i.length) { this.port.postMessage({frame: currentFrame, l: i[0].slice(),
                                             r: (i[1] || i[0]).slice()}); }
      return true;
    }
  }
  registerProcessor('guji-tap', Tap);`;
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([code],
                                   {type: 'application/javascript'})));
  const tap = new AudioWorkletNode(ctx, 'guji-tap', {numberOfInputs: 1, numberOfOutputs: 1,
                                                     outputChannelCount: [2]});
  const silent = ctx.createGain();
  silent.gain.value = 0;
  window.tapped = {blocks: []};
  tap.port.onmessage = e => window.tapped.blocks.push(e.data);
  p.output().connect(tap);
  tap.connect(silent);
  silent.connect(ctx.destination);
}"""

TAPPED = """() => {
  const p = window.gujiStudio.player, blocks = window.tapped.blocks;
  const start = blocks[0].frame, end = blocks[blocks.length - 1].frame + blocks[blocks.length - 1].l.length;
  const out = new Float32Array(2 * (end - start));
  let gaps = 0, next = start;
  for (const b of blocks) {
    // before the music the page's output may have no input at all (no blocks): not a gap
    if (b.frame !== next && b.frame > p.startFrame) { gaps++; }
    const at = b.frame - start;
    for (let i = 0; i < b.l.length; i++) { out[2 * (at + i)] = b.l[i]; out[2 * (at + i) + 1] = b.r[i]; }
    next = b.frame + b.l.length;
  }
  const bytes = new Uint8Array(out.buffer);
  let s = "";
  for (let i = 0; i < bytes.length; i += 32768) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
  }
  return {data: btoa(s), start: start, startFrame: p.startFrame, gaps: gaps,
          blocks: blocks.slice(0, 40).map(b => [b.frame - p.startFrame, b.l.length])};
}"""

OFFLINE = """() => window.gujiStudio.player.renderOffline().then(buf => {
  const l = buf.getChannelData(0), r = buf.getChannelData(1), out = new Float32Array(2 * l.length);
  for (let i = 0; i < l.length; i++) { out[2 * i] = l[i]; out[2 * i + 1] = r[i]; }
  const bytes = new Uint8Array(out.buffer);
  let s = "";
  for (let i = 0; i < bytes.length; i += 32768) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
  }
  return btoa(s);
})"""

COLLECT = """() => {
  // The light as the screen shows it: sampled in each animation frame, after the page's own
  // update of that frame (callbacks run in the order asked), with the audio clock then.
  window.litSamples = [];
  const p = window.gujiStudio.player;
  function sample() {
    const c = p.ctx;
    if (c && p.playing) {
      window.litSamples.push({
        frame: (c.currentTime - (c.outputLatency || 0) - p.startAt) * c.sampleRate,
        lit: Array.from(document.querySelectorAll('#source .sounding')).map(e => e.dataset.stroke),
        text: Array.from(document.querySelectorAll('#marked .sounding')).map(e => e.dataset.textStroke)});
    }
    window.requestAnimationFrame(sample);
  }
  const play = p.follow.bind(p);
  p.follow = function () { play(); window.requestAnimationFrame(sample); p.follow = play; };
}"""


def _floats(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=np.float32).reshape(-1, 2)


def _take(page, onsets):
    """Play, press B while stroke 2 sounds, sample the light until the end: (the switch,
    the light's samples, the live tap)."""
    page.evaluate("window.tapped.blocks = []")
    page.evaluate(COLLECT)
    page.focus("#play")
    page.keyboard.press("Space")
    page.wait_for_function("window.gujiStudio.player.playing")
    # switch while stroke 2 sounds: B from the next stroke the page can schedule
    page.wait_for_function(f"(() => {{ const p = window.gujiStudio.player; return "
                           f"(p.ctx.currentTime - p.startAt) * 48000 > {onsets[2] + 2400}; }})()")
    page.focus("#stop")
    pressed = page.evaluate("(() => { const p = window.gujiStudio.player; "
                            "return (p.ctx.currentTime - p.startAt) * 48000; })()")
    page.keyboard.press("b")
    switch = page.evaluate("window.gujiStudio.player.switches[0]")
    assert switch["to"] == 1 and switch["frame"] in onsets[3:-1]
    assert switch["frame"] > pressed + 0.04 * 48000 - 1      # scheduled 40 ms ahead at least
    page.wait_for_function("!window.gujiStudio.player.playing", timeout=30000)
    lits = page.evaluate("window.litSamples")
    return switch, lits, {**page.evaluate(TAPPED),
                          "late": page.evaluate("window.gujiStudio.player.lateStart")}


def test_switching_a_to_b_while_playing(probed, tmp_path):
    page = probed
    _choose(page, [A, B])
    view = page.evaluate("window.gujiStudio.player.view")
    onsets = view["readings"][0]["onsets"]
    a = _render(tmp_path, "lu:1@liji-zhengyi", "a.wav")
    b = _render(tmp_path, "lu:1@wuli-tongkao", "b.wav")
    page.evaluate(TAP)
    # A take the machine spoiled — the audio thread skipped frames (a gap in the tap's frame
    # numbers) or had passed the switch's frame before it was scheduled (late) — is played
    # again, up to three takes: on a machine loaded past real time nothing keeps time.
    for _ in range(3):
        switch, lits, live = _take(page, onsets)
        if live["gaps"] == 0 and not switch["late"] and not live["late"]:
            break
        page.keyboard.press("a")                    # A again for the next take
    assert live["gaps"] == 0 and not switch["late"] and not live["late"], \
        "three takes spoiled by the machine's load"
    _check_light(lits, onsets, switch, 30 / 1000 * 48000)
    cut = switch["frame"]
    expected = np.concatenate([a[:cut], b[cut:]])
    assert not np.array_equal(a[cut:], b[cut:])          # B is heard: it differs after the cut
    offline = _floats(page.evaluate(OFFLINE))
    assert np.array_equal(offline[:len(expected)], expected)
    # The live tap: every block the page's output played, by its frame on the audio clock;
    # from the frame the music was started on, every sample must be the expected one — a
    # gap, a click or a late switch would break it.
    assert live["start"] <= live["startFrame"]
    audio = _floats(live["data"])[live["startFrame"] - live["start"]:]
    assert not np.any(_floats(live["data"])[:live["startFrame"] - live["start"]])  # silence before
    assert len(audio) >= len(expected)
    wrong = np.flatnonzero(np.any(audio[:len(expected)] != expected, axis=1))
    assert len(wrong) == 0, (f"{len(wrong)} frames differ, from {wrong[0]} to {wrong[-1]}; the "
                             f"cut at {cut}; by {np.abs(audio[wrong] - expected[wrong]).max()}; at "
                             f"{wrong[:20].tolist()}")
    assert page.problems == []


def _check_light(lits, onsets, switch, tolerance):
    """Every sample of the lit stroke is the stroke the audio clock is at, within *tolerance*
    frames: started before the heard frame (+ tolerance), the next not yet (- tolerance)."""
    checked = 0
    for got in lits:
        frame = got["frame"]
        if frame < 0 or frame > onsets[-1] + 48000 * INTERVAL or not got["lit"]:
            continue
        row = 1 if frame >= switch["frame"] + tolerance else 0 if frame < switch["frame"] - tolerance else None
        (key,) = got["lit"]
        r, k = map(int, key.split("-"))
        if row is not None:
            assert r == row, got
        assert onsets[k] <= frame + tolerance, (got, onsets[k])
        if k + 1 < len(onsets):
            assert onsets[k + 1] > frame - tolerance, (got, onsets[k + 1])
        checked += 1
    assert checked >= 10, lits


EXPORTS = {
    "midi": ["compare", "--mode", "diff", "--rite", "she", "-o", "x.mid"],
    "wav": ["compare", "--mode", "diff", "--rite", "she", "--no-midi", "-o", "x.wav"],
    "flac": ["compare", "--mode", "diff", "--rite", "she", "--no-midi", "-o", "x.flac"],
    "ogg": ["compare", "--mode", "diff", "--rite", "she", "--no-midi", "-o", "x.ogg"],
    "musicxml": ["sheet", "--rite", "she", "-o", "x.musicxml"],
    "ly": ["sheet", "--rite", "she", "-o", "x.ly"],
    "svg": ["sheet", "--rite", "she", "-o", "x.svg"],
    "page": ["page", "--rite", "she", "--single-file", "-o", "x.html"],
    "json": ["compare", "--mode", "diff", "--rite", "she", "--json"],
}


def test_each_export_has_the_commands_bytes(probed, tmp_path):
    page = probed
    _choose(page, [A, B], interval=0.6)
    page.check('input[name=mode][value="diff"]')
    ids = ["lu:1@liji-zhengyi", "lu:1@wuli-tongkao"]
    for kind, words in EXPORTS.items():
        with page.expect_download(timeout=120000) as got:
            page.click(f'#exports button[data-kind="{kind}"]')
        path = got.value.path()
        args = [words[0], *ids, *words[1:]]
        done = subprocess.run([GUJI, *args], cwd=tmp_path, capture_output=True, check=True)
        want = done.stdout if kind == "json" else (tmp_path / words[-1]).read_bytes()
        assert Path(path).read_bytes() == want, kind
    assert page.problems == []


VARIANT = "鼓：\n○□○○□□○□(一本作○)○○□半○□○□○○○□□○□○ 魯鼓\n○□○○□□○○半○□○○□○○○○□○□○ 薛鼓\n"


def test_a_variant_note_its_witness_and_a_pasted_export(probed, tmp_path):
    page = probed
    page.fill("#editor", VARIANT)
    page.locator("#found > li").nth(1).wait_for()
    assert page.locator("#marked .note").first.inner_text() == "(一本作○)"
    witness = page.locator("#found > li").first.locator("li")
    assert witness.inner_text() == "witness 一本: lu:1@pasted-1.txt~一本 ○□○○□□○○○○□半○□○□○○○□□○□○"
    key = page.evaluate("window.gujiStudio.state.doc")
    refs = [f"{key}|lu:1|", f"{key}|lu:1|一本"]
    _choose(page, refs, interval=0.6)
    assert page.locator("#alignments h3").inner_text() == ("A against B: 1 substitution, 0 insertions, 0 deletions "
                                                          "(edit distance 1, from A)")
    with page.expect_download() as got:
        page.click('#exports button[data-kind="json"]')
    (tmp_path / "pasted-1.txt").write_text(VARIANT, encoding="utf-8")
    done = subprocess.run([GUJI, "compare", "lu:1@pasted-1.txt", "lu:1@pasted-1.txt~一本", "--rite",
                           "she", "--json"], cwd=tmp_path, capture_output=True, check=True)
    assert Path(got.value.path()).read_bytes() == done.stdout
    assert page.problems == []


def test_an_error_is_one_message_in_the_page(probed):
    page = probed
    _choose(page, [A])
    page.fill("#repeat", "0")
    page.dispatch_event("#repeat", "change")
    message = page.locator("#message")
    message.wait_for()
    assert message.get_attribute("role") == "alert"
    assert message.inner_text().count("\n") == 0 and "repeat" in message.inner_text()


def test_an_opened_file_looped_lights_its_own_text(probed, tmp_path):
    """A GB18030 file opened in the page (its bytes sent, decoded as guji decodes files),
    one of its readings looped: the light follows the audio clock round the loop, in the
    text itself as in the drawing."""
    page = probed
    notes = tmp_path / "筆記.txt"
    notes.write_bytes(FIXED.encode("gb18030"))
    page.set_input_files("#open", str(notes))
    page.locator("#found > li").nth(1).wait_for()
    assert page.locator("#status").inner_text().endswith("(gb18030)")
    assert page.input_value("#editor") == FIXED
    key = page.evaluate("window.gujiStudio.state.doc")
    page.check("#loop")
    _choose(page, [f"{key}|lu:1|"], interval=0.1)
    view = page.evaluate("window.gujiStudio.player.view")
    onsets, loop = view["readings"][0]["onsets"], round(view["readings"][0]["duration"] * 48000)
    page.evaluate(COLLECT)
    page.click("#play")
    page.wait_for_function(f"(() => {{ const p = window.gujiStudio.player; return "
                           f"(p.ctx.currentTime - p.startAt) * 48000 > {2.5 * loop}; }})()",
                           timeout=60000)
    seen = page.evaluate("window.litSamples")
    got = page.evaluate("({playing: window.gujiStudio.player.playing})")
    assert got["playing"], "the loop stopped"
    page.click("#stop")
    tolerance = 0.03 * 48000
    checked = 0
    for got in seen:
        frame = got["frame"] % loop
        if got["frame"] < 0 or not got["lit"]:
            continue
        (key_lit,) = got["lit"]
        k = int(key_lit.split("-")[1])
        assert got["text"] == [f"{key}|lu:1|#{k}"]
        # the heard frame lies in the lit stroke's span, within the tolerance, round the loop
        span = (onsets[k + 1] if k + 1 < len(onsets) else loop) - onsets[k]
        since = (frame - onsets[k]) % loop
        assert since <= span + tolerance or since >= loop - tolerance, (got, k)
        checked += 1
    assert checked >= 20 and max(g["frame"] for g in seen) > 1.5 * loop
    assert page.problems == []

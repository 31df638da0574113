"""``guji check … -o report.svg|png``: the report as a picture, read back.

The SVG is parsed as XML and its marks compared with the seeded truth of
tests/practice_set.py (which strokes were wrong, missing, extra, late); the
PNG (headless Chromium) is decoded and its pixels looked at.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from runner import run

sys.path.insert(0, str(Path(__file__).parent))
from practice_set import perform, shipped_patterns  # noqa: E402
from test_draw import read_png  # noqa: E402

from guji.practice.picture import COLUMNS, LEAST_MS, MARK, STRIP  # noqa: E402

GUJI = str(Path(sys.executable).with_name("guji"))
SVG = "{http://www.w3.org/2000/svg}"
PATTERN = shipped_patterns()[0]


def _take(tmp_path, **kw):
    x, truth = perform(PATTERN, seed=3, jitter=0.01, repeat=2, **kw)
    sf.write(tmp_path / "take.wav", x, 48000)
    return truth


def _check(tmp_path, out, *more):
    # Chromium (for the PNG) maps far more address space than the runner's 2 GiB bound.
    r = run([GUJI, "check", "take.wav", PATTERN.id, "--rite", "she", "--repeat", "2",
             "--json", "-o", out, *more], tmp_path, memory_bytes=2 ** 40)
    assert r.returncode == 0, r.stderr
    assert f"wrote {out}" in r.stderr
    return json.loads(r.stdout)


def _marks(root):
    return [e for e in root.iter() if e.get("data-kind")]


def test_the_svg_marks_every_stroke_as_it_was_played(tmp_path):
    truth = _take(tmp_path, wrong=2, missing=2, extra=2, late=(7, 0.045))
    report = _check(tmp_path, "report.svg")
    root = ET.parse(tmp_path / "report.svg").getroot()      # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    marks = _marks(root)
    kinds = {k: sorted(int(e.get("data-stroke")) for e in marks if e.get("data-kind") == k)
             for k in ("ok", "wrong drum", "missing")}
    for kind in ("wrong drum", "missing"):
        assert kinds[kind] == [k for k, (what, _) in enumerate(truth.strokes) if what == kind]
    assert len(kinds["ok"]) == report["summary"]["right"]
    assert len(kinds["ok"]) + len(kinds["wrong drum"]) + len(kinds["missing"]) \
        == len(truth.strokes)
    extras = sorted(float(e.get("data-time")) for e in marks if e.get("data-kind") == "extra")
    assert np.allclose(extras, truth.extra, atol=0.020)
    # Every mark has its tooltip; the late stroke stands above its strip's zero line,
    # by its deviation on the picture's scale (strips' zero lines are the black lines).
    assert all(e.find(f"{SVG}title") is not None and e.find(f"{SVG}title").text for e in marks)
    late = next(e for e in marks if e.get("data-stroke") == "7")
    assert abs(float(late.get("data-ms")) - truth.deviation(7) * 1000) <= 2.0
    zeros = sorted(float(e.get("y1")) for e in root.iter(f"{SVG}line")
                   if e.get("stroke") == "#222222" and e.get("y1") == e.get("y2"))
    y = float(late.get("cy", late.get("y", 0))) + (0 if late.get("cy") else MARK / 2)
    zero = max(z for z in zeros if z - STRIP / 2 <= y)
    scale = max(LEAST_MS, 50 * np.ceil(max(abs(r["deviation_ms"]) for r in report["strokes"]
                                           if r["deviation_ms"] is not None) / 50))
    assert (zero - y) == pytest.approx(
        float(late.get("data-ms")) / scale * (STRIP / 2 - MARK), abs=0.02)
    # The source glyphs along the axis, one per stroke, in order.
    want = [e.glyph for e in truth.events if not e.is_click]
    glyphs = [t.text for t in root.iter(f"{SVG}text") if t.text in set(want)]
    assert glyphs == want


def test_long_passes_go_on_over_more_strips(tmp_path):
    x, truth = perform(PATTERN, seed=4, repeat=6)
    sf.write(tmp_path / "take.wav", x, 48000)
    r = run([GUJI, "check", "take.wav", PATTERN.id, "--rite", "she", "--repeat", "6",
             "-o", "r.svg"], tmp_path)
    assert r.returncode == 0, r.stderr
    root = ET.parse(tmp_path / "r.svg").getroot()
    labels = [t.text for t in root.iter(f"{SVG}text") if t.text and "pass" in t.text]
    assert [lab.rsplit("pass ", 1)[1] for lab in labels] == [str(k) for k in range(1, 7)]
    assert len(truth.strokes) // 6 <= COLUMNS
    assert len(_marks(root)) == len(truth.strokes)


def test_the_png_is_the_picture(tmp_path, chromium):
    _take(tmp_path, wrong=2, missing=1, extra=2)
    _check(tmp_path, "report.png", "--scale", "1")
    svg = run([GUJI, "check", "take.wav", PATTERN.id, "--rite", "she", "--repeat", "2",
               "-o", "same.svg"], tmp_path)
    assert svg.returncode == 0
    root = ET.parse(tmp_path / "same.svg").getroot()
    img = read_png(tmp_path / "report.png")
    assert img.shape[:2] == (round(float(root.get("height"))), round(float(root.get("width"))))
    r, g, b = (img[..., i].astype(int) for i in range(3))
    grey = img[..., :3].mean(axis=2)
    assert (grey < 100).sum() > 2000                                # ink: marks, glyphs, text
    assert ((r > 130) & (g < 80) & (b < 80)).sum() > 20             # the wrong drums' red
    assert ((r > 180) & (g > 90) & (g < 160) & (b < 60)).sum() > 10  # the extras' orange


def test_a_picture_of_another_kind_is_refused_before_the_recording_is_heard(tmp_path):
    r = run([GUJI, "check", "nothing.wav", "lu", "-o", "report.jpg"], tmp_path)
    assert r.returncode == 2 and len(r.err_lines) == 1
    assert ".svg or .png" in r.stderr and "no such recording" not in r.stderr
    r = run([GUJI, "check", "nothing.wav", "lu", "-o", "no/such/dir/report.svg"], tmp_path)
    assert r.returncode == 2 and len(r.err_lines) == 1 and "no such recording" not in r.stderr
    assert not list(tmp_path.iterdir())

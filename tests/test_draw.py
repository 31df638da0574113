"""Pictures (guji.views.draw, ``guji draw``): the SVG read back as XML, the PNG as pixels."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest

from guji.text.collation.grid import align_many
from guji.cli.main import main
from guji.views.draw import drawing
from guji.views.png import svg_to_png
from guji.views.source import label_after, source_drawing
from guji.views.svg import Drawing
from guji.views.timeline import timeline_drawing
from guji.text.reading.editions import load
from guji.text.reading.notation import Drum


SVG = "{http://www.w3.org/2000/svg}"




def read_png(path) -> np.ndarray:
    """Decode an 8-bit RGB/RGBA PNG (what Chromium writes) to an array
    (height, width, channels), undoing the five PNG row filters."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    assert depth == 8 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(idat)
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        f, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if f == 1:      # Sub
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 0xFF
        elif f == 2:    # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif f == 3:    # Average
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 0xFF
        elif f == 4:    # Paeth
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return np.frombuffer(bytes(out), dtype=np.uint8).reshape(height, width, bpp)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def shapes(group: ET.Element) -> list[tuple[str, float, float]]:
    """(kind, x, y) of the stroke shapes in *group*, kind 'small'/'big'."""
    out = []
    for el in group.iter():
        cls = el.get("class", "")
        if "stroke" not in cls.split():
            continue
        if el.tag == SVG + "circle":
            out.append(("small", float(el.get("cx")), float(el.get("cy"))))
        else:
            size = float(el.get("width"))
            out.append(("big", float(el.get("x")) + size / 2, float(el.get("y")) + size / 2))
    return out


def columns(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-pattern"): g for g in root.iter(SVG + "g")
            if g.get("class") == "column"}


# -- the source view ---------------------------------------------------------------

def test_source_column_reads_the_pattern_top_to_bottom():
    p = load("xue:1")
    root = parse(source_drawing([p]).svg())
    col = columns(root)[p.id]
    marks = shapes(col)
    assert len(marks) == len(p.strokes)
    # One column: one x; y grows stroke by stroke; drums in the pattern's order.
    assert len({round(x, 3) for _, x, _ in marks}) == 1
    ys = [y for _, _, y in marks]
    assert ys == sorted(ys)
    want = ["small" if s.drum is Drum.SMALL else "big" for s in p.strokes]
    assert [k for k, _, _ in marks] == want
    # 半 stands between the last stroke before it and the first after it.
    half = [t for t in col.iter(SVG + "text") if t.text == "半"]
    assert len(half) == 1
    hy = float(half[0].get("y"))
    assert ys[p.half_start - 1] < hy < ys[p.half_start]


def _label_y(col: ET.Element) -> list[float]:
    return [float(t.get("y")) for t in col.iter(SVG + "text") if t.get("class") == "label"]


def test_first_diagram_label_follows_the_pattern_second_precedes_it():
    one, two = load("lu:1"), load("lu:2")
    assert label_after(one) and not label_after(two)
    root = parse(source_drawing([one, two]).svg())
    cols = columns(root)
    for p, after in ((one, True), (two, False)):
        col = cols[p.id]
        ys = [y for _, _, y in shapes(col)]
        labels = _label_y(col)
        assert "".join(t.text for t in col.iter(SVG + "text")
                       if t.get("class") == "label") == "魯鼓"
        if after:
            assert min(labels) > max(ys)
        else:
            assert max(labels) < min(ys)


def test_label_position_follows_the_source_text_for_every_edition():
    for ed in ("liji-zhengyi", "lijing-benyi", "wuli-tongkao"):
        for diagram in (1, 2):
            p = load(f"xue:{diagram}@{ed}")
            # the label's place in the text decides, and agrees with the diagram
            assert label_after(p) == (diagram == 1)


def test_columns_read_right_to_left_and_differences_are_shaded():
    a, b = load("lu:1"), load("lu:1@wuli-tongkao")
    root = parse(source_drawing([a, b]).svg())
    cols = columns(root)
    xa = shapes(cols[a.id])[0][1]
    xb = shapes(cols[b.id])[0][1]
    assert xa > xb, "the first pattern stands at the right"
    # Exactly the 4th stroke of each column is shaded (the one substitution).
    for p in (a, b):
        col = cols[p.id]
        ys = [y for _, _, y in shapes(col)]
        shaded = [float(r.get("y")) + float(r.get("height")) / 2
                  for r in col.iter(SVG + "rect") if r.get("class") == "difference"]
        assert len(shaded) == 1
        assert abs(shaded[0] - ys[3]) < 1e-6


def test_cjk_text_is_text_with_a_cjk_font_list():
    svg = source_drawing([load("lu:1")]).svg(xml_declaration=True)
    root = parse(svg)
    family = root.get("font-family")
    assert "Noto Serif CJK" in family and family.rstrip().endswith("serif")
    texts = "".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "魯" in texts and "半" in texts


# -- the timeline ------------------------------------------------------------------

def tracks(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-pattern"): g for g in root.iter(SVG + "g") if g.get("class") == "track"}


def test_timeline_puts_the_extra_stroke_against_a_gap():
    a, b = load("xue:2"), load("xue:2@lijing-benyi")
    grid = align_many([a, b])
    root = parse(timeline_drawing([a, b]).svg())
    tr = tracks(root)
    xa = [x for _, x, _ in shapes(tr[a.id])]
    xb = [x for _, x, _ in shapes(tr[b.id])]
    assert len(xa) == len(a.strokes) and len(xb) == len(b.strokes)
    # B fills every column; A has one gap, drawn as a dashed cell in that column.
    gaps = [r for r in tr[a.id].iter(SVG + "rect") if r.get("class") == "gap"]
    assert len(gaps) == 1 and not [r for r in tr[b.id].iter(SVG + "rect")
                                   if r.get("class") == "gap"]
    gap_x = float(gaps[0].get("x")) + float(gaps[0].get("width")) / 2
    assert not any(abs(gap_x - x) < 1e-6 for x in xa)
    assert any(abs(gap_x - x) < 1e-6 for x in xb)
    # Aligned: after the gap, A's strokes stand under B's (same x, one column on).
    assert xa[11:] == xb[12:]
    # The highlighted column in B's track is the inserted stroke's.
    diffs = [r for r in tr[b.id].iter(SVG + "rect") if r.get("class") == "difference"]
    assert len(diffs) == 1 and diffs[0].get("data-kind") == "ins"
    assert int(diffs[0].get("data-column")) == [c for c in range(len(grid.columns))
                                               if grid.differs(c, 1)][0]


def test_timeline_lanes_and_half_line():
    a, b = load("lu:1"), load("lu:1@wuli-tongkao")
    root = parse(timeline_drawing([a, b]).svg())
    tr = tracks(root)[a.id]
    marks = shapes(tr)
    small_y = {round(y, 3) for k, _, y in marks if k == "small"}
    big_y = {round(y, 3) for k, _, y in marks if k == "big"}
    assert len(small_y) == 1 and len(big_y) == 1 and small_y != big_y
    half = [ln for ln in tr.iter(SVG + "line") if ln.get("class") == "half"]
    assert len(half) == 1
    hx = float(half[0].get("x1"))
    xs = [x for _, x, _ in marks]
    assert xs[a.half_start - 1] < hx < xs[a.half_start]
    subs = [r for r in tr.iter(SVG + "rect") if r.get("class") == "difference"]
    assert len(subs) == 1


def test_identical_patterns_have_nothing_highlighted():
    root = parse(drawing([load("lu:2"), load("lu:2@wuli-tongkao")], "both").svg())
    assert not [r for r in root.iter(SVG + "rect") if r.get("class") == "difference"]


# -- the command ---------------------------------------------------------------------

def test_draw_svg_file(tmp_path, capsys):
    out = tmp_path / "pic.svg"
    assert main(["draw", "lu:1", "lu:1@wuli-tongkao", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    root = parse(text)
    assert len(columns(root)) == 2 and len(tracks(root)) == 2
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    assert not list(tmp_path.glob(".pic*")), "no temporary file left behind"


def test_draw_to_stdout(capsys):
    assert main(["draw", "xue:1", "-o", "-", "--view", "source"]) == 0
    root = parse(capsys.readouterr().out)
    assert len(columns(root)) == 1 and not tracks(root)


def test_draw_bad_suffix_is_an_error(tmp_path, capsys):
    assert main(["draw", "lu:1", "-o", str(tmp_path / "pic.jpg")]) == 2
    assert "svg or .png" in capsys.readouterr().err
    assert not (tmp_path / "pic.jpg").exists()


def test_png_shows_the_drawing(tmp_path, capsys, chromium):
    out = tmp_path / "pic.png"
    assert main(["draw", "lu:1", "lu:1@wuli-tongkao", "-o", str(out), "--scale", "1"]) == 0
    picture = drawing([load("lu:1"), load("lu:1@wuli-tongkao")])
    img = read_png(out)
    assert img.shape[0] == round(picture.height) and img.shape[1] == round(picture.width)
    grey = img[..., :3].mean(axis=2)
    assert grey.std() > 10, "not blank"
    # Ink (dark pixels) and the yellow difference shading are both there.
    assert (grey < 100).sum() > 1000
    r, g, b = (img[..., i].astype(int) for i in range(3))
    assert ((r > 200) & (g > 200) & (b < 190) & (r - b > 40)).sum() > 50


def test_png_without_a_browser_is_a_clear_error(tmp_path, monkeypatch, capsys):
    # A missing browser cannot be caused for real here: point GUJI_CHROMIUM nowhere.
    monkeypatch.setenv("GUJI_CHROMIUM", str(tmp_path / "no-such-browser"))
    assert main(["draw", "lu:1", "-o", str(tmp_path / "pic.png")]) == 2
    err = capsys.readouterr().err
    assert "GUJI_CHROMIUM" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "pic.png").exists()


def test_drawing_is_a_value():
    d = Drawing(10, 20, "<g/>", "t")
    assert 'width="10"' in d.svg() and 'height="20"' in d.svg()
    with pytest.raises(Exception):
        svg_to_png(d, "/nonexistent-dir/x.png", browser="/nonexistent-browser")

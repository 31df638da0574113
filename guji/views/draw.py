"""Pictures of the patterns, as SVG written by guji itself (and PNG through a browser).

Two pictures, both plain SVG 1.1 text (no dependency):

* :func:`source_svg` — each pattern *as the source writes it*: a vertical
  column, columns read from right to left (the first pattern given stands at
  the right), ○ (鼙) drawn as a circle and □ (鼓) as a square, 半 in its place,
  and the score label (魯鼓 / 薛鼓) where the edition puts it. In the first
  diagram the label follows its pattern (below it in a column); in the second
  it precedes it (above). When the source text says where the label stands
  (:attr:`Pattern.label_location <guji.notation.Pattern.label_location>`),
  that decides; otherwise the diagram does. With two or more patterns, the
  strokes where a pattern differs from the first (by the alignment of
  :mod:`guji.align`) are shaded.

* :func:`timeline_svg` — a piano roll of two or more patterns on one grid:
  one track per pattern, a lane for each drum (鼙 above, 鼓 below), one
  column per aligned stroke (:func:`guji.align.align_many`), so a stroke one
  edition lacks is an empty dashed cell, not a shifted tail. Columns where a
  pattern differs from the first are highlighted; 半 is a line across its
  track; the part before 半 (played only in the 射禮) is shaded grey. Every
  column is one interval of the even grid (間若一).

:func:`drawing_svg` stacks the two. Chinese text stays text: the SVG names a
list of common CJK fonts (:data:`FONT_FAMILY`) and the viewer picks the first
it has. Every stroke carries a ``<title>`` (a tooltip: its number, drum, and
source position).

PNG
---
:func:`svg_to_png` renders the SVG with a headless Chromium
(``chromium --headless --screenshot``): Chromium falls back through the font
list to whatever CJK font is installed, as a reader's browser does, where
libraries like cairosvg use only the first family and draw empty boxes
(tofu) when it is missing. No Python package is needed; the browser is found
as ``$GUJI_CHROMIUM`` or ``chromium``/``chromium-browser``/``google-chrome``
on the ``PATH``. On Debian: ``apt-get install chromium fonts-noto-cjk``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence
from xml.sax import saxutils

from ..text.align import Grid, align_many
from ..text.names import LETTERS
from ..errors import UsageError, escape_controls
from ..text.notation import HALF, Drum, Pattern
from ..files import atomic_path

#: Fonts for Chinese text, most wanted first (traditional-character serif
#: fonts, then simplified, then sans), ending with the generic family.

def escape(text: str) -> str:
    """XML text of *text*, control characters shown as ``U+0001`` (XML 1.0 has
    no way to hold most of them, even as character references)."""
    return saxutils.escape(escape_controls(str(text)))


def quoteattr(text: str) -> str:
    """A quoted XML attribute value of *text*, controls escaped as in :func:`escape`."""
    return saxutils.quoteattr(escape_controls(str(text)))


FONT_FAMILY = ("'Noto Serif CJK TC', 'Noto Serif CJK SC', 'Source Han Serif TC', "
               "'Source Han Serif SC', 'Songti TC', 'STSong', 'PMingLiU', 'MingLiU', "
               "'SimSun', 'Noto Sans CJK TC', 'Noto Sans CJK SC', 'Microsoft JhengHei', "
               "'Microsoft YaHei', 'PingFang TC', 'WenQuanYi Zen Hei', 'Droid Sans Fallback', "
               "serif")

#: Colours (one place to change them).
INK = "#222222"
SMALL_COLOUR = "#1f5fa8"     # 鼙 in the timeline
BIG_COLOUR = "#a12a1e"       # 鼓 in the timeline
DIFF_FILL = "#ffcc33"        # a difference
DIFF_OPACITY = "0.45"
BEFORE_HALF_FILL = "#eeeeee"  # strokes played only in the 射禮
GRID_COLOUR = "#cccccc"

VIEWS = ("source", "timeline", "both")


@dataclass(frozen=True)
class Drawing:
    """An SVG picture: its size in px and its body (the elements inside ``<svg>``)."""

    width: float
    height: float
    body: str
    title: str = ""

    def svg(self, xml_declaration: bool = False) -> str:
        """The whole ``<svg>`` element (with an XML declaration for a file)."""
        head = '<?xml version="1.0" encoding="UTF-8"?>\n' if xml_declaration else ""
        w, h = _num(self.width), _num(self.height)
        title = f"<title>{escape(self.title)}</title>\n" if self.title else ""
        return (f'{head}<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" role="img" aria-label={quoteattr(self.title)} '
                f'font-family="{FONT_FAMILY}">\n{title}'
                f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>\n'
                f'{self.body}</svg>\n')


def _num(x: float) -> str:
    """A coordinate without needless decimals."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "middle",
          fill: str = INK, extra: str = "") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}" dominant-baseline="central" fill="{fill}"{extra}>'
            f'{escape(text)}</text>\n')


def pattern_title(pattern: Pattern) -> str:
    """``魯鼓 · 前圖 (diagram 1) · 禮記正義``: what a legend calls a pattern."""
    from ..text.editions import editions

    source = pattern.filename or "text"
    if pattern.edition:
        source = next((e.title for e in editions() if e.slug == pattern.edition), pattern.edition)
    which = "前圖" if pattern.diagram == 1 else "後圖" if pattern.diagram == 2 else ""
    return f"{pattern.tradition.label} · {which} (diagram {pattern.diagram}) · {source}"


def label_after(pattern: Pattern) -> bool:
    """True when the pattern's label follows it (first diagram), False when it
    precedes it (second). The source's own label position decides when known."""
    if pattern.label_location is not None and pattern.strokes:
        return pattern.label_location.offset > pattern.strokes[0].location.offset
    return pattern.diagram != 2


def _stroke_title(pattern: Pattern, i: int) -> str:
    s = pattern.strokes[i]
    side = "before 半 (射禮 only)" if i < pattern.half_start else "after 半"
    return (f"{pattern.id} stroke {i + 1}: {s.glyph} {s.drum.value} ({s.drum.english}), "
            f"{side}, source {s.location} '{s.raw}'")


def _shape(drum: Drum, cx: float, cy: float, size: float, colour: str, title: str,
           width: float = 2.0) -> str:
    """○ as a circle, □ as a square, centred on (cx, cy), *size* across."""
    t = f"<title>{escape(title)}</title>"
    if drum is Drum.SMALL:
        return (f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(size / 2)}" fill="none" '
                f'stroke="{colour}" stroke-width="{_num(width)}" class="stroke small">{t}</circle>\n')
    return (f'<rect x="{_num(cx - size / 2)}" y="{_num(cy - size / 2)}" width="{_num(size)}" '
            f'height="{_num(size)}" fill="none" stroke="{colour}" stroke-width="{_num(width)}" '
            f'class="stroke big">{t}</rect>\n')


def _differing_strokes(patterns: Sequence[Pattern], grid: Grid | None) -> list[set[int]]:
    """For each pattern, the indices of its strokes that differ from pattern 0
    (for pattern 0: those where any other pattern differs)."""
    out: list[set[int]] = [set() for _ in patterns]
    if grid is None or len(patterns) < 2:
        return out
    for c, col in enumerate(grid.columns):
        for r, i in enumerate(col):
            if i is not None and grid.differs(c, r):
                out[r].add(i)
    return out


def _legend(patterns: Sequence[Pattern], x: float, y: float, size: float) -> tuple[str, float, float]:
    """Lines ``A   lu:1@liji-zhengyi   魯鼓 · 前圖 …``; returns (svg, width, height)."""
    body = []
    id_w = max(len(p.id) for p in patterns) * size * 0.6
    width = 0.0
    for r, p in enumerate(patterns):
        cy = y + size * 0.7 + r * size * 1.5
        body.append(_text(x, cy, LETTERS[r % 26], size, anchor="start", extra=' font-weight="bold"'))
        body.append(_text(x + size * 1.6, cy, p.id, size, anchor="start"))
        title = pattern_title(p)
        body.append(_text(x + size * 2.6 + id_w, cy, title, size, anchor="start"))
        width = max(width, size * 2.6 + id_w + _text_width(title, size))
    return "".join(body), width, len(patterns) * size * 1.5


def _text_width(text: str, size: float) -> float:
    """A generous estimate of the width of *text* at *size* px (wide characters
    count one em, others 0.6 em)."""
    from ..errors import display_width

    return display_width(text) * size * 0.5 + size * 0.5


def source_drawing(patterns: Sequence[Pattern], *, cell: float = 30.0,
                   highlight: bool = True) -> Drawing:
    """The patterns as the sources write them: vertical columns, right to left.

    Parameters
    ----------
    patterns:
        One or more patterns; the first stands in the rightmost column.
    cell:
        Height of one character (px); a column is ``1.6 × cell`` wide.
    highlight:
        Shade the strokes that differ from the first pattern (when there
        are two or more).
    """
    patterns = list(patterns)
    if not patterns:
        raise UsageError("nothing to draw: give at least one pattern")
    grid = align_many(patterns) if highlight and len(patterns) > 1 else None
    differing = _differing_strokes(patterns, grid)
    col_w = cell * 1.8
    margin = cell
    # A column: the label (2 characters), one empty cell, the strokes and 半.
    rows = max(len(p.strokes) + 1 + 3 for p in patterns)
    top = margin
    column_bottom = top + rows * cell
    legend_size = cell * 0.45
    legend, legend_w, legend_h = _legend(patterns, margin, column_bottom + cell * 1.4,
                                         legend_size)
    height = column_bottom + cell * 1.4 + legend_h + margin * 0.5
    block = col_w * len(patterns)
    width = max(margin * 2 + block, margin * 2 + legend_w)
    right = (width + block) / 2     # the block of columns is centred

    body = []
    for k, p in enumerate(patterns):
        cx = right - col_w * (k + 0.5)   # right to left: pattern 0 in the rightmost column
        label: list[tuple[str, object]] = [("label", ch) for ch in p.tradition.label]
        strokes: list[tuple[str, object]] = []
        for i, s in enumerate(p.strokes):
            if i == p.half_start:
                strokes.append(("half", HALF))
            strokes.append(("stroke", i))
        if p.half_start >= len(p.strokes):
            strokes.append(("half", HALF))
        if label_after(p):
            items = strokes + [("space", None)] + label
        else:
            items = label + [("space", None)] + strokes
        body.append(f'<g class="column" data-pattern={quoteattr(p.id)}>\n')
        for j, (kind, value) in enumerate(items):
            cy = top + (j + 0.5) * cell
            if kind == "stroke":
                i = int(value)  # type: ignore[arg-type]
                if i in differing[k]:
                    body.append(f'<rect x="{_num(cx - col_w * 0.45)}" y="{_num(cy - cell / 2)}" '
                                f'width="{_num(col_w * 0.9)}" height="{_num(cell)}" '
                                f'fill="{DIFF_FILL}" fill-opacity="{DIFF_OPACITY}" '
                                f'class="difference"/>\n')
                body.append(_shape(p.strokes[i].drum, cx, cy, cell * 0.62, INK,
                                   _stroke_title(p, i), width=cell * 0.06))
            elif kind == "half":
                body.append(_text(cx, cy, HALF, cell * 0.8,
                                  extra=' class="half"'))
            elif kind == "label":
                body.append(_text(cx, cy, str(value), cell * 0.8, extra=' class="label"'))
        body.append(_text(cx, column_bottom + cell * 0.6, LETTERS[k % 26], cell * 0.45,
                          fill="#666666"))
        body.append("</g>\n")
    body.append(legend)
    title = "the patterns as the sources write them: " + ", ".join(p.id for p in patterns)
    return Drawing(width, height, "".join(body), title)


def timeline_drawing(patterns: Sequence[Pattern], *, grid: Grid | None = None,
                     cell: float = 24.0) -> Drawing:
    """A piano roll of the patterns on one aligned grid (see the module docstring).

    Parameters
    ----------
    patterns:
        One or more patterns; the first is the reference the others are
        aligned to and compared with.
    grid:
        A ready alignment of exactly these patterns (default: computed with
        :func:`guji.align.align_many`).
    cell:
        Width of one grid column and height of one lane (px).
    """
    patterns = list(patterns)
    if not patterns:
        raise UsageError("nothing to draw: give at least one pattern")
    grid = grid or align_many(patterns)
    ncols = len(grid.columns)
    label_w = cell * 9.5
    margin = cell * 0.8
    axis_h = cell * 1.2
    track_h = cell * 2 + cell * 1.1   # two lanes and room for the 半 label
    left = margin + label_w
    width = left + ncols * cell + margin
    top = margin + axis_h
    legend_size = cell * 0.5
    tracks_bottom = top + track_h * len(patterns)
    key_y = tracks_bottom + cell * 0.6
    legend, legend_w, legend_h = _legend(patterns, margin, key_y + cell * 1.2, legend_size)
    height = key_y + cell * 1.2 + legend_h + margin * 0.5

    body = []
    # Column numbers (every 5th) and grid lines.
    for c in range(ncols):
        x = left + c * cell
        if c % 5 == 0:
            body.append(_text(x + cell / 2, margin + axis_h / 2, str(c + 1), cell * 0.45,
                              fill="#666666"))
    for r, p in enumerate(patterns):
        y0 = top + r * track_h + cell * 1.1
        hc = grid.half_columns[r]
        body.append(f'<g class="track" data-pattern={quoteattr(p.id)}>\n')
        # 射禮-only region, lanes.
        if hc > 0:
            body.append(f'<rect x="{_num(left)}" y="{_num(y0)}" width="{_num(hc * cell)}" '
                        f'height="{_num(cell * 2)}" fill="{BEFORE_HALF_FILL}"/>\n')
        for lane in range(3):
            y = y0 + lane * cell
            body.append(f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(left + ncols * cell)}" '
                        f'y2="{_num(y)}" stroke="{GRID_COLOUR}" stroke-width="1"/>\n')
        body.append(_text(margin, y0 + cell, LETTERS[r % 26], cell * 0.9, anchor="start",
                          extra=' font-weight="bold"'))
        body.append(_text(margin + cell * 1.1, y0 + cell * 0.5, p.tradition.label, cell * 0.5,
                          anchor="start"))
        body.append(_text(margin + cell * 1.1, y0 + cell * 1.5, f"{p.diagram} "
                          f"{p.edition or p.filename or ''}"[:24], cell * 0.42, anchor="start",
                          fill="#666666"))
        body.append(_text(left - cell * 0.3, y0 + cell * 0.5, "鼙", cell * 0.5, anchor="end"))
        body.append(_text(left - cell * 0.3, y0 + cell * 1.5, "鼓", cell * 0.5, anchor="end"))
        for c in range(ncols):
            x = left + c * cell
            i = grid.columns[c][r]
            kind = grid.kind(c, r) if r else ""
            differs = grid.differs(c, r) if len(patterns) > 1 else False
            if differs:
                body.append(f'<rect x="{_num(x)}" y="{_num(y0)}" width="{_num(cell)}" '
                            f'height="{_num(cell * 2)}" fill="{DIFF_FILL}" '
                            f'fill-opacity="{DIFF_OPACITY}" class="difference" '
                            f'data-column="{c}" data-kind="{kind or "ref"}"/>\n')
            if i is None:
                body.append(f'<rect x="{_num(x + cell * 0.15)}" y="{_num(y0 + cell * 0.15)}" '
                            f'width="{_num(cell * 0.7)}" height="{_num(cell * 1.7)}" fill="none" '
                            f'stroke="#999999" stroke-dasharray="3 2" class="gap">'
                            f'<title>{escape(p.id)}: no stroke here (column {c + 1})</title>'
                            f'</rect>\n')
                continue
            drum = p.strokes[i].drum
            lane_y = y0 + (0.5 if drum is Drum.SMALL else 1.5) * cell
            colour = SMALL_COLOUR if drum is Drum.SMALL else BIG_COLOUR
            body.append(_shape(drum, x + cell / 2, lane_y, cell * 0.62, colour,
                               _stroke_title(p, i) + f", column {c + 1}", width=cell * 0.09))
        # 半: a line across the track at its boundary.
        hx = left + hc * cell
        body.append(f'<line x1="{_num(hx)}" y1="{_num(y0 - cell * 0.25)}" x2="{_num(hx)}" '
                    f'y2="{_num(y0 + cell * 2)}" stroke="{INK}" stroke-width="2" class="half"/>\n')
        body.append(_text(hx, y0 - cell * 0.55, HALF, cell * 0.6))
        body.append("</g>\n")

    # The key: each item a sample and its words.
    kx = margin
    ks = legend_size
    items = [("small", "鼙 small drum (○)"), ("big", "鼓 big drum (□)"),
             ("before", "before 半: played only in the 射禮"),
             ("gap", "no stroke here (a gap in the alignment)"),
             ("diff", "differs from A")]
    for kind, words in items:
        sx, sy = kx + ks / 2, key_y
        if kind == "small":
            body.append(_shape(Drum.SMALL, sx, sy, ks, SMALL_COLOUR, words, width=2))
        elif kind == "big":
            body.append(_shape(Drum.BIG, sx, sy, ks, BIG_COLOUR, words, width=2))
        else:
            fill, extra = {"before": (BEFORE_HALF_FILL, ""),
                           "gap": ("none", ' stroke="#999999" stroke-dasharray="3 2"'),
                           "diff": (DIFF_FILL, f' fill-opacity="{DIFF_OPACITY}"')}[kind]
            body.append(f'<rect x="{_num(sx - ks / 2)}" y="{_num(sy - ks / 2)}" '
                        f'width="{_num(ks)}" height="{_num(ks)}" fill="{fill}"{extra}/>\n')
        body.append(_text(kx + ks * 1.5, key_y, words, ks, anchor="start", fill="#444444"))
        kx += ks * 1.5 + _text_width(words, ks) + ks
    body.append(legend)
    width = max(width, kx + margin, margin * 2 + legend_w)
    title = "timeline of " + ", ".join(p.id for p in patterns) + " on one aligned grid"
    return Drawing(width, height, "".join(body), title)


def stack(*drawings: Drawing, gap: float = 20.0) -> Drawing:
    """Drawings one above the other in one picture."""
    width = max(d.width for d in drawings)
    y = 0.0
    body = []
    for d in drawings:
        body.append(f'<g transform="translate(0 {_num(y)})">\n{d.body}</g>\n')
        y += d.height + gap
    return Drawing(width, y - gap, "".join(body), "; ".join(d.title for d in drawings))


def drawing(patterns: Sequence[Pattern], view: str = "both") -> Drawing:
    """The picture ``guji draw`` writes: *view* is ``source``, ``timeline`` or
    ``both`` (the source columns above the timeline)."""
    if view not in VIEWS:
        raise UsageError(f"unknown view {view!r}: use one of {', '.join(VIEWS)}")
    if view == "source":
        return source_drawing(patterns)
    if view == "timeline":
        return timeline_drawing(patterns)
    return stack(source_drawing(patterns), timeline_drawing(patterns))


def source_svg(patterns: Sequence[Pattern]) -> str:
    """:func:`source_drawing` as a standalone SVG document."""
    return source_drawing(patterns).svg(xml_declaration=True)


def timeline_svg(patterns: Sequence[Pattern]) -> str:
    """:func:`timeline_drawing` as a standalone SVG document."""
    return timeline_drawing(patterns).svg(xml_declaration=True)


def drawing_svg(patterns: Sequence[Pattern], view: str = "both") -> str:
    """:func:`drawing` as a standalone SVG document."""
    return drawing(patterns, view).svg(xml_declaration=True)


def write_svg(path: str | os.PathLike, svg: str) -> Path:
    """Write *svg* (UTF-8) to *path* atomically."""
    target = Path(path)
    with atomic_path(target) as tmp:
        Path(tmp).write_text(svg, encoding="utf-8")
    return target


# -- PNG through a headless browser --------------------------------------------

#: Browser executables tried, in order, after ``$GUJI_CHROMIUM``.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Flags for a quiet, offline, one-shot headless run.
BROWSER_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--mute-audio")


def find_browser() -> str:
    """The Chromium executable to use, or :class:`UsageError` if there is none."""
    env = os.environ.get("GUJI_CHROMIUM")
    if env:
        found = shutil.which(env)
        if not found:
            raise UsageError(f"GUJI_CHROMIUM={env!r} is not an executable")
        return found
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise UsageError("PNG needs a Chromium browser (Debian: apt-get install chromium "
                     "fonts-noto-cjk; or set GUJI_CHROMIUM); write .svg instead")


def svg_to_png(drawing_: Drawing, path: str | os.PathLike, *, scale: float = 2.0,
               browser: str | None = None, timeout: float = 120.0) -> Path:
    """Render *drawing_* to a PNG file with a headless Chromium screenshot.

    Parameters
    ----------
    drawing_:
        The picture; the PNG is ``width × scale`` by ``height × scale`` pixels.
    path:
        Where to write it (atomically).
    scale:
        Device pixels per SVG pixel (2 gives crisp text).
    browser:
        The browser executable (default: :func:`find_browser`).
    timeout:
        Seconds to wait for the browser.
    """
    exe = browser or find_browser()
    target = Path(path)
    w, h = int(round(drawing_.width)), int(round(drawing_.height))
    with tempfile.TemporaryDirectory(prefix="guji-png-") as tmpdir:
        svg_file = Path(tmpdir) / "drawing.svg"
        svg_file.write_text(drawing_.svg(xml_declaration=True), encoding="utf-8")
        shot = Path(tmpdir) / "shot.png"
        cmd = [exe, *BROWSER_FLAGS, f"--user-data-dir={tmpdir}/profile",
               f"--force-device-scale-factor={scale:g}", f"--window-size={w},{h}",
               f"--screenshot={shot}", svg_file.as_uri()]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=timeout, text=True)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise UsageError(f"could not run {exe} to make the PNG: {e}") from None
        if proc.returncode != 0 or not shot.exists() or shot.stat().st_size == 0:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise UsageError(f"{exe} made no PNG (exit {proc.returncode}): {last}")
        with atomic_path(target) as tmp:
            shutil.copyfile(shot, tmp)
    return target

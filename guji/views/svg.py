"""The SVG vocabulary of guji's pictures: the picture value, text, shapes, colours.

Plain SVG 1.1 text written by guji itself (no dependency). A :class:`Drawing`
is a size and a body (the elements inside ``<svg>``); :func:`stack` puts
drawings one above the other. Chinese text stays text: the SVG names a list
of common CJK fonts (:data:`FONT_FAMILY`) and the viewer picks the first it
has. Every stroke is drawn by :func:`stroke_shape` and carries a ``<title>``
(a tooltip).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import display_width, escape_controls, xml_text
from ..text.reading.notation import Drum


def escape(text: str) -> str:
    """XML text of *text*, control characters shown as ``U+0001`` (XML 1.0 has
    no way to hold most of them, even as character references)."""
    from xml.sax import saxutils     # here: it loads urllib, http and ssl, not for guji --help
    return saxutils.escape(xml_text(escape_controls(str(text))))


def quoteattr(text: str) -> str:
    """A quoted XML attribute value of *text*, controls escaped as in :func:`escape`."""
    from xml.sax import saxutils
    return saxutils.quoteattr(xml_text(escape_controls(str(text))))


#: Fonts for Chinese text, most wanted first (traditional-character serif
#: fonts, then simplified, then sans), ending with the generic family.
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
        w, h = num(self.width), num(self.height)
        title = f"<title>{escape(self.title)}</title>\n" if self.title else ""
        return (f'{head}<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" role="img" aria-label={quoteattr(self.title)} '
                f'font-family="{FONT_FAMILY}">\n{title}'
                f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>\n'
                f'{self.body}</svg>\n')


def stack(*drawings: Drawing, gap: float = 20.0) -> Drawing:
    """Drawings one above the other in one picture."""
    width = max(d.width for d in drawings)
    y = 0.0
    body = []
    for d in drawings:
        body.append(f'<g transform="translate(0 {num(y)})">\n{d.body}</g>\n')
        y += d.height + gap
    return Drawing(width, y - gap, "".join(body), "; ".join(d.title for d in drawings))


def num(x: float) -> str:
    """A coordinate without needless decimals."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def svg_text(x: float, y: float, text: str, size: float, *, anchor: str = "middle",
             fill: str = INK, extra: str = "") -> str:
    """A ``<text>`` element centred vertically on *y* (*extra*: more attributes)."""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" '
            f'text-anchor="{anchor}" dominant-baseline="central" fill="{fill}"{extra}>'
            f'{escape(text)}</text>\n')


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of *text* at *size* px (wide characters
    count one em, others 0.6 em)."""
    return display_width(text) * size * 0.5 + size * 0.5


def stroke_shape(drum: Drum, cx: float, cy: float, size: float, colour: str, title: str,
                 width: float = 2.0, stroke: str | None = None) -> str:
    """○ as a circle, □ as a square, centred on (cx, cy), *size* across.

    *stroke* names the stroke drawn (``"2-7"``: pattern 2 of the picture,
    stroke 7 of the pattern, from 0) in a ``data-stroke`` attribute, by
    which the shared page lights the stroke sounding now
    (:mod:`guji.views.follow`)."""
    t = f"<title>{escape(title)}</title>"
    data = f' data-stroke="{stroke}"' if stroke is not None else ""
    if drum is Drum.SMALL:
        return (f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(size / 2)}" fill="none" '
                f'stroke="{colour}" stroke-width="{num(width)}" class="stroke small"{data}>'
                f'{t}</circle>\n')
    return (f'<rect x="{num(cx - size / 2)}" y="{num(cy - size / 2)}" width="{num(size)}" '
            f'height="{num(size)}" fill="none" stroke="{colour}" stroke-width="{num(width)}" '
            f'class="stroke big"{data}>{t}</rect>\n')


def rect(x: float, y: float, width: float, height: float, fill: str, extra: str = "") -> str:
    """A ``<rect>`` element (*extra*: more attributes, with a leading space)."""
    return (f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{num(height)}" '
            f'fill="{fill}"{extra}/>\n')

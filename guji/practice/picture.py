"""The report of a check as a picture: each stroke early, late, wrong, missing or extra.

:func:`report_drawing` draws the rows of a report (:mod:`guji.practice.report`)
as plain SVG (the vocabulary of :mod:`guji.views.svg`), one strip per pass
of each part (a pass longer than :data:`COLUMNS` strokes goes on over more
strips). In a strip every stroke is a column, in time order; its source
glyph (○ □ …) stands on the axis below it, its number above. The deviation
is a stem from the zero line to a mark — up is late, down is early —
the mark drawn as the stroke's drum (a circle for 鼙, a square for 鼓):

* ``ok`` — the right drum, in ink;
* ``wrong drum`` — in red (:data:`WRONG`), the drum the player struck;
* ``missing`` — a dashed grey outline on the zero line, no stem;
* ``extra`` — a hit no stroke was played by, between the columns of the
  strokes it fell between, drawn as a cross (:data:`EXTRA`) on the zero line.

The scale (ms) is the same in every strip: the larger of :data:`LEAST_MS`
and the largest deviation, rounded up; the strips carry gridlines at its
half and whole, labelled. Every mark has a ``<title>`` (a tooltip) saying
what it is, and ``data-kind`` / ``data-stroke`` / ``data-ms`` attributes
(what a program reading the picture needs). PNG: through
:func:`guji.views.png.svg_to_png`, as ``guji draw``.
"""

from __future__ import annotations

import math

from ..i18n import _, ngettext
from ..text.reading.notation import Drum
from ..views.svg import BIG_COLOUR, GRID_COLOUR, INK, Drawing, escape, num, svg_text, text_width
from .report import Row, Summary, shown_word

#: Strokes in one strip at most.
COLUMNS = 48
#: The least half-height of the scale, in ms.
LEAST_MS = 50.0
WRONG = BIG_COLOUR
MISSING = "#999999"
EXTRA = "#d07a00"
COLUMN = 22.0
STRIP = 120.0          # the strip's height: ±scale over STRIP/2 − MARK each side
MARK = 10.0
LEFT = 92.0
TOP = 72.0
GAP = 26.0


def report_drawing(table: tuple[Row, ...], summary: Summary, title: str) -> Drawing:
    """The picture of the rows *table* (with its *summary*, named *title*)."""
    strips = _strips(table)
    scale = _scale(table)
    headline = _headline(summary)
    width = max(LEFT + COLUMN * max([_width(s) for s in strips] + [COLUMNS // 2]) + 20,
                24 + text_width(headline, 12), 24 + text_width(title, 15))
    body = [svg_text(12, 18, title, 15, anchor="start"),
            svg_text(12, 38, headline, 12, anchor="start")]
    y = TOP
    for label, strip in strips:
        body.append(_strip(label, strip, y, scale))
        y += STRIP + GAP + 30
    if not strips:
        body.append(svg_text(12, y + 10, _("no strokes"), 12, anchor="start"))
        y += 30
    return Drawing(width, y, "".join(body), title)


def _headline(s: Summary) -> str:
    text = ngettext("{right} of {strokes} stroke right · {wrong} wrong drum · {missing} missing · "
                    "{extra} extra",
                    "{right} of {strokes} strokes right · {wrong} wrong drum · {missing} missing · "
                    "{extra} extra", s.strokes).format(
        right=s.right, strokes=s.strokes, wrong=s.wrong_drum, missing=s.missing, extra=s.extra)
    if s.mean_ms is not None:
        text += _(" · mean {mean:+.1f} ms, spread {spread:.1f} ms").format(
            mean=s.mean_ms, spread=s.spread_ms)
    if s.drift_ms is not None:
        text += _(" · {tempo} ({drift:+.0f} ± {error:.0f} ms over the piece)").format(
            tempo=shown_word(s.tempo), drift=s.drift_ms, error=s.drift_error_ms)
    return text


def _strips(table: tuple[Row, ...]) -> list[tuple[str, list[Row]]]:
    """The rows cut into strips: a new one at each pass (or part), or after
    :data:`COLUMNS` strokes; extras stay in the strip they fall in."""
    strips: list[tuple[str, list[Row]]] = []
    key = None
    count = 0
    for r in table:
        if r.kind != "extra":
            here = (r.part, r.pass_index)
            if here != key or count == COLUMNS:
                name = (_("{part} · pass {number}").format(part=r.part, number=r.pass_index + 1)
                        if here != key else "")
                strips.append((name or strips[-1][0] + " …", []))
                key, count = here, 0
            count += 1
        if not strips:
            strips.append(("", []))
        strips[-1][1].append(r)
    return strips


def _width(strip: tuple[str, list[Row]]) -> int:
    return sum(r.kind != "extra" for r in strip[1]) + 1


def _scale(table: tuple[Row, ...]) -> float:
    """Half the strips' height in ms: :data:`LEAST_MS`, or the largest
    deviation rounded up to a multiple of 50 ms."""
    worst = max((abs(r.deviation_ms) for r in table if r.deviation_ms is not None), default=0.0)
    return max(LEAST_MS, 50.0 * math.ceil(worst / 50.0))


def _strip(label: str, strip: list[Row], top: float, scale: float) -> str:
    """One strip: its label, scale, zero line, and a column per stroke."""
    mid = top + STRIP / 2
    reach = STRIP / 2 - MARK
    right = LEFT + COLUMN * _width((label, strip))
    out = [svg_text(8, top - 14, label, 12, anchor="start")]
    for ms in (-scale, -scale / 2, scale / 2, scale):
        y = mid - ms / scale * reach
        out.append(f'<line x1="{num(LEFT)}" y1="{num(y)}" x2="{num(right)}" y2="{num(y)}" '
                   f'stroke="{GRID_COLOUR}" stroke-width="1"/>\n')
        out.append(svg_text(LEFT - 6, y, _("{ms:+.0f} ms").format(ms=ms), 10, anchor="end"))
    out.append(f'<line x1="{num(LEFT)}" y1="{num(mid)}" x2="{num(right)}" y2="{num(mid)}" '
               f'stroke="{INK}" stroke-width="1"/>\n')
    out.append(svg_text(LEFT - 6, mid, "0", 10, anchor="end"))
    out.append(svg_text(8, mid - reach / 4, _("late ↑"), 10, anchor="start", fill=MISSING))
    out.append(svg_text(8, mid + reach / 4, _("early ↓"), 10, anchor="start", fill=MISSING))
    column = 0
    for r in strip:
        if r.kind == "extra":
            out.append(_extra(LEFT + COLUMN * (column + 0.5), mid, r))
            continue
        column += 1
        x = LEFT + COLUMN * column
        out.append(svg_text(x, top + STRIP + 10, r.glyph or "", 13))
        out.append(svg_text(x, top + 2, str(r.stroke + 1), 8, fill=MISSING))
        out.append(_stroke(x, mid, reach, scale, r))
    return "".join(out)


def _stroke(x: float, mid: float, reach: float, scale: float, r: Row) -> str:
    """The stem and mark of a stroke's row *r* at column *x*."""
    big = r.played_drum == "鼓" if r.played_drum else r.glyph == "□"
    said = _("stroke {number} {glyph}").format(number=r.stroke + 1, glyph=r.glyph or "")
    if r.kind == "missing":
        return _mark(Drum.BIG if r.glyph == "□" else Drum.SMALL, x, mid, MISSING,
                     _("{stroke}: missing").format(stroke=said), r, ' stroke-dasharray="2 2"')
    d = max(-scale, min(scale, r.deviation_ms))
    y = mid - d / scale * reach
    colour = INK if r.kind == "ok" else WRONG
    what = (_("{stroke}: {ms:+.1f} ms, {drum} (wrong drum)") if r.kind == "wrong drum"
            else _("{stroke}: {ms:+.1f} ms, {drum}")).format(
        stroke=said, ms=r.deviation_ms, drum=r.played_drum)
    stem = (f'<line x1="{num(x)}" y1="{num(mid)}" x2="{num(x)}" y2="{num(y)}" '
            f'stroke="{colour}" stroke-width="2"/>\n')
    return stem + _mark(Drum.BIG if big else Drum.SMALL, x, y, colour, what, r)


def _mark(drum: Drum, x: float, y: float, colour: str, title: str, r: Row,
          extra: str = "") -> str:
    data = (f' data-kind="{r.kind}" data-stroke="{r.stroke}"'
            + (f' data-ms="{r.deviation_ms:.3f}"' if r.deviation_ms is not None else "") + extra)
    t = f"<title>{escape(title)}</title>"
    if drum is Drum.SMALL:
        return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(MARK / 2)}" fill="#ffffff" '
                f'stroke="{colour}" stroke-width="2"{data}>{t}</circle>\n')
    return (f'<rect x="{num(x - MARK / 2)}" y="{num(y - MARK / 2)}" width="{num(MARK)}" '
            f'height="{num(MARK)}" fill="#ffffff" stroke="{colour}" stroke-width="2"{data}>'
            f'{t}</rect>\n')


def _extra(x: float, y: float, r: Row) -> str:
    """A cross for an extra hit, on the zero line between two columns."""
    h = MARK / 2
    title = _("extra {drum} at {time:.3f} s").format(drum=r.played_drum, time=r.played)
    return (f'<path d="M{num(x - h)} {num(y - h)}L{num(x + h)} {num(y + h)}'
            f'M{num(x - h)} {num(y + h)}L{num(x + h)} {num(y - h)}" stroke="{EXTRA}" '
            f'stroke-width="2.5" data-kind="extra" data-time="{r.played:.6f}">'
            f'<title>{escape(title)}</title></path>\n')


__all__ = ["report_drawing", "COLUMNS"]

"""Pictures of the patterns, as SVG written by guji itself (and PNG through a browser).

Two pictures, both plain SVG 1.1 text (no dependency; the vocabulary is
:mod:`guji.views.svg`):

* :func:`source_svg` — each pattern *as the source writes it*
  (:mod:`guji.views.source`): a vertical column, columns read from right to
  left (the first pattern given stands at the right), ○ (鼙) drawn as a
  circle and □ (鼓) as a square, 半 in its place, and the score label (魯鼓 /
  薛鼓) where the edition puts it. In the first diagram the label follows its
  pattern (below it in a column); in the second it precedes it (above). When
  the source text says where the label stands (:attr:`Pattern.label_location
  <guji.text.reading.notation.Pattern.label_location>`), that decides; otherwise the
  diagram does. With two or more patterns, the strokes where a pattern
  differs from the first (by the alignment of :mod:`guji.text.collation.grid`) are
  shaded.

* :func:`timeline_svg` — a piano roll of two or more patterns on one grid
  (:mod:`guji.views.timeline`): one track per pattern, a lane for each drum
  (鼙 above, 鼓 below), one column per aligned stroke
  (:func:`guji.text.collation.grid.align_many`), so a stroke one edition lacks is an
  empty dashed cell, not a shifted tail. Columns where a pattern differs from
  the first are highlighted; 半 is a line across its track; the part before
  半 (played only in the 射禮) is shaded grey. Every column is one interval
  of the even grid (間若一).

:func:`drawing_svg` stacks the two. Chinese text stays text: the SVG names a
list of common CJK fonts (:data:`~guji.views.svg.FONT_FAMILY`) and the viewer
picks the first it has. Every stroke carries a ``<title>`` (a tooltip: its
number, drum, and source position; :mod:`guji.views.legend`).

PNG
---
:func:`guji.views.png.svg_to_png` renders a drawing with a headless Chromium,
which falls back through the font list to whatever CJK font is installed (see
:mod:`guji.views.png`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from ..errors import UsageError
from ..files import writing
from ..page_words import _
from ..text.reading.notation import Pattern
from .source import source_drawing
from .svg import Drawing, stack
from .timeline import timeline_drawing

VIEWS = ("source", "timeline", "both")


def drawing(patterns: Sequence[Pattern], view: str = "both") -> Drawing:
    """The picture ``guji draw`` writes: *view* is ``source``, ``timeline`` or
    ``both`` (the source columns above the timeline)."""
    if view not in VIEWS:
        raise UsageError(_("unknown view {view!r}: use one of {views}").format(
            view=view, views=", ".join(VIEWS)))
    if view == "source":
        return source_drawing(patterns)
    if view == "timeline":
        return timeline_drawing(patterns)
    return stack(source_drawing(patterns), timeline_drawing(patterns))


def source_svg(patterns: Sequence[Pattern]) -> str:
    """:func:`~guji.views.source.source_drawing` as a standalone SVG document."""
    return source_drawing(patterns).svg(xml_declaration=True)


def timeline_svg(patterns: Sequence[Pattern]) -> str:
    """:func:`~guji.views.timeline.timeline_drawing` as a standalone SVG document."""
    return timeline_drawing(patterns).svg(xml_declaration=True)


def drawing_svg(patterns: Sequence[Pattern], view: str = "both") -> str:
    """:func:`drawing` as a standalone SVG document."""
    return drawing(patterns, view).svg(xml_declaration=True)


def write_svg(path: str | os.PathLike, svg: str) -> Path:
    """Write *svg* (UTF-8) to *path* as :func:`guji.files.writing` decides
    (a file atomically; a device, a pipe or ``-``, standard output, directly)."""
    with writing(path, binary=False) as out:
        out.open().write(svg.encode("utf-8"))
    return Path(out.name)

"""Engraving: the sheet as pictures — SVG by verovio, PDF by LilyPond.

The engravers were chosen by measurement (``bench/bench_sheet.py``):

* **SVG: verovio** (the ``verovio`` wheel, ``pip install 'guji[sheet]'``)
  engraves the MusicXML of :func:`~guji.sheet.musicxml.to_musicxml` in
  process, in a fraction of a second, as one picture as tall as the music
  needs; :func:`to_svg` puts the title, subtitle and credits over it (verovio
  prints each credit on a line of its own, unsized). Text is left to the
  viewer's fonts (CJK serif first).
* **PDF: LilyPond** (Debian's ``lilypond`` and ``fonts-noto-cjk``) engraves
  the source of :func:`~guji.sheet.lilypond.to_lilypond` best, in some
  seconds (most of them embedding the CJK font), A4 pages.

A missing engraver is one :class:`~guji.errors.UsageError` line saying what
to install and which formats need nothing.
"""

from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..i18n import _
from .. import processes, system
from ..errors import UsageError, xml_text
from .lilypond import to_lilypond
from .model import Sheet
from .musicxml import CJK_SERIF, to_musicxml

#: What to install for each engraver, and what needs nothing.
VEROVIO_HINT = ("SVG sheet music needs verovio: pip install verovio (or 'guji[sheet]'); "
                ".musicxml, .mxl and .ly need nothing")


def lilypond_hint() -> str:
    """What to install for PDF, in this system's words."""
    return (f"PDF sheet music needs LilyPond: {system.install_hint('lilypond')}; "
            ".svg (verovio), .musicxml, .mxl and .ly do not")

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
#: Fonts for every text of the SVG: verovio's name Times, CJK needs a CJK family.
SVG_FONTS = f'"{CJK_SERIF}", "Noto Serif CJK SC", "Noto Serif CJK", serif'


class LilyPondError(UsageError):
    """LilyPond ran and failed; the message holds the first lines of its log."""


@dataclass(frozen=True)
class LilyPondResult:
    """A PDF from LilyPond, and LilyPond's log (progress lines, warnings)."""

    pdf: bytes
    log: str

    @property
    def warnings(self) -> list[str]:
        """The log's lines that warn or report an error (none on a clean run)."""
        return [line for line in self.log.splitlines()
                if "warning" in line.lower() or "error" in line.lower()]


def run_lilypond(source: str, *, lilypond: str = "lilypond", timeout: float = 600) -> LilyPondResult:
    """Engrave LilyPond *source* to PDF, in a temporary folder, point-and-click
    links off (they would hold the temporary path). LilyPond's own temporary
    files are made in that folder too (``TMPDIR``), so it is all removed on
    every exit, a stop included.

    Raises :class:`~guji.errors.UsageError` when the program is missing,
    :class:`LilyPondError` when it fails.
    """
    exe = system.find_program(lilypond) if lilypond == "lilypond" else shutil.which(lilypond)
    if exe is None:
        raise UsageError(lilypond_hint())
    with tempfile.TemporaryDirectory(prefix="guji-ly-", ignore_cleanup_errors=True) as tmp:
        try:     # its source: over a file size limit, or a full disk, is one line too
            with open(os.path.join(tmp, "sheet.ly"), "w", encoding="utf-8") as f:
                f.write(source)
        except OSError as e:
            raise LilyPondError(_("LilyPond failed (exit {status}): {said}").format(
                status="-", said=e.strerror or type(e).__name__)) from None
        # LilyPond's and Ghostscript's own temporary files (lilypond-tmp-*, gs_*) go in
        # guji's folder too: ended by a stop, they could not remove them themselves
        own = os.path.join(tmp, "tmp")
        os.mkdir(own)
        env = dict(os.environ, TMPDIR=own, TMP=own, TEMP=own)
        try:     # LilyPond and its Ghostscript ended together on a stop (guji.processes)
            proc = processes.run([exe, "-dno-point-and-click", "-o", "sheet", "sheet.ly"],
                                 cwd=tmp, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise LilyPondError(_('LilyPond took more than {timeout:g} s').format(timeout=timeout)) from None
        pdf = os.path.join(tmp, "sheet.pdf")
        if proc.returncode != 0 or not os.path.exists(pdf):
            first = [line for line in proc.stderr.splitlines() if "error" in line.lower()][:3]
            last = (proc.stderr.strip().splitlines() or [""])[-1][-300:]     # one line
            if proc.returncode < 0:       # ended by a signal (SIGXFSZ: over the file size limit)
                last = f"ended by {_signal_name(-proc.returncode)}"
            raise LilyPondError(_("LilyPond failed (exit {status}): {said}").format(
                status=proc.returncode, said="; ".join(first) or last))
        with open(pdf, "rb") as f:
            return LilyPondResult(f.read(), proc.stderr)


def _signal_name(number: int) -> str:
    import signal
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def to_pdf(sheet: Sheet, *, glyphs: str = "above", lilypond: str = "lilypond") -> bytes:
    """*sheet* engraved by LilyPond: PDF bytes."""
    return run_lilypond(to_lilypond(sheet, glyphs=glyphs), lilypond=lilypond).pdf


def _verovio():
    try:
        import verovio
    except ImportError:
        raise UsageError(VEROVIO_HINT) from None
    return verovio


def to_svg(sheet: Sheet, *, glyphs: str = "above", width_mm: float = 210,
           scale: int = 40) -> str:
    """*sheet* engraved by verovio as one SVG picture, *width_mm* wide, the
    staff at *scale* percent of verovio's size, the heading over the music."""
    toolkit = _verovio().toolkit()
    toolkit.setOptions({
        "pageWidth": round(width_mm * 10), "pageHeight": 60000, "adjustPageHeight": True,
        "scale": scale, "breaks": "auto", "header": "none", "footer": "none",
        "svgCss": f"text {{ font-family: {SVG_FONTS}; }}", "svgViewBox": True,
        "xmlIdSeed": 1, "lyricSize": 5,
    })
    if not toolkit.loadData(to_musicxml(sheet, glyphs=glyphs, credits=False)):
        raise ValueError("verovio could not read guji's MusicXML")
    pages = [_tidy(toolkit.renderToSVG(n)) for n in range(1, toolkit.getPageCount() + 1)]
    return _with_heading(sheet, pages, width_mm)


def _view_box(svg: str) -> tuple[float, float]:
    found = re.search(r'<svg\b[^>]*\sviewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if not found:
        raise ValueError("verovio's SVG has no viewBox")
    return float(found.group(1)), float(found.group(2))


def _with_heading(sheet: Sheet, pages: list[str], width_mm: float) -> str:
    """The pages one under another, under the title, subtitle and credits."""
    width, _ = _view_box(pages[0])
    unit = width / 100
    texts = [(50, 5, 4.2, "middle", sheet.title)]
    y = 5.0
    if sheet.subtitle:
        y += 3.6
        texts.append((50, y, 2.6, "middle", sheet.subtitle))
    for line in sheet.credits:
        y += 2.4
        texts.append((2.4, y, 1.7, "start", line))
    heading = [f'<text x="{x * unit:g}" y="{ty * unit:g}" text-anchor="{anchor}" '
               f'font-size="{size * unit:g}">{_xml(text)}</text>'
               for x, ty, size, anchor, text in texts]
    top = (y + 1.5) * unit
    body = []
    for page in pages:
        _, height = _view_box(page)
        body.append(page.replace("<svg ", f'<svg x="0" y="{top:g}" width="{width:g}" '
                                          f'height="{height:g}" ', 1))
        top += height
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="{_SVG}" '
            f'xmlns:xlink="{_XLINK}" version="1.1" viewBox="0 0 {width:g} {top:g}" '
            f'width="{width_mm:g}mm" height="{width_mm * top / width:g}mm">\n'
            f"<title>{_xml(sheet.title)}</title>\n"
            '<rect width="100%" height="100%" fill="white"/>\n'
            f"<g class=\"guji-heading\" font-family='{SVG_FONTS}' fill=\"black\">\n"
            + "\n".join(heading) + "\n</g>\n" + "\n".join(body) + "\n</svg>\n")


def _xml(text: str) -> str:
    return (xml_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _tidy(svg: str) -> str:
    """verovio's page with the syllables realigned and the staff names in two lines."""
    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", _XLINK)
    root = ET.fromstring(svg)
    _realign_syllables(root)
    _staff_names(root)
    return ET.tostring(root, encoding="unicode")


def _classed(root: ET.Element, cls: str):
    return (e for e in root.iter(f"{{{_SVG}}}g") if e.get("class") == cls)


def _realign_syllables(root: ET.Element) -> None:
    """Every glyph syllable at the same place against its note head.

    Verovio (6.4) shifts the last syllable before a bar without syllables (a
    bar of rests) onto its neighbour: its spacing pass measures the room to
    the next syllable across that bar's width only. Our notes are evenly
    spaced, one syllable each, so the usual offset is right for all.
    """
    use, text = f"{{{_SVG}}}use", f"{{{_SVG}}}text"
    pairs: list[tuple[int, ET.Element]] = []
    for note in _classed(root, "note"):
        heads = [e.find(use) for e in _classed(note, "notehead")]
        syllables = [e.find(text) for e in _classed(note, "syl")]
        if len(heads) != 1 or len(syllables) != 1 or heads[0] is None or syllables[0] is None:
            continue
        x = re.match(r"translate\((-?\d+)", heads[0].get("transform", ""))
        if x and syllables[0].get("x") is not None:
            pairs.append((int(x.group(1)), syllables[0]))
    if not pairs:
        return
    usual = collections.Counter(int(t.get("x")) - x for x, t in pairs).most_common(1)[0][0]
    for x, t in pairs:
        t.set("x", str(x + usual))


def _staff_names(root: ET.Element) -> None:
    """Staff names of two lines (:attr:`Staff.lines <guji.sheet.model.Staff.lines>`)
    drawn as two lines: verovio keeps the line break inside one ``<tspan>``,
    which SVG shows as a space, and the name then runs off the page."""
    tspan = f"{{{_SVG}}}tspan"
    for label in _classed(root, "label"):
        for text in label.iter(f"{{{_SVG}}}text"):
            for parent in text.iter(tspan):
                lines = [t for t in parent.findall(tspan) if "\n" in (t.text or "").strip()]
                if not lines:
                    continue
                first, _, second = lines[0].text.strip().partition("\n")
                lines[0].text = first
                lines[0].set("dy", "-0.45em")
                parent.append(ET.Element(tspan, {"x": text.get("x", "0"), "dy": "1.1em",
                                                 "font-size": lines[0].get("font-size", "")}))
                parent[-1].text = second
                break

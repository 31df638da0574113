"""The shared page's HTML, in the chosen language: its prose, pictures, tables and players.

:func:`build_html` writes the whole document for :func:`guji.views.page.write_page`;
the studio (:mod:`guji.studio.views`) takes :func:`alignment_table` and
:func:`alignment_summary` from here too. The words are the chosen language's
(:mod:`guji.page_words`), and ``<html lang>`` says which: ``zh-Hant``,
``zh-Hans`` or ``en``. What the sources write — the glyphs, the patterns'
names, the editions' titles — stays as written, marked ``lang="zh-Hant"``
where the page around it is in another language (:func:`source_text`); the
ids, the file names and the data the script reads are the same in every
language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .. import __version__
from ..page_words import N_, _, html_lang, ngettext
from ..text.collation.align import align_patterns
from ..text.collation.grid import Cell, HalfColumn, align_many
from ..text.reading.names import LETTERS, part_name
from ..text.reading.notation import HALF, Pattern, Rite
from ..timing.performance import Timing
from .follow import SCRIPT as FOLLOW_SCRIPT, STYLE as FOLLOW_STYLE
from .legend import drum_name, pattern_title
from .page_markup import STYLE, e, zh
from .source import source_drawing
from .timeline import timeline_drawing

#: What each mode is, for the page (one line each; translated where shown).
MODE_TEXT = {
    "sequence": N_("A in full, a short gap with a soft bell, then B (then C …)."),
    "alternate": N_("Pass by pass: A's pass, then B's, round after round."),
    "stereo": N_("Together on one grid: A in the left ear, B in the right (headphones help)."),
    "diff": N_("A alone, with a soft bell on each stroke where another reading differs."),
}


@dataclass(frozen=True)
class Track:
    """One audio player of the page.

    Attributes
    ----------
    key:
        ``variant-a`` … or ``compare-sequence`` …
    heading:
        What the player is called on the page.
    filename:
        The audio file, relative to the page.
    mime:
        Its MIME type (for ``<source type>``).
    duration:
        Seconds of audio in the file.
    schedule:
        Lines saying what plays when (may be empty).
    description:
        One sentence about it.
    follow:
        What the player plays, for the script that lights the stroke
        sounding now (:func:`guji.views.follow.follow_data`; empty: none).
    src:
        The audio itself as a ``data:`` URI, in a single-file page (``None``:
        the file beside the page).
    """

    key: str
    heading: str
    filename: str
    mime: str
    duration: float
    schedule: str = ""
    description: str = ""
    follow: str = ""
    src: str | None = None

    @property
    def source(self) -> str:
        """What ``<source src>`` names: the file, or the audio itself (a data URI)."""
        return self.src if self.src is not None else self.filename


def prose(text: object) -> str:
    """The page's own words escaped: in English, the Chinese terms inside marked
    ``lang="zh-Hant"``; in Chinese, the page's language already."""
    return zh(text) if html_lang() == "en" else e(text)


def source_text(text: object) -> str:
    """What the sources write (names, glyphs, titles) escaped, marked
    ``lang="zh-Hant"`` unless the page is in Traditional Chinese itself."""
    return e(text) if html_lang() == "zh-Hant" else zh(text)


def alignment_table(a: Pattern, b: Pattern, letter_b: str = "B") -> str:
    """An HTML table of A and B aligned column by column, differences marked
    (the columns of :meth:`Grid.walk_with_halves <guji.text.collation.grid.Grid.walk_with_halves>`)."""
    rows = ([f"<th>A {e(a.id)}</th>"], [f"<th>{e(letter_b)} {e(b.id)}</th>"])
    for column in align_many([a, b]).walk_with_halves():
        if isinstance(column, HalfColumn):
            for r in (0, 1):
                rows[r].append(f'<td class="half">{HALF if column.rows[r] else ""}</td>')
            continue
        differs = column.cells[1].differs
        for r, cell in enumerate(column.cells[:2]):
            rows[r].append(_alignment_cell(cell, differs))
    return ('<table class="alignment">\n<tr>' + "".join(rows[0]) + "</tr>\n<tr>"
            + "".join(rows[1]) + "</tr>\n</table>\n")


def _alignment_cell(cell: Cell, differs: bool) -> str:
    """One ``<td>`` of :func:`alignment_table`: the glyph (``―`` for a gap),
    its stroke number, drum and source position as a tooltip."""
    cls = ["differs"] if differs else []
    if cell.stroke is None:
        cls.append("gap")
        text, title = "―", ""
    else:
        text = cell.stroke.glyph
        words = _("stroke {n} {drum}, source {place}").format(
            n=cell.index + 1, drum=cell.stroke.drum.value, place=cell.stroke.location)
        title = f' title="{e(words)}"'
    cls_attr = f' class="{" ".join(cls)}"' if cls else ""
    return f"<td{cls_attr}{title}>{text}</td>"


def alignment_summary(a: Pattern, b: Pattern) -> str:
    """``1 insertion (edit distance 1, from A)``, or ``identical``."""
    al = align_patterns(a, b)
    if al.identical:
        return _("identical")
    counts = _(", ").join((
        ngettext("{n} substitution", "{n} substitutions", al.substitutions).format(
            n=al.substitutions),
        ngettext("{n} insertion", "{n} insertions", al.insertions).format(n=al.insertions),
        ngettext("{n} deletion", "{n} deletions", al.deletions).format(n=al.deletions)))
    return _("{counts} (edit distance {distance}, from A)").format(counts=counts,
                                                                   distance=al.distance)


def played_as(timing: Timing) -> str:
    """The sentence saying how every variant is played, and what the glyphs are."""
    rite = (_("{rite} ({value}: from 半 to the end)") if timing.rite is Rite.TOUHU
            else _("{rite} ({value}: the whole pattern)"))
    passes = ngettext("{n} pass", "{n} passes", timing.repeat).format(n=timing.repeat)
    count_in = (ngettext(", {n} count-in click", ", {n} count-in clicks", timing.count_in)
                .format(n=timing.count_in) if timing.count_in else "")
    return (_("Played as {rite}, one stroke every {interval} s (間若一), {passes}{count_in}.")
            .format(rite=rite.format(rite=timing.rite.chinese, value=timing.rite.value),
                    interval=f"{timing.interval:g}", passes=passes, count_in=count_in)
            + " " + _("○ is the 鼙 (small drum), □ the 鼓 (big drum)."))


def build_html(patterns: Sequence[Pattern], timing: Timing, tracks: Sequence[Track],
               *, title: str | None = None) -> str:
    """The page (a complete HTML document) for *patterns* and their audio *tracks*.

    Pure: it names the audio files but reads none.
    """
    patterns = list(patterns)
    title = title or ("guji: " + " · ".join(part_name(p) for p in patterns))
    out = [f'<!DOCTYPE html>\n<html lang="{html_lang()}">\n<head>\n<meta charset="utf-8">\n',
           '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
           f"<title>{e(title)}</title>\n<style>{STYLE}{FOLLOW_STYLE}</style>\n</head>\n"
           "<body>\n<main>\n",
           f"<h1>{source_text(title)}</h1>\n"]
    out.append("<ul>\n" + "".join(
        f"<li><b>{LETTERS[i % 26]}</b> <code>{e(p.id)}</code> — {source_text(pattern_title(p))}: "
        f"{source_text(p.notation())}</li>\n" for i, p in enumerate(patterns)) + "</ul>\n")
    out.append(f'<p class="note">{prose(played_as(timing))}</p>\n')
    out += _pictures(patterns)
    listen = _("Listen")
    out.append(f"<h2>{prose(listen)}</h2>\n")
    out += [_player_html(t) for t in tracks]
    made = _("Made with guji {version}: the 投壺 drum scores of the 禮記.")
    out.append(f'<p class="note">{prose(made.format(version=__version__))}</p>\n</main>\n')
    if any(t.follow for t in tracks):
        out.append(f"<script>{FOLLOW_SCRIPT}</script>\n")
    out.append("</body>\n</html>\n")
    return "".join(out)


def _pictures(patterns: list[Pattern]) -> list[str]:
    """The two drawings, then each variant's alignment with A."""
    words = (_("As the sources write them"), _("The patterns as the sources write them"),
             _("Aligned"), _("The aligned timeline"))
    out = [f"<h2>{prose(words[0])}</h2>\n",
           '<figure class="picture" id="source" tabindex="0" role="region" '
           f'aria-label="{e(words[1])}">\n' + source_drawing(patterns).svg() + "</figure>\n",
           f"<h2>{prose(words[2])}</h2>\n",
           '<figure class="picture" id="timeline" tabindex="0" role="region" '
           f'aria-label="{e(words[3])}">\n' + timeline_drawing(patterns).svg() + "</figure>\n"]
    for i, p in enumerate(patterns[1:], start=1):
        letter = LETTERS[i % 26]
        heading = _("A against {letter}: {summary}").format(
            letter=letter, summary=alignment_summary(patterns[0], p))
        label = _("A against {letter}, stroke by stroke").format(letter=letter)
        out.append(f"<h3>{prose(heading)}</h3>\n")
        out.append(f'<div class="scroll" tabindex="0" role="region" lang="zh-Hant" '
                   f'aria-label="{e(label)}">\n' + alignment_table(patterns[0], p, letter)
                   + "</div>\n")
    return out


def _player_html(t: Track) -> str:
    """One player of the page: its heading, description, ``<audio>`` and schedule."""
    out = []
    out.append(f'<div class="player" id="{e(t.key)}">\n<h3>{prose(t.heading)}</h3>\n')
    if t.description:
        out.append(f"<p>{prose(t.description)}</p>\n")
    follow = f' data-follow="{e(t.follow)}"' if t.follow else ""
    out.append(f'<audio controls preload="metadata" aria-label="{e(t.heading)}" '
               f'data-duration="{t.duration:.6f}"'
               f'{follow}><source src="{e(t.source)}" type="{e(t.mime)}">'
               f'<a href="{e(t.source)}" download="{e(t.filename)}">{e(t.filename)}'
               f'</a></audio>\n')
    if t.schedule:
        lines = "\n".join(source_text(line) for line in t.schedule.rstrip().split("\n"))
        label = _("What plays when: {heading}").format(heading=t.heading)
        out.append(f'<pre class="schedule" tabindex="0" role="region" '
                   f'aria-label="{e(label)}">{lines}</pre>\n')
    out.append("</div>\n")
    return "".join(out)


def variant_heading(index: int, pattern: Pattern) -> str:
    """``A: 魯鼓 1 liji-zhengyi``: what a variant's player is called."""
    return f"{LETTERS[index % 26]}: {part_name(pattern)}"


def variant_description(pattern: Pattern, timing: Timing, per_pass: int) -> str:
    """``魯鼓 · 前圖 … — 20 strokes a pass, ○○□…``."""
    return ngettext("{title} — {n} stroke a pass, {notation}",
                    "{title} — {n} strokes a pass, {notation}", per_pass).format(
        title=pattern_title(pattern), n=per_pass, notation=pattern.notation(timing.rite))


def mode_heading(mode: str) -> str:
    """``compare: diff``: what a compare mode's player is called."""
    return _("compare: {mode}").format(mode=mode)


def mode_description(mode: str) -> str:
    return _(MODE_TEXT[mode])


__all__ = ["MODE_TEXT", "Track", "alignment_summary", "alignment_table", "build_html",
           "drum_name", "mode_description", "mode_heading", "played_as", "variant_description",
           "variant_heading"]

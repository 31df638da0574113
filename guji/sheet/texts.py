"""The words of a sheet: title, subtitle, and the credits saying where the strokes come from.

* :func:`title_of` — one pattern: ``魯鼓 · 前圖 (diagram 1) · 禮記正義``
  (:func:`guji.text.reading.names.title`); several: their names, ``·`` between;
* :func:`subtitle_of` — how it is played: the rite and what it plays, the
  passes, the count-in, a drum left out;
* :func:`credits_of` — two lines per pattern: its name and id, the edition
  (title in Chinese and English) or the user's file; where its strokes and
  its 半 stand in the edition's digitised text, or in the file; the key to
  the drums (:func:`drum_key`, on every sheet, one pattern or several); and a
  last line on the grid and the bars.

The words are in the chosen language (:mod:`guji.page_words`: what a reader
sees); the names programs match on — part names, instrument names, ids —
are made elsewhere and are the same in every language.

Every text is made safe to print (:func:`guji.errors.escape_controls`): a
file name may hold control characters, which XML cannot carry.
"""

from __future__ import annotations

from .. import __version__
from ..errors import UsageError, escape_controls
from ..page_words import _, is_chinese, ngettext
from ..text.reading.editions import edition
from ..text.reading.names import title as pattern_title
from ..text.reading.notation import Pattern, Rite
from ..timing.performance import Part, Performance, Voice


def title_of(performance: Performance) -> str:
    """The performance's own title, else one made from its patterns."""
    if performance.title:
        return escape_controls(performance.title)
    patterns = list(dict.fromkeys(p.score.pattern for p in performance.parts))
    if len(patterns) == 1:
        return escape_controls(pattern_title(patterns[0]))
    return escape_controls(" · ".join(performance.names()))


def subtitle_of(performance: Performance) -> str:
    """``投壺 touhu: from 半 to the end · 3 passes · count-in 4 · 鼓 left out``."""
    parts = performance.parts
    rites = list(dict.fromkeys(p.score.rite for p in parts))
    words = [(_("{rite} {value}: from 半 to the end") if r is Rite.TOUHU
              else _("{rite} {value}: the whole pattern")).format(rite=r.chinese, value=r.value)
             for r in rites]
    repeats = sorted({p.score.repeat for p in parts})
    if repeats != [1]:
        words.append(ngettext("{n} pass", "{n} passes", repeats[-1]).format(
            n=" / ".join(str(n) for n in repeats)))
    clicks = sum(p.score.count_in for p in parts)
    if clicks:
        words.append(_("count-in {n}").format(n=clicks))
    words += _minus_one(parts)
    return " · ".join(words)


def _minus_one(parts: tuple[Part, ...]) -> list[str]:
    """What a part leaves out: ``鼓 left out`` / ``鼓 as clicks``."""
    out = []
    for muted, ghost in dict.fromkeys((p.muted, p.ghost) for p in parts):
        for voice in (Voice.SMALL, Voice.BIG):
            if voice in muted:
                words = _("{drum} ({latin}) as clicks") if ghost else _("{drum} ({latin}) left out")
                out.append(words.format(drum=voice.value, latin=voice.latin))
    return out


def credits_of(performance: Performance) -> tuple[str, ...]:
    """Two lines per distinct pattern saying where its strokes come from
    (:func:`source_of`), the key to the drums (:func:`drum_key`), and a last
    one on the grid and the bars, ending with the sheet's one credit to its
    maker, ``guji 0.1.0``: the name and version the MEI edition's
    ``<respStmt>`` gives."""
    lines = []
    seen = set()
    for part in performance.parts:
        pattern = part.score.pattern
        if pattern in seen:
            continue
        seen.add(pattern)
        edition_line, position = source_of(pattern)
        lines.append(escape_controls(f"{part.name} ({pattern.id}): {edition_line}"))
        lines.append(escape_controls(position))
    lines.append(drum_key())
    lines.append(_("間若一: every stroke one beat on one even grid; bars are the sections "
                   "(count-in, each pass, 半); guji") + " " + __version__)
    return tuple(lines)


def drum_key() -> str:
    """The key to the drums, on every sheet: which glyph and which place on
    the staff is which drum (○ 鼙 the upper note, □ 鼓 the lower)."""
    return _("Key: ○ 鼙 (pi, small drum), the upper note; □ 鼓 (gu, big drum), the lower note")


def source_of(pattern: Pattern) -> tuple[str, str]:
    """Where *pattern*'s strokes come from: the edition (its titles) or the
    file, and where its first stroke and its 半 stand (in the edition's
    digitised text, or in the file)."""
    first = pattern.strokes[0].location
    half = pattern.half_location
    if pattern.edition:
        try:
            ed = edition(pattern.edition)
        except UsageError:
            return _("edition {slug}").format(slug=pattern.edition), ""
        line, column = ed.seed_position(first.line, first.column)
        hline, hcolumn = ed.seed_position(half.line, half.column)
        return (ed.cite() if is_chinese() else f"{ed.cite()}, {ed.title_en}",
                _("strokes from line {line} column {column}, 半 at line {hline} column "
                  "{hcolumn} of its digitised text").format(line=line, column=column,
                                                            hline=hline, hcolumn=hcolumn))
    return (pattern.filename or _("text"),
            _("strokes from line {line} column {column}, 半 at line {hline} column {hcolumn}")
            .format(line=first.line, column=first.column, hline=half.line, hcolumn=half.column))

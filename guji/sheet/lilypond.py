"""LilyPond: the sheet as ``\\drummode`` source, for LilyPond 2.24 (``.ly``).

:func:`to_lilypond` writes the same score as :mod:`guji.sheet.musicxml`:
a ``DrumStaff`` per staff with guji's own drum style table (○ 鼙, □ 鼓 and
the click at the places of :data:`guji.sheet.layout.HALF_SPACES`, the click
a cross), the drums named as LilyPond names the General MIDI keys of
``guji midi`` (:data:`DRUM_NAMES`), ``\\time`` where the bar length
changes, 鼓's strokes accented (:data:`ACCENTS`: louder than 鼙),
``\\repeat volta N`` for repeats with ×N at their end, a double bar and a
boxed 半 at 半, the tempo (間若一, ♩ = 60 ÷ interval), and the source glyphs
as a line of lyrics over (or under) each staff.

Every text is set in one CJK serif font (:data:`CJK_SERIF`, Debian's
``fonts-noto-cjk``) at medium weight: each weight of a CJK font embeds about
1 MB in the PDF. :func:`guji.sheet.engrave.to_pdf` runs LilyPond on it.
"""

from __future__ import annotations

from ..i18n import _
from ..errors import UsageError, encodable
from ..timing.performance import Voice
from .layout import HALF_SPACES, bpm_text, check_glyphs, repeat_text, time_changes, title_lines
from .model import Measure, Note, Sheet
from .musicxml import CJK_SERIF

#: LilyPond's drum names of the General MIDI percussion keys 35–81
#: (``drumpitch-init.ly``).
DRUM_NAMES: dict[int, str] = dict(enumerate((
    "acousticbassdrum", "bassdrum", "sidestick", "acousticsnare", "handclap", "electricsnare",
    "lowfloortom", "closedhihat", "highfloortom", "pedalhihat", "lowtom", "openhihat",
    "lowmidtom", "himidtom", "crashcymbal", "hightom", "ridecymbal", "chinesecymbal",
    "ridebell", "tambourine", "splashcymbal", "cowbell", "crashcymbalb", "vibraslap",
    "ridecymbalb", "hibongo", "lobongo", "mutehiconga", "hiconga", "loconga", "hitimbale",
    "lotimbale", "hiagogo", "loagogo", "cabasa", "maracas", "shortwhistle", "longwhistle",
    "shortguiro", "longguiro", "claves", "hiwoodblock", "lowoodblock", "mutecuica",
    "opencuica", "mutetriangle", "opentriangle"), start=35))

_HEADS = {Voice.SMALL: "default", Voice.BIG: "default", Voice.CLICK: "cross"}
_BAR_LINES = {"double": '\\bar "||"', "final": '\\bar "|."'}


def ly_string(text: str) -> str:
    """A LilyPond string literal of *text* (any name: UTF-8 can hold it)."""
    return '"' + encodable(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _name(index: int) -> str:
    """Letters for identifiers (LilyPond's have no digits): 0 → A, 26 → BA."""
    out = ""
    while True:
        out = chr(ord("A") + index % 26) + out
        index //= 26
        if not index:
            return out


#: The articulation of each voice's notes: 鼓, struck louder than 鼙 (velocity
#: 112 against 80 in ``guji midi``), is accented.
ACCENTS: dict[Voice, str] = {Voice.BIG: "->"}


def drum_names(sheet: Sheet) -> dict[Voice, str]:
    """LilyPond's names of the sheet's instruments, or :class:`UsageError`."""
    out = {}
    for voice in (Voice.SMALL, Voice.BIG, Voice.CLICK):
        key = sheet.instruments.key(voice)
        if key not in DRUM_NAMES:
            raise UsageError(_('LilyPond names General MIDI percussion keys 35–81 only, not {key} ({value}): choose another key, or write MusicXML').format(key=key, value=voice.value))
        out[voice] = DRUM_NAMES[key]
    return out


def to_lilypond(sheet: Sheet, *, glyphs: str = "above", paper: str = "a4") -> str:
    """*sheet* as LilyPond 2.24 source; *glyphs* as in
    :func:`guji.sheet.musicxml.to_musicxml`; *paper* a LilyPond paper size."""
    check_glyphs(glyphs)
    names = drum_names(sheet)
    out: list[str] = []
    out += _head(sheet, paper)
    out.append("#(define gujiDrums '(")
    out += [f"  ({names[v]} {_HEADS[v]} #f {HALF_SPACES[v]})" for v in _HEADS]
    out.append("))")
    printed = time_changes(sheet.measures)
    for k in range(len(sheet.staves)):
        out += _music(sheet, k, names, printed)
        if glyphs != "none":
            out += _glyphs(sheet, k)
    out += _score(sheet, glyphs)
    return "\n".join(out) + "\n"


def _head(sheet: Sheet, paper: str) -> list[str]:
    """Paper, fonts, the title (in lines that fit the page, whole in the PDF's
    metadata) and subtitle, and the credits as a wrapped column."""
    out = ['\\version "2.24.0"', "% written by guji", f"#(set-default-paper-size {ly_string(paper)})",
           "\\paper {",
           f"  #(define fonts (set-global-fonts #:roman {ly_string(CJK_SERIF)} "
           f"#:sans {ly_string(CJK_SERIF)}",
           "     #:factor (/ staff-height pt 20)))", "}", "\\header {",
           "  title = \\markup \\medium \\center-column { "
           + " ".join(ly_string(line) for line in title_lines(sheet.title)) + " }",
           f"  pdftitle = {ly_string(sheet.title)}"]
    if sheet.subtitle:
        out.append(f"  subtitle = \\markup \\medium {ly_string(sheet.subtitle)}")
    out += ["  tagline = ##f", "}"]     # the credit to guji ends the credits
    if sheet.credits:
        out.append("\\markup \\small \\column {")
        out += [f"  \\wordwrap-string {ly_string(line)}" for line in sheet.credits]
        out.append("}")
    return out


def _tempo(sheet: Sheet) -> str:
    """``\\tempo``: 間若一 and ♩ = bpm (a markup when the bpm is not whole)."""
    text = bpm_text(sheet.tempo_bpm)
    words = f"\\medium {ly_string(sheet.tempo_text)}"
    if text.isdigit():
        return f"\\tempo \\markup {words} 4 = {text}"
    return (f"\\tempo \\markup {{ {words} \\medium \\concat {{ \"(\" \\note {{4}} #UP "
            f"{ly_string(' = ' + text + ')')} }} }}")


def _music(sheet: Sheet, k: int, names: dict[Voice, str], printed: list[bool]) -> list[str]:
    """The ``\\drummode`` music of staff *k*, a measure a line."""
    out = [f"music{_name(k)} = \\drummode {{", "  \\numericTimeSignature"]
    depth = 1
    for i, measure in enumerate(sheet.measures):
        if measure.left == "repeat-start":
            times = next(m.repeat_times for m in sheet.measures[i:] if m.repeat_times)
            out.append("  " * depth + f"\\repeat volta {times} {{")
            depth += 1
        items = [f"\\time {measure.beats}/4"] if printed[i] else []
        if k == 0:
            items += _marks(sheet, measure, i)
        if measure.words[k]:
            items.append(f"<>^\\markup \\medium {ly_string(measure.words[k])}")
        items += _notes(measure, k, names)
        if measure.repeat_times and k == 0:
            items.append(f"\\textEndMark {ly_string(repeat_text(measure.repeat_times))}")
        if measure.right in _BAR_LINES:
            items.append(_BAR_LINES[measure.right])
        out.append("  " * depth + " ".join(items) + f" | % {i + 1}")
        if measure.right == "repeat-end":
            depth -= 1
            out.append("  " * depth + "}")
    out.append("}")
    return out


def _marks(sheet: Sheet, measure: Measure, index: int) -> list[str]:
    """The marks the first staff carries for the whole score: tempo, 半."""
    out = [_tempo(sheet)] if index == 0 else []
    if measure.rehearsal:
        out.append(f"\\mark \\markup \\box \\medium {ly_string(measure.rehearsal)}")
    return out


def _notes(measure: Measure, k: int, names: dict[Voice, str]) -> list[str]:
    if measure.rests(k):
        return [f"R4*{measure.beats}"]
    return ["r4" if n.is_rest else f"{names[n.voice]}4{ACCENTS.get(n.voice, '')}"
            for n in measure.notes[k]]


def _glyphs(sheet: Sheet, k: int) -> list[str]:
    """The lyrics of staff *k*: a syllable per note as written (a skip for a
    click), none for rests."""
    syllables = [ly_string(n.glyph) if n.glyph else "\\skip 1"
                 for n in _written(sheet, k) if not n.is_rest]
    out = [f"glyphs{_name(k)} = \\lyricmode {{"]
    out += ["  " + " ".join(syllables[i:i + 24]) for i in range(0, len(syllables), 24)]
    out.append("}")
    return out


def _written(sheet: Sheet, k: int) -> list[Note]:
    return [n for m in sheet.measures if not m.rests(k) for n in m.notes[k]]


def _width_mm(text: str) -> float:
    """About how wide *text* is as a staff name (measured on LilyPond's pages:
    a CJK character 4 mm, another 1.8 mm): the margin the names need."""
    return sum(4.0 if ord(ch) >= 0x2E80 else 1.8 for ch in text)


def _score(sheet: Sheet, glyphs: str) -> list[str]:
    """The ``\\score``: each staff with its voice and lyrics, and the layout."""
    out = ["\\score {", "  <<"]
    for k, staff in enumerate(sheet.staves):
        n = _name(k)
        out += [f'    \\new DrumStaff = "staff{n}" \\with {{',
                "      drumStyleTable = #(alist->hash-table gujiDrums)",
                "      instrumentName = \\markup \\medium \\right-column { "
                + " ".join(ly_string(line) for line in staff.lines) + " }",
                f"      shortInstrumentName = \\markup \\medium {ly_string(staff.short)}",
                "    }",
                f'    \\new DrumVoice = "voice{n}" {{ \\voiceOne \\music{n} }}']
        if glyphs == "above":
            out.append(f'    \\new Lyrics \\with {{ alignAboveContext = "staff{n}" }} '
                       f'\\lyricsto "voice{n}" \\glyphs{n}')
        elif glyphs == "below":
            out.append(f'    \\new Lyrics \\lyricsto "voice{n}" \\glyphs{n}')
    indent = max(15.0, max(_width_mm(line) for st in sheet.staves for line in st.lines) + 4)
    short = max(_width_mm(st.short) for st in sheet.staves) + 4
    out += ["  >>", "  \\layout {", f"    indent = {indent:.0f}\\mm",
            f"    short-indent = {short:.0f}\\mm", "    \\context { \\Score",
            "      \\override RehearsalMark.self-alignment-X = #LEFT",
            "      \\override RehearsalMark.font-series = #'medium", "    }",
            "    \\context { \\Lyrics", "      \\override LyricSpace.minimum-distance = #1.2",
            "    }", "  }", "}"]
    return out

"""How the writers lay a sheet out: where each voice sits, when a time
signature is printed, how the tempo reads. Shared by MusicXML and LilyPond,
so both print the same.

Staff positions
---------------
A five-line percussion staff, as drum notation has it: ○ 鼙 (the small
drum) in the snare drum's space (the third space, C5 in a treble clef), □
鼓 (the big drum) in the bass drum's (the first space, F4), the click a
cross above the staff (G5), like a hi-hat. Stems up.
"""

from __future__ import annotations

from typing import Sequence

from ..timing.performance import Voice
from .model import Measure

#: (display step, octave) of each voice, as a treble clef would place it
#: (MusicXML's percussion clef places unpitched notes so).
POSITIONS: dict[Voice, tuple[str, int]] = {
    Voice.SMALL: ("C", 5),
    Voice.BIG: ("F", 4),
    Voice.CLICK: ("G", 5),
}

#: Staff position in half staff spaces from the middle line (LilyPond's drum
#: style tables): the same places as :data:`POSITIONS`.
HALF_SPACES: dict[Voice, int] = {Voice.SMALL: 1, Voice.BIG: -3, Voice.CLICK: 5}

#: Note heads: the drums round, the click a cross.
HEADS: dict[Voice, str] = {Voice.SMALL: "normal", Voice.BIG: "normal", Voice.CLICK: "x"}

#: Where the source glyphs are printed: a line of syllables over the staff,
#: under it, or none.
GLYPH_PLACES = ("above", "below", "none")


def check_glyphs(glyphs: str) -> str:
    """*glyphs* if it is one of :data:`GLYPH_PLACES`, else ``ValueError``."""
    if glyphs not in GLYPH_PLACES:
        raise ValueError(f"glyphs go {', '.join(GLYPH_PLACES[:-1])} or {GLYPH_PLACES[-1]}, "
                         f"not {glyphs!r}")
    return glyphs


def time_changes(measures: Sequence[Measure]) -> list[bool]:
    """Whether each measure prints its time signature: where it differs from
    the measure before, and at a repeat start whose beats differ from those
    of the measure that jumps back to it (the metre in force after the jump)."""
    ends: dict[int, int] = {}   # repeat-start index → beats of its repeat-end measure
    start = 0
    for i, measure in enumerate(measures):
        if measure.left == "repeat-start":
            start = i
        if measure.right == "repeat-end":
            ends[start] = measure.beats
    printed = []
    for i, measure in enumerate(measures):
        change = i == 0 or measure.beats != measures[i - 1].beats
        if measure.left == "repeat-start" and ends.get(i, measure.beats) != measure.beats:
            change = True
        printed.append(change)
    return printed


def bpm_text(bpm: float) -> str:
    """Beats a minute as printed: ``100``, ``92.3`` (one decimal at most)."""
    rounded = round(bpm, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def repeat_text(times: int) -> str:
    """What the closing repeat sign says: ``×3``."""
    return f"×{times}"


#: The widest title line, in ems of the title's size: a CJK character is one
#: em, any other about half. At 20 pt on A4 within the margins, 24 ems fit.
TITLE_EMS = 24.0


def ems(text: str) -> float:
    """About how wide *text* is, in ems (a CJK character 1, another 0.5)."""
    return sum(1.0 if ord(ch) >= 0x2E80 else 0.5 for ch in text)


def title_lines(title: str, width: float = TITLE_EMS) -> tuple[str, ...]:
    """*title* in lines that fit the page: the names of a sheet's patterns
    (joined by `` · ``) packed line by line, at most *width* ems a line; a
    name wider than a line alone is cut there. The full title stays in the
    file's metadata (MusicXML ``<work-title>``, LilyPond's ``pdftitle``)."""
    lines: list[str] = []
    for name in title.split(" · "):
        joined = f"{lines[-1]} · {name}" if lines else name
        if lines and ems(joined) <= width:
            lines[-1] = joined
            continue
        while ems(name) > width:
            cut = next(i for i in range(len(name), 0, -1) if ems(name[:i]) <= width)
            lines.append(name[:cut].rstrip())
            name = name[cut:].lstrip()
        if name:
            lines.append(name)
    return tuple(lines) or (title,)

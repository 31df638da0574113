"""What a page of sheet music says: staves, measures, notes — frozen values.

A :class:`Sheet` is independent of any file format: the writers of
:mod:`guji.sheet.musicxml` and :mod:`guji.sheet.lilypond` turn it into text,
the engravers of :mod:`guji.sheet.engrave` into pictures.
:func:`guji.sheet.build.sheet_of` makes one from a performance.

The shape
---------
* A :class:`Sheet` has *staves* (:class:`Staff`: one percussion staff
  holding both drums, MusicXML's part) sounding together, and *measures*
  (:class:`Measure`) shared by all of them: a measure has the same beats,
  bar lines and marks on every staff, and its notes staff by staff.
* A :class:`Note` is one beat: a stroke of 鼙 (○) or 鼓 (□) with the glyph
  the source writes for it, a click (the count-in, or a muted drum's ghost
  stroke), or a rest. One stroke is one quarter note (間若一: every stroke
  on one even grid), so a measure of *n* beats is in *n*/4, with no tuplet
  and no tie.
* Repeats are written once: a ``repeat-start`` left bar line, a
  ``repeat-end`` right one with :attr:`Measure.repeat_times` (×N).
  :meth:`Sheet.played` plays them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..midi.gm import DEFAULT_KEYS
from ..timing.performance import DRUMS, Voice

#: The left bar lines a measure can have.
LEFT_BARS = ("regular", "repeat-start")
#: The right bar lines a measure can have (``double`` before 半).
RIGHT_BARS = ("regular", "double", "repeat-end", "final")


@dataclass(frozen=True)
class Note:
    """One beat of one staff.

    Attributes
    ----------
    voice:
        :attr:`Voice.SMALL` (鼙), :attr:`Voice.BIG` (鼓), :attr:`Voice.CLICK`,
        or ``None`` for a rest.
    glyph:
        The glyph the source writes for the stroke (``○``, ``□``, ``囗`` …),
        printed with the note; ``""`` for clicks and rests.
    """

    voice: Voice | None = None
    glyph: str = ""

    def __post_init__(self) -> None:
        if self.voice is not None and self.voice not in (*DRUMS, Voice.CLICK):
            raise ValueError(f"a note is a stroke, a click or a rest, not {self.voice!r}")
        if self.glyph and self.voice not in DRUMS:
            raise ValueError("only a drum stroke carries a glyph")

    @property
    def is_rest(self) -> bool:
        return self.voice is None


#: A beat of rest.
REST = Note()


@dataclass(frozen=True)
class Measure:
    """One bar: *beats* quarter notes on every staff, its bar lines and marks.

    Attributes
    ----------
    beats:
        The time signature is ``beats``/4.
    notes:
        For each staff, its *beats* notes. A staff whose notes are all rests
        shows one whole-bar rest.
    left, right:
        Bar lines (:data:`LEFT_BARS`, :data:`RIGHT_BARS`).
    repeat_times:
        With a ``repeat-end`` right bar line (and only then): how many times
        the section from the matching ``repeat-start`` is played, 2 or more.
    rehearsal:
        A boxed mark at the bar's start: ``半``.
    words:
        For each staff, a text over its first beat (a pattern's name where it
        begins), or ``None``.
    """

    beats: int
    notes: tuple[tuple[Note, ...], ...]
    left: str = "regular"
    right: str = "regular"
    repeat_times: int | None = None
    rehearsal: str | None = None
    words: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "notes", tuple(tuple(n) for n in self.notes))
        words = tuple(self.words) or (None,) * len(self.notes)
        object.__setattr__(self, "words", words)
        if isinstance(self.beats, bool) or not isinstance(self.beats, int) or self.beats < 1:
            raise ValueError(f"a measure has a whole number of beats, 1 or more, not {self.beats!r}")
        if not self.notes or any(len(staff) != self.beats for staff in self.notes):
            raise ValueError(f"a {self.beats}/4 measure needs {self.beats} notes on each staff")
        if len(words) != len(self.notes):
            raise ValueError("a measure has one (or no) text per staff")
        if self.left not in LEFT_BARS or self.right not in RIGHT_BARS:
            raise ValueError(f"bar lines must be one of {LEFT_BARS} (left) and {RIGHT_BARS} "
                             f"(right), not {self.left!r}, {self.right!r}")
        if (self.right == "repeat-end") != (self.repeat_times is not None):
            raise ValueError("repeat_times goes with a repeat-end bar line, and only with it")
        if self.repeat_times is not None and (not isinstance(self.repeat_times, int)
                                              or self.repeat_times < 2):
            raise ValueError(f"a repeat is played 2 or more times, not {self.repeat_times!r}")

    def rests(self, staff: int) -> bool:
        """Whether *staff* only rests in this measure (a whole-bar rest)."""
        return all(n.is_rest for n in self.notes[staff])


@dataclass(frozen=True)
class Staff:
    """One percussion staff (MusicXML's part): both drums and the click.

    ``name`` is printed before the staff (``魯鼓 1 liji-zhengyi``, or ``鼙 鼓``
    for a staff holding several patterns in turn); ``name_latin`` is the
    name programs show in their menus and mixers, Latin first
    (``Lu gu 魯鼓 1 liji-zhengyi``: some show only Latin letters).
    """

    name: str
    name_latin: str

    @property
    def lines(self) -> tuple[str, ...]:
        """The printed name in at most two lines, to stand in the margin:
        ``("魯鼓 1", "liji-zhengyi")``."""
        words = self.name.split(" ", 2)
        if len(words) < 3:
            return (self.name,)
        return (" ".join(words[:2]), words[2])

    @property
    def short(self) -> str:
        """The name before the staves after the first system: its first line."""
        return self.lines[0]


@dataclass(frozen=True)
class Instruments:
    """The General MIDI percussion keys (channel 10) a notation program plays
    the notes on: those of ``guji midi`` (:data:`guji.midi.gm.DEFAULT_KEYS`)."""

    small: int = DEFAULT_KEYS[Voice.SMALL]
    big: int = DEFAULT_KEYS[Voice.BIG]
    click: int = DEFAULT_KEYS[Voice.CLICK]

    def __post_init__(self) -> None:
        keys = (self.small, self.big, self.click)
        for key in keys:
            if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key <= 127:
                raise ValueError(f"a MIDI key is a whole number 0–127, not {key!r}")
        if len(set(keys)) != 3:
            raise ValueError(f"鼙, 鼓 and the click need three different keys, not {keys}")

    def key(self, voice: Voice) -> int:
        return {Voice.SMALL: self.small, Voice.BIG: self.big, Voice.CLICK: self.click}[voice]


@dataclass(frozen=True)
class Sheet:
    """A whole piece of sheet music.

    Attributes
    ----------
    title, subtitle:
        Printed at the top.
    credits:
        Small lines under them: the editions and where the strokes stand in them.
    tempo_bpm:
        Quarter notes (strokes) a minute: 60 ÷ the interval.
    tempo_text:
        Printed before the metronome mark: 間若一.
    staves, measures:
        See the module docstring; measures are in written order (repeats once).
    instruments:
        The MIDI keys of the voices.
    notices:
        What the sheet could not do as asked (passes written out because they
        do not line up), one line each, for the user.
    """

    title: str
    staves: tuple[Staff, ...]
    measures: tuple[Measure, ...]
    subtitle: str = ""
    credits: tuple[str, ...] = ()
    tempo_bpm: float = 100.0
    tempo_text: str = "間若一"
    instruments: Instruments = Instruments()
    notices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("staves", "measures", "credits", "notices"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not self.staves or not self.measures:
            raise ValueError("a sheet needs a staff and a measure")
        if any(len(m.notes) != len(self.staves) for m in self.measures):
            raise ValueError(f"every measure needs notes for the {len(self.staves)} staves")
        if not (isinstance(self.tempo_bpm, (int, float)) and 0 < self.tempo_bpm < 100_000):
            raise ValueError(f"the tempo is a positive number of beats a minute, "
                             f"not {self.tempo_bpm!r}")
        _check_repeats(self.measures)

    def played(self) -> Iterator[Measure]:
        """The measures in the order they sound, repeats played out."""
        start = 0
        for i, measure in enumerate(self.measures):
            if measure.left == "repeat-start":
                start = i
            yield measure
            if measure.right == "repeat-end":
                for _ in range(measure.repeat_times - 1):
                    yield from self.measures[start:i + 1]
                start = i + 1

    def notes(self, staff: int, *, played: bool = False) -> Iterator[Note]:
        """The notes of *staff*, rests included: as written, or as they sound."""
        for measure in (self.played() if played else self.measures):
            yield from measure.notes[staff]


def _check_repeats(measures: tuple[Measure, ...]) -> None:
    """Every repeat opened is closed, none inside another."""
    open_at = None
    for i, measure in enumerate(measures):
        if measure.left == "repeat-start":
            if open_at is not None:
                raise ValueError(f"measure {i + 1}: a repeat opens inside another")
            open_at = i
        if measure.right == "repeat-end":
            if open_at is None:
                raise ValueError(f"measure {i + 1}: a repeat closes that was never opened")
            open_at = None
    if open_at is not None:
        raise ValueError(f"measure {open_at + 1}: a repeat is opened and never closed")

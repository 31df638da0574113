"""How much work guji accepts: limits checked before any work starts.

A typo (``--repeat 1000000000``, ``--interval 1e15``) should cost a second
and one line, not a full disk or all the memory. So every request is
measured before anything is made, against a :class:`Limits`:

* :attr:`Limits.longest` — the longest piece: 24 hours of music (render,
  MIDI, play, compare, page); checked when a performance is laid out
  (:mod:`guji.timing.extent`);
* :attr:`Limits.parts` — the most parts and cues in one performance (each
  an object of its own, with a line of its own in a schedule: ``compare
  alternate`` makes a part of every pass, ``compare diff`` a cue of every
  difference heard);
* :attr:`Limits.midi_notes` — the most notes in one MIDI file (a MIDI file
  is built in memory, about a kilobyte a note: :mod:`guji.midi.size`);
* :attr:`Limits.text_bytes` — the largest input text, 64 MiB
  (:func:`guji.text.reading.encoding.read_text`);
* :attr:`Limits.reading` — the most memory reading one text may take,
  measured from its strokes, labels and 半 before a token is made
  (:func:`guji.text.reading.cost.check_reading`: every command that reads a
  text, and each file of a library);
* :attr:`Limits.alignment` — the most pairs of strokes weighed to align two
  readings (strokes × strokes: diff, collate, draw, page, compare's diff;
  :func:`guji.text.collation.align.check_alignment`).

These are guji's choices, and can be lifted: the command line's
``--force``, or in Python::

    with guji.limits.lifted():
        write_audio("year.wav", performance)

Beyond them stand hard limits that nothing lifts, because past them the
result would be wrong, not just big: times whose sample positions would no
longer be exact integers (:data:`guji.timing.extent.HARD_LONGEST`), MIDI
delta-times over the Standard MIDI File's 0x0FFFFFFF
(:data:`guji.midi.size.MAX_DELTA`).

The limits in force are a context variable (like :func:`decimal.localcontext`):
:func:`current` reads them, :func:`lifted` and :func:`using` change them for
a ``with`` block, in this thread or task only.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, ContextManager, Iterator

from .errors import UsageError


@dataclass(frozen=True)
class Limits:
    """The largest request guji takes on (see the module documentation).

    Attributes
    ----------
    longest:
        Seconds of music in one piece (default 24 h).
    parts:
        Parts and cues in one performance (default 100,000).
    midi_notes:
        Notes in one MIDI file (default 1,000,000: about 1.1 GB while built).
    text_bytes:
        Bytes of one input text (default 64 MiB).
    alignment:
        Pairs of strokes weighed to align two readings, the strokes of one
        times the strokes of the other (default 1,000,000: two patterns of
        1,000 strokes, about a second; the editions' have a few dozen).
    reading:
        Bytes of memory reading one text may take, as its strokes, labels
        and 半 say before it is read (default 1 GB: about 2.5 million
        strokes, some 18 s; a chapter takes a few kilobytes).
    """

    longest: float = 24 * 3600.0
    parts: float = 100_000
    midi_notes: float = 1_000_000
    text_bytes: float = 64 * 2 ** 20
    alignment: float = 1_000_000
    reading: float = 1e9


#: The limits guji starts with.
DEFAULT = Limits()
#: No limit but the hard ones (``--force``).
NONE = Limits(math.inf, math.inf, math.inf, math.inf, math.inf, math.inf)

_current: ContextVar[Limits] = ContextVar("guji_limits", default=DEFAULT)


def current() -> Limits:
    """The limits in force."""
    return _current.get()


@contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Put *limits* in force for the ``with`` block."""
    token = _current.set(limits)
    try:
        yield limits
    finally:
        _current.reset(token)


def lifted(tell: Callable[[str], None] | None = None) -> ContextManager[Limits]:
    """No limit but the hard ones for the ``with`` block (the command line's
    ``--force``). *tell*, if given, is told in one line of each piece of work
    begun past a limit of :data:`DEFAULT` (:func:`past_default`), before it
    begins: long work under ``--force`` is said, not silent."""
    return _lifted(tell)


@contextmanager
def _lifted(tell: Callable[[str], None] | None) -> Iterator[Limits]:
    token = _tell.set(tell)
    try:
        with using(NONE) as limits:
            yield limits
    finally:
        _tell.reset(token)


_tell: ContextVar[Callable[[str], None] | None] = ContextVar("guji_limits_tell", default=None)


def past_default(message: str) -> None:
    """Say *message* (work begun past a limit of :data:`DEFAULT`, which is
    lifted) to whoever :func:`lifted` was given; nothing if no one."""
    tell = _tell.get()
    if tell is not None:
        tell(message)


class LimitError(UsageError):
    """A request over a limit, with the figure that was exceeded.

    *forcible* is True for :class:`Limits` (``--force`` lifts them), False for
    the hard limits.
    """

    def __init__(self, message: str, forcible: bool = True):
        super().__init__(message)
        self.forcible = forcible


def duration_text(seconds: float) -> str:
    """``2.5 s``, ``12 min``, ``26.7 h``, ``3.2e+08 years`` — for messages."""
    if not math.isfinite(seconds):
        return "forever"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size or (unit == "h" and seconds >= size):
            value = seconds / size
            return f"{value:,.3g} {unit}" if value < 1e6 else f"{value:.2g} {unit}"
    return f"{seconds:.3g} s"


def size_text(size: float) -> str:
    """``512 B``, ``3.4 MB``, ``1.2 GB`` (powers of 1000) — for messages."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            value = size / scale
            return f"{value:.3g} {unit}" if value < 1e6 else f"{value:.2g} {unit}"
    return f"{size:.0f} B"

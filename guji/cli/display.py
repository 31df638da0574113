"""The stroke display of ``guji play``: the stroke sounding now, in its source line.

While :func:`guji.sound.play.play` plays, the terminal shows the source line
of the pattern with the glyph sounding now highlighted (reverse video); when
the output is not a terminal, one plain line per stroke, the glyph in
brackets. The library knows nothing of this: a command passes
:func:`stroke_display` as ``play(..., display=...)``, and the player tells
the display each stroke at the moment it is heard (by the sound card's
clock, :mod:`guji.sound.player`).

The display writes its own control sequences (``\\r``, reverse video, clear
to end of line) on purpose: its content is escaped with
:func:`guji.errors.escape_controls`, and it writes past the command's
:class:`~guji.cli.terminal.SafeStream` (:func:`~guji.cli.terminal.unescaped`).
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from dataclasses import replace
from typing import Iterable, Iterator, TextIO

from ..i18n import N_, _
from ..errors import display_width, escape_controls
from ..text.reading.notation import Pattern, Rite
from ..timing.performance import Part
from ..timing.events import Onset
from ..timing.score import Event
from .terminal import unescaped

REVERSE = "\x1b[7m"
NORMAL = "\x1b[27m"
CLEAR_LINE = "\x1b[K"
#: Added to the line while playback is paused.
PAUSED = N_("  [paused]")


def stroke_display(out: TextIO) -> "StrokeDisplay":
    """The *display* of :func:`guji.sound.play.play` that shows each stroke on
    *out* as it is heard (a :class:`StrokeDisplay`)."""
    return StrokeDisplay(out)


class StrokeDisplay:
    """Shows the stroke sounding now: the pattern's source line, its glyph marked.

    On a terminal one status line is redrawn in place, the glyph in reverse
    video, and nothing else is written into it (ALSA's and PortAudio's
    messages are caught while playing, and reported after); otherwise (a
    pipe, a file) each stroke is one plain line with the glyph in brackets.
    :meth:`show` is called on the player's announcer thread and
    :meth:`set_paused` on the keyboard's: a lock keeps their lines whole.
    With *loop*, each line starts with the pass of the loop (``loop 3``).
    """

    def __init__(self, out: TextIO, tty: bool | None = None, width: int | None = None,
                 loop: bool = False):
        self.loop = loop               # say which pass of the loop each stroke is in
        self.out = unescaped(out)      # the content is escaped here, the codes are ours
        if tty is None:
            try:
                tty = bool(out.isatty())
            except (AttributeError, ValueError):
                tty = False
        self.tty = tty
        self.width = width or (shutil.get_terminal_size((80, 24)).columns if tty else 100)
        self._line = ""
        self._drawn = False
        self._paused = False
        self._lock = threading.Lock()

    def show(self, sounding: Onset) -> None:
        """*sounding* is heard now: draw its line."""
        loop = sounding.loop_pass if self.loop else None
        line = format_stroke(sounding.part, sounding.event, tty=self.tty,
                             width=self.width - 1 - display_width(_(PAUSED)), loop_pass=loop)
        with self._lock:
            self._line = line
            self._draw()

    def set_paused(self, paused: bool) -> None:
        """Mark the line paused (or playing again)."""
        with self._lock:
            if paused == self._paused:
                return
            self._paused = paused
            if self.tty:
                self._draw()
            else:
                self.out.write((_("paused") if paused else _("playing")) + "\n")
                self.out.flush()

    def _draw(self) -> None:
        mark = _(PAUSED) if self._paused else ""
        if self.tty:
            self.out.write("\r" + self._line + mark + CLEAR_LINE)
            self._drawn = True
        else:
            self.out.write(self._line + "\n")
        self.out.flush()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Nothing drawn meanwhile, the stroke line cleared (a terminal's) and
        drawn again after: for lines written between two strokes
        (:meth:`guji.cli.live.Outputs.interject`)."""
        with self._lock:
            drawn = self.tty and self._drawn
            if drawn:
                self.out.write("\r" + CLEAR_LINE)
                self.out.flush()
            yield
            if drawn:
                self._draw()

    def close(self) -> None:
        with self._lock:
            if self.tty and self._drawn:
                self.out.write("\n")
                self.out.flush()
                self._drawn = False


def format_stroke(part: Part, event: Event, *, tty: bool, width: int = 100,
                  loop_pass: int | None = None) -> str:
    """One display line for *event* of *part*.

    ``魯鼓 1 liji-zhengyi  pass 1/2  3/12 鼓  半，○□[○]□…`` — the part, the
    pass, the stroke's place in the pass and its drum, then the source line
    holding its glyph, cut to *width* columns around the glyph. On a
    terminal (*tty*) the glyph is in reverse video instead of brackets.
    A count-in click shows ``count-in 2/4``. With *loop_pass* (``--loop``)
    the line starts with the loop's pass: ``loop 3``.
    """
    score = part.score
    if loop_pass is not None:
        part = replace(part, name=_("loop {n}  {name}").format(n=loop_pass + 1, name=part.name))
    if event.drum is None:
        return _fit(escape_controls(_("{name}  count-in {n}/{count_in}").format(
            name=part.name, n=event.index + 1, count_in=score.count_in)), width)
    head = escape_controls(_("{name}  pass {p}/{repeat}  {n}/{per_pass} {drum}").format(
        name=part.name, p=event.pass_index + 1, repeat=score.repeat, n=event.position + 1,
        per_pass=score.per_pass, drum=event.drum.value) + "  ")
    room = max(10, width - display_width(head))
    return head + source_excerpt(score.pattern, event, tty=tty, width=room)


def source_excerpt(pattern: Pattern, event: Event, *, tty: bool, width: int) -> str:
    """The source line holding *event*'s glyph, the glyph marked, cut to *width* columns."""
    stroke = event.stroke
    if stroke is None:
        raise ValueError("a count-in click has no glyph")
    text = None
    for number, line in pattern.lines:
        if number == stroke.location.line:
            text = line
            break
    if text is not None and 0 <= stroke.location.column - 1 < len(text):
        col = stroke.location.column - 1
    else:   # no source text: show the normalised notation
        text, col = pattern.notation(Rite.SHE, marker=False), stroke.index
    text = text.replace("\t", " ").rstrip("\r\n")
    # controls in the source shown escaped (U+001B), the glyph's column moved with them
    col = len(escape_controls(text[:col]))
    text = escape_controls(text)
    glyph = text[col]
    left, right = text[:col], text[col + 1:]
    mark_w = display_width(glyph) + (0 if tty else 2)
    # cut the line to a window around the glyph
    budget = max(0, width - mark_w)
    want_left = budget // 2
    if display_width(left) > want_left:
        left = "…" + _take(reversed(left), max(want_left - 1, 0))[::-1]
    rest = max(0, budget - display_width(left))
    if display_width(right) > rest:
        right = _take(right, max(rest - 1, 0)) + "…"
    mark = f"{REVERSE}{glyph}{NORMAL}" if tty else f"[{glyph}]"
    return left + mark + right


def _fit(text: str, width: int) -> str:
    if display_width(text) <= width:
        return text
    return _take(text, width - 1) + "…"


def _take(chars: Iterable[str], limit: int) -> str:
    """The leading *chars* that fit in *limit* columns (up to the first that does not)."""
    out, used = [], 0
    for ch in chars:
        used += display_width(ch)
        if used > limit:
            break
        out.append(ch)
    return "".join(out)

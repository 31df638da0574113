"""The progress bar of long renders (``guji render``, ``guji compare -o``).

The library reports progress through a plain callable,
``progress(frames_done, frames_total)`` (:func:`guji.sound.files.write_audio`),
and the loudness's measuring passes before it through another
(``measuring``: :meth:`ProgressBar.measuring`, a line of its own);
:class:`ProgressBar` is the command line's one: drawn on a terminal only,
after half a second of work, its content escaped and written past the
command's :class:`~guji.cli.terminal.SafeStream` (:func:`~guji.cli.terminal.unescaped`), since
the ``\\r`` that redraws it is deliberate.
"""

from __future__ import annotations

import sys
import time
from typing import Callable

from ..errors import escape_controls
from .terminal import unescaped


class ProgressBar:
    """A progress bar on a terminal, for :func:`~guji.sound.files.write_audio`'s *progress*.

    Nothing is drawn unless *stream* is a terminal, and nothing before the
    work has taken *delay* seconds (short renders stay quiet). :meth:`close`
    ends the line if a bar was drawn.

    Parameters
    ----------
    label:
        Text before the bar.
    stream:
        Where to draw (default ``sys.stderr``).
    delay:
        Seconds of work before the bar appears.
    clock:
        A monotonic clock (tests pass their own).
    rate:
        Frames a second, to show progress in seconds of audio.
    """

    def __init__(self, label: str = "rendering", stream=None, delay: float = 0.5,
                 clock: Callable[[], float] = time.monotonic, rate: int | None = None,
                 width: int = 30, measuring_label: str = "measuring"):
        self.label = escape_controls(label)
        self.measuring_label = escape_controls(measuring_label)
        self._drawn = None                  # the label of the line drawn last
        self.stream = unescaped(stream if stream is not None else sys.stderr)
        self.delay = delay
        self.clock = clock
        self.rate = rate
        self.width = width
        self.started = clock()
        self.shown = False
        self._last_draw = -1.0
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.enabled = False

    def __call__(self, done: int, total: int) -> None:
        self._draw(self.label, done, total)

    def measuring(self, done: int, total: int) -> None:
        """The bar of the loudness's measuring passes, before the render's
        (:func:`~guji.sound.files.write_audio`'s *measuring*), on a line of its own."""
        self._draw(self.measuring_label, done, total)

    def _draw(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.shown and label != self._drawn:
            self.stream.write("\n")                    # the last phase's line stays
        elif self.shown and done < total and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        self.shown = True
        self._drawn = label
        frac = min(1.0, done / total) if total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        extra = ""
        if self.rate and label == self.label:       # seconds of audio: the render's
            extra = f" {_clock(done / self.rate)}/{_clock(total / self.rate)}"
        self.stream.write(f"\r{label} [{bar}] {frac * 100:3.0f}%{extra}")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"

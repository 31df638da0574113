"""Running live playback from the command line: what is shown, the keys, the report.

The library plays (:class:`guji.sound.player.Player`, or
:class:`guji.midi.sender.MidiPlayer` for MIDI alone) and hands over each
stroke when it is heard; this module decides what happens then, on the
terminal's side:

* :class:`JsonLines` — ``--json``: one JSON line per stroke on standard
  output, flushed at once;
* :class:`Outputs` — hands each heard item to the displays, or a MIDI
  message to the port;
* :func:`run_transport` — start, read keys (:mod:`guji.cli.keys`), wait
  for the end, close: the report;
* :func:`sound_system_quiet` — while playing, everything C libraries write
  to file descriptor 2 (PortAudio's and ALSA's messages) is caught instead
  of landing in the stroke display, and counted; the display writes to the
  real terminal meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
from typing import Any, Iterator, Sequence, TextIO

from ..errors import GujiError
from ..i18n import _
from ..library_messages import StderrCapture
from ..timing.events import Onset
from .keys import Keys


class JsonLines:
    """``guji play --json``: each stroke, as it is heard, one JSON line on *out*:
    ``{"index", "stroke", "drum", "time", "part", "pass", "position", "loop"}``
    (:meth:`guji.timing.events.Onset.to_json`), flushed at once."""

    def __init__(self, out: TextIO):
        self.out = out
        self._lock = threading.Lock()

    def show(self, sounding: Onset) -> None:
        with self._lock:
            self.out.write(json.dumps(sounding.to_json(), ensure_ascii=False) + "\n")
            self.out.flush()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No line written meanwhile (:meth:`Outputs.interject`)."""
        with self._lock:
            yield

    def set_paused(self, paused: bool) -> None:
        pass

    def close(self) -> None:
        pass


class Outputs:
    """Where heard items go: strokes to every display, messages to the MIDI port."""

    def __init__(self, displays: Sequence[Any] = (), outlet=None):
        self.displays = list(displays)
        self.outlet = outlet

    def heard(self, item: Any, _when: float = 0.0) -> None:
        """The transport's ``on_stroke``: the stroke or click *item* is heard now."""
        for display in self.displays:
            display.show(item)

    def interject(self, text: str, out: TextIO) -> None:
        """Write *text* on *out* between two strokes shown (``play --check``'s
        report of a pass): no display writes meanwhile, a terminal's stroke line
        is cleared first and drawn again after."""
        with contextlib.ExitStack() as stack:
            for display in self.displays:
                held = getattr(display, "held", None)
                if held is not None:
                    stack.enter_context(held())
            out.write(text)
            out.flush()

    def set_paused(self, paused: bool) -> None:
        for display in self.displays:
            display.set_paused(paused)
        if paused and self.outlet is not None:
            self.outlet.silence()

    def close(self) -> None:
        for display in self.displays:
            display.close()


def run_transport(transport, outputs: Outputs):
    """Start *transport*, read keys while it plays, wait for its end; its report.

    ``q`` quits (the report says so; the command exits 0); Ctrl-C stops the
    transport, closes it and goes on as a KeyboardInterrupt (exit 130) — after
    saying the trouble the report found, if any (a loop ends only so, and a
    gap heard in it is said as it would be at the end of a piece)."""
    with Keys(transport, on_pause=outputs.set_paused):
        transport.start()
        try:
            while not transport.wait(0.1):
                pass
            report = transport.close()
        except BaseException as e:
            transport.quit()
            report = None
            with contextlib.suppress(Exception):
                report = transport.close()
            if isinstance(e, KeyboardInterrupt) and report is not None and report.troubled:
                print(_("guji: playback: {summary}").format(summary=report.summary()), file=sys.stderr)
            raise
        finally:
            outputs.close()
        return report


@contextlib.contextmanager
def sound_system_quiet() -> Iterator[StderrCapture]:
    """Catch what C libraries write to file descriptor 2 while playing.

    Inside, ``sys.stderr`` writes to the real terminal (the displays are made
    on it); what PortAudio or alsa-lib print goes to the capture's
    ``lines``, for the report after playback."""
    with StderrCapture() as caught:
        yield caught


def report_lines(report, caught: Sequence[str], verbose: bool = True) -> list[str]:
    """The lines to print after playback: trouble in the *report*, and (with
    *verbose*) what the sound system printed meanwhile (empty when all went well)."""
    lines = []
    if report is not None and report.troubled:
        lines.append(_("guji: playback: {summary}").format(summary=report.summary()))
    said = [line for line in caught if line.strip()]
    if said and not verbose:
        lines.append(_("guji: the sound system said {n} thing(s) while playing (--verbose shows them)"
                       ).format(n=len(said)))
    elif said:
        more = _(" (and {n} more)").format(n=len(said) - 1) if len(said) > 1 else ""
        lines.append(_("guji: the sound system said {n} thing(s) while playing: {first}{more}").format(
            n=len(said), first=said[0].strip(), more=more))
    return lines


class Played:
    """What :func:`playing_quietly` holds: the report, once playback has ended."""
    report = None


@contextlib.contextmanager
def playing_quietly(verbose: bool = False) -> Iterator[Played]:
    """For the commands that play besides ``play`` (compare, demo): PortAudio's
    and ALSA's own lines are caught while playing and said as ``play`` says
    them — the playback's trouble and how many lines the sound system printed
    (the lines themselves with *verbose*), after a failure too (its words are
    the error's). Set :attr:`Played.report` inside."""
    played = Played()
    with sound_system_quiet() as caught:
        try:
            yield played
        except GujiError as e:
            if verbose and getattr(e, "detail", None):
                print(_('guji: the sound system said: {detail}').format(detail=e.detail), file=sys.stderr)
            if verbose:
                for line in caught.lines:
                    if line.strip():
                        print(_('guji: the sound system said: {value}').format(value=line.strip()),
                              file=sys.stderr)
            raise
    print_report(played.report, caught.lines, verbose=verbose)


def print_report(report, caught: Sequence[str], verbose: bool = False) -> None:
    for line in report_lines(report, caught, verbose):
        print(line, file=sys.stderr)

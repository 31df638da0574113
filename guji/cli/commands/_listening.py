"""``guji play --check``, the listening: each pass checked as soon as it has been heard.

A :class:`PassChecker` takes the passes to report on
(:mod:`guji.practice.passes`: the whole performance, each pass of a
``--ramp``, or pass after pass of a ``--loop``) and the input being kept
(:class:`~guji.sound.capture.Capture`). A thread of its own waits until the
input holds a pass and :data:`AFTER` seconds more (the ring of its last
stroke), hears that stretch (:func:`~guji.practice.transcribe.transcribe_reader`),
pairs it with the pass's events on the pass's own grid and writes the
report between two strokes of the display (:meth:`guji.cli.live.Outputs.interject`),
while guji plays on; then lets that stretch of the input go. The pass that
reaches the end of the performance (or all of it, played once without
``--ramp``) is checked when the input has closed (:meth:`PassChecker.finish`),
as ``guji check`` checks a recording.

Time: the first pass checked fixes where the input heard the performance's
time 0 (:attr:`PassChecker.anchor`), by its first hit (it plays the first
event: a microphone in the room hears guji's first click) or, when that hit
is not near where the clocks of output and input put the first event
(headphones), by the clocks; every later pass is paired against that same
anchor (its own start added). Before it is fixed, the clocks (or the input's
start) say roughly when a pass has been heard.
"""

from __future__ import annotations

import json
import math
import sys
import threading

from ...errors import GujiError
from ...i18n import _, ngettext

#: Seconds of input heard past a pass's end before it is checked.
AFTER = 0.4
#: Seconds of input read before a pass's stretch (the detector's margin, and more).
PAD = 0.2
#: Seconds between two looks at the input.
LOOK = 0.05


class PassChecker:
    """Checks the *passes* heard on *listening* (module docstring)."""

    def __init__(self, args, passes, listening, *, endless: bool = False):
        self.args, self.listening = args, listening
        self.endless = endless        # a loop: frames lost past the limit lose the time
        self.rate = listening.rate
        self._passes = iter(passes)
        self.pending = next(self._passes)        # the events made now, before any sound
        self.transport = self.outputs = None
        self.anchor: float | None = None         # the input's seconds of the performance's 0
        self.how, self.differ = "first hit", None
        self.checked = 0
        self.totals = [0, 0, 0, 0, 0]             # strokes, right, wrong drum, missing, extra
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- while playing --------------------------------------------------------------------

    def watch(self, transport, outputs) -> None:
        """The transport about to play and its displays: start listening for passes."""
        self.transport, self.outputs = transport, outputs
        if self.pending.hi != math.inf:
            self._thread = threading.Thread(target=self._run, name="guji-check", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set() and self.pending is not None:
                self._clock_checked()
                if self._lost_time() or self.pending.hi == math.inf:
                    return                       # the rest at the end (or, lost frames: never)
                report = self._play_report() if self.anchor is None else None
                need = self._frames_needed(self.pending, report)
                if need is None or self.listening.frames < need:
                    self._stop.wait(LOOK)
                    continue
                text = self._check(self.pending, report)
                self.outputs.interject(text, sys.stdout)
                self.pending = next(self._passes, None)
        except BaseException as e:               # said by finish(), in the command's thread
            self.error = e
            self.transport.stop()

    def _lost_time(self) -> bool:
        """A loop's input dropped frames (its checks fell further behind than the
        input holds, :data:`._practise.LAG`): what follows is no longer on the
        input's time, and no pass is checked."""
        return self.endless and self.listening.dropped > 0

    def _play_report(self):
        player = getattr(self.transport, "player", None)
        return None if player is None else player.report()

    def _frames_needed(self, p, report) -> int | None:
        at = self.anchor if self.anchor is not None else self._clocks(report, estimate=True)
        return None if at is None else math.ceil((at + p.hi + AFTER) * self.rate)

    def _clocks(self, report, estimate: bool = False) -> float | None:
        """The input's seconds of the performance's 0 by the clocks (output's first
        frame heard − input's frame 0 captured), ``None`` without them or when the
        output's clock jumped (a gap downstream); *estimate*: the input's start
        for its frame 0 where the device gives no capture times."""
        if report is None or report.first_heard is None or (report.jumps and not estimate):
            return None
        at = self.listening.captured_at
        if at is None and estimate:
            at = self.listening.started or None
        return None if at is None else report.first_heard - at

    # -- one pass -------------------------------------------------------------------------

    def _check(self, p, report) -> str:
        """The report of pass *p* (text, or a JSON line), the input let go up to it."""
        from ...practice.pairing import pair
        self._clock_checked()
        clocks = self._clocks(report)
        near = self.anchor if self.anchor is not None else self._clocks(report, estimate=True)
        hits = self._heard(p, 0.0 if near is None else near)
        if self.anchor is None:
            self._anchor(p, hits, clocks)
        at = self.anchor if self.anchor is not None else near or 0.0
        pairing = pair(p.events, hits, p.interval, at + p.start)
        if self.anchor is not None and p.hi != math.inf:
            self.listening.forget_before(int((self.anchor + p.hi - PAD) * self.rate))
        self.checked += 1
        a = pairing.alignment
        for k, n in enumerate((len(pairing.strokes), a.matches, a.substitutions, a.deletions,
                               a.insertions)):
            self.totals[k] += n
        return self._text(p, pairing)

    def _clock_checked(self) -> None:
        """:class:`GujiError` when the input has no clock (ALSA's null device)."""
        if self.listening.clockless:
            raise GujiError(_("the sound input has no clock (a null device?): it heard nothing "
                              "to check; choose a microphone with --input (see 'guji devices "
                              "--input')"))

    def _heard(self, p, near: float) -> tuple:
        """The hits of *p*'s stretch of the input (*near*: its seconds of the
        performance's 0, as well as known)."""
        from dataclasses import replace
        from ...practice.transcribe import transcribe_reader
        lo = 0 if p.lo == -math.inf else max(0, int((near + p.lo - PAD) * self.rate))
        hi = None if p.hi == math.inf else math.ceil((near + p.hi + AFTER) * self.rate)
        reader = self.listening.reader(lo, hi)
        heard = transcribe_reader(reader, self.source, self.rate, reader.frames)
        start, stop = near + p.lo, near + p.hi
        shifted = (replace(h, time=h.time + reader.start / self.rate) for h in heard.hits)
        return tuple(h for h in shifted if start <= h.time < stop)

    def _anchor(self, p, hits, clocks: float | None) -> None:
        """Fix :attr:`anchor` from the first pass heard (module docstring)."""
        if not hits and clocks is None:
            return                                # nothing heard, no clocks: the next pass
        anchor, how = anchored(p.events, hits, p.interval,
                               None if clocks is None else clocks + p.start)
        self.anchor = (hits[0].time - p.events[0].time - p.start) if anchor is None \
            else anchor - p.start
        self.how = how
        self.differ = None if clocks is None else round((self.anchor - clocks) * 1000, 3)

    # -- words ----------------------------------------------------------------------------

    @property
    def source(self) -> str:
        return _("the input") if self.args.input is None else self.args.input

    def _text(self, p, pairing) -> str:
        from ...practice.report import TempoUsed, report_json, report_text
        tempo = TempoUsed("given", p.interval, p.interval, p.interval)
        several = p.lo != -math.inf or p.hi != math.inf
        if self.args.json:
            named = "the input" if self.args.input is None else self.args.input  # data: English
            data = dict(report_json(pairing, named, list(self.args.ids), tempo),
                        anchored=self.how, anchor_minus_clocks_ms=self.differ,
                        **{"pass": p.number + 1 if several else None})
            return json.dumps(data, ensure_ascii=False) + "\n"
        source = self.source
        if several:
            said = _("{source}, loop {number}") if p.looped else _("{source}, pass {number}")
            source = said.format(source=source, number=p.number + 1)
        text = report_text(pairing, source, tempo)
        if self.checked > 1:
            return "\n" + text
        if self.how == "clocks":
            said = _("time from the clocks of output and input (the first hit was not the "
                     "first event)")
        elif self.differ is not None:
            said = _("time from the first hit ({ms:+.1f} ms from the clocks')").format(ms=self.differ)
        else:
            said = _("time from the first hit")
        return text + said + "\n"

    # -- the end --------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop the thread (the input has closed, or the command is ending)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

    def finish(self, report) -> str:
        """After the input closed: the passes left that it holds whole (the last
        with every hit after it), checked; their reports' text. The thread's
        error, if it had one, raised."""
        self.stop()
        if self.error is not None:
            raise self.error
        self._clock_checked()
        out = []
        while self.pending is not None and not self._lost_time():
            p = self.pending
            need = None if p.hi == math.inf else self._frames_needed(p, report)
            if need is not None and self.listening.frames < need:
                break                             # stopped before its end: not checked
            out.append(self._check(p, report))
            self.pending = None if p.hi == math.inf else next(self._passes, None)
        self._lost()
        if self.checked > 1 and not self.args.json:
            out.append(self._totals())
        return "".join(out)

    def _totals(self) -> str:
        """The last line after several passes: theirs together."""
        strokes, right, wrong, missing, extra = self.totals
        return "\n" + ngettext(
            "{passes} pass: {right} of {strokes} strokes right ({wrong} wrong drum, "
            "{missing} missing, {extra} extra)",
            "all {passes} passes: {right} of {strokes} strokes right ({wrong} wrong drum, "
            "{missing} missing, {extra} extra)", self.checked).format(
            passes=self.checked, right=right, strokes=strokes, wrong=wrong, missing=missing,
            extra=extra) + "\n"

    def _lost(self) -> None:
        listening = self.listening
        if listening.overflows or listening.dropped:
            print(_("guji: the input lost frames ({overflows} overflows, {dropped} frames past "
                    "the end): the report may miss hits").format(
                overflows=listening.overflows, dropped=listening.dropped), file=sys.stderr)


def anchored(events, hits, interval: float, clocks: float | None) -> tuple[float | None, str]:
    """(the anchor to pair with, how it was found): the first hit, as 'guji check'
    anchors; the clocks' (*clocks*: the input's time of the performance's 0) when
    the first hit is not the first event (the microphone did not hear the count-in:
    headphones) or nothing was heard."""
    from ...practice.pairing import REACH
    if clocks is None:
        return None, "first hit"
    if not hits or abs(hits[0].time - events[0].time - clocks) > REACH * interval:
        return clocks, "clocks"
    return None, "first hit"

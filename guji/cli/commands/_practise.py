"""``guji play … --check``: play the count-in (and the other drum), listen, report.

The drummer plays along; the input (a microphone, ``--input``) is heard
from before the first sound to a moment after the last, and then checked
as ``guji check`` checks a recording (:mod:`guji.practice`): the same
pairing, the same report, the same anchor — the first hit heard plays the
performance's first event, so with ``--count-in`` the microphone must hear
guji's clicks (in a room it does; on headphones give no count-in and start
on the first stroke). The tempo is the one played (given, not found).

Without ``--mute``/``--solo`` guji plays only the count-in and the drummer
both drums; with them guji plays the drum kept (minus-one) and the report
covers every stroke the microphone heard, guji's own included.
"""

from __future__ import annotations

import argparse
import math
import sys

from ...i18n import _
from ...errors import GujiError, UsageError

#: Seconds listened to after the playback ends (the last stroke's ring).
AFTER = 0.4
#: The longest input --check keeps (mono float32: 2 h at 48 kHz is 1.4 GB), unless
#: the limits are lifted (``--force``).
LONGEST = 2 * 3600.0
#: Seconds of input kept beyond the performance (a late start of the output,
#: the latency, the ring of the last stroke): the bound of the memory.
SLACK = 5.0


def add_check_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(_("practice (play along and be checked)"))
    g.add_argument("--check", action="store_true",
                   help=_("listen on the sound input while playing and report, as 'guji check' "
                          "does, how the drums were played; guji plays the count-in (and with "
                          "--mute/--solo the drum kept), you play the rest"))
    g.add_argument("--input", metavar="DEVICE",
                   help=_("with --check: the input device (index or part of its name, see 'guji "
                          "devices --input'); default the system's"))


def refused(args: argparse.Namespace) -> None:
    """One line for what --check cannot do (before any sound)."""
    if args.input is not None and not args.check:
        raise UsageError(_("--input is the microphone of --check: give --check too"))
    if not args.check:
        return
    for given, name in ((args.loop, "--loop"), (args.no_audio, "--no-audio"),
                        (getattr(args, "ramp", None) is not None, "--ramp")):
        if given:
            raise UsageError(_("--check cannot be used with {option} (the report pairs one "
                               "pass on one grid, played by guji's sound)").format(option=name))


def practice_performance(performance, args: argparse.Namespace):
    """What guji plays under --check: the drums muted unless --mute/--solo chose."""
    from ...timing.performance import DRUMS
    if getattr(args, "mute", None) or getattr(args, "solo", None):
        return performance
    return performance.muting(DRUMS)


def checked_play(args: argparse.Namespace, performance, play) -> tuple:
    """Play *performance* with *play* (a function of it) while listening; the
    play report and the check report's text (or JSON text)."""
    import threading
    from ...practice.expected import expected_events
    from ...sound.capture import Capture
    from ._audio import rate_from_args
    events = expected_events(performance)             # stacked refused before any sound
    rate = rate_from_args(args)
    seconds = performance.duration + args.latency + SLACK
    _check_listening(seconds, rate)
    listening = Capture(rate=rate, seconds=seconds, device=args.input)
    with listening:
        report = play(practice_performance(performance, args))
        threading.Event().wait(AFTER)                 # the last stroke's ring
    # a clock that jumped (a gap downstream: said by play's report) anchors nothing
    first_heard = None if report.jumps else report.first_heard
    return report, _checked(args, performance, events, listening, first_heard)


def _check_listening(seconds: float, rate: int) -> None:
    """:class:`LimitError` before any sound when the input to keep would be over
    :data:`LONGEST` (the limits lifted, ``--force``: as long as the piece)."""
    from ... import limits
    from ...limits import LimitError, duration_text, size_text
    longest = LONGEST if math.isfinite(limits.current().longest) else math.inf
    if seconds > longest:
        raise LimitError(_("--check keeps what it hears in memory: {value} ({size}) is over "
                           "its limit of {limit}; check a shorter piece, or record it and "
                           "use 'guji check'").format(value=duration_text(seconds),
                                                      size=size_text(4 * rate * seconds),
                                                      limit=duration_text(longest)))


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


def _checked(args, performance, events, listening, first_heard) -> str:
    import json
    from ...practice.pairing import pair
    from ...practice.report import TempoUsed, report_json, report_text
    from ...practice.transcribe import transcribe_reader
    if listening.clockless:
        raise GujiError(_("the sound input has no clock (a null device?): it heard nothing to "
                          "check; choose a microphone with --input (see 'guji devices --input')"))
    source = _("the input") if args.input is None else args.input
    heard = transcribe_reader(listening.reader(), source, listening.rate, listening.frames)
    interval = performance.interval
    at = listening.captured_at
    clocks = None if first_heard is None or at is None else first_heard - at
    anchor, how = anchored(events, heard.hits, interval, clocks)
    pairing = pair(events, heard.hits, interval, anchor)
    tempo = TempoUsed("given", interval, interval, interval)
    if listening.overflows or listening.dropped:
        print(_("guji: the input lost frames ({overflows} overflows, {dropped} frames past the "
                "end): the report may miss hits").format(overflows=listening.overflows,
                                                         dropped=listening.dropped),
              file=sys.stderr)
    differ = None if clocks is None else round((pairing.anchor - clocks) * 1000, 3)
    if args.json:
        named = "the input" if args.input is None else args.input   # data: English in every language
        data = dict(report_json(pairing, named, list(args.ids), tempo), anchored=how,
                    anchor_minus_clocks_ms=differ)
        return json.dumps(data, ensure_ascii=False) + "\n"
    if how == "clocks":
        said = _("time from the clocks of output and input (the first hit was not the first event)")
    elif differ is not None:
        said = _("time from the first hit ({ms:+.1f} ms from the clocks')").format(ms=differ)
    else:
        said = _("time from the first hit")
    return report_text(pairing, source, tempo) + said + "\n"

"""``guji play … --check``: play the count-in (and the other drum), listen, report.

The drummer plays along; the input (a microphone, ``--input``) is heard
from before the first sound to a moment after the last, and checked as
``guji check`` checks a recording (:mod:`guji.practice`): the same
pairing, the same report, the same anchor — the first hit heard plays the
performance's first event, so with ``--count-in`` the microphone must hear
guji's clicks (in a room it does; on headphones the clocks of output and
input keep the time). The tempo is the one played (given, not found).

Played once, the report comes at the end. With ``--loop`` a report comes
after each pass, while guji plays on; with ``--ramp`` after each pass too,
each scored against its own tempo (:mod:`._listening`,
:mod:`guji.practice.passes`).

Without ``--mute``/``--solo`` guji plays only the count-in and the drummer
both drums; with them guji plays the drum kept (minus-one) and the report
scores the drum(s) left out only: the drummer's. guji's own strokes, which
a microphone in the room hears too, are neither scored nor extra hits.
"""

from __future__ import annotations

import argparse
import math

from ...i18n import _
from ...errors import UsageError

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
                          "does, how the drums were played: at the end, or with --loop or "
                          "--ramp after each pass (each at its own tempo); guji plays the "
                          "count-in (and with --mute/--solo the drum kept, which is not "
                          "scored), you play the rest"))
    g.add_argument("--input", metavar="DEVICE",
                   help=_("with --check: the input device (index or part of its name, see 'guji "
                          "devices --input'); default the system's"))


def refused(args: argparse.Namespace) -> None:
    """One line for what --check cannot do (before any sound)."""
    if args.input is not None and not args.check:
        raise UsageError(_("--input is the microphone of --check: give --check too"))
    if args.loop and getattr(args, "ramp", None) is not None:
        raise UsageError(_("--ramp plays its passes once, each at its tempo: leave out --loop"))
    if not args.check:
        return
    if args.no_audio:
        raise UsageError(_("--check cannot be used with {option} (the report pairs one "
                           "pass on one grid, played by guji's sound)").format(option="--no-audio"))
    if getattr(args, "ghost", "none") == "click":
        raise UsageError(_("--check cannot be used with --ghost click: guji's click on each of "
                           "your strokes would be heard as your stroke"))


def practice_performance(performance, args: argparse.Namespace):
    """What guji plays under --check: the drums muted unless --mute/--solo chose."""
    from ...timing.performance import DRUMS
    if getattr(args, "mute", None) or getattr(args, "solo", None):
        return performance
    return performance.muting(DRUMS)


def practice_what(what, args: argparse.Namespace):
    """:func:`practice_performance` of a performance or of a loop's."""
    from ...timing.loop import Loop
    if isinstance(what, Loop):
        return Loop(practice_performance(what.performance, args), gap=what.gap)
    return practice_performance(what, args)


def passes_of(played, args: argparse.Namespace):
    """The passes reported on (:mod:`guji.practice.passes`)."""
    from ...practice import passes
    from ...timing.loop import Loop
    if isinstance(played, Loop):
        return passes.loop_passes(played)
    if getattr(args, "ramp", None) is not None:
        return passes.ramp_passes(played)
    return (passes.whole(played),)


def held_seconds(played, args: argparse.Namespace) -> float:
    """Seconds of input held at most: the piece (a loop: its first two passes
    and :data:`LAG`), the latency and :data:`SLACK`."""
    from ...timing.loop import Loop
    if isinstance(played, Loop):
        return played.pass_start(2) + LAG + args.latency + SLACK
    return played.duration + args.latency + SLACK


#: Seconds a --loop's checks may fall behind the input before it loses frames.
LAG = 60.0


def checked_play(args: argparse.Namespace, what, play) -> tuple:
    """Play *what* (a performance or a loop) with *play* (a function of what to
    play and of the checker's ``watch``) while listening; the play report and
    the text (or JSON lines) of the passes reported at the end."""
    import threading
    from ...sound.capture import Capture
    from ...timing.loop import Loop
    from ._audio import rate_from_args
    from ._listening import AFTER, PassChecker
    played = practice_what(what, args)
    passes = passes_of(played, args)                 # stacked refused before any sound
    rate = rate_from_args(args)
    seconds = held_seconds(played, args)
    _check_listening(seconds, rate)
    listening = Capture(rate=rate, seconds=seconds, device=args.input)
    checker = PassChecker(args, passes, listening, endless=isinstance(played, Loop))
    try:
        with listening:
            report = play(played, checker.watch)
            threading.Event().wait(AFTER)             # the last stroke's ring
    finally:
        checker.stop()
    return report, checker.finish(report)


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

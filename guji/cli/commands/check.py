"""``guji check RECORDING ID…``: how a recording of the drums plays the score."""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ._audio import performance_from_args
from ._common import (add_input_options, add_json_option, add_timing_options, load_patterns,
                      print_json)
from ._audio import gap_steps
from ...timing.layout import DEFAULT_GAP_STEPS


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check", help=_("check a recording of the drums against the score"),
        description=_("Hear a recording (WAV, FLAC or OGG; mono or stereo, any rate) of the "
                    "patterns played on 鼙 and 鼓, and report stroke by stroke: the expected "
                    "time, the played time, the deviation in ms, the drum right or wrong, strokes "
                    "missing and hits extra; then the strokes right, the mean and spread of the "
                    "deviation, rushing or dragging, and the worst places. The first hit anchors "
                    "time: it plays the first event (the first count-in click with --count-in, "
                    "which the recording then holds)."))
    p.add_argument("recording", metavar="RECORDING", help=_("the recording (.wav, .flac, .ogg)"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, e.g. lu, xue:2"))
    add_timing_options(p)
    p.add_argument("--gap", type=gap_steps, default=DEFAULT_GAP_STEPS, metavar="STEPS",
                   help=_('with several patterns, empty grid steps between them (default {default_gap_steps}, as render and play)').format(default_gap_steps=DEFAULT_GAP_STEPS))
    add_json_option(p)
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...practice.expected import expected_events
    from ...practice.pairing import pair
    from ...practice.report import report_json, report_text
    from ...practice.transcribe import transcribe
    performance = performance_from_args(load_patterns(args.ids, args), args)  # limits checked
    events = expected_events(performance)
    heard = transcribe(args.recording)
    pairing = pair(events, heard.hits, performance.interval)
    if args.json:
        print_json(report_json(pairing, args.recording, list(args.ids)))
    else:
        sys.stdout.write(report_text(pairing, args.recording))
    return 0

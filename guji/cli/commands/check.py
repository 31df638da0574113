"""``guji check RECORDING ID…``: how a recording of the drums plays the score."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...i18n import _, ngettext
from ._audio import performance_from_args
from ._common import (add_input_options, add_json_option, add_scale_option, add_timing_options,
                      check_scale, load_patterns, print_json)
from ._audio import add_gap_option
from ...errors import UsageError
from ...files import destination
from ...timing.layout import DEFAULT_GAP_STEPS
from ..reports import wrote


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check", help=_("check a recording of the drums against the score"),
        description=_("Hear a recording (WAV, FLAC or OGG; mono or stereo, any rate) of the "
                    "patterns played on 鼙 and 鼓, and report stroke by stroke: the expected "
                    "time, the played time, the deviation in ms, the drum right or wrong, strokes "
                    "missing and hits extra; then the strokes right, the mean and spread of the "
                    "deviation, rushing or dragging, and the worst places. The first hit anchors "
                    "time: it plays the first event (the first count-in click with --count-in, "
                    "which the recording then holds). Without --interval or --bpm the tempo is "
                    "found from the recording (and said)."))
    p.add_argument("recording", metavar="RECORDING", help=_("the recording (.wav, .flac, .ogg)"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, e.g. lu, xue:2"))
    add_timing_options(p)
    add_gap_option(p, _('with several patterns, empty grid steps between them (default {default_gap_steps}, as render and play)').format(default_gap_steps=DEFAULT_GAP_STEPS))
    p.add_argument("-o", "--output", metavar="FILE",
                   help=_("also draw the report: FILE.svg, or FILE.png through a headless "
                        "Chromium (each stroke's deviation along the pattern, its glyph on the "
                        "axis; wrong drums, missing and extra strokes marked)"))
    add_scale_option(p)
    add_json_option(p)
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...practice.expected import expected_events
    from ...practice.pairing import pair
    from ...practice.report import report_json, report_text
    from ...practice.transcribe import check_recording, transcribe
    kind = _picture_kind(args)                       # checked before any work
    check_recording(args.recording)                  # its header: before the texts are read
    patterns = load_patterns(args.ids, args)
    performance = performance_from_args(patterns, args)  # limits checked
    events = expected_events(performance)
    heard = transcribe(args.recording)
    tempo = _tempo(args, events, heard.hits, performance.interval)
    if tempo.found:
        args.interval = tempo.interval
        performance = performance_from_args(patterns, args)  # checked again at that tempo
        events = expected_events(performance)
    pairing = pair(events, heard.hits, performance.interval)
    if kind:
        _draw(pairing, args, kind, tempo.found)
    if args.json:
        print_json(report_json(pairing, args.recording, list(args.ids), tempo))
    else:
        sys.stdout.write(report_text(pairing, args.recording, tempo))
    return 0


def _tempo(args, events, hits, interval: float):
    """The :class:`~guji.practice.report.TempoUsed`: --interval/--bpm as given, else
    found from the hits (:func:`guji.practice.tempo.find_tempo`), else the default."""
    from ...practice.report import TempoUsed
    from ...practice.tempo import find_tempo
    from ...timing.score import check_interval
    if args.interval is not None or args.bpm_interval is not None:
        return TempoUsed("given", interval, interval, interval)
    found = find_tempo(events, hits)
    if found is None:
        return TempoUsed("default", interval, interval, interval)
    try:
        check_interval(found.interval)
    except UsageError as e:
        raise UsageError(_("{recording}: the tempo found ({reason}); give --interval or --bpm")
                         .format(recording=args.recording, reason=e)) from None
    return TempoUsed("found", found.interval, found.start_interval, found.end_interval)


def _picture_kind(args) -> str | None:
    """``svg``/``png`` from -o's extension (``None`` without -o); the
    destination checked now, before the recording is heard."""
    if args.output is None:
        return None
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(_("cannot draw the report to {output}: the file name must end in .svg or .png")
                         .format(output=repr(args.output)))
    check_scale(args.scale)
    destination(args.output)
    return suffix[1:]


def _draw(pairing, args, kind: str, curve: bool) -> None:
    from ...practice.picture import report_drawing
    from ...practice.report import rows, summarise
    from ...views.draw import write_svg
    from ...views.png import svg_to_png
    table = rows(pairing)
    picture = report_drawing(table, summarise(pairing, table, curve),
                             _("{recording} against {ids}").format(recording=Path(args.recording).name,
                                                               ids=" ".join(args.ids)))
    if kind == "svg":
        path = write_svg(args.output, picture.svg(xml_declaration=True))
    else:
        path = svg_to_png(picture, args.output, scale=args.scale)
    wrote(path, ngettext("the report as a picture ({count} row)",
                         "the report as a picture ({count} rows)", len(table)).format(count=len(table)))

"""``guji render``: write the sound of patterns to an audio file."""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ..reports import wrote
from ._audio import (add_ramp_option, add_audio_options, add_mute_options, add_sequence_options,
                     audio_options_from_args, audio_summary, performance_from_args)
from ._common import add_input_options, add_timing_options, load_patterns

_BITS = ("16", "24", "float")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "render", help=_("write the sound of patterns to WAV, FLAC or OGG"),
        description=_("Render patterns to an audio file with the synthesised 鼙 and 鼓 (or your own "
                    "kit). Every stroke starts on its exact sample; the loudness is -16 LUFS "
                    "(--loudness), the true peak at or below -1 dBTP; long pieces are written in blocks, so memory stays flat. The file "
                    "appears only when complete. Several patterns are played one after another."))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, e.g. lu, xue:2, lu:1@wuli-tongkao"))
    p.add_argument("-o", "--output", metavar="FILE",
                   help=_("the audio file (.wav, .flac, .ogg); default: named after the first id. "
                        "A device or pipe is written directly (-o /dev/null times a render); "
                        "'-' writes to standard output"))
    p.add_argument("--format", choices=("flac", "ogg", "wav"),
                   help=_("file format (default: from the extension; wav for a device, a pipe "
                        "or '-' without one)"))
    p.add_argument("--bits", choices=_BITS,
                   help=_("sample format: 16 (default), 24 (WAV, FLAC) or float (WAV)"))
    add_timing_options(p)
    add_ramp_option(p)
    add_sequence_options(p)
    add_mute_options(p)
    add_audio_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


def default_output(ids: list[str], fmt: str | None) -> str:
    """``lu:1@wuli-tongkao`` → ``lu-1-wuli-tongkao.wav``."""
    stem = ids[0]
    for ch in ":@/\\ ":
        stem = stem.replace(ch, "-")
    stem = stem.strip("-.") or "guji"
    return f"{stem}.{(fmt or 'wav').lower()}"


def run(args: argparse.Namespace) -> int:
    from ...files import destination
    from ...sound.files import audio_format, write_audio
    from ..progress import ProgressBar
    output = args.output if args.output is not None else default_output(args.ids, args.format)
    where = destination(output)                                     # check before any work
    fmt, sub = audio_format(output, args.format, args.bits, streamed=where.streamed)
    performance = performance_from_args(load_patterns(args.ids, args), args)   # limits checked
    options = audio_options_from_args(args)                                   # then the voices
    bar = ProgressBar(_("rendering {name}").format(name=where.name), stream=sys.stderr, rate=options["rate"],
                      measuring_label=_("measuring the loudness of {name}").format(name=where.name))
    try:
        path = write_audio(output, performance, **options, format=fmt, subtype=sub, progress=bar,
                           measuring=bar.measuring)
    finally:
        bar.close()
    summary = audio_summary(None if where.streamed else path, performance,
                            stated=(options["rate"], options["channels"], fmt, sub))
    wrote(path, summary)
    return 0


"""``guji play``: play patterns on the sound card, showing each stroke as it sounds."""

from __future__ import annotations

import argparse
import sys

from ._audio import (add_audio_options, add_mute_options, add_sequence_options,
                     audio_options_from_args, performance_from_args)
from ._common import add_input_options, add_timing_options, load_patterns


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play patterns, showing the stroke sounding now",
        description="Play patterns through the sound card (PortAudio). The terminal shows the "
                    "pattern's source line with the glyph sounding now highlighted. Ctrl-C stops. "
                    "No sound card? Use 'guji render' to write a file.")
    p.add_argument("ids", nargs="+", metavar="ID", help="pattern ids, e.g. lu, xue:2")
    p.add_argument("--device", metavar="DEVICE",
                   help="output device: index or part of its name (see 'guji devices')")
    p.add_argument("--quiet", action="store_true", help="do not show the strokes")
    add_timing_options(p)
    add_sequence_options(p)
    add_mute_options(p)
    add_audio_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...sound.play import play
    from ..display import stroke_display
    options = audio_options_from_args(args)
    parts = performance_from_args(load_patterns(args.ids, args), args)
    display = None if args.quiet else stroke_display(sys.stderr)
    play(parts, **options, device=args.device, display=display)
    return 0

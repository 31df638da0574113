"""``guji page A B … -o DIR/``: a page to share, in a folder with its audio (see :mod:`guji.views.page`).

The page plays the whole pattern (射禮, ``--rite she``) by default, unlike
the other commands: the editions' variant readings mostly lie before 半,
which the 投壺 rite does not play, and a page made to show the differences
should let them be heard. ``--rite touhu`` plays only the half.
"""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ...compare.modes import MODES
from ...views.page import AUDIO_FORMATS, DEFAULT_AUDIO_FORMAT, write_page
from ...text.reading.notation import Rite
from ._audio import add_audio_options, audio_options_from_args
from ._common import add_input_options, add_timing_options, load_patterns, timing_from_args


def _modes(text: str) -> tuple[str, ...]:
    modes = tuple(m.strip() for m in text.split(",") if m.strip())
    for m in modes:
        if m not in MODES:
            raise argparse.ArgumentTypeError(_('unknown mode {m}: use {value}').format(m=repr(m), value=', '.join(MODES)))
    return modes


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "page", help=_("write an HTML page with pictures, alignment and audio (a folder, or one "
                "file with --single-file)"),
        description=_("Write DIR/index.html, a page that opens from the file system with no "
                    "network: the patterns as the sources write them, the aligned timeline, the "
                    "alignment of each variant with A, and an audio player for each variant "
                    "and each compare mode (the audio files are written beside index.html, or "
                    "inside the page with --single-file). While a player plays, the stroke "
                    "sounding now is lit in the pictures (a small script; the page works "
                    "without it)."),
        epilog=_("Example: guji page lu:1 lu:1@wuli-tongkao -o lu1-variants/"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, A first"))
    p.add_argument("-o", "--output", required=True, metavar="DIR/|FILE.html",
                   help=_("the folder to write (created if missing); with --single-file, the "
                        "page's file"))
    p.add_argument("--single-file", action="store_true",
                   help=_("put the audio inside the page: one .html file that can be mailed "
                        "(-o FILE.html; a folder gets its index.html)"))
    p.add_argument("--modes", type=_modes, default=MODES, metavar="M,M…",
                   help=_('compare modes to include (default: all: {value})').format(value=','.join(MODES)))
    p.add_argument("--audio-format", choices=tuple(AUDIO_FORMATS), default=DEFAULT_AUDIO_FORMAT,
                   help=_("audio files of the page (default flac: lossless, plays in every "
                        "current browser)"))
    add_timing_options(p, rite=Rite.SHE)     # the seeds' variants lie before 半
    add_audio_options(p, channels=False)
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    patterns = load_patterns(args.ids, args)
    timing = timing_from_args(args)
    audio = audio_options_from_args(args)
    index = write_page(args.output, patterns, timing, modes=args.modes,
                       audio_format=args.audio_format, kit=audio["kit"], rate=audio["rate"],
                       progress=lambda line: print(line, file=sys.stderr),
                       single_file=args.single_file)
    print(_('open {value}').format(value=index.resolve().as_uri()), file=sys.stderr)
    return 0

"""``guji sheet ID… -o FILE``: sheet music for performers.

The format comes from the extension (:mod:`guji.sheet.write`): ``.musicxml``
/ ``.mxl`` for notation programs, ``.ly`` for LilyPond, ``.svg`` (engraved
by verovio) and ``.pdf`` (engraved by LilyPond) to print. The layout is every
command's (:func:`~guji.cli.commands._audio.performance_from_args`): the
patterns one after another, or stacked; the rite, passes, count-in and the
drums left out as in ``midi``, ``render`` and ``play``; the bar lines those
of the MIDI file. What the sheet could not do as asked (passes that do not
line up, written out) is said on stderr.
"""

from __future__ import annotations

import argparse
import sys

from ...i18n import _, ngettext
from ...errors import UsageError
from ...sheet.layout import GLYPH_PLACES
from ...sheet.model import Instruments
from ...timing.performance import DRUMS, Voice
from ..reports import wrote
from ._audio import add_mute_options, add_sequence_options, performance_from_args
from ._common import add_input_options, add_timing_options, load_patterns
from .midi import key_map


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "sheet", help=_("write sheet music: MusicXML, LilyPond, SVG or PDF"),
        description=_("Write the patterns as sheet music for performers. One percussion staff "
                    "holds both drums (○ 鼙 in the snare's space, □ 鼓 in the bass drum's, a "
                    "click as a cross above), one stroke a quarter note (間若一: ♩ = 60 ÷ the "
                    "interval), the source's glyph over each note. The sources have no bars: "
                    "the bars are the sections, as in the MIDI file: the count-in, each pass "
                    "(射禮: before 半, a double bar and the mark 半, then the half), a bar of "
                    "rests between patterns. Passes are written once between repeat signs. "
                    "Patterns played one after another share a staff; --stack gives each "
                    "its own."),
        epilog=_("Formats, by extension: .musicxml or .mxl (MusicXML 4.0), .ly (LilyPond), .svg "
               "(engraved by verovio: pip install verovio), .pdf (engraved by LilyPond: "
               "apt-get install lilypond fonts-noto-cjk, brew install lilypond, or lilypond.org "
               "on Windows). Examples: guji sheet lu -o lu.pdf; "
               "guji sheet lu xue --rite she --repeat 3 --count-in 4 -o lu-xue.musicxml; "
               "guji sheet lu --mute 鼓 --ghost click -o lu-minus-gu.svg"))
    p.add_argument("ids", nargs="+", metavar="ID",
                   help=_("pattern ids, e.g. lu, xue:2, lu:1@wuli-tongkao, lu:2@notes.txt"))
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help=_("the file: {formats}").format(formats=", ".join(HELP_SUFFIXES)))
    p.add_argument("--glyphs", choices=GLYPH_PLACES, default="above",
                   help=_("where the source's glyph of each stroke is printed: above the staff "
                        "(default), below it, or none (MuseScore 3 puts them below always)"))
    p.add_argument("--title", metavar="TEXT", help=_("the title (default: the patterns' names)"))
    p.add_argument("--map", dest="midi_keys", type=key_map, action="append",
                   metavar="V=KEY,...",
                   help=_("the General MIDI percussion keys notation programs play the notes on, "
                        "as for 'guji midi' (default 鼙=62, 鼓=41, click=76)"))
    add_timing_options(p)
    add_sequence_options(p)
    add_mute_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


#: The extensions ``-o`` takes, as its help lists them: those of
#: :data:`guji.sheet.write.FORMATS` but ``.xml`` (tests/test_startup.py holds them equal),
#: written here so that ``guji --help`` loads no XML or subprocess module.
HELP_SUFFIXES = (".ly", ".musicxml", ".mxl", ".pdf", ".svg")


def instruments_from_args(args: argparse.Namespace) -> Instruments:
    """The :class:`~guji.sheet.model.Instruments` of ``--map`` (later maps win)."""
    keys: dict[Voice, int] = {}
    for table in getattr(args, "midi_keys", None) or []:
        keys.update(table)
    default = Instruments()
    try:
        return Instruments(keys.get(Voice.SMALL, default.small), keys.get(Voice.BIG, default.big),
                           keys.get(Voice.CLICK, default.click))
    except ValueError as e:
        raise UsageError(_('--map: {e}').format(e=e)) from None


def run(args: argparse.Namespace) -> int:
    from ...sheet.build import sheet_of
    from ...sheet.write import sheet_format, write_sheet
    out = args.output
    if out in ("", "-"):
        raise UsageError(_('-o: give a file name (.musicxml, .mxl, .ly, .svg or .pdf)'))
    sheet_format(out)                                   # check before any work
    performance = performance_from_args(load_patterns(args.ids, args), args)
    sheet = sheet_of(performance, instruments=instruments_from_args(args), title=args.title)
    for notice in sheet.notices:
        print(_('guji: {notice}').format(notice=notice), file=sys.stderr)
    path = write_sheet(out, sheet, glyphs=args.glyphs)
    strokes = sum(n.voice in DRUMS for k in range(len(sheet.staves)) for n in sheet.notes(k))
    staves = ngettext("{n} staff", "{n} staves", len(sheet.staves)).format(n=len(sheet.staves))
    bars = ngettext("{n} bar", "{n} bars", len(sheet.measures)).format(n=len(sheet.measures))
    wrote(path, _("{bars}; {strokes} strokes written; {staves}").format(bars=bars, strokes=strokes, staves=staves))
    return 0

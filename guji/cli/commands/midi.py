"""``guji midi ID [ID ...] -o FILE.mid``: Standard MIDI files of the scores.

One file with a track set per pattern, or with ``-o DIR/`` (a path ending in
``/``, or an existing directory) one file per pattern, named from its id
(``lu-1-liji-zhengyi.mid``). Prints each file written, one line each.

:func:`add_midi_options` and :func:`midi_options_from_args` are shared with
the commands that also write MIDI (``compare``): the first adds ``--map``,
``--velocity``, ``--melodic``, ``--title`` and ``--ticks-per-beat`` to a
parser, the second turns the parsed options into keyword arguments of
:func:`guji.midi.build_midi` / :func:`guji.midi.write_midi`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ...i18n import N_, _
from ...errors import UsageError
from ...files import destination, make_folder
from ...midi import (DEFAULT_KEYS, DEFAULT_PITCHES, DEFAULT_TICKS_PER_BEAT, DEFAULT_VELOCITIES,
                     GM_PERCUSSION, check_ticks_per_beat)
from ...timing.layout import perform
from ...timing.performance import Voice
from ..reports import midi_summary, wrote
from ._audio import add_mute_options, add_sequence_options, mute_from_args, performance_from_args
from ._common import add_input_options, add_timing_options, checked, load_patterns, timing_from_args


def parse_voice_values(text: str, what: str = "key", low: int = 0) -> dict[Voice, int]:
    """``"鼙=45,鼓=41"`` → ``{Voice.SMALL: 45, Voice.BIG: 41}``.

    Voices as :meth:`guji.timing.performance.Voice.from_name` names them (鼙/small/pi, 鼓/big/gu,
    click, cue); ``=`` or ``:`` between name and number; items separated by
    commas. Raises :class:`argparse.ArgumentTypeError` (one line) on anything
    else, so argparse reports it as a bad option.
    """
    table: dict[Voice, int] = {}
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise argparse.ArgumentTypeError(
            _('{text}: expected VOICE=NUMBER[,VOICE=NUMBER...], e.g. 鼙=45,鼓=41').format(text=repr(text)))
    for item in items:
        sep = "=" if "=" in item else ":" if ":" in item else None
        if sep is None:
            raise argparse.ArgumentTypeError(
                _('{item}: expected VOICE=NUMBER, e.g. 鼙=45 or big=41').format(item=repr(item)))
        name, _sep, number = item.partition(sep)
        try:
            voice = Voice.from_name(name)
        except UsageError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        try:
            value = int(number.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                _('{item}: the {what} must be a whole number {low}–127').format(item=repr(item), what=what, low=low)) from None
        if not low <= value <= 127:
            raise argparse.ArgumentTypeError(
                _('{item}: the {what} must be {low}–127, not {value}').format(item=repr(item), what=what, low=low, value=value))
        if voice in table:
            raise argparse.ArgumentTypeError(_('{text}: {value} given twice').format(text=repr(text), value=voice.value))
        table[voice] = value
    return table


def key_map(text: str) -> dict[Voice, int]:
    """``--map`` (argparse type, for midi, play and sheet): voices to MIDI keys 0–127."""
    return parse_voice_values(text, _("key"), 0)


def velocity_map(text: str) -> dict[Voice, int]:
    """``--velocity`` (argparse type, for midi and play): voices to velocities 1–127."""
    return parse_voice_values(text, _("velocity"), 1)


_ticks_per_beat = checked(check_ticks_per_beat, int, N_("a whole number"))


def _describe(table: dict[Voice, int], names: dict[int, str] | None = None) -> str:
    parts = []
    for voice, value in table.items():
        label = f" {names[value]}" if names and value in names else ""
        parts.append(f"{voice.value}={value}{label}")
    return ", ".join(parts)


def add_midi_options(parser: argparse.ArgumentParser) -> None:
    """Add the MIDI options (``--map``, ``--velocity``, ``--melodic``,
    ``--title``, ``--ticks-per-beat``) to *parser*, in a group of their own."""
    g = parser.add_argument_group("MIDI")
    g.add_argument("--map", dest="midi_keys", type=key_map, action="append", metavar="V=KEY,...",
                   help=_("MIDI keys of the voices, e.g. --map 鼙=45,鼓=41. Voices: 鼙 (small, pi), 鼓 (big, gu), click (count-in), cue. Default: GM percussion {value} (鼓 loud and ringing, 鼙 soft and damped, after 陸德明's 釋文: see guji.midi); with --melodic, pitches (default {value2})").format(value=_describe(DEFAULT_KEYS, GM_PERCUSSION), value2=_describe(DEFAULT_PITCHES)))
    g.add_argument("--velocity", dest="midi_velocities", type=velocity_map, action="append",
                   metavar="V=VEL,...",
                   help=_('note velocities 1–127, e.g. --velocity 鼙=70,鼓=110 (default {value}: 鼓 louder, per the text)').format(value=_describe(DEFAULT_VELOCITIES)))
    g.add_argument("--melodic", action="store_true",
                   help=_("for synths without a drum kit: each drum on a channel of its own with "
                        "GM program 117 Taiko Drum, at a pitch (the click on 116 Woodblock, the "
                        "cue on 113 Tinkle Bell), instead of the GM percussion channel 10"))
    g.add_argument("--title", metavar="TEXT",
                   help=_("title of the MIDI file (default: the patterns' names and rite)"))
    g.add_argument("--ticks-per-beat", dest="ticks_per_beat", type=_ticks_per_beat,
                   default=DEFAULT_TICKS_PER_BEAT, metavar="N",
                   help=_('MIDI resolution, ticks per quarter note = one stroke (default {default_ticks_per_beat})').format(default_ticks_per_beat=DEFAULT_TICKS_PER_BEAT))


def midi_options_from_args(args: argparse.Namespace) -> dict:
    """Keyword arguments for :func:`guji.midi.build_midi` / :func:`write_midi`
    from options added by :func:`add_midi_options` (repeated ``--map`` /
    ``--velocity`` options merge, the later winning)."""
    options: dict = {
        "melodic": bool(getattr(args, "melodic", False)),
        "title": getattr(args, "title", None),
        "ticks_per_beat": getattr(args, "ticks_per_beat", DEFAULT_TICKS_PER_BEAT),
    }
    for option, key in (("midi_keys", "keys"), ("midi_velocities", "velocities")):
        tables = getattr(args, option, None)
        if tables:
            merged: dict[Voice, int] = {}
            for table in tables:
                merged.update(table)
            options[key] = merged
    return options


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "midi", help=_("write Standard MIDI files of the scores"),
        description=_("Write the patterns as a Standard MIDI file (type 1) that any DAW, notation "
                    "program or hardware player opens: a conductor track (tempo, title, "
                    "provenance, markers at each pass and at 半, a time signature on the bar "
                    "lines of the sheet music: the count-in, each pass, 半, the gaps) and, for "
                    "each pattern, one track per drum (鼙, 鼓) on General MIDI percussion "
                    "channel 10, named Latin first (Lu gu 魯鼓 1 liji-zhengyi - pi 鼙), plus a "
                    "click track for a count-in. The file ends on the bar line of a bar of rest "
                    "(at least 2 s) for the ring. Each stroke is one quarter note (the tempo is the interval "
                    "between strokes, 間若一). Several ids: one file with a track set per "
                    "pattern, or one file each with -o DIR/."),
        epilog=_("Examples: guji midi lu -o lu.mid; guji midi lu:1 xue:1 --rite she --bpm 90 "
               "-o both.mid; guji midi lu:1 lu:1@wuli-tongkao -o variants/; "
               "guji midi xue --map 鼙=45,鼓=41 --velocity 鼙=70 --count-in 4 -o xue.mid"))
    p.add_argument("ids", nargs="+", metavar="ID",
                   help=_("pattern ids, e.g. lu, xue:2, lu:1@wuli-tongkao, lu:2@notes.txt"))
    p.add_argument("-o", "--output", required=True, metavar="FILE.mid|DIR/",
                   help=_("the MIDI file to write (.mid or .midi); a path ending in '/' or an "
                        "existing directory gets one file per pattern, named from its id "
                        "(lu-1-liji-zhengyi.mid); a device or pipe is written directly, '-' "
                        "writes to standard output"))
    add_timing_options(p)
    add_sequence_options(p)
    add_mute_options(p)
    add_midi_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


#: The extensions a MIDI file's name may end in.
MIDI_SUFFIXES = (".mid", ".midi", ".smf")


def _is_directory_target(out: str) -> bool:
    return out.endswith("/") or out.endswith(os.sep) or os.path.isdir(out)


def check_midi_name(out, where) -> None:
    """Refuse to write MIDI to a file whose name says another format
    (``-o notes.txt``); a device, a pipe or ``-`` has no such name."""
    if not where.streamed and where.suffix not in MIDI_SUFFIXES:
        raise UsageError(_("{out}: a MIDI file's name ends in .mid (or .midi), not {value}").format(out=out, value=where.suffix or '(nothing)'))


def run(args: argparse.Namespace) -> int:
    out = args.output
    options = midi_options_from_args(args)
    if _is_directory_target(out):
        return _one_file_each(args, options)
    where = destination(out, hint=" (give a file name, or end the path with '/' for one file "
                                  "per pattern)")
    check_midi_name(out, where)
    patterns = load_patterns(args.ids, args)
    performance = performance_from_args(patterns, args)
    from ...midi import write_midi     # mido: not before the work (guji --help stays quick)
    wrote(write_midi(out, performance, **options), midi_summary(performance))
    return 0


def _one_file_each(args: argparse.Namespace, options: dict) -> int:
    """``-o DIR/``: one file per pattern, named from its id, in DIR (made if missing)."""
    from ...midi import default_filename, write_midi
    patterns = load_patterns(args.ids, args)
    names = [default_filename(p) for p in patterns]
    directory = Path(args.output)
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UsageError(_('two patterns would both be written to {value} ({id} and {id2}); write them to one file instead').format(value=directory / name, id=patterns[names.index(name)].id, id2=patterns[i].id))
    timing = timing_from_args(args)
    muted, ghost = mute_from_args(args)
    performances = [perform(pattern, timing).muting(muted, ghost=ghost)
                    for pattern in patterns]   # checked before the folder
    directory, _made = make_folder(args.output, parents=True)
    for performance, name in zip(performances, names):
        wrote(write_midi(directory / name, performance, **options), midi_summary(performance))
    return 0

"""``guji compare A B [C …]``: hear two or more readings against each other.

Modes (see :mod:`guji.compare.modes`): ``sequence`` (A, a gap with a soft bell,
then B …), ``alternate`` (pass by pass), ``stereo`` (A left, B right, one
grid), ``diff`` (A with a bell on each stroke where another reading differs).

Without ``-o`` the comparison is played on the sound device, after the
schedule (what plays when) is printed. With ``-o``:

* ``-o FILE.mid`` writes only the MIDI file;
* ``-o FILE.wav`` (``.flac``, ``.ogg`` … any audio format guji writes)
  writes the audio **and the MIDI file alongside it** (``FILE.mid``), unless
  ``--no-midi``.

The MIDI file has one named track set per variant (``<variant> - pi 鼙``,
``<variant> - gu 鼓``) and the bells on a ``cue`` track. ``--json`` prints the
plan (parts, cues, schedule, marks) instead of playing; with ``-o`` the
files are written too.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ...i18n import _, ngettext
from ...files import destination
from ...temporary import staged
from ...compare.modes import MODES, compare
from ...errors import UsageError
from ..reports import midi_summary, wrote
from ._audio import (add_audio_options, add_verbose_option, audio_options_from_args,
                     audio_summary, file_advice, typed_command)
from ._common import (add_input_options, add_json_option, add_timing_options, load_patterns,
                      print_json, timing_from_args)
from .midi import add_midi_options, midi_options_from_args


#: Output names that mean "MIDI only".
MIDI_SUFFIXES = (".mid", ".midi")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help=_("hear readings against each other: in sequence, alternating, in stereo, "
                        "or one with its differences marked"),
        description=_("Compare two or more patterns by ear. sequence: A, a short gap with a soft "
                    "bell, then B; alternate: pass by pass, A then B, for --repeat rounds; "
                    "stereo: A in the left ear and B in the right on one grid; diff: A with a "
                    "soft bell on every stroke where another reading differs, the differences "
                    "listed with their times. Plays on the sound device, or writes audio (and "
                    "MIDI alongside) with -o."),
        epilog=_("Examples: guji compare lu:1 lu:1@wuli-tongkao --mode stereo --rite she; "
               "guji compare xue:2 xue:2@lijing-benyi --mode diff --rite she -o diff.wav; "
               "guji compare lu:1 xue:1 --mode alternate --repeat 3 -o alt.mid"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("two or more pattern ids, A first"))
    p.add_argument("--mode", choices=MODES, default="sequence",
                   help=_("how to lay the readings out (default: sequence)"))
    p.add_argument("-o", "--output", metavar="FILE",
                   help=_("write instead of playing: FILE.mid writes MIDI only; an audio file "
                        "(FILE.wav, .flac, .ogg …) writes the audio and FILE.mid alongside; a "
                        "device or pipe (or '-', standard output) gets the audio only, WAV"))
    p.add_argument("--no-midi", action="store_true",
                   help=_("with an audio -o, do not write the MIDI file alongside"))
    add_json_option(p)
    add_timing_options(p)
    add_audio_options(p)
    add_midi_options(p)
    add_input_options(p)
    add_verbose_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    where = _output(args)                       # checked before any work
    patterns = load_patterns(args.ids, args)
    timing = timing_from_args(args)
    comparison = compare(patterns, args.mode, timing)
    audio = audio_options_from_args(args)
    if args.mode == "stereo" and audio.get("channels") == 1:
        raise UsageError(_('--mode stereo needs two channels: drop --channels 1'))
    plays = where is None and not args.json
    if plays:                # no device: say so before printing what would play
        _check_device(args, audio)
    # the schedule goes to stdout, unless stdout carries the JSON or the audio
    say = sys.stderr if args.json or (where is not None and where.path is None) else sys.stdout
    if args.json:
        print_json(comparison.to_json())
    else:
        print(_("compare {mode}: {ids}").format(mode=args.mode, ids=_(", ").join(p.id for p in patterns)),
              file=say)  # the command and ids
        say.write(comparison.schedule_text())
        say.flush()
    if where is not None:
        return _write(args, where, comparison, audio)
    if not plays:
        return 0
    from ...sound.devices import AudioDeviceError
    from ...sound.play import play
    from ..display import stroke_display
    from ..live import playing_quietly
    try:
        with playing_quietly(args.verbose) as played:
            played.report = play(comparison.performance, **audio,
                                 display=stroke_display(sys.stderr))
    except AudioDeviceError as e:
        raise e.advising(_file_advice(args)) from None
    return 0


def _file_advice(args: argparse.Namespace) -> str:
    """The command typed, with ``-o compare-MODE.wav``: what to do without a device."""
    return file_advice(typed_command(args, "compare"), f"compare-{args.mode}.wav")


def _check_device(args: argparse.Namespace, audio: dict) -> None:
    """:class:`~guji.sound.devices.AudioDeviceError` now, advising compare's
    own ``-o``, if nothing can play here."""
    from ...sound.devices import AudioDeviceError, check_playable
    try:
        check_playable(None, audio["rate"], audio["channels"])
    except AudioDeviceError as e:
        raise e.advising(_file_advice(args)) from None


def _output(args: argparse.Namespace):
    """The destination of ``-o`` (:func:`guji.files.destination`), or None."""
    if args.output is None:
        return None
    where = destination(args.output)
    if where.path is None and args.json:
        raise UsageError(_('-o - and --json would both write to standard output'))
    return where


def _write(args: argparse.Namespace, where, comparison, audio: dict) -> int:
    """Write MIDI (``-o FILE.mid``) or audio and, beside a regular audio file,
    its MIDI file (unless ``--no-midi``)."""
    from ...midi import write_midi     # mido: not before the work (guji --help stays quick)
    midi_options = midi_options_from_args(args)
    if where.suffix in MIDI_SUFFIXES:
        path = write_midi(args.output, comparison.performance, **midi_options)
        wrote(path, midi_summary(comparison.performance, _("one track set per variant")))
        return 0
    from ...sound.files import audio_format
    fmt, sub = audio_format(args.output, None, None, streamed=where.streamed)  # before any work
    beside = None if args.no_midi or where.streamed else Path(args.output).with_suffix(".mid")
    if beside is None or where.path.parent != Path(os.path.realpath(beside)).parent:
        path = _write_audio(args.output, where, comparison, audio, fmt, sub)
        if beside is not None:
            write_midi(beside, comparison.performance, **midi_options)
    else:     # the audio and its MIDI made beside, then moved in together: both or neither
        with staged(where.path.parent) as stage:
            _write_audio(stage / where.path.name, where, comparison, audio, fmt, sub)
            write_midi(stage / beside.name, comparison.performance, **midi_options)
        path = args.output
    summary = audio_summary(None if where.streamed else path, comparison.performance,
                            stated=(audio["rate"], audio["channels"], fmt, sub))
    wrote(where.name, summary)
    if beside is not None:
        wrote(beside, midi_summary(comparison.performance, _("one track set per variant")))
    return 0


def _write_audio(path, where, comparison, audio: dict, fmt: str, sub: str):
    from ...sound.files import write_audio
    from ..progress import ProgressBar
    bar = ProgressBar(_("rendering {name}").format(name=where.name), stream=sys.stderr, rate=audio["rate"],
                      measuring_label=_("measuring the loudness of {name}").format(name=where.name))
    try:
        return write_audio(path, comparison.performance, **audio, format=fmt, subtype=sub,
                           progress=bar, measuring=bar.measuring)
    finally:
        bar.close()

"""``guji demo``: the main job on the shipped patterns.

Plays the four patterns of an edition (魯鼓 and 薛鼓 of both diagrams), one
after another, where a sound device exists. Where none does (a server, CI, a
machine without PortAudio), it writes their audio and MIDI instead, one file
of each per pattern plus the four in sequence, and says where.
"""

from __future__ import annotations

import argparse
import sys

from ...i18n import _
from ...text.reading.names import file_stem
from ...timing.layout import perform
from ._audio import (add_audio_options, add_sequence_options, add_verbose_option,
                     audio_options_from_args, audio_summary, performance_from_args)
from ._common import add_timing_options, command_name, timing_from_args

DEFAULT_DIR = "guji-out"


def register(sub) -> None:
    p = sub.add_parser("demo", help=_("play the shipped patterns, or write their audio and MIDI"),
                       description=_("The main job: play the four shipped patterns of an edition "
                                   "(魯鼓 and 薛鼓, diagrams 1 and 2) one after another. Without a "
                                   "sound device, write their audio (WAV) and MIDI instead, and "
                                   "say where."))
    p.add_argument("-o", "--output", default=DEFAULT_DIR, metavar="DIR",
                   help=_('where files are written when nothing can play (default {default_dir}/)').format(default_dir=DEFAULT_DIR))
    p.add_argument("--write", action="store_true",
                   help=_("write the files even where a sound device exists"))
    p.add_argument("--edition", default=None, metavar="SLUG",
                   help=_("which shipped edition (default: the 禮記正義, liji-zhengyi; see guji list)"))
    p.add_argument("--device", metavar="DEVICE", help=_("output device (see 'guji devices')"))
    add_timing_options(p)
    add_sequence_options(p)
    add_audio_options(p)
    add_verbose_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...sound.play import AudioDeviceError, play
    from ...text.reading.editions import default_edition, scan_edition
    from ..display import stroke_display
    from ..live import playing_quietly
    patterns = list(scan_edition(args.edition or default_edition()).patterns)
    options = audio_options_from_args(args)
    parts = performance_from_args(patterns, args)
    if not args.write:
        try:
            _say_device(args, options)
            with playing_quietly(args.verbose) as played:
                played.report = play(parts, **options, device=args.device,
                                     display=stroke_display(sys.stderr))
            print(_next_steps(None, None, patterns), file=sys.stderr)
            return 0
        except AudioDeviceError as e:
            print(_('guji: {value}, so here are the recordings instead.').format(value=_nothing_plays(e)),
                  file=sys.stderr)
    return write_files(patterns, parts, options, args)


def _nothing_plays(error) -> str:
    """Why nothing plays, in a musician's words, with what the sound library
    said after it (for whoever helps) and how to install what is missing."""
    said = _(" (the sound library said: {detail})").format(detail=error.detail) if error.detail else ""
    install = _("; to play here, {install}").format(install=error.install) if error.install else ""
    return f"{error.reason[:1].upper()}{error.reason[1:]}{said}{install}"


def _say_device(args, options) -> None:
    """Name the device the demo plays on, first (or :class:`AudioDeviceError`), and
    what to do if nothing is heard (a silent sink, speakers off)."""
    from ...sound.devices import check_playable, device_name
    index = check_playable(args.device, options["rate"], options["channels"])
    print(_("guji: playing on {value}; if you hear nothing, '{value2} demo --write' writes the recordings instead").format(value=device_name(index), value2=command_name()), file=sys.stderr)


def write_files(patterns, parts, options, args) -> int:
    from ...files import make_folder
    from ...midi import write_midi
    from ...sound.files import write_audio
    from ...temporary import staged
    from ..reports import midi_summary, wrote

    out, _made = make_folder(args.output, parents=True)
    written = []
    with staged(out) as stage:      # the folder's files replaced as a whole, or not at all
        for pattern in [*patterns, None]:
            single = perform(pattern, timing_from_args(args)) if pattern else parts
            stem = file_stem(pattern) if pattern else "all"
            write_audio(stage / f"{stem}.wav", single, **options)
            write_midi(stage / f"{stem}.mid", single)
            written.append((stem, single))
    for stem, single in written:
        wrote(out / f"{stem}.wav", audio_summary(out / f"{stem}.wav", single))
        wrote(out / f"{stem}.mid", midi_summary(single))
    print(_next_steps(out, out / "all.wav", patterns), file=sys.stderr)
    return 0


def _next_steps(out, everything, patterns) -> str:
    """What the files are (when written: *out*) and what to do next, for
    someone who has just met guji."""
    first = f"{patterns[0].tradition.slug}:{patterns[0].diagram}"
    guji = command_name()
    many = {2: _("both"), 3: _("all three"), 4: _("all four")}.get(
        len(patterns), _("all {n}").format(n=len(patterns)))
    if out is None:
        listen = _("  the recordings as files:     {command}").format(command=f"{guji} demo --write") + "\n"
        said = ""
    else:
        listen = _("  listen to all of them:       {command}").format(command=f"open {everything}") + "\n"
        said = _("guji: wrote {n} files to {folder}/: each pattern as a recording (.wav, any audio "
                 "player opens it) and as MIDI (.mid, for a drum machine, a sequencer or a notation "
                 "program); {all} is {many} one after another.").format(
            n=len(patterns) * 2 + 2, folder=out, all=everything.name, many=many) + "\n"
    compare = f"{guji} compare {first} {first}@wuli-tongkao --mode diff --rite she -o compare.wav"
    return (said + _("Next:") + "\n" + listen +
            _("  two editions against each other, the differences marked by a bell:") + "\n"
            f"      {compare}\n" +
            _("  sheet music for performers:  {command}").format(command=f"{guji} sheet lu xue -o lu-xue.pdf") + "\n" +
            _("  the strokes and where they are printed:  {command}").format(command=f"{guji} show lu") + "\n" +
            _("  everything else:             {command}").format(command=f"{guji} --help"))

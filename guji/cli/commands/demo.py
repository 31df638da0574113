"""``guji demo``: the main job on the shipped patterns.

Plays the four patterns of an edition (魯鼓 and 薛鼓 of both diagrams), one
after another, where a sound device exists. Where none does (a server, CI, a
machine without PortAudio), it writes their audio and MIDI instead, one file
of each per pattern plus the four in sequence, and says where.
"""

from __future__ import annotations

import argparse
import sys

from ...text.editions import default_edition, scan_edition
from ...text.names import file_stem
from ...timing.layout import perform
from ._audio import (add_audio_options, add_sequence_options, audio_options_from_args,
                     performance_from_args)
from ._common import add_timing_options, command_name, timing_from_args

DEFAULT_DIR = "guji-out"


def register(sub) -> None:
    p = sub.add_parser("demo", help="play the shipped patterns, or write their audio and MIDI",
                       description="The main job: play the four shipped patterns of an edition "
                                   "(魯鼓 and 薛鼓, diagrams 1 and 2) one after another. Without a "
                                   "sound device, write their audio (WAV) and MIDI instead, and "
                                   "say where.")
    p.add_argument("-o", "--output", default=DEFAULT_DIR, metavar="DIR",
                   help=f"where files are written when nothing can play (default {DEFAULT_DIR}/)")
    p.add_argument("--write", action="store_true",
                   help="write the files even where a sound device exists")
    p.add_argument("--edition", default=None, metavar="SLUG",
                   help="which shipped edition (default: the 禮記正義, liji-zhengyi; see guji list)")
    p.add_argument("--device", metavar="DEVICE", help="output device (see 'guji devices')")
    add_timing_options(p)
    add_sequence_options(p)
    add_audio_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...sound.play import AudioDeviceError, play
    from ..display import stroke_display
    patterns = list(scan_edition(args.edition or default_edition()).patterns)
    options = audio_options_from_args(args)
    parts = performance_from_args(patterns, args)
    if not args.write:
        try:
            play(parts, **options, device=args.device, display=stroke_display(sys.stderr))
            return 0
        except AudioDeviceError as e:
            print(f"guji: {_nothing_plays(e)}, so here are the recordings instead.",
                  file=sys.stderr)
    return write_files(patterns, parts, options, args)


def _nothing_plays(error) -> str:
    """Why nothing plays, in a musician's words, with what the sound library
    said after it (for whoever helps) and how to install what is missing."""
    said = f" (the sound library said: {error.detail})" if error.detail else ""
    install = f"; to play here, {error.install}" if error.install else ""
    return f"{error.reason[:1].upper()}{error.reason[1:]}{said}{install}"


def write_files(patterns, parts, options, args) -> int:
    from ...files import make_folder
    from ...midi import write_midi
    from ...sound.files import write_audio

    out, _ = make_folder(args.output, parents=True)
    written = []
    for pattern in patterns:
        single = perform(pattern, timing_from_args(args))
        stem = file_stem(pattern)
        written.append(write_audio(out / f"{stem}.wav", single, **options))
        written.append(write_midi(out / f"{stem}.mid", single))
    everything = write_audio(out / "all.wav", parts, **options)
    written += [everything, write_midi(out / "all.mid", parts)]
    for path in written:
        print(path)
    print(_next_steps(out, everything, patterns), file=sys.stderr)
    return 0


def _next_steps(out, everything, patterns) -> str:
    """What the files are and what to do next, for someone who has just met guji."""
    first = f"{patterns[0].tradition.slug}:{patterns[0].diagram}"
    guji = command_name()
    many = {2: "both", 3: "all three", 4: "all four"}.get(len(patterns), f"all {len(patterns)}")
    return (f"guji: wrote {len(patterns) * 2 + 2} files to {out}/: each pattern as a recording "
            f"(.wav, any audio player opens it) and as MIDI (.mid, for a drum machine, a "
            f"sequencer or a notation program); {everything.name} is {many} one after "
            "another.\n"
            "Next:\n"
            f"  listen to all of them:       open {everything}\n"
            f"  two editions against each other, the differences marked by a bell:\n"
            f"      {guji} compare {first} {first}@wuli-tongkao --mode diff --rite she "
            "-o compare.wav\n"
            f"  sheet music for performers:  {guji} sheet lu xue -o lu-xue.pdf\n"
            f"  the strokes and where they are printed:  {guji} show lu\n"
            f"  everything else:             {guji} --help")

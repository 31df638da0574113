"""``guji play``: play patterns live — sound, MIDI out, or both — showing each stroke as heard.

The transport: ``--loop`` plays until stopped; in a terminal, space pauses
and resumes, ``q`` quits (exit 0), Ctrl-C exits 130. Strokes are shown when
they are heard (the sound card's clock), in one redrawn line on a terminal,
or as JSON lines with ``--json``. ``--midi-out [PORT]`` sends the notes of
``guji midi`` to a MIDI port as they sound (``--no-audio``: MIDI alone).
"""

from __future__ import annotations

import argparse
import sys
import threading

from ...i18n import N_, _
from ...errors import GujiError, UsageError
from ...sound.devices import AudioDeviceError
from ._audio import (add_ramp_option, add_audio_options, add_mute_options, add_sequence_options,
                     audio_options_from_args, file_advice, performance_from_args,
                     typed_command)
from ._common import add_input_options, add_timing_options, checked, load_patterns
from ._practise import add_check_options, refused
from .midi import key_map, midi_options_from_args, velocity_map

from ...defaults import LATENCY as DEFAULT_LATENCY, check_latency as _latency


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help=_("play patterns live (sound and/or MIDI), showing the stroke heard now"),
        description=_("Play patterns through the sound card (PortAudio) and/or to a MIDI port. "
                    "The terminal shows the pattern's source line with the glyph heard now "
                    "highlighted. In a terminal: space pauses and resumes, q quits; Ctrl-C "
                    "stops. No sound card? Use 'guji render' to write a file."),
        epilog=_("Examples: guji play lu --loop; guji play xue:2 --json; "
               "guji play lu --midi-out 'Drum Module' --no-audio; guji ports"))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern ids, e.g. lu, xue:2"))
    p.add_argument("--loop", action="store_true",
                   help=_("play over and over until stopped (q or Ctrl-C); the count-in once; "
                        "the grid runs on across the seam (with several patterns, --gap steps)"))
    p.add_argument("--device", metavar="DEVICE",
                   help=_("output device: index or part of its name (see 'guji devices')"))
    p.add_argument("--latency", type=checked(_latency, float, N_("a number of seconds")),
                   default=DEFAULT_LATENCY, metavar="SECONDS",
                   help=_('output buffer (default {default_latency:g}: no underrun on a busy machine; the display and MIDI follow the sound whatever it is)').format(default_latency=DEFAULT_LATENCY))
    p.add_argument("--quiet", action="store_true", help=_("do not show the strokes"))
    p.add_argument("--verbose", action="store_true",
                   help=_("also show what the sound system (PortAudio, ALSA) said, word for word"))
    p.add_argument("--json", action="store_true",
                   help=_('one JSON line per stroke on standard output as it is heard: '
                        '{"index", "stroke", "drum", "time" (scheduled seconds from the '
                        'start), "part", "pass", "position", "loop"}'))
    _add_midi_out_options(p)
    add_timing_options(p)
    add_ramp_option(p)
    add_sequence_options(p)
    add_mute_options(p)
    add_audio_options(p)
    add_check_options(p)
    add_input_options(p)
    p.set_defaults(func=run)


def _add_midi_out_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(_("MIDI out"))
    g.add_argument("--midi-out", nargs="?", const="", default=None, metavar="PORT",
                   help=_("send the notes of 'guji midi' to a MIDI port as they sound (CoreMIDI, "
                        "WinMM, ALSA sequencer or JACK; needs 'guji[midi]'; PORT: its name or "
                        "part of it, see 'guji ports'; "
                        "none: the first port that is not 'Midi Through')"))
    g.add_argument("--no-audio", action="store_true",
                   help=_("with --midi-out: MIDI only, no sound from guji"))
    g.add_argument("--map", dest="midi_keys", action="append", metavar="V=KEY,...",
                   type=key_map,
                   help=_("MIDI keys of the voices, as for 'guji midi' (e.g. 鼙=45,鼓=41)"))
    g.add_argument("--velocity", dest="midi_velocities", action="append", metavar="V=VEL,...",
                   type=velocity_map,
                   help=_("note velocities 1–127, as for 'guji midi'"))
    g.add_argument("--melodic", action="store_true",
                   help=_("the drums on melodic channels, GM program 117 Taiko Drum, as for "
                        "'guji midi --melodic'"))


def what_to_play(args: argparse.Namespace):
    """The performance of the command line, or its :class:`~guji.timing.loop.Loop`."""
    from ...timing.loop import Loop
    patterns = load_patterns(args.ids, args)
    performance = performance_from_args(patterns, args)
    if not args.loop:
        return performance
    one_after_another = len(patterns) > 1 and not getattr(args, "stack", False)
    return Loop(performance, gap=args.gap if one_after_another else 0)


def run(args: argparse.Namespace) -> int:
    if args.no_audio and args.midi_out is None:
        raise UsageError(_("--no-audio plays MIDI only: give --midi-out PORT too (see 'guji ports')"))
    refused(args)
    checked_text = None
    from ..live import print_report, sound_system_quiet
    warm_up = None
    with sound_system_quiet() as caught:       # PortAudio's and ALSA's messages, for after
        outlet = None
        if args.midi_out is not None:
            from ...midi.ports import open_port
            outlet = open_port(args.midi_out or None)
        try:
            if not args.no_audio:
                # after the MIDI port: PortAudio's start-up opens a JACK client of its
                # own, and two JACK clients opened at once by two threads deadlocked
                warm_up = _warm_up_sound()
            if args.check:
                from ._practise import checked_play
                report, checked_text = checked_play(
                    args, what_to_play(args), lambda what, watch: _play(args, what, outlet, watch))
            else:
                report = _play(args, what_to_play(args), outlet)
        except AudioDeviceError as e:
            raise e.advising(_render_advice(args)) from None
        except GujiError as e:
            if getattr(e, "detail", None) and args.verbose:
                print(_('guji: the sound system said: {detail}').format(detail=e.detail), file=sys.stderr)
            _said(caught.lines, args.verbose)
            raise               # said by main, which then ends at once (e.end_now)
        finally:
            if outlet is not None:
                outlet.close()
            if warm_up is not None:
                # never outlive the interpreter: importing PortAudio while it shuts
                # down crashed one run in twenty (exit 139)
                warm_up.join(WARM_UP_WAIT)
    print_report(report, caught.lines, verbose=args.verbose)
    if checked_text is not None:
        sys.stdout.write(checked_text)
    return 0


def _said(lines, verbose: bool) -> None:
    """What the sound system said while playing, with --verbose (after a failure)."""
    if verbose:
        for line in lines:
            if line.strip():
                print(_('guji: the sound system said: {value}').format(value=line.strip()), file=sys.stderr)


#: play's own options, which 'guji render' does not take: without and with a value.
_LIVE_FLAGS = ("--loop", "--quiet", "--json", "--no-audio", "--melodic", "--verbose", "--check")
_LIVE_VALUED = ("--device", "--latency", "--map", "--velocity", "--input")


def _render_advice(args: argparse.Namespace) -> str:
    """``to write it to a file instead: guji render …`` — the command typed,
    with ``render`` for ``play`` and play's own options left out."""
    from .render import default_output
    typed, kept, i = typed_command(args, "play"), [], 1
    while i < len(typed):
        word = typed[i]
        name, valued = word.split("=", 1)[0], "=" in word
        i += 1
        if name in _LIVE_VALUED and not valued:
            i += 1                                   # its value
        elif name == "--midi-out" and not valued:
            if i < len(typed) and not typed[i].startswith("-"):
                i += 1                               # its port, if one follows
        elif name not in _LIVE_FLAGS + _LIVE_VALUED + ("--midi-out",):
            kept.append(word)
    return file_advice(["render", *kept], default_output(args.ids, None))


#: Seconds the command waits at its end for the warm-up import to finish.
WARM_UP_WAIT = 5.0


def _warm_up_sound() -> threading.Thread:
    """Import sounddevice on a thread of its own now: PortAudio's start-up
    (probing the devices, ~80 ms) overlaps the loading of the patterns and the
    voices, and the first sound comes sooner. The command joins the thread
    before it ends (:data:`WARM_UP_WAIT`)."""
    def load() -> None:
        try:
            import sounddevice  # noqa: F401
        except Exception:         # said properly when the player asks for it
            pass
    thread = threading.Thread(target=load, name="guji-warm-up", daemon=True)
    thread.start()
    return thread


def _play(args: argparse.Namespace, what, outlet, watch=None):
    """The transport of the library (:func:`guji.live.make_transport`), run with the keys;
    *watch* (``--check``'s) is given the transport and the displays before it starts."""
    from ...live import make_transport
    from ..live import run_transport
    outputs = _outputs(args, what, outlet)
    options = midi_options_from_args(args)
    midi = {k: options[k] for k in ("keys", "velocities", "melodic") if k in options}
    audio = {} if args.no_audio else dict(audio_options_from_args(args), device=args.device,
                                          latency=args.latency)
    transport = make_transport(what, audio=not args.no_audio, outlet=outlet,
                               on_stroke=outputs.heard, **audio, **midi)
    if watch is not None:
        watch(transport, outputs)
    return run_transport(transport, outputs)


def _outputs(args: argparse.Namespace, what, outlet):
    """The displays of the command line: JSON lines, the stroke display, or none."""
    from ...timing.loop import Loop
    from ..display import StrokeDisplay
    from ..live import JsonLines, Outputs
    if args.json:
        displays = [JsonLines(sys.stdout)]
    elif args.quiet:
        displays = []
    else:
        displays = [StrokeDisplay(sys.stderr, loop=isinstance(what, Loop))]
    return Outputs(displays, outlet)

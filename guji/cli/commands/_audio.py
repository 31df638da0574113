"""Command-line options shared by the commands that make sound (render, play, compare).

* :func:`add_audio_options` adds ``--kit``, ``--rate``, ``--channels`` and
  ``--pan``; :func:`audio_options_from_args` turns them into the keyword
  arguments of :func:`guji.sound.files.write_audio`, :func:`guji.sound.mixer.render_blocks`
  and :func:`guji.sound.play.play`: ``{"kit": Kit, "rate": int, "channels": int}``.
* :func:`add_sequence_options` / :func:`performance_from_args`: several
  patterns given on one command line are played one after another (or
  stacked), the one layout of every command.
* :func:`add_mute_options` / :func:`mute_from_args`: ``--mute``, ``--solo``
  and ``--ghost`` (minus-one), which :func:`performance_from_args` applies.
"""

from __future__ import annotations

import argparse
import dataclasses

from ...i18n import N_, _, ngettext
from ...defaults import LOUDNESS_LUFS, RATE
from ...errors import UsageError
from ...text.reading.names import variant_names
from ...text.reading.notation import Pattern
from ...timing.layout import DEFAULT_GAP_STEPS, check_gap, lay_out
from ...timing.performance import DRUMS, Performance, Voice, check_muted, check_pan
from ...timing.score import interval_from_bpm
from ._common import checked, command_name, timing_from_args

DEFAULT_RATE = RATE


def add_verbose_option(parser: argparse.ArgumentParser) -> None:
    """``--verbose``, for the commands that play: the sound system's own lines."""
    parser.add_argument("--verbose", action="store_true",
                        help=_("also show what the sound system (PortAudio, ALSA) said while "
                               "playing, word for word"))


def add_audio_options(parser: argparse.ArgumentParser, *, channels: bool = True) -> None:
    """--kit, --rate, --channels (unless *channels* is False) and --pan."""
    g = parser.add_argument_group(_("sound"))
    g.add_argument("--kit", metavar="DIR_OR_TOML",
                   help=_("the voices: a kit file (.toml: voice parameters and/or recordings) or a "
                        "directory of recordings small.wav and big.wav (鼙 and 鼓; WAV, FLAC or "
                        "OGG, any rate); default: the synthesised kit"))
    g.add_argument("--rate", type=checked(_check_rate, int, N_("a whole number of Hz")),
                   default=DEFAULT_RATE, metavar="HZ",
                   help=_('sample rate (default {default_rate})').format(default_rate=DEFAULT_RATE))
    if channels:
        g.add_argument("--channels", type=int, choices=(1, 2), default=2,
                       help=_("1 (mono) or 2 (stereo, with a pan per drum; default)"))
    g.add_argument("--pan", action="append", default=[], metavar="VOICE=PAN",
                   help=_("place a voice from -1 (left) to 1 (right), e.g. --pan 鼙=-0.5 --pan "
                        "big=0.5 (voices: small/鼙, big/鼓, click, cue); overrides the kit"))
    g.add_argument("--strike", choices=("vary", "exact"), default="vary",
                   help=_("vary: each stroke of a drum a little harder or softer, nearer the rim "
                          "or the centre, chosen by its place (the same bytes every time; "
                          "default); exact: every stroke the kit's identical hit"))
    g.add_argument("--room", default="dry", metavar="dry|hall|court|FILE",
                   help=_("dry (default: the drums close, in no room), hall (堂上: RT60 1.8 s), "
                          "court (庭中: the courtyard, RT60 0.7 s) or an impulse response file"))
    g.add_argument("--loudness", type=loudness, default=LOUDNESS_LUFS, metavar="LUFS|off",
                   help=_("the integrated loudness (ITU-R BS.1770, LUFS) to make the sound, the "
                          "true peak at most -1 dBTP through a limiter (default -16); off: no "
                          "limiter, the peak at -1 dBFS"))


def loudness(text: str) -> float | None:
    """``--loudness``: LUFS from −70 to 0, or ``off`` (argparse type)."""
    if text.strip().lower() == "off":
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not -70.0 <= value <= 0.0:
        raise argparse.ArgumentTypeError(_("{text}: the loudness is LUFS from -70 to 0 (e.g. -16), "
                                           "or off").format(text=repr(text)))
    return value


def kit_from_args(args: argparse.Namespace):
    """The :class:`guji.sound.voices.Kit` of ``--kit`` (default: synthesised), with the
    ``--pan`` overrides."""
    from ...sound.kit import default_kit, load_kit   # numpy: only when needed
    rate = rate_from_args(args)
    kit = load_kit(args.kit, rate) if getattr(args, "kit", None) else default_kit(rate)
    for item in getattr(args, "pan", None) or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise UsageError(_('--pan {item}: write VOICE=PAN, e.g. --pan 鼓=0.5').format(item=repr(item)))
        try:
            voice = Voice.from_name(name)
            pan = check_pan(value, f"--pan {item!r}: the pan")
        except UsageError as e:
            raise UsageError(f"--pan {item!r}: {e}" if "--pan" not in str(e) else str(e)) from None
        kit = kit.with_voice(voice, kit[voice].replace(pan=pan))
    return dataclasses.replace(kit, strike=getattr(args, "strike", "vary"),
                               room=getattr(args, "room", "dry"),
                               loudness=getattr(args, "loudness", None))


def _check_rate(rate: int) -> int:
    from ...defaults import check_rate
    return check_rate(rate)


def rate_from_args(args: argparse.Namespace) -> int:
    """The ``--rate`` (checked when parsed by :func:`guji.sound.oneshot.check_rate`)."""
    return getattr(args, "rate", DEFAULT_RATE)


def audio_options_from_args(args: argparse.Namespace) -> dict:
    """``{"kit": Kit, "rate": int, "channels": int}`` from the options of
    :func:`add_audio_options` (``channels`` only if the parser has it)."""
    options = {"kit": kit_from_args(args), "rate": rate_from_args(args)}
    if getattr(args, "channels", None) is not None:
        options["channels"] = args.channels
    return options


def add_sequence_options(parser: argparse.ArgumentParser) -> None:
    """--gap and --stack: how several patterns given together are laid out."""
    add_gap_option(parser, _("with several patterns, empty grid steps between one pattern's last stroke's step and the next pattern (default {default_gap_steps})").format(default_gap_steps=DEFAULT_GAP_STEPS))
    parser.add_argument("--stack", action="store_true",
                        help=_("with several patterns, play them all at once instead of one "
                             "after another"))


def add_gap_option(parser: argparse.ArgumentParser, help: str) -> None:
    """--gap STEPS, *help* saying it for the command (check lays patterns out as
    render and play do: the same steps, the same default)."""
    parser.add_argument("--gap", type=gap_steps, default=DEFAULT_GAP_STEPS, metavar="STEPS",
                        help=help)


def gap_steps(text: str) -> int:
    """``--gap``: a whole number of empty grid steps (argparse type)."""
    try:
        return check_gap(int(text))
    except (ValueError, UsageError):
        raise argparse.ArgumentTypeError(_('{text}: the gap is a whole number of empty grid steps, 0 or more').format(text=repr(text))) from None


def add_mute_options(parser: argparse.ArgumentParser) -> None:
    """--mute and --solo (one drum left out, or only one kept) and --ghost."""
    g = parser.add_argument_group(_("minus-one (practise one drum against the other)"))
    which = g.add_mutually_exclusive_group()
    drum = checked(_one_drum, str, N_("a drum"))
    which.add_argument("--mute", type=drum, metavar="DRUM",
                       help=_("leave one drum out: 鼙 (small, pi, ○) or 鼓 (big, gu, □)"))
    which.add_argument("--solo", type=drum, metavar="DRUM",
                       help=_("keep only one drum: 鼙 (small, pi, ○) or 鼓 (big, gu, □)"))
    g.add_argument("--ghost", choices=("none", "click"), default="none",
                   help=_("what the left-out drum's strokes become: nothing (default) or the "
                        "count-in click, to keep your place"))


def _one_drum(name: str) -> Voice:
    (voice,) = check_muted(name)
    return voice


def mute_from_args(args: argparse.Namespace) -> tuple[frozenset[Voice], bool]:
    """(the drums left out, ghost clicks or not) of ``--mute``/``--solo``/``--ghost``;
    :class:`UsageError` for ``--ghost click`` with no drum left out."""
    mute, solo = getattr(args, "mute", None), getattr(args, "solo", None)
    muted = frozenset([mute]) if mute else frozenset(DRUMS) - {solo} if solo else frozenset()
    ghost = getattr(args, "ghost", "none") == "click"
    if ghost and not muted:
        raise UsageError(_("--ghost click: the clicks stand for a left-out drum's strokes; give --mute or --solo too"))
    return muted, ghost


def performance_from_args(patterns: list[Pattern], args: argparse.Namespace) -> Performance:
    """The one layout of the patterns named on the command line
    (:func:`guji.timing.performance.lay_out`): one after another, *--gap*
    steps apart, or stacked with ``--stack``; the count-in once, first; the
    drums of ``--mute``/``--solo`` left out."""
    muted, ghost = mute_from_args(args)
    if getattr(args, "ramp", None) is not None:
        return _ramped(patterns, args).muting(muted, ghost=ghost)
    whole = lay_out(patterns, timing_from_args(args), gap=getattr(args, "gap", DEFAULT_GAP_STEPS),
                    stacked=getattr(args, "stack", False), names=variant_names(patterns))
    return whole.muting(muted, ghost=ghost)


def add_ramp_option(parser: argparse.ArgumentParser) -> None:
    """--ramp START:END (a practice tempo ramp over the passes)."""
    parser.add_argument("--ramp", type=ramp_bpm, metavar="START:END",
                        help=_("practise at a rising (or falling) tempo: the passes of --repeat "
                               "go evenly from START to END strokes a minute (e.g. 60:100), "
                               "each pass on its own exact grid; instead of --interval/--bpm"))


def ramp_bpm(text: str) -> tuple[float, float]:
    """``--ramp 60:100``: two tempi in strokes a minute, each one --bpm takes (argparse type)."""
    start, sep, end = text.partition(":")
    try:
        if not sep:
            raise UsageError("")
        for v in (start, end):
            interval_from_bpm(v)
        return float(start), float(end)
    except UsageError as e:
        if str(e):
            raise argparse.ArgumentTypeError(
                _("{text}: give two tempi in strokes a minute, START:END, e.g. 60:100 ({reason})")
                .format(text=repr(text), reason=e)) from None
        raise argparse.ArgumentTypeError(
            _("{text}: give two tempi in strokes a minute, START:END, e.g. 60:100")
            .format(text=repr(text))) from None


def _ramped(patterns: list[Pattern], args: argparse.Namespace) -> Performance:
    """The :func:`~guji.timing.layout.ramp` of the command line."""
    from ...timing.layout import ramp
    if args.interval is not None or getattr(args, "bpm_interval", None) is not None:
        raise UsageError(_("--ramp gives the tempo of every pass: leave out --interval and --bpm"))
    if getattr(args, "stack", False):
        raise UsageError(_("--ramp plays patterns one after another: leave out --stack"))
    start, end = args.ramp
    return ramp(patterns, timing_from_args(args), start, end,
                gap=getattr(args, "gap", DEFAULT_GAP_STEPS), names=variant_names(patterns))


def typed_command(args: argparse.Namespace, command: str) -> list[str]:
    """The command line as the user typed it, when it is *command*'s
    (``compare lu:1 lu:2 --mode diff``); else *command* and the ids."""
    typed = list(getattr(args, "command_line", None) or [])
    return typed if typed[:1] == [command] else [command, *args.ids]


def file_advice(words: list[str], output: str) -> str:
    """What to do without a sound device: the command *words* with ``-o
    OUTPUT``, naming guji as the user can run it (:func:`command_name`):
    ``to write it to a file instead: guji compare lu:1 lu:2 -o compare.wav``."""
    import shlex
    return _("to write it to a file instead: {command}").format(
        command=f"{command_name()} " + shlex.join([*words, "-o", output]))


def audio_summary(path, performance: Performance, *, stated: tuple | None = None) -> str:
    """What a written audio file holds, in a listener's words: ``8.0 s (the music
    7.2 s, then the ring of its last stroke); 12 strokes; 48000 Hz stereo,
    WAV 16-bit`` — the file's own length, read back from it. A file that
    cannot be read back (*path* ``None``: a device, a pipe, standard output)
    is described from *stated*: (rate, channels, format, subtype) as asked."""
    n = performance.stroke_count
    music = performance.duration
    strokes = ngettext("{n} stroke", "{n} strokes", n).format(n=n)
    if path is None:
        rate, channels, fmt, subtype = stated
        return _("the music {music:.1f} s and the ring of its last stroke; {strokes}; "
                 "{rate} Hz {layout}, {format} {kind}").format(
            music=music, strokes=strokes, rate=rate, layout=_layout(channels), format=fmt,
            kind=_KINDS.get(subtype, subtype))
    info = _read_back(path)
    length = info.frames / info.samplerate
    ring = (_("the music {music:.1f} s, then the ring of its last stroke").format(music=music)
            if length >= music + 0.05 else _("the music and its last ring"))
    note = (_("; RF64 is WAV past 4 GiB: libsndfile, FFmpeg, SoX, Audacity read it")
            if info.format == "RF64" else "")
    return _("{length:.1f} s ({ring}); {strokes}; {rate} Hz {layout}, {format} {kind}").format(
        length=length, ring=ring, strokes=strokes, rate=info.samplerate, layout=_layout(info.channels),
        format=info.format, kind=_KINDS.get(info.subtype, info.subtype)) + note


def _read_back(path):
    """The written file's header: guji's own reader for a WAV (no libsndfile
    to load for the commonest file), :func:`soundfile.info` for the others."""
    from ...sound.riff import read_info
    info = read_info(path)
    if info is None:
        import soundfile as sf
        with open(path, "rb") as f:           # any name: libsndfile takes no surrogates
            info = sf.info(f)
    return info


_KINDS = {"PCM_16": "16-bit", "PCM_24": "24-bit", "FLOAT": "float", "VORBIS": "Vorbis"}


def _layout(channels: int) -> str:
    return {1: _("mono"), 2: _("stereo")}.get(channels) or _("{n} channels").format(n=channels)


__all__ = ["add_audio_options", "audio_options_from_args", "audio_summary", "file_advice",
           "typed_command",
           "kit_from_args", "rate_from_args", "add_sequence_options", "add_mute_options", "mute_from_args",
           "performance_from_args", "add_ramp_option"]

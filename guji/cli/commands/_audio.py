"""Command-line options shared by the commands that make sound (render, play, compare).

* :func:`add_audio_options` adds ``--kit``, ``--rate``, ``--channels`` and
  ``--pan``; :func:`audio_options_from_args` turns them into the keyword
  arguments of :func:`guji.render.write_audio`, :func:`guji.render.render_blocks`
  and :func:`guji.play.play`: ``{"kit": Kit, "rate": int, "channels": int}``.
* :func:`add_sequence_options` / :func:`parts_from_args`: several patterns
  given on one command line are played one after another.
"""

from __future__ import annotations

import argparse
import dataclasses
import math

from ...errors import UsageError
from ...text.notation import Pattern
from ...timing.score import Part, part_name
from ._common import score_from_args

DEFAULT_RATE = 48000
#: Seconds of silence between patterns played one after another (beyond the
#: one interval that ends each pattern's grid).
DEFAULT_GAP = 1.0


def add_audio_options(parser: argparse.ArgumentParser, *, channels: bool = True) -> None:
    """--kit, --rate, --channels (unless *channels* is False) and --pan."""
    g = parser.add_argument_group("sound")
    g.add_argument("--kit", metavar="DIR_OR_TOML",
                   help="the voices: a kit file (.toml: voice parameters and/or recordings) or a "
                        "directory of recordings small.wav and big.wav (鼙 and 鼓; WAV, FLAC or "
                        "OGG, any rate); default: the synthesised kit")
    g.add_argument("--rate", type=int, default=DEFAULT_RATE, metavar="HZ",
                   help=f"sample rate (default {DEFAULT_RATE})")
    if channels:
        g.add_argument("--channels", type=int, choices=(1, 2), default=2,
                       help="1 (mono) or 2 (stereo, with a pan per drum; default)")
    g.add_argument("--pan", action="append", default=[], metavar="VOICE=PAN",
                   help="place a voice from -1 (left) to 1 (right), e.g. --pan 鼙=-0.5 --pan "
                        "big=0.5 (voices: small/鼙, big/鼓, click, cue); overrides the kit")


def kit_from_args(args: argparse.Namespace):
    """The :class:`guji.voices.Kit` of ``--kit`` (default: synthesised), with the
    ``--pan`` overrides."""
    from ...sound.voices import default_kit, load_kit, voice_from_name   # numpy: only when needed
    rate = rate_from_args(args)
    kit = load_kit(args.kit, rate) if getattr(args, "kit", None) else default_kit(rate)
    for item in getattr(args, "pan", None) or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--pan {item!r}: write VOICE=PAN, e.g. --pan 鼓=0.5")
        try:
            voice = voice_from_name(name)
        except ValueError as e:
            raise UsageError(f"--pan {item!r}: {e}") from None
        try:
            pan = float(value)
        except ValueError:
            raise UsageError(f"--pan {item!r}: {value!r} is not a number") from None
        if not (math.isfinite(pan) and -1.0 <= pan <= 1.0):
            raise UsageError(f"--pan {item!r}: pan must be between -1 (left) and 1 (right)")
        kit = kit.with_voice(voice, kit[voice].replace(pan=pan))
    return kit


def rate_from_args(args: argparse.Namespace) -> int:
    from ...sound.voices import MAX_RATE, MIN_RATE
    rate = getattr(args, "rate", DEFAULT_RATE)
    if not MIN_RATE <= rate <= MAX_RATE:
        raise UsageError(f"--rate {rate}: use a sample rate from {MIN_RATE} to {MAX_RATE} Hz")
    return rate


def audio_options_from_args(args: argparse.Namespace) -> dict:
    """``{"kit": Kit, "rate": int, "channels": int}`` from the options of
    :func:`add_audio_options` (``channels`` only if the parser has it)."""
    options = {"kit": kit_from_args(args), "rate": rate_from_args(args)}
    if getattr(args, "channels", None) is not None:
        options["channels"] = args.channels
    return options


def add_sequence_options(parser: argparse.ArgumentParser) -> None:
    """--gap: silence between patterns given one after another."""
    parser.add_argument("--gap", type=float, default=DEFAULT_GAP, metavar="SECONDS",
                        help=f"with several patterns, seconds of silence between one pattern's "
                             f"end and the next (default {DEFAULT_GAP:g})")


def parts_from_args(patterns: list[Pattern], args: argparse.Namespace) -> tuple[Part, ...]:
    """One part per pattern, one after another: each starts *gap* seconds after
    the previous one's grid ends. The count-in, if any, comes once, first."""
    gap = getattr(args, "gap", DEFAULT_GAP)
    if not (math.isfinite(gap) and gap >= 0):
        raise UsageError(f"--gap must be 0 or more seconds, not {gap:g}")
    parts = []
    start = 0.0
    for k, pattern in enumerate(patterns):
        score = score_from_args(pattern, args, start=start)
        if k > 0 and score.count_in:
            score = dataclasses.replace(score, count_in=0)
        parts.append(Part(score, part_name(pattern)))
        start = score.duration + gap
    return tuple(parts)


__all__ = ["add_audio_options", "audio_options_from_args", "kit_from_args", "rate_from_args",
           "add_sequence_options", "parts_from_args"]

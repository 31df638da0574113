"""Live playback through PortAudio (sounddevice): :func:`play`.

:func:`play` plays a performance (or a :class:`~guji.timing.loop.Loop`,
until it is stopped) with the live :class:`~guji.sound.player.Player`: the
same block renderer as the files (:class:`~guji.sound.mixer.Mix`, through
:mod:`guji.sound.feed`) feeds a callback stream from a ring of blocks
rendered ahead, and each stroke is handed to the caller's *display* when
it is **heard** — by PortAudio's clock of the sound card (the DAC time),
not when its block was queued. What is shown is the caller's: the library
writes nothing to the terminal (``guji play`` passes its stroke display,
:class:`guji.cli.display.StrokeDisplay`).

Devices: :mod:`guji.sound.devices` (every failure to reach one is an
:class:`AudioDeviceError`: one line, never a traceback; sounddevice is
imported only when sound is asked for).

Ctrl-C stops at once: the stream is aborted and closed, then the
KeyboardInterrupt goes on (the command line exits with 130).
"""

from __future__ import annotations

from typing import Iterable, Protocol

from ..defaults import RATE
from ..timing.loop import Loop
from ..timing.performance import Cue, as_performance
from .devices import (PORTAUDIO_HINT, RENDER_HINT, AudioDeviceError, OutputDevice,
                      list_devices)
from .feed import PLAY_BLOCK_FRAMES, Feed, Sounding, loop_feed, performance_feed
from .kit import Kit
from .player import DEFAULT_LATENCY, Player
from .report import PlayReport
from .stream import OutputStopped, stopped_words

__all__ = ["AudioDeviceError", "Display", "OutputDevice", "PLAY_BLOCK_FRAMES",
           "PORTAUDIO_HINT", "RENDER_HINT", "feed_of", "list_devices", "play"]


class Display(Protocol):
    """What :func:`play` shows while it plays."""

    def show(self, sounding: Sounding) -> None:
        """*sounding* is heard now (called on the player's announcer thread)."""

    def close(self) -> None:
        """Playback is over (or interrupted): end the display."""


def feed_of(what, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = RATE,
            channels: int = 2) -> Feed:
    """The :class:`~guji.sound.feed.Feed` of a :class:`Loop`, or of what
    :func:`~guji.timing.performance.as_performance` takes (plus *cues*)."""
    if isinstance(what, Loop):
        return loop_feed(what, kit=kit, rate=rate, channels=channels)
    return performance_feed(as_performance(what, cues), kit=kit, rate=rate, channels=channels)


def play(parts, cues: Iterable[Cue] = (), *, kit: Kit | None = None, rate: int = RATE,
         device: int | str | None = None, display: Display | None = None,
         channels: int = 2, latency: float = DEFAULT_LATENCY) -> PlayReport:
    """Play *parts* (and *cues*) on an audio output device; return the report.

    Parameters
    ----------
    parts:
        A :class:`~guji.timing.performance.Performance` (or what
        :func:`~guji.timing.performance.as_performance` accepts), or a
        :class:`~guji.timing.loop.Loop` (played until Ctrl-C).
    cues, kit, rate, channels:
        As for :class:`guji.sound.mixer.Mix`.
    device:
        Device index or (part of a) name, as ``guji devices`` lists them;
        default: the system's default output.
    display:
        Told each stroke as it is heard, and closed at the end. Default:
        nothing is shown.
    latency:
        Seconds of output buffer (see :mod:`guji.sound.player`).

    Returns
    -------
    PlayReport
        Underruns, gaps, ALSA's messages (:meth:`PlayReport.summary`).

    Raises
    ------
    AudioDeviceError
        Without PortAudio, without an output device, or when the device
        cannot play at *rate* with *channels*.
    KeyboardInterrupt
        On Ctrl-C, after the stream has been aborted and closed.
    """
    feed = feed_of(parts, cues, kit=kit, rate=rate, channels=channels)
    heard: list = []

    def on_heard(sounding, _heard) -> None:
        heard[:] = [sounding]
        if display is not None:
            display.show(sounding)

    player = Player(feed.blocks, feed.events, rate=rate, channels=channels, device=device,
                    latency=latency, on_heard=on_heard)
    try:
        return player.play()
    except OutputStopped as e:      # in words: how far it got
        total = None if isinstance(parts, Loop) else \
            sum(len(p.score) for p in as_performance(parts, cues).parts)
        last = heard[0] if heard else None
        raise OutputStopped(stopped_words("sound output", "stopped",
                                          last.number + 1 if last else 0, total,
                                          last.loop_pass if last else None), e.detail) from None
    finally:
        if display is not None:
            display.close()

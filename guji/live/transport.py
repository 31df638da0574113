"""The transport: one object that plays sound, MIDI out, or both, and says how it ended.

:func:`make_transport` builds it — a :class:`~guji.sound.player.Player` fed
by the renderer (MIDI messages, if a port is given, merged into its events
and sent when heard), or a :class:`~guji.midi.sender.MidiPlayer` alone on
the monotonic clock — and :func:`play` runs it to the end. Numpy, the mixer
and PortAudio are imported only when sound is asked for.

Failures in words: a sound output that stops mid-play (its server killed,
its device gone) or a MIDI port that fails is :class:`PlaybackStopped`:
``the sound output stopped after stroke 3 of 12``; PortAudio's or the MIDI
library's own words are kept in :attr:`PlaybackStopped.detail`.
"""

from __future__ import annotations

import contextlib
import heapq
from typing import Any, Callable, Mapping

from ..i18n import _
from ..defaults import LATENCY, RATE
from ..errors import GujiError
from ..timing.events import Onset, schedule
from ..timing.loop import Loop

#: ``on_stroke(onset)``: a stroke or click is heard now.
OnStroke = Callable[[Onset], None]


class PlaybackStopped(GujiError):
    """Playback stopped before its end because its output failed (exit status 1;
    the command line ends the process at once after saying it: see
    :attr:`guji.sound.stream.OutputStopped.end_now`)."""

    exit_status = 1
    end_now = True

    def __init__(self, message: str, detail: str | None = None):
        self.detail = detail
        super().__init__(message)


class Transport:
    """A player (sound or MIDI), with the strokes heard counted for the words of a failure.

    It has the player's transport — :meth:`start`, :meth:`wait`,
    :meth:`toggle_pause`, :meth:`stop` (clean, ``q``), :meth:`quit` (at once,
    Ctrl-C), :meth:`close` (the report) — and says, if the output failed,
    how far it got.
    """

    def __init__(self, what, on_stroke: OnStroke | None, outlet=None):
        self.loop = isinstance(what, Loop)
        self.total = None if self.loop else sum(len(p.score) for p in what.parts)
        self.on_stroke = on_stroke
        self.outlet = outlet
        self.heard = 0
        self.last: Onset | None = None
        self.player: Any = None
        self.kind = "sound output"

    def _heard(self, item, _when: float = 0.0) -> None:
        """The player's ``on_heard``: a MIDI message goes to the port, a stroke to the caller."""
        if self.outlet is not None and not isinstance(item, Onset):     # a MIDI message
            self.outlet.send(item.message)
            return
        self.heard += 1
        self.last = item
        if self.on_stroke is not None:
            self.on_stroke(item)

    def start(self) -> None:
        self.player.start()

    def wait(self, timeout: float | None = None) -> bool:
        return self.player.wait(timeout)

    @property
    def paused(self) -> bool:
        return self.player.paused

    def toggle_pause(self) -> bool:
        paused = self.player.toggle_pause()
        if paused and self.outlet is not None:
            self.outlet.silence()
        return paused

    def stop(self) -> None:
        self.player.stop()

    def quit(self) -> None:
        self.player.quit()

    @property
    def stopped(self) -> bool:
        return self.player.stopped

    def close(self):
        """Close the player; its report, or :class:`PlaybackStopped` in words."""
        from ..midi.ports import MidiUnavailable
        try:
            return self.player.close()
        except (KeyboardInterrupt, MidiUnavailable):
            raise
        except GujiError as e:
            if getattr(e, "exit_status", 2) != 1:
                raise
            raise PlaybackStopped(self.words("stopped"), getattr(e, "detail", None)) from None
        except Exception as e:          # a port that failed, a closed pipe
            raise PlaybackStopped(self.words("failed"), str(e) or type(e).__name__) from None

    def words(self, what: str) -> str:
        """``the sound output stopped after stroke 3 of 12`` (a loop: ``… (pass 2 …)``)."""
        from ..sound.stream import stopped_words
        return stopped_words(self.kind, what, self.heard, self.total,
                             self.last.loop_pass if self.last is not None else None)


def _messages(what, options: Mapping) -> tuple[Any, list]:
    """The timed MIDI messages of *what* (endless for a loop) and those to send first."""
    from ..midi.events import Instruments, loop_messages, note_events, timed_messages
    first = what.passes(0, 1) if isinstance(what, Loop) else what
    setup = Instruments(first, **options).setup()
    if isinstance(what, Loop):
        return loop_messages(what, **options), setup
    return timed_messages(note_events(what, **options)), setup


def make_transport(what, *, audio: bool = True, outlet=None, on_stroke: OnStroke | None = None,
                   kit=None, rate: int = RATE, channels: int = 2, device=None,
                   latency: float = LATENCY, keys: Mapping | None = None,
                   velocities: Mapping | None = None, melodic: bool = False,
                   realtime: bool = True) -> Transport:
    """The transport of *what* (a performance or a :class:`Loop`), not yet started.

    *audio*: play the sound (the kit, rate, channels, device and latency as
    for :class:`guji.sound.player.Player`); *outlet*: an open MIDI port
    (:func:`guji.midi.ports.open_port`) to send the notes of ``guji midi`` to
    (*keys*, *velocities*, *melodic* as for :func:`guji.midi.build_midi`).
    *on_stroke* is told every stroke and click when it is heard.
    """
    if not audio and outlet is None:
        raise GujiError(_('nothing to play on: ask for sound, or give a MIDI port'))
    transport = Transport(what, on_stroke, outlet)
    midi = {"keys": keys, "velocities": velocities, "melodic": melodic}
    if not audio:
        from ..midi.sender import MidiPlayer
        messages, setup = _messages(what, midi)
        items = heapq.merge(messages, schedule(what, cues=False), key=lambda item: item.time)
        transport.kind = "MIDI port"
        transport.player = MidiPlayer(outlet, items, setup=setup, on_time=transport._heard,
                                      realtime=realtime)
        return transport
    from ..sound.play import feed_of
    from ..sound.player import Player
    from ..sound.ring import Scheduled
    feed = feed_of(what, kit=kit, rate=rate, channels=channels)
    events = feed.events
    if outlet is not None:
        messages, setup = _messages(what, midi)
        for message in setup:
            outlet.send(message)
        frames = (Scheduled(round(m.time * feed.rate), m) for m in messages)
        events = heapq.merge(frames, feed.events, key=lambda s: s.frame)
    transport.player = Player(feed.blocks, events, rate=feed.rate, channels=feed.channels,
                              device=device, latency=latency, on_heard=transport._heard,
                              realtime=realtime)
    return transport


def play(what, *, audio: bool = True, midi_out=None, on_stroke: OnStroke | None = None,
         **options):
    """Play *what* (a performance, or a :class:`Loop` until Ctrl-C) to the end; the report.

    *midi_out*: a MIDI port's name (or part of it; ``""``: the first that is
    not "Midi Through") or an open port; *audio* False with a port: MIDI
    alone. Other *options* as for :func:`make_transport`. Raises
    :class:`PlaybackStopped` when the output fails mid-play, and
    :class:`~guji.sound.devices.AudioDeviceError` /
    :class:`~guji.midi.ports.MidiUnavailable` when there is none.
    """
    outlet, opened = midi_out, False
    if isinstance(midi_out, str):
        from ..midi.ports import open_port
        outlet, opened = open_port(midi_out or None), True
    try:
        transport = make_transport(what, audio=audio, outlet=outlet, on_stroke=on_stroke,
                                   **options)
        transport.start()
        try:
            while not transport.wait(0.1):
                pass
        except BaseException:
            transport.quit()
            with contextlib.suppress(Exception):
                transport.close()
            raise
        return transport.close()
    finally:
        if opened:
            outlet.close()


__all__ = ["PlaybackStopped", "Transport", "make_transport", "play"]

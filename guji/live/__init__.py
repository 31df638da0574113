"""Live playback as a library call: sound, MIDI out, or both, from one clock.

The room of the transport (:mod:`guji.live.transport`): :func:`play` plays a
:class:`~guji.timing.performance.Performance` (or a
:class:`~guji.timing.loop.Loop`, until stopped) through the sound card
(:mod:`guji.sound.player`), to a MIDI port (:mod:`guji.midi.sender`), or
both — the MIDI notes then go out as their strokes are heard, on the sound
card's clock — and hands each stroke to the caller when it is heard::

    import guji
    perf = guji.lay_out([guji.load("lu")]).muting("鼓")
    guji.play(perf)                                   # sound
    guji.play(perf, audio=False, midi_out="Drum")     # MIDI alone: numpy is not loaded
    guji.play(perf, midi_out="", on_stroke=print)     # both; each stroke when heard

Both play the one schedule (:mod:`guji.timing.events`) and the one MIDI
plan (:mod:`guji.midi.plan`): what sounds, what a port receives and what a
file holds are the same notes. Every wait on PortAudio or the MIDI port is
bounded; an output that stops mid-play is :class:`PlaybackStopped`, in words
(``the sound output stopped after stroke 3 of 12``). The command line
(``guji play``) only parses its options and shows the strokes.
"""

from __future__ import annotations

from .transport import PlaybackStopped, Transport, make_transport, play

__all__ = ["PlaybackStopped", "Transport", "make_transport", "play"]

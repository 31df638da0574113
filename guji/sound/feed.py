"""What the live player plays: blocks of sound, and what sounds when.

A :class:`Feed` is the player's input: the rendered blocks
(:meth:`guji.sound.mixer.Mix.blocks`) and, in the same frame order, a
:class:`Sounding` for every stroke and count-in click of the one schedule
(:mod:`guji.timing.events`) — the payloads the player announces when they
are heard. :func:`performance_feed` makes one of
a performance; :func:`loop_feed` of a :class:`~guji.timing.loop.Loop`,
endless.

Looping
-------
A loop cannot be rendered whole, so it is rendered a few passes at a time
(a *segment* of at least :data:`SEGMENT_SECONDS`), each segment a
:class:`~guji.sound.mixer.Mix` of its passes at their own times
(:meth:`Loop.passes <guji.timing.loop.Loop.passes>`: from their absolute
grid steps, so pass 10,000 is where its steps put it, to the sample). A
segment's mix also holds the passes before it whose ring still sounds into
it, so a 鼓 ringing across the seam rings on, and it renders exactly the
segment's frames: ``[round(start × rate), round(next start × rate))``. All
segments share one gain per channel: the gain of the loop's first passes,
steady state included (the exact peak of :mod:`guji.sound.headroom`), so the
level never steps at a seam.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..defaults import RATE
from ..timing.events import Onset, events
from ..timing.loop import Loop
from ..timing.performance import Performance, Voice
from .room import room_response
from .strokes import variant_count
from .kit import Kit, default_kit, one_shot
from .level import Level
from .mixer import Mix
from .ring import Scheduled

#: Seconds of a loop rendered by one mix, at least (one pass if longer).
SEGMENT_SECONDS = 8.0

#: Frames a block of the live player (about 43 ms at 48 kHz).
PLAY_BLOCK_FRAMES = 2048


@dataclass(frozen=True)
class Sounding(Onset):
    """A stroke or count-in click of the one schedule
    (:class:`~guji.timing.events.Onset`: its part, its score's event, its
    number, its loop pass, what the score says and what sounds) with *frame*,
    the sample its sound starts on (:meth:`Onset.sample
    <guji.timing.events.Onset.sample>`): what the player announces when heard."""

    frame: int = 0


@dataclass(frozen=True)
class Feed:
    """Blocks to play and what sounds when: the input of the live player.

    Attributes
    ----------
    blocks:
        float32 arrays, frames × channels, in order (endless for a loop).
    events:
        :class:`~guji.sound.ring.Scheduled` items (payload: a
        :class:`Sounding`), in frame order.
    rate, channels:
        Of the blocks.
    frames:
        The length in frames (``None``: endless).
    gains:
        The gain of each channel (:mod:`guji.sound.headroom`).
    """

    blocks: Iterator[np.ndarray]
    events: Iterator[Scheduled]
    rate: int
    channels: int
    frames: int | None
    gains: tuple[float, ...] = ()


def soundings(performance: Performance, rate: int = RATE, *, number: int = 0,
              loop_pass: int = 0) -> Iterator[Sounding]:
    """Every stroke and click of *performance* (:func:`guji.timing.events.events`,
    cues left out), by time, ties in part order, each with its sample at
    *rate*; counted from *number*, in pass *loop_pass* of a loop."""
    for onset in events(performance, cues=False, number=number, loop_pass=loop_pass):
        yield Sounding(onset.step, onset.interval, onset.written, onset.voice, onset.part,
                       onset.order, onset.event, onset.number, onset.loop_pass,
                       frame=onset.sample(rate))


def performance_feed(performance: Performance, *, kit: Kit | None = None, rate: int = RATE,
                     channels: int = 2, block_frames: int = PLAY_BLOCK_FRAMES) -> Feed:
    """The feed of a performance, start to end (its :class:`Mix`, its soundings)."""
    mix = Mix(performance, kit=kit, rate=rate, channels=channels)
    events = (Scheduled(s.frame, s) for s in soundings(mix.performance, rate))
    return Feed(mix.blocks(block_frames), events, rate, channels, mix.frames, mix.gains)


def loop_feed(loop: Loop, *, kit: Kit | None = None, rate: int = RATE, channels: int = 2,
              block_frames: int = PLAY_BLOCK_FRAMES) -> Feed:
    """The endless feed of *loop*, rendered a segment at a time (see the module)."""
    kit = kit if kit is not None else default_kit(rate)
    ring = max(len(one_shot(kit, v, rate, n)) for v in Voice
               for n in [None, *range(variant_count(kit[v], kit.strike))])
    room = room_response(kit.room, rate, channels)
    ring += 0 if room is None else len(room)        # the reverberation of earlier passes
    carry = math.ceil(ring / rate / loop.period)      # earlier passes still ringing
    per_segment = max(1, math.ceil(SEGMENT_SECONDS / loop.period))
    probe = Mix(loop.passes(0, carry + 2), kit=kit, rate=rate, channels=channels)
    plan = _LoopPlan(loop, kit, rate, channels, probe.gains, carry, per_segment, probe.level)
    return Feed(plan.blocks(block_frames), plan.events(), rate, channels, None, probe.gains)


@dataclass(frozen=True)
class _LoopPlan:
    """How :func:`loop_feed` cuts a loop into segments of *per_segment* passes."""

    loop: Loop
    kit: Kit
    rate: int
    channels: int
    gains: tuple[float, ...]
    carry: int
    per_segment: int
    level: Level | None = None     # the probe's loudness plan, shared by every segment

    def frame(self, pass_index: int) -> int:
        """The first frame of pass *pass_index* (0: the very start, count-in included)."""
        return 0 if pass_index == 0 else round(self.loop.pass_start(pass_index) * self.rate)

    def blocks(self, block_frames: int) -> Iterator[np.ndarray]:
        segment = 0
        while True:
            first = segment * self.per_segment
            last = first + self.per_segment
            earliest = max(0, first - self.carry)
            mix = Mix(self.loop.passes(earliest, last - earliest), kit=self.kit,
                      rate=self.rate, channels=self.channels, gains=self.gains, level=self.level)
            start, stop = self.frame(first), self.frame(last)
            at = start
            for block in mix.blocks(block_frames, start, stop):
                yield block
                at += len(block)
            while at < stop:        # the mix ended (no ring left) before the segment did
                n = min(block_frames, stop - at)
                yield np.zeros((n, self.channels), dtype=np.float32)
                at += n
            segment += 1

    def events(self) -> Iterator[Scheduled]:
        return (Scheduled(s.frame, s) for s in loop_soundings(self.loop, self.rate))


def loop_soundings(loop: Loop, rate: int = RATE) -> Iterator[Sounding]:
    """Every stroke and click of *loop*, endless, pass after pass (frames at *rate*)."""
    number = 0
    pass_index = 0
    while True:
        for s in soundings(loop.passes(pass_index, 1), rate, number=number,
                           loop_pass=pass_index):
            yield s
            number += 1
        pass_index += 1

"""Real-time scheduling for the threads that must wake on time.

The live player's audio callback and announcer (:mod:`guji.sound.player`)
and the MIDI sender (:mod:`guji.midi.sender`) ask Linux for ``SCHED_FIFO``
where it is allowed (root, or an ``rtprio`` limit in
``/etc/security/limits.conf``): with both cores of a 2-core machine kept
busy, a normal thread woke up to 107 ms late, a real-time one within
0.2 ms. Where it is not allowed nothing changes, and the callers' reports
say so.
"""

from __future__ import annotations

import os

#: Priorities: the audio callback above the threads that follow it.
AUDIO_PRIORITY = 20
MIDI_PRIORITY = 20
ANNOUNCER_PRIORITY = 10


def make_realtime(priority: int) -> bool:
    """Give the calling thread ``SCHED_FIFO`` *priority*; False when not allowed."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
        return True
    except (AttributeError, OSError):
        return False

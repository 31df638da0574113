"""MIDI: Standard MIDI files of a performance, and reading them back.

* :mod:`guji.midi.write` — :func:`build_midi`, :func:`write_midi`;
* :mod:`guji.midi.write` also reads (:func:`read_midi`) for now.
"""

from .write import (CUE_TRACK, DEFAULT_KEYS, DEFAULT_PITCHES, DEFAULT_TICKS_PER_BEAT,
                    DEFAULT_VELOCITIES, GM_PERCUSSION, PAD_SECONDS, TRACK_SEPARATOR, MidiHit,
                    MidiMarker, MidiReading, build_midi, read_midi, save_midi, split_track_name,
                    track_name, write_midi)
from ..timing.performance import Voice

__all__ = ["CUE_TRACK", "DEFAULT_KEYS", "DEFAULT_PITCHES", "DEFAULT_TICKS_PER_BEAT",
           "DEFAULT_VELOCITIES", "GM_PERCUSSION", "PAD_SECONDS", "TRACK_SEPARATOR", "MidiHit",
           "MidiMarker", "MidiReading", "Voice", "build_midi", "read_midi", "save_midi",
           "split_track_name", "track_name", "write_midi"]

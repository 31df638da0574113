"""MIDI: Standard MIDI files of a performance, and reading them back.

One concept a module:

* :mod:`guji.midi.tracks` — the layout of a guji MIDI file (a conductor
  track, a track per drum of each part, a cue track) and the track names
  both sides agree on: :func:`track_name`, :func:`split_track_name`;
* :mod:`guji.midi.gm` — the General MIDI choices: the drum-kit keys of the
  voices (:data:`DEFAULT_KEYS`, after 陸德明's 釋文 on the two drums), their
  velocities, the melodic mode's pitches, programs and channels;
* :mod:`guji.midi.size` — how big a file gets, checked before it is built:
  notes and their memory, the Standard MIDI File's own limits;
* :mod:`guji.midi.ticks` — time: the tempo (:func:`tempo_for`), seconds →
  ticks (:class:`TickGrid`), ticks → MIDI's delta times (:class:`TickTrack`);
* :mod:`guji.midi.metre` — the bar lines (the sheet music's) as time
  signatures, and the ring bar the file ends with: :func:`metre`;
* :mod:`guji.midi.write` — building and saving: :func:`build_midi`,
  :func:`write_midi`, :func:`save_midi`;
* :mod:`guji.midi.read` — reading back: :func:`read_midi` →
  :class:`MidiReading` of :class:`MidiHit` and :class:`MidiMarker`;
* live MIDI out (``guji play --midi-out``), imported on their own:
  :mod:`guji.midi.events` (the file's notes as messages timed in seconds,
  a loop's too), :mod:`guji.midi.ports` (the ports of CoreMIDI, WinMM, the
  ALSA sequencer and JACK, through python-rtmidi: the ``midi`` extra) and
  :mod:`guji.midi.sender` (messages sent
  on their times from a clock).

Everything public is importable from here; :class:`Voice` (the keys of the
tables) comes along from :mod:`guji.timing.performance`. mido is imported
only in this folder, and only when a file is built or read (the names of
write and read load on first use), so the command line starts quickly.
"""

from ..timing.performance import Voice
from .gm import (DEFAULT_KEYS, DEFAULT_PITCHES, DEFAULT_VELOCITIES, GM_PERCUSSION,
                 MELODIC_CHANNELS, MELODIC_PROGRAMS, PERCUSSION_CHANNEL, PROGRAM_NAMES)
from .ticks import (DEFAULT_TICKS_PER_BEAT, MAX_TEMPO, TickGrid, TickTrack, check_tempo,
                    check_ticks_per_beat, tempo_for)
from .tracks import (CUE_TRACK, MARKER_SEPARATOR, TRACK_SEPARATOR, split_track_name, track_name,
                     voice_label)
from .metre import MAX_NUMERATOR, PAD_SECONDS, Metre, beats_per_step, metre
from ..lazy import later

#: Names given by the modules that import mido, loaded when first asked for
#: (``guji --help`` and the command parsers need the tables above, not mido).
_LATER = {"build_midi": "write", "default_filename": "write",
          "save_midi": "write", "write_midi": "write", "MidiHit": "read", "MidiMarker": "read",
          "MidiReading": "read", "read_midi": "read"}


__getattr__ = later(__name__, _LATER, globals())


__all__ = [
    # tracks
    "CUE_TRACK", "MARKER_SEPARATOR", "TRACK_SEPARATOR", "split_track_name", "track_name",
    "voice_label",
    # gm
    "DEFAULT_KEYS", "DEFAULT_PITCHES", "DEFAULT_VELOCITIES", "GM_PERCUSSION",
    "MELODIC_CHANNELS", "MELODIC_PROGRAMS", "PERCUSSION_CHANNEL", "PROGRAM_NAMES", "Voice",
    # ticks
    "DEFAULT_TICKS_PER_BEAT", "MAX_TEMPO", "TickGrid", "TickTrack", "check_tempo",
    "check_ticks_per_beat", "tempo_for",
    # metre
    "MAX_NUMERATOR", "Metre", "beats_per_step", "metre",
    # write
    "PAD_SECONDS", "build_midi", "default_filename", "save_midi", "write_midi",
    # read
    "MidiHit", "MidiMarker", "MidiReading", "read_midi",
]

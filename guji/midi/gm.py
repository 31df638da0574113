"""General MIDI: the keys, pitches, velocities, programs and channels of the voices.

guji's four voices (:class:`~guji.timing.performance.Voice`: 鼙, 鼓, the
count-in click and the cue bell) become General MIDI instruments in one of
two ways, chosen by :func:`~guji.midi.write.build_midi`'s ``melodic``:

* **the default (percussion) mode**: every voice on the GM percussion
  channel 10 (:data:`PERCUSSION_CHANNEL`, mido's ``channel=9``), each a key
  of the GM drum kit (:data:`DEFAULT_KEYS`, named in :data:`GM_PERCUSSION`).
  Why those keys — 陸德明's 釋文 on the two drums, in the loudness reading of
  聲高 / 聲下 — is told with :data:`DEFAULT_KEYS` below.
* **the melodic mode**, described next.

The melodic mode
----------------
Synths without a drum kit (many hardware modules in non-GM modes, some
notation programs) ignore channel 10 or play it as a piano. With
``melodic=True`` each drum track gets a channel of its own (never 10,
:data:`MELODIC_CHANNELS`) with GM program 117 *Taiko Drum* (mido
``program=116``, programs counting from 0; :data:`MELODIC_PROGRAMS`), and
the drums become pitches (:data:`DEFAULT_PITCHES`); the click becomes GM 116
*Woodblock* and the cue GM 113 *Tinkle Bell*. ``keys`` then gives pitches.

Note velocities (:data:`DEFAULT_VELOCITIES`) are the same in both modes.

The names of the tracks (``"<part> - pi 鼙"``, ``cue``) are not here: they are
guji's own convention, not General MIDI's, shared by writing and reading, and
live with the file's track layout in :mod:`guji.midi.tracks`.
"""

from __future__ import annotations

from ..timing.performance import Voice

#: General MIDI percussion key of each voice (channel 10). The drums follow
#: 陸德明's 釋文 on the two drums, in the loudness reading of 聲高 / 聲下
#: (docs/notation.md, "Timbre"):
#:
#: * 鼓 (□) — 其聲高，其音鏜鏜然: loud, ringing, booming (擊鼓其鏜) → 41 *Low
#:   Floor Tom*, the biggest, longest-ringing drum of the GM kit (a kick
#:   drum, 35/36, is dry and short: no 鏜鏜).
#: * 鼙 (○) — 其聲下，其音榻榻然: softer, flat, damped "ta-ta" → 62 *Mute Hi
#:   Conga*, a small hand drum stopped by the palm: the most damped drum of
#:   the kit, still a drum (a side stick or a clap would not be).
#:
#: Neither is pitched by the text; under the other reading of 聲高 (pitch),
#: swap them with ``--map 鼙=41,鼓=62``. guji's own voices, in no source, sound
#: unlike either drum: the count-in click is 76 *Hi Wood Block*, the cue (a
#: soft bell) 81 *Open Triangle*.
DEFAULT_KEYS: dict[Voice, int] = {
    Voice.SMALL: 62,
    Voice.BIG: 41,
    Voice.CLICK: 76,
    Voice.CUE: 81,
}

#: Note velocity of each voice. 鼓 is louder than 鼙 (鼓 其聲高, loud; 鼙 其聲下,
#: soft); the click and the cue stay below both, being guides, not music.
DEFAULT_VELOCITIES: dict[Voice, int] = {
    Voice.SMALL: 80,
    Voice.BIG: 112,
    Voice.CLICK: 72,
    Voice.CUE: 56,
}

#: Pitches of the melodic mode (MIDI note numbers; 60 is middle C). The big
#: drum an octave below the small one (C2 / C3), as a big drum sounds; the
#: click and the bell high above both.
DEFAULT_PITCHES: dict[Voice, int] = {
    Voice.SMALL: 48,
    Voice.BIG: 36,
    Voice.CLICK: 76,
    Voice.CUE: 84,
}

#: GM programs of the melodic mode, counting from 0 as mido does (GM's own
#: numbers count from 1): 116 Taiko Drum (GM 117), 115 Woodblock (GM 116),
#: 112 Tinkle Bell (GM 113).
MELODIC_PROGRAMS: dict[Voice, int] = {
    Voice.SMALL: 116,
    Voice.BIG: 116,
    Voice.CLICK: 115,
    Voice.CUE: 112,
}

#: Names of the programs in :data:`MELODIC_PROGRAMS` (mido's numbers), for
#: the instrument names written into the file.
PROGRAM_NAMES: dict[int, str] = {112: "Tinkle Bell", 115: "Woodblock", 116: "Taiko Drum"}

#: mido's number of General MIDI channel 10, the percussion channel.
PERCUSSION_CHANNEL = 9

#: Channels of the melodic mode: all but the percussion channel.
MELODIC_CHANNELS: tuple[int, ...] = tuple(c for c in range(16) if c != PERCUSSION_CHANNEL)

#: General MIDI level 1 percussion key names (channel 10), for the
#: instrument names written into the file and for ``--help``.
GM_PERCUSSION: dict[int, str] = {
    35: "Acoustic Bass Drum", 36: "Bass Drum 1", 37: "Side Stick", 38: "Acoustic Snare",
    39: "Hand Clap", 40: "Electric Snare", 41: "Low Floor Tom", 42: "Closed Hi-Hat",
    43: "High Floor Tom", 44: "Pedal Hi-Hat", 45: "Low Tom", 46: "Open Hi-Hat",
    47: "Low-Mid Tom", 48: "Hi-Mid Tom", 49: "Crash Cymbal 1", 50: "High Tom",
    51: "Ride Cymbal 1", 52: "Chinese Cymbal", 53: "Ride Bell", 54: "Tambourine",
    55: "Splash Cymbal", 56: "Cowbell", 57: "Crash Cymbal 2", 58: "Vibraslap",
    59: "Ride Cymbal 2", 60: "Hi Bongo", 61: "Low Bongo", 62: "Mute Hi Conga",
    63: "Open Hi Conga", 64: "Low Conga", 65: "High Timbale", 66: "Low Timbale",
    67: "High Agogo", 68: "Low Agogo", 69: "Cabasa", 70: "Maracas", 71: "Short Whistle",
    72: "Long Whistle", 73: "Short Guiro", 74: "Long Guiro", 75: "Claves",
    76: "Hi Wood Block", 77: "Low Wood Block", 78: "Mute Cuica", 79: "Open Cuica",
    80: "Mute Triangle", 81: "Open Triangle",
}

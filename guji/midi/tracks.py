"""The track layout of a guji MIDI file, and the names of its tracks.

A guji MIDI file is a Standard MIDI File of type 1 that any DAW, notation
program or hardware player can open:

* **Track 0, the conductor track**: the title (its track name), the tempo at
  tick 0, provenance as text events (pattern id, edition, the source
  position of the strokes and of 半, the timing), and markers at the start
  of each pass and at 半 (``魯鼓 1 liji-zhengyi · pass 2/4``,
  ``… · 半 2/4``; in 投壺 a pass starts at 半, so one marker says both).
* **For each part, one track per drum that sounds**, named Latin first:
  ``Lu gu 魯鼓 1 liji-zhengyi - pi 鼙`` and ``… - gu 鼓`` (the part's name
  after :func:`~guji.text.reading.names.latin_first`, a hyphen, the drum in pinyin
  and in Chinese), plus ``… - click`` when the score has a count-in or
  ghost clicks (a muted drum's strokes as clicks); a muted drum has no
  track. In the default mode they are all on the General MIDI percussion
  channel 10 (mido's ``channel=9``) and each drum is a key of the GM drum
  kit (:data:`~guji.midi.gm.DEFAULT_KEYS`).
* **A cue track** named ``cue`` when cues are given
  (:class:`~guji.timing.performance.Cue`: the soft bell of ``compare``), each
  cue's label a marker on it.

Track names, texts and markers are UTF-8 (``mido.MidiFile(path,
charset='utf-8')`` reads them back). Programs that read them as Latin-1
(pretty_midi, midi2ly, mido without ``charset``) show the Chinese as
accented letters; the Latin part, first and in ASCII, stays readable.

The track names are the contract between the two sides:
:mod:`guji.midi.write` names each track with :func:`track_name`, and
:mod:`guji.midi.read` tells a note's voice and part from its track's name
with :func:`split_track_name`. They are guji's own convention, not General
MIDI's, so they live here, with the layout they name, and not among the GM
tables of :mod:`guji.midi.gm`.
"""

from __future__ import annotations

from ..text.reading.names import latin_first, without_latin
from ..timing.performance import Voice

#: Name of the cue track.
CUE_TRACK = "cue"

#: Between the part name and the voice in a track name (ASCII, so that it
#: reads the same as Latin-1).
TRACK_SEPARATOR = " - "

#: Between the parts of a marker's text (``魯鼓 1 liji-zhengyi · pass 2/4``);
#: earlier guji files used it in track names too (``魯鼓 1 liji-zhengyi · 鼙``),
#: which :func:`split_track_name` still reads.
MARKER_SEPARATOR = " · "


def voice_label(voice: Voice) -> str:
    """How a track name ends for *voice*: ``pi 鼙``, ``gu 鼓``, ``click``."""
    return voice.latin if voice.latin == voice.value else f"{voice.latin} {voice.value}"


def track_name(part: str, voice: Voice) -> str:
    """The name of *part*'s track for *voice*, Latin first:
    ``"Lu gu 魯鼓 1 liji-zhengyi - pi 鼙"``; the cue track is just ``"cue"``."""
    if voice is Voice.CUE:
        return CUE_TRACK
    return f"{latin_first(part)}{TRACK_SEPARATOR}{voice_label(voice)}"


def split_track_name(name: str) -> tuple[str, Voice | None]:
    """``(part, voice)`` of a guji track name, the part as it was given to
    :func:`track_name`; voice ``None`` if it names none. Names of earlier
    guji files (``"<part> · 鼙"``) are read too.

    >>> split_track_name("Lu gu 魯鼓 1 liji-zhengyi - gu 鼓")
    ('魯鼓 1 liji-zhengyi', <Voice.BIG: '鼓'>)
    >>> split_track_name("魯鼓 1 liji-zhengyi · 鼓")
    ('魯鼓 1 liji-zhengyi', <Voice.BIG: '鼓'>)
    """
    if name == CUE_TRACK:
        return "", Voice.CUE
    for separator, label in ((TRACK_SEPARATOR, voice_label), (MARKER_SEPARATOR, _old_label)):
        part, sep, tail = name.rpartition(separator)
        if not sep:
            continue
        for voice in Voice:
            if voice is not Voice.CUE and tail == label(voice):
                return without_latin(part), voice
    return name, None


def _old_label(voice: Voice) -> str:
    return voice.value

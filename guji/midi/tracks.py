"""The track layout of a guji MIDI file, and the names of its tracks.

A guji MIDI file is a Standard MIDI File of type 1 that any DAW, notation
program or hardware player can open:

* **Track 0, the conductor track**: the title (its track name), the tempo at
  tick 0, provenance as text events (pattern id, edition, the source
  position of the strokes and of 半, the timing), and markers at the start
  of each pass and at 半 (``魯鼓 1 liji-zhengyi · pass 2/4``,
  ``… · 半 2/4``; in 投壺 a pass starts at 半, so one marker says both).
* **For each part, one track per drum**, named ``"<part> · 鼙"`` and
  ``"<part> · 鼓"`` (e.g. ``魯鼓 1 liji-zhengyi · 鼙``), plus
  ``"<part> · click"`` when the score has a count-in. In the default mode they
  are all on the General MIDI percussion channel 10 (mido's ``channel=9``)
  and each drum is a key of the GM drum kit
  (:data:`~guji.midi.gm.DEFAULT_KEYS`).
* **A cue track** named ``cue`` when cues are given
  (:class:`~guji.timing.performance.Cue`: the soft bell of ``compare``), each
  cue's label a marker on it.

Track names, texts and markers are UTF-8 (``mido.MidiFile(path,
charset='utf-8')`` reads them back).

The track names are the contract between the two sides:
:mod:`guji.midi.write` names each track with :func:`track_name`, and
:mod:`guji.midi.read` tells a note's voice and part from its track's name
with :func:`split_track_name`. They are guji's own convention, not General
MIDI's, so they live here, with the layout they name, and not among the GM
tables of :mod:`guji.midi.gm`.
"""

from __future__ import annotations

from ..timing.performance import Voice

#: Name of the cue track.
CUE_TRACK = "cue"

#: Between the part name and the voice in a track name.
TRACK_SEPARATOR = " · "


def track_name(part: str, voice: Voice) -> str:
    """The name of *part*'s track for *voice*: ``"魯鼓 1 liji-zhengyi · 鼙"``;
    the cue track is just ``"cue"``."""
    if voice is Voice.CUE:
        return CUE_TRACK
    return f"{part}{TRACK_SEPARATOR}{voice.value}"


def split_track_name(name: str) -> tuple[str, Voice | None]:
    """``(part, voice)`` of a guji track name; voice ``None`` if it names none.

    >>> split_track_name("魯鼓 1 liji-zhengyi · 鼓")
    ('魯鼓 1 liji-zhengyi', <Voice.BIG: '鼓'>)
    """
    if name == CUE_TRACK:
        return "", Voice.CUE
    if TRACK_SEPARATOR in name:
        part, _, tail = name.rpartition(TRACK_SEPARATOR)
        for voice in Voice:
            if tail == voice.value and voice is not Voice.CUE:
                return part, voice
    return name, None

"""How big a MIDI file gets, checked before it is built.

A MIDI file is built whole in memory (mido holds every message) before it is
written, at about :data:`BYTES_PER_NOTE` a note (``bench/bench_midi.py``
measures it). So the notes of a performance are counted first
(:func:`note_count`: strokes, count-in clicks and cue bells) and a file of
more than :attr:`guji.limits.Limits.midi_notes` (1,000,000: about 1.1 GB
while built) is refused with its estimate (:func:`check_notes`); ``--force``
lifts that limit.

The Standard MIDI File format has limits of its own, which nothing lifts:

* a delta-time (ticks between two events of a track) is at most
  :data:`MAX_DELTA` = 0x0FFFFFFF (four bytes of seven bits): a long
  stretch with no event on a track — a slow tempo, a count-in track silent
  to the end, a cue track between two far bells — can pass it.
  :func:`check_delta` refuses such a file and names the resolution
  (``--ticks-per-beat``) at which it would fit;
* a track chunk's length is 32 bits: at most :data:`MAX_TRACK_EVENTS`
  events a track (8 bytes each, at most, for guji's events).
"""

from __future__ import annotations

from ..i18n import _
from ..limits import LimitError, current, size_text
from ..timing.performance import Performance

#: Memory a note takes while a file is built (measured: about 1.0 kB a
#: stroke at peak under tracemalloc, 1.07 kB of resident memory).
BYTES_PER_NOTE = 1_100

#: The largest delta-time a Standard MIDI File can hold (a variable-length
#: quantity of at most four bytes).
MAX_DELTA = 0x0FFFFFFF

#: Events a track chunk can hold: its length is 32 bits, and a note-on or
#: note-off takes at most 8 bytes (a 4-byte delta, status, key, velocity).
MAX_TRACK_EVENTS = 0xFFFFFFFF // 8


def note_count(performance: Performance) -> int:
    """Notes a file of *performance* holds: every stroke, count-in click and cue bell."""
    return sum(len(p.score) for p in performance.parts) + len(performance.cues)


def check_notes(performance: Performance) -> int:
    """The note count of *performance* (:func:`note_count`), or
    :class:`~guji.limits.LimitError` if the file would be too big to build."""
    notes = note_count(performance)
    most = current().midi_notes
    if notes > most:
        raise LimitError(_("a MIDI file of {notes:,} notes would take about {value} of memory to build: over guji's limit of {most:,.0f} notes (about {value2})").format(notes=notes, value=size_text(notes * BYTES_PER_NOTE), most=most, value2=size_text(most * BYTES_PER_NOTE)))
    if 2 * notes > MAX_TRACK_EVENTS:
        raise LimitError(_('a MIDI file of {notes:,} notes: more than a track of a Standard MIDI File can hold ({value:,} notes)').format(notes=notes, value=MAX_TRACK_EVENTS // 2), forcible=False)
    return notes


def check_delta(delta: int, track: str, ticks_per_beat: int) -> int:
    """*delta* if a Standard MIDI File can hold it, else :class:`~guji.limits.LimitError`
    naming the track and the resolution at which the file would fit."""
    if delta <= MAX_DELTA:
        return delta
    fits = ticks_per_beat * MAX_DELTA // delta
    advice = (f"--ticks-per-beat {fits} or fewer would fit" if fits >= 1 else
              "no resolution fits: a shorter piece or a faster tempo would")
    raise LimitError(_("MIDI track {track} would hold {delta:,} ticks without an event: over the Standard MIDI File's limit of {max_delta:,} (0x0FFFFFFF); {advice}").format(track=repr(track), delta=delta, max_delta=MAX_DELTA, advice=advice),
                     forcible=False)

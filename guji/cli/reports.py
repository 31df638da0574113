"""What guji says of a file it wrote: one line on stderr, in one form for every command.

``wrote NAME: WHAT IT HOLDS`` — the path (or ``standard output``), then its
length and its content in a reader's words, parts separated by ``;``::

    wrote lu.wav: 8.0 s (the music 7.2 s, then the ring of its last stroke); 12 strokes; 48000 Hz stereo, WAV 16-bit
    wrote lu.mid: 7.2 s of MIDI; 12 strokes
    wrote lu.pdf: 3 bars; 23 strokes; 1 staff
    wrote lu.svg: a picture (pattern view) of lu:1

Reports always go to standard error, so that standard output carries only
the data (``-o -``, ``-o /dev/stdout``) and the listings asked for.
"""

from __future__ import annotations

import sys

from ..i18n import _, ngettext
from ..timing.performance import Performance


def wrote(name, what: str) -> None:
    """Report the file *name* written, holding *what* (see the module docstring)."""
    print(_('wrote {name}: {what}').format(name=name, what=what), file=sys.stderr)


def strokes(n: int) -> str:
    return ngettext("{n} stroke", "{n} strokes", n).format(n=n)


def midi_summary(performance: Performance, extra: str = "") -> str:
    """``7.2 s of MIDI; 12 strokes`` (and *extra*, if given)."""
    text = _("{seconds:.1f} s of MIDI").format(seconds=performance.duration)
    text = _("{first}; {second}").format(first=text, second=strokes(performance.stroke_count))
    return _("{first}; {second}").format(first=text, second=extra) if extra else text

"""guji (古籍): hear, export and compare the 投壺 drum scores of the 禮記.

The pipeline runs one way: text → :class:`Pattern` (:mod:`guji.parser`) →
:class:`Score` (:mod:`guji.score`) → sinks (MIDI, audio, playback).

A small API for notebooks and scripts::

    import guji
    lu = guji.load("lu:1")                 # a shipped pattern by id
    lu.notation()                          # '○□○○□□○□○○□半○□○□○○○□□○□○'
    lu.counts(guji.Rite.TOUHU)             # {Drum.SMALL: 7, Drum.BIG: 5}
    found = guji.scan(open("chapter.txt").read()).patterns
    p = guji.parse("薛鼓 ○□○半○□○")
    score = guji.Score(lu, guji.Rite.SHE, interval=0.5, repeat=4)
"""

from .errors import GujiError, Location, NotationError, UsageError
from .text.notation import Drum, Pattern, Rite, Stroke, Tradition
from .text.parser import ScanResult, parse
from .text.scan import scan
from .text.editions import all_patterns, editions, load
from .timing.layout import lay_out, perform
from .timing.performance import Cue, Part, Performance, Timing, Voice
from .timing.score import DEFAULT_INTERVAL, Event, Score

__version__ = "0.1.0"

__all__ = [
    "GujiError", "Location", "NotationError", "UsageError",
    "Drum", "Pattern", "Rite", "Stroke", "Tradition",
    "ScanResult", "parse", "scan",
    "all_patterns", "editions", "load",
    "DEFAULT_INTERVAL", "Event", "Score",
    "Cue", "Part", "Performance", "Timing", "Voice", "lay_out", "perform",
]

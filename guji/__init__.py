"""guji (古籍): hear, export and compare the 投壺 drum scores of the 禮記.

The pipeline runs one way: text → :class:`Pattern` (:mod:`guji.text`) →
:class:`Score` and :class:`Performance` (:mod:`guji.timing`) → sinks (MIDI,
audio, playback, pictures, pages).

A small API for notebooks and scripts::

    import guji
    lu = guji.load("lu:1")                 # a shipped pattern by id
    lu.notation()                          # '○□○○□□○□○○□半○□○□○○○□□○□○'
    lu.counts(guji.Rite.TOUHU)             # {Drum.SMALL: 7, Drum.BIG: 5}
    found = guji.scan(open("chapter.txt").read()).patterns
    p = guji.parse("薛鼓 ○□○半○□○")
    score = guji.Score(lu, guji.Rite.SHE, interval=0.5, repeat=4)
    perf = guji.lay_out([lu], guji.Timing(repeat=4)).muting("鼓")   # minus-one
    guji.write_midi("lu.mid", perf); guji.write_audio("lu.flac", perf)
    guji.write_sheet("lu.musicxml", perf)
    guji.play(perf, midi_out="Drum Module")  # sound and MIDI out, from one clock
    for onset in guji.events(perf): ...    # the one schedule every sink plays
    with guji.limits.lifted():             # pieces past 24 h (see guji.limits)
        ...
"""

__version__ = "0.1.0"

#: Public name → the module that defines it. Loaded on first use (PEP 562), so
#: ``import guji`` and the command line's start-up stay quick: a command
#: imports only the stages it needs.
_API = {
    "GujiError": "errors", "Location": "errors", "NotationError": "errors",
    "UsageError": "errors",
    "Drum": "text.reading.notation", "Pattern": "text.reading.notation", "Rite": "text.reading.notation",
    "Stroke": "text.reading.notation", "Tradition": "text.reading.notation",
    "ScanResult": "text.reading.parser", "parse": "text.reading.parser", "scan": "text.reading.scan",
    "all_patterns": "text.reading.editions", "editions": "text.reading.editions", "load": "text.reading.editions",
    "read_claims": "text.collation.claims", "collate": "text.collation.collate",
    "DEFAULT_INTERVAL": "timing.score", "Event": "timing.score", "Score": "timing.score",
    "Cue": "timing.performance", "Part": "timing.performance",
    "Performance": "timing.performance", "Timing": "timing.performance",
    "Voice": "timing.performance", "lay_out": "timing.layout", "perform": "timing.layout",
    "Loop": "timing.loop", "events": "timing.events",
    # the sinks, one public face each (loaded on first use: no numpy until sound is made)
    "write_midi": "midi.write", "write_audio": "sound.files", "write_sheet": "sheet.write",
    "write_page": "views.page", "play": "live", "PlaybackStopped": "live",
}

#: Modules reached as attributes without an import (``guji.limits.lifted()``).
_MODULES = ("limits",)

__all__ = list(_API)


def __getattr__(name: str):
    import importlib
    if name in _MODULES:
        return importlib.import_module(f".{name}", __name__)
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'guji' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API) | set(_MODULES))

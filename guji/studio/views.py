"""The readings chosen in the studio: what the page draws, and what it plays.

Everything here is made by the code the commands use: the drawings by
:mod:`guji.views.source` and :mod:`guji.views.timeline` (as ``guji draw``),
the alignment of each reading with A by :func:`guji.views.page.alignment_table`
and :func:`guji.views.page.alignment_summary` (as ``guji diff`` counts it),
the schedules of the compare modes by :func:`guji.compare.compare`,
and the audio of each reading by :func:`guji.sound.files.write_audio` laid
out as ``guji render ID`` lays it out — so a reading heard in the page is,
sample for sample, the file ``guji render`` writes with the same options
(``tests/test_studio_browser.py`` checks it).

:class:`Request` is what the page asks for: the readings (refs of
:mod:`guji.studio.documents`), the timing, the drum left out.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..errors import UsageError
from ..page_words import _
from ..text.reading.names import LETTERS, variant_names
from ..text.reading.notation import Pattern, Rite
from ..compare import MODES, compare
from ..timing.layout import lay_out
from ..timing.performance import DRUMS, Performance, Timing, Voice
from ..timing.score import DEFAULT_INTERVAL, check_interval, interval_from_bpm
from ..views.follow import follow_parts
from ..views.page import alignment_summary, alignment_table
from ..views.source import source_drawing
from ..views.timeline import timeline_drawing
from .documents import Library

#: The rate of the studio's audio (``guji render``'s default).
RATE = 48000
#: The most readings compared at once.
MOST_READINGS = 8
#: The longest piece the studio plays or exports (seconds): its audio is held in memory, in
#: the server and in the page (about 11 MB a minute as 16-bit WAV, twice that as floats).
#: Longer pieces are for ``guji render``, which writes them in blocks.
MOST_SECONDS = 15 * 60


@dataclass(frozen=True)
class Request:
    """What the page asks about: *refs* (A first), *timing*, the drum *mute*d
    or *solo*ed (a :class:`Voice` name, or ``None``)."""

    refs: tuple[str, ...]
    timing: Timing
    mute: str | None = None
    solo: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Request":
        refs = data.get("readings")
        if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
            raise UsageError(_("choose one reading or more"))
        if len(refs) > MOST_READINGS:
            raise UsageError(_("at most {most} readings at once, not {n}").format(
                most=MOST_READINGS, n=len(refs)))
        t = data.get("timing") or {}
        if not isinstance(t, dict):
            raise UsageError(_("the request is not a JSON object"))
        try:
            rite = Rite(t.get("rite", "she"))
        except ValueError:
            raise UsageError(_("unknown rite {rite!r}: touhu or she").format(
                rite=t.get("rite"))) from None
        if t.get("bpm") not in (None, ""):
            interval = interval_from_bpm(_number(t["bpm"], "bpm"))
        else:
            interval = check_interval(_number(t.get("interval", DEFAULT_INTERVAL), "interval"))
        timing = Timing(rite, interval, _whole(t.get("repeat", 1), "repeat"),
                        _whole(t.get("count_in", 0), "count-in"))
        mute, solo = data.get("mute") or None, data.get("solo") or None
        for name in (mute, solo):
            if name is not None:
                Voice.from_name(str(name))
        return cls(tuple(refs), timing, mute, solo)

    def patterns(self, library: Library) -> list[Pattern]:
        return [library.pattern(r) for r in self.refs]

    def muted(self) -> frozenset[Voice]:
        if self.mute:
            return frozenset([Voice.from_name(self.mute)])
        if self.solo:
            return frozenset(DRUMS) - {Voice.from_name(self.solo)}
        return frozenset()

    def options(self) -> list[str]:
        """The command-line options saying the same (for the exports and the page)."""
        t = self.timing
        out = ["--rite", t.rite.value, "--interval", repr(t.interval),
               "--repeat", str(t.repeat), "--count-in", str(t.count_in)]
        if self.mute:
            out += ["--mute", self.mute]
        if self.solo:
            out += ["--solo", self.solo]
        return out


def _number(value, what: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise UsageError(_("the {what} is a number, not {value!r}").format(
            what=what, value=value)) from None


def _whole(value, what: str) -> int:
    number = _number(value, what)
    if not math.isfinite(number) or number != int(number):
        raise UsageError(_("the {what} is a whole number, not {value!r}").format(
            what=what, value=value))
    return int(number)


def reading_performance(pattern: Pattern, request: Request) -> Performance:
    """One reading laid out as ``guji render ID`` lays it out (its name, its mute)."""
    whole = lay_out([pattern], request.timing, names=variant_names([pattern]))
    return checked_length(whole.muting(request.muted()))


def checked_length(performance: Performance) -> Performance:
    """*performance*, if the studio may play it (:data:`MOST_SECONDS`); else :class:`UsageError`."""
    if performance.duration > MOST_SECONDS:
        raise UsageError(_("that is {minutes} min of music: the studio plays up to {most} min "
                           "(fewer passes or a shorter interval); guji render writes longer "
                           "pieces").format(minutes=f"{performance.duration / 60:.1f}",
                                            most=MOST_SECONDS // 60))
    return performance


def view_json(library: Library, request: Request) -> dict:
    """The drawings, alignments, schedules and sound plan of *request*."""
    patterns = request.patterns(library)
    readings = []
    for i, p in enumerate(patterns):
        perf = reading_performance(p, request)
        score = perf.parts[0].score
        readings.append({"letter": LETTERS[i % 26], "id": p.id, "ref": request.refs[i],
                         "notation": p.notation(request.timing.rite),
                         # each stroke's drum (glyph and name), for the words under the player
                         "drums": [[st.drum.glyph, st.drum.value] for st in p.strokes],
                         "follow": follow_parts(perf, patterns),
                         "onsets": [round(score.time(k) * RATE) for k in range(len(score))],
                         "duration": perf.duration})
    out = {"rate": RATE, "interval": request.timing.interval, "readings": readings,
           "source_svg": source_drawing(patterns).svg(),
           "timeline_svg": timeline_drawing(patterns).svg(),
           "alignments": [], "modes": {}}
    for i, p in enumerate(patterns[1:], start=1):
        out["alignments"].append({"letter": LETTERS[i % 26],
                                  "summary": alignment_summary(patterns[0], p),
                                  "table": alignment_table(patterns[0], p, LETTERS[i % 26])})
    if len(patterns) >= 2:
        for mode in MODES:
            c = compare(patterns, mode, request.timing)
            checked_length(c.performance)
            out["modes"][mode] = {"schedule": c.schedule_text().splitlines(),
                                  "follow": follow_parts(c.performance, patterns)}
    return out


def command_kit():
    """The kit ``guji render`` and ``guji compare`` sound with when given no
    options (48 kHz, at their default loudness), so that the studio's audio
    is the commands' bytes."""
    import dataclasses
    from ..defaults import LOUDNESS_LUFS
    from ..sound.kit import default_kit
    return dataclasses.replace(default_kit(RATE), loudness=LOUDNESS_LUFS)


def reading_wav(library: Library, request: Request, index: int) -> bytes:
    """The WAV (48 kHz, stereo, 16-bit: ``guji render``'s defaults) of reading *index*."""
    from ..sound.files import write_audio
    if not 0 <= index < len(request.refs):
        raise UsageError(_("no reading {index} of {n}").format(index=index, n=len(request.refs)))
    perf = reading_performance(library.pattern(request.refs[index]), request)
    with tempfile.TemporaryDirectory(prefix="guji-studio-") as tmp:
        path = Path(tmp) / "reading.wav"
        write_audio(path, perf, kit=command_kit(), rate=RATE, channels=2, format="wav")
        return path.read_bytes()


def mode_wav(library: Library, request: Request, mode: str) -> bytes:
    """The WAV of a compare *mode* of the readings (as ``guji compare --mode MODE -o F.wav``)."""
    from ..sound.files import write_audio
    if mode not in MODES:
        raise UsageError(_("unknown compare mode {mode!r}: use one of {modes}").format(
            mode=mode, modes=", ".join(MODES)))
    c = compare(request.patterns(library), mode, request.timing)
    checked_length(c.performance)
    with tempfile.TemporaryDirectory(prefix="guji-studio-") as tmp:
        path = Path(tmp) / "compare.wav"
        write_audio(path, c.performance, kit=command_kit(), rate=RATE, channels=2,
                    format="wav")
        return path.read_bytes()

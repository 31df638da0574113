"""Comparing readings by ear: what ``guji compare`` plays, as parts and cues.

Each mode turns two or more patterns (A, B, C …) into a
:class:`~guji.timing.performance.Performance` (built with its combinators),
plus a schedule a person can read ("12.6 s  薛鼓 2 lijing-benyi …").
Everything here is pure: the renderer, the MIDI writer and the player take
:attr:`Comparison.performance` as they take any performance.

Every variant is played with the same timing (rite, interval, repeat,
count-in), and every part starts on a whole number of grid steps (slots) of
that one even grid (間若一), so all strokes of a comparison lie on one grid.

Modes
-----
``sequence``
    A (all its passes), a gap, then B, a gap, then C … The gap is
    :data:`SEQUENCE_GAP_SLOTS` (3) empty slots after the variant's last
    event, and the cue bell sounds on the middle one: A's last stroke at
    slot *n*−1, silence at *n*, the bell at *n*+1, silence at *n*+2, B's
    first stroke at *n*+3. So B starts at ``(len(A's score) + 3) × interval``
    seconds. The count-in, if any, is played once, before A.
``alternate``
    Pass by pass: A's pass, B's pass (C's …), then A's next pass, for
    ``--repeat`` rounds, with :data:`ALTERNATE_GAP_SLOTS` (1) empty slot
    between passes and no bell. Each pass is a part of its own (all of a
    variant's parts bear the variant's name).
``stereo``
    All variants at once on the same grid, A in the left ear (pan −1) and B
    in the right (pan +1), so a stroke where they differ jumps out of one
    side. With three or more variants the pans spread evenly from −1 to +1.
    The count-in clicks come with A only (and the others start after it).
``diff``
    A alone, with a soft bell (a :class:`~guji.score.Cue`) on each stroke
    where another reading differs (another drum, or no stroke there), and
    between two strokes where another reading has an extra stroke. Each
    mark is listed with its time. Only the strokes the rite plays can be
    marked: in 投壺 (from 半 to the end) a difference before 半 is listed as
    unheard (play ``--rite she`` to hear it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from ..errors import UsageError
from ..text.align import DEL, INS, SUB, align_many
from ..text.names import LETTERS, letter, variant_names
from ..text.notation import Pattern, Rite
from .layout import DEFAULT_GAP_STEPS, count_in, perform, sequence as one_after_another, stack
from .performance import Cue, Part, Performance, Timing
from .score import Score

MODES = ("sequence", "alternate", "stereo", "diff")

#: Empty grid slots between variants in ``sequence`` (the one gap rule of
#: :func:`guji.timing.performance.sequence`); the cue bell sounds on the middle
#: one (:data:`SEQUENCE_CUE_SLOT` slots into the gap).
SEQUENCE_GAP_SLOTS = DEFAULT_GAP_STEPS
SEQUENCE_CUE_SLOT = 1

#: Empty grid slots between passes in ``alternate``.
ALTERNATE_GAP_SLOTS = 1


@dataclass(frozen=True)
class Entry:
    """One line of the schedule: from *time* to *end* seconds, *text*."""

    time: float
    end: float
    text: str

    def line(self) -> str:
        return f"{self.time:7.2f} s  {self.text}"


@dataclass(frozen=True)
class Mark:
    """A stroke of A where another reading differs (``diff`` mode).

    Attributes
    ----------
    time:
        When the bell sounds (seconds), or ``None`` when the rite does not
        play the place (a difference before 半 in 投壺).
    pass_index:
        Which pass of A (0-based), ``None`` when unheard.
    kind:
        ``sub`` (the other reading strikes the other drum), ``del`` (it has
        no stroke here), ``ins`` (it has an extra stroke between two of A's).
    variant:
        The other reading's letter and id (``B lu:1@wuli-tongkao``).
    a_index:
        Index of A's stroke (for ``ins``: of the stroke the extra one comes
        before; ``len(A.strokes)`` when it comes after the last).
    text:
        One line saying what differs.
    """

    time: float | None
    pass_index: int | None
    kind: str
    variant: str
    a_index: int
    text: str

    def line(self) -> str:
        when = f"{self.time:7.2f} s" if self.time is not None else "  unheard"
        return f"{when}  {self.text}"


@dataclass(frozen=True)
class Comparison:
    """A comparison ready to play or write.

    Attributes
    ----------
    mode:
        One of :data:`MODES`.
    patterns:
        The variants, A first.
    performance:
        What sinks take (``write_audio(path, performance)``,
        ``write_midi(path, performance)``, ``play(performance)``).
    schedule:
        What plays when, in time order.
    marks:
        ``diff`` mode: the marked differences (heard and unheard).
    notes:
        Remarks for the listener (e.g. differences the rite does not play).
    """

    mode: str
    patterns: tuple[Pattern, ...]
    timing: Timing
    performance: Performance
    schedule: tuple[Entry, ...] = ()
    marks: tuple[Mark, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def parts(self) -> tuple[Part, ...]:
        return self.performance.parts

    @property
    def cues(self) -> tuple[Cue, ...]:
        return self.performance.cues

    @property
    def duration(self) -> float:
        """Seconds until the last part's grid ends (or the last cue's slot)."""
        return self.performance.duration

    def schedule_text(self) -> str:
        """The schedule (and, in ``diff``, the marks and notes) as lines."""
        lines = [e.line() for e in self.schedule]
        heard = [m for m in self.marks if m.time is not None]
        unheard = [m for m in self.marks if m.time is None]
        if heard:
            lines.append("marked (a bell on the stroke):")
            lines += ["  " + m.line() for m in heard]
        if unheard:
            lines.append(f"not played in {self.timing.rite.chinese} ({self.timing.rite.value}):")
            lines += ["  " + m.line() for m in unheard]
        lines += list(self.notes)
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "duration": self.duration,
            "rite": self.timing.rite.value,
            "interval": self.timing.interval,
            "repeat": self.timing.repeat,
            "count_in": self.timing.count_in,
            "patterns": [p.id for p in self.patterns],
            "parts": [{"name": p.name, "pattern": p.score.pattern.id, "start": p.score.start,
                       "end": p.score.duration, "pan": p.pan} for p in self.parts],
            "cues": [{"time": c.time, "label": c.label} for c in self.cues],
            "schedule": [{"time": e.time, "end": e.end, "text": e.text} for e in self.schedule],
            "marks": [{"time": m.time, "pass": m.pass_index, "kind": m.kind,
                       "variant": m.variant, "a_index": m.a_index, "text": m.text}
                      for m in self.marks],
        }


def _describe(score: Score, letter: str, name: str, extra: str = "") -> str:
    """``A 魯鼓 1 liji-zhengyi (lu:1@liji-zhengyi), 投壺 touhu, 12 strokes × 2 passes``."""
    n = score.per_pass
    what = f"{n} stroke{'s' if n != 1 else ''}"
    if score.repeat > 1:
        what += f" × {score.repeat} passes"
    return (f"{letter} {name} ({score.pattern.id}), {score.rite.chinese} {score.rite.value}, "
            f"{what}{extra}")


def _count_in_entry(score: Score, extra: str = "") -> Entry:
    """The schedule line of *score*'s count-in: ``count-in, 4 clicks``."""
    n = score.count_in
    return Entry(score.time(0), score.pass_start(0),
                 f"count-in, {n} click{'s' if n != 1 else ''}{extra}")


def _title(mode: str, patterns: Sequence[Pattern]) -> str:
    """What the files of a comparison are called: ``guji compare diff: lu:1 / lu:1@…``."""
    return f"guji compare {mode}: " + " / ".join(p.id for p in patterns)


def _check(patterns: Sequence[Pattern], mode: str, least: int = 2) -> tuple[Pattern, ...]:
    patterns = tuple(patterns)
    if mode not in MODES:
        raise UsageError(f"unknown compare mode {mode!r}: use one of {', '.join(MODES)}")
    if len(patterns) < least:
        raise UsageError(f"compare needs at least {least} patterns, not {len(patterns)}")
    return patterns


def sequence(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """A, gap with a bell, B, gap with a bell, C … (see the module docstring)."""
    patterns = _check(patterns, "sequence")
    names = variant_names(patterns)
    plain = replace(timing, count_in=0)
    each = [perform(p, plain, name=n) for p, n in zip(patterns, names)]
    labels = [f"next: {letter(v)} {name}" for v, name in enumerate(names)][1:]
    performance = count_in(one_after_another(each, gap=SEQUENCE_GAP_SLOTS, cue_labels=labels,
                                             cue_step=SEQUENCE_CUE_SLOT, title=_title("sequence", patterns)),
                           timing.count_in)
    schedule = []
    for v, part in enumerate(performance.parts):
        if v:
            cue = performance.cues[v - 1]
            schedule.append(Entry(cue.time, cue.time + timing.interval, f"bell: next {letter(v)}"))
        if part.score.count_in:
            schedule.append(_count_in_entry(part.score))
        schedule.append(Entry(part.score.pass_start(0), part.score.duration,
                              _describe(part.score, letter(v), part.name)))
    return Comparison("sequence", patterns, timing, performance, tuple(schedule))


def alternate(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """Pass by pass, A then B (then C …), for ``timing.repeat`` rounds."""
    from .layout import alternate as pass_by_pass
    patterns = _check(patterns, "alternate")
    names = variant_names(patterns)
    performance = pass_by_pass(patterns, timing, names=names, gap=ALTERNATE_GAP_SLOTS,
                               title=_title("alternate", patterns))
    schedule = []
    rounds = timing.repeat
    for k, part in enumerate(performance.parts):
        r, v = divmod(k, len(patterns))
        if part.score.count_in:
            schedule.append(_count_in_entry(part.score))
        schedule.append(Entry(part.score.pass_start(0), part.score.duration,
                              _describe(part.score, letter(v), part.name,
                                        f", round {r + 1}/{rounds}")))
    return Comparison("alternate", patterns, timing, performance, tuple(schedule))


def stereo_pans(n: int) -> tuple[float, ...]:
    """Pans of *n* variants: −1 (left) for A, +1 (right) for the last, even between."""
    if n == 1:
        return (0.0,)
    return tuple(-1.0 + 2.0 * i / (n - 1) for i in range(n))


def _side(pan: float) -> str:
    if pan <= -0.999:
        return "left"
    if pan >= 0.999:
        return "right"
    if abs(pan) < 1e-9:
        return "centre"
    return f"pan {pan:+.2f}"


def stereo(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """All variants at once on one grid, A left, B right (see the module docstring)."""
    patterns = _check(patterns, "stereo")
    names = variant_names(patterns)
    pans = stereo_pans(len(patterns))
    plain = replace(timing, count_in=0)
    each = [perform(p, plain, name=n) for p, n in zip(patterns, names)]
    performance = count_in(stack(each, pans=pans, title=_title("stereo", patterns)),
                           timing.count_in)
    schedule = []
    for v, part in enumerate(performance.parts):
        if part.score.count_in:
            schedule.append(_count_in_entry(part.score, f" ({_side(part.pan)})"))
        schedule.append(Entry(part.score.pass_start(0), part.score.duration,
                              _describe(part.score, letter(v), part.name, f", {_side(part.pan)}")))
    schedule.sort(key=lambda e: e.time)
    return Comparison("stereo", patterns, timing, performance, tuple(schedule))


def diff(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """A, with a bell on each stroke where B (C …) differs (see the module docstring)."""
    patterns = _check(patterns, "diff")
    names = variant_names(patterns)
    a = patterns[0]
    score = timing.score(a)
    part = Part(score, names[0])
    grid = align_many(patterns)
    n = len(a.strokes)
    first_played = a.half_start if timing.rite is Rite.TOUHU else 0
    played = range(first_played, n)     # A's strokes the rite plays

    # Walk the grid: remember A's stroke index at or after each column.
    marks: list[Mark] = []
    next_a = [0] * (len(grid.columns) + 1)
    nxt = n
    for c in range(len(grid.columns) - 1, -1, -1):
        if grid.columns[c][0] is not None:
            nxt = grid.columns[c][0]
        next_a[c] = nxt
    # (a_index, kind) → [variants]; kept in column order.
    places: dict[tuple[int, str], list[str]] = {}
    for c, col in enumerate(grid.columns):
        for v in range(1, len(patterns)):
            kind = grid.kind(c, v)
            if kind in (SUB, DEL, INS):
                key = (next_a[c], kind)
                places.setdefault(key, []).append(f"{letter(v)} {patterns[v].id}")

    def where(i: int, kind: str, others: list[str]) -> str:
        who = ", ".join(others)
        if kind == INS:
            if i >= n:
                return f"{who}: an extra stroke after A's last stroke"
            return f"{who}: an extra stroke before A's stroke {i + 1}"
        s = a.strokes[i]
        if kind == SUB:
            other = "□ 鼓" if s.glyph == "○" else "○ 鼙"
            return f"A stroke {i + 1} {s.glyph} {s.drum.value}: {who} strike{'s' if len(others) == 1 else ''} {other}"
        return f"A stroke {i + 1} {s.glyph} {s.drum.value}: {who} ha{'s' if len(others) == 1 else 've'} no stroke here"

    cues = []
    for (i, kind), others in places.items():
        text = where(i, kind, others)
        variant = ", ".join(others)
        # An extra stroke sounds half a slot before A's stroke i (between
        # the two strokes it stands between); after the last one, half a slot
        # after it.
        if kind == INS:
            # Heard when the two strokes it stands between are both played
            # (or it stands at an end of the pattern, next to a played one).
            audible = (i == 0 or i - 1 in played) and (i == n or i in played) and n > 0
            offset = -0.5 if i < n else 0.5
            position = min(i, n - 1)
        else:
            audible = i in played
            offset = 0.0
            position = i
        if not audible:
            marks.append(Mark(None, None, kind, variant, i, text))
            continue
        k = position - first_played
        for p in range(score.repeat):
            idx = score.count_in + p * score.per_pass + k
            t = max(0.0, score.time(idx) + offset * score.interval)
            marks.append(Mark(t, p, kind, variant, i, text + (f" (pass {p + 1})" if score.repeat > 1 else "")))
            cues.append(Cue(t, text))
    marks.sort(key=lambda m: (m.time is None, m.time or 0.0, m.a_index))
    cues.sort(key=lambda c: c.time)

    schedule = []
    if score.count_in:
        schedule.append(_count_in_entry(score))
    others = ", ".join(f"{letter(v)} {patterns[v].id}" for v in range(1, len(patterns)))
    verb = "differs" if len(patterns) == 2 else "differ"
    schedule.append(Entry(score.pass_start(0), score.duration,
                          _describe(score, "A", names[0], f", a bell where {others} {verb}")))
    notes = []
    if not places:
        notes.append(f"no differences: {others} read{'s' if len(patterns) == 2 else ''} as A")
    elif not cues:
        notes.append(f"every difference lies before 半, which {timing.rite.chinese} does not play: "
                     "use --rite she to hear them")
    performance = Performance((part,), tuple(cues), _title("diff", patterns))
    return Comparison("diff", patterns, timing, performance, tuple(schedule),
                      tuple(marks), tuple(notes))


_BUILDERS = {"sequence": sequence, "alternate": alternate, "stereo": stereo, "diff": diff}


def compare(patterns: Sequence[Pattern], mode: str = "sequence",
            timing: Timing = Timing()) -> Comparison:
    """The comparison of *patterns* in *mode* (one of :data:`MODES`)."""
    _check(patterns, mode)
    result = _BUILDERS[mode](patterns, timing)
    note = unheard_note(patterns, timing.rite)
    if note and mode != "diff":      # diff says it in its own words
        result = replace(result, notes=result.notes + (note,))
    return result


def unheard_note(patterns: Sequence[Pattern], rite: Rite) -> str | None:
    """A warning when the readings differ but not in the strokes *rite* plays
    (in 投壺 a variant before 半 is not heard), else ``None``."""
    played = {tuple(s.drum for s in p.strokes_for(rite)) for p in patterns}
    whole = {tuple(s.drum for s in p.strokes) for p in patterns}
    if len(played) == 1 and len(whole) > 1:
        return (f"note: the readings differ only before 半, which {rite.chinese} ({rite.value}) "
                "does not play: use --rite she to hear the difference")
    return None

"""Comparing readings by ear: what ``guji compare`` plays, as parts and cues.

Each mode turns two or more patterns (A, B, C …) into a
:class:`~guji.timing.performance.Performance` (built with its combinators),
plus a schedule a person can read ("12.6 s  薛鼓 2 lijing-benyi …").
Everything here is pure: the renderer, the MIDI writer and the player take
:attr:`Comparison.performance` as they take any performance. The values
built here (:class:`~guji.compare.comparison.Comparison`, its schedule lines
and ``diff``'s marks) are :mod:`guji.compare.comparison`.

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
    A alone, with a soft bell (a :class:`~guji.timing.performance.Cue`) on each stroke
    where another reading differs (another drum, or no stroke there), and
    between two strokes where another reading has an extra stroke. Each
    mark is listed with its time. Only the strokes the rite plays can be
    marked: in 投壺 (from 半 to the end) a difference before 半 is listed as
    unheard (play ``--rite she`` to hear it).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Sequence

from ..i18n import N_, NN_, _
from ..errors import UsageError
from ..text.collation.align import DEL, INS, SUB
from ..text.collation.grid import Column, Grid, align_many
from ..text.reading.names import letter, variant_names
from ..text.reading.notation import Pattern, Rite
from .comparison import Comparison, Entry, Mark, Words
from ..timing.extent import check_parts
from ..timing.layout import DEFAULT_GAP_STEPS, count_in, perform, sequence as one_after_another, stack
from ..timing.performance import Cue, Part, Performance, Timing
from ..timing.score import Score

MODES = ("sequence", "alternate", "stereo", "diff")

#: Empty grid slots between variants in ``sequence`` (the one gap rule of
#: :func:`guji.timing.performance.sequence`); the cue bell sounds on the middle
#: one (:data:`SEQUENCE_CUE_SLOT` slots into the gap).
SEQUENCE_GAP_SLOTS = DEFAULT_GAP_STEPS
SEQUENCE_CUE_SLOT = 1

#: Empty grid slots between passes in ``alternate``.
ALTERNATE_GAP_SLOTS = 1


def _describe(score: Score, letter: str, name: str, extra: Words | str = "") -> Words:
    """``A 魯鼓 1 liji-zhengyi (lu:1@liji-zhengyi), 投壺 touhu, 12 strokes × 2 passes``."""
    n = score.per_pass
    if score.repeat > 1:
        what = Words.of(NN_("{n} stroke × {passes} passes", "{n} strokes × {passes} passes"), n,
                        n=n, passes=score.repeat)
    else:
        what = Words.of(NN_("{n} stroke", "{n} strokes"), n, n=n)
    return Words.of(N_("{letter} {name} ({id}), {chinese} {rite}, {what}{extra}"), letter=letter,
                    name=name, id=score.pattern.id, chinese=score.rite.chinese,
                    rite=score.rite.value, what=what, extra=extra)


def _count_in_entry(score: Score, extra: Words | str = "") -> Entry:
    """The schedule line of *score*'s count-in: ``count-in, 4 clicks``."""
    n = score.count_in
    return Entry.said(score.time(0), score.pass_start(0),
                      Words.of(NN_("count-in, {n} click{extra}", "count-in, {n} clicks{extra}"), n,
                               n=n, extra=extra))


def _title(mode: str, patterns: Sequence[Pattern]) -> str:
    """What the files of a comparison are called: ``guji compare diff: lu:1 / lu:1@…``."""
    return f"guji compare {mode}: " + " / ".join(p.id for p in patterns)


def _check(patterns: Sequence[Pattern], mode: str, least: int = 2) -> tuple[Pattern, ...]:
    patterns = tuple(patterns)
    if mode not in MODES:
        raise UsageError(_('unknown compare mode {mode}: use one of {value}').format(mode=repr(mode), value=', '.join(MODES)))
    if len(patterns) < least:
        raise UsageError(_('compare needs at least {least} patterns, not {value}').format(least=least, value=len(patterns)))
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
            schedule.append(Entry.said(cue.time, cue.time + timing.interval,
                                       Words.of(N_("bell: next {letter}"), letter=letter(v))))
        if part.score.count_in:
            schedule.append(_count_in_entry(part.score))
        schedule.append(Entry.said(part.score.pass_start(0), part.score.duration,
                                   _describe(part.score, letter(v), part.name)))
    return Comparison("sequence", patterns, timing, performance, tuple(schedule))


def alternate(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """Pass by pass, A then B (then C …), for ``timing.repeat`` rounds."""
    from ..timing.layout import alternate as pass_by_pass
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
        schedule.append(Entry.said(part.score.pass_start(0), part.score.duration,
                                   _describe(part.score, letter(v), part.name,
                                             Words.of(N_(", round {r}/{rounds}"),
                                                      r=r + 1, rounds=rounds))))
    return Comparison("alternate", patterns, timing, performance, tuple(schedule))


def stereo_pans(n: int) -> tuple[float, ...]:
    """Pans of *n* variants: −1 (left) for A, +1 (right) for the last, even between."""
    if n == 1:
        return (0.0,)
    return tuple(-1.0 + 2.0 * i / (n - 1) for i in range(n))


def _side(pan: float) -> Words:
    if pan <= -0.999:
        return Words.of(N_("left"))
    if pan >= 0.999:
        return Words.of(N_("right"))
    if abs(pan) < 1e-9:
        return Words.of(N_("centre"))
    return Words.of(N_("pan {pan}"), pan=f"{pan:+.2f}")


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
            schedule.append(_count_in_entry(part.score, Words.of(N_(" ({side})"), side=_side(part.pan))))
        schedule.append(Entry.said(part.score.pass_start(0), part.score.duration,
                                   _describe(part.score, letter(v), part.name,
                                             Words.of(N_(", {side}"), side=_side(part.pan)))))
    schedule.sort(key=lambda e: e.time)
    return Comparison("stereo", patterns, timing, performance, tuple(schedule))


def diff(patterns: Sequence[Pattern], timing: Timing = Timing()) -> Comparison:
    """A, with a bell on each stroke where B (C …) differs (see the module docstring).

    Built in steps: the places where the readings differ from A on their grid
    (:func:`_differences`), a mark and the bells for each (:func:`_marks_and_cues`),
    the schedule, and the notes (:func:`_diff_notes`).
    """
    patterns = _check(patterns, "diff")
    names = variant_names(patterns)
    score = timing.score(patterns[0])
    places = _differences(align_many(patterns))
    marks, cues = _marks_and_cues(places, patterns[0], score, timing.rite)

    schedule = []
    if score.count_in:
        schedule.append(_count_in_entry(score))
    others = _others(patterns)
    where = Words.of(NN_(", a bell where {others} differs", ", a bell where {others} differ"),
                     len(patterns) - 1, others=others)
    schedule.append(Entry.said(score.pass_start(0), score.duration,
                               _describe(score, "A", names[0], where)))
    performance = Performance((Part(score, names[0]),), cues, _title("diff", patterns))
    return Comparison("diff", patterns, timing, performance, tuple(schedule), marks,
                      _diff_notes(patterns, places, cues, timing.rite))


def _others(patterns: Sequence[Pattern]) -> str:
    """``B lu:1@wuli-tongkao, C …``: every reading but A, by letter and id."""
    return ", ".join(f"{letter(v)} {patterns[v].id}" for v in range(1, len(patterns)))


def _differences(grid: Grid) -> dict[tuple[int, str], list[str]]:
    """Where the readings differ from A (row 0 of *grid*), by A's stroke.

    Returns ``(a_index, kind) → [variants]`` in column order: *kind* is
    ``sub``, ``del`` or ``ins``, the variants the other readings that differ
    so (``B lu:1@wuli-tongkao``), and *a_index* A's stroke in the column, or
    for an insertion the A stroke it comes before (``len(A.strokes)`` when it
    comes after the last).
    """
    columns = list(grid.walk())
    next_a = _next_a_stroke(columns, len(grid.patterns[0].strokes))
    places: dict[tuple[int, str], list[str]] = {}
    for column in columns:
        for cell in column.cells[1:]:
            if cell.kind in (SUB, DEL, INS):
                key = (next_a[column.index], cell.kind)
                places.setdefault(key, []).append(f"{letter(cell.row)} "
                                                  f"{grid.patterns[cell.row].id}")
    return places


def _next_a_stroke(columns: Sequence[Column], n: int) -> list[int]:
    """For each column, the index of A's stroke in it or in the first column
    after it that has one (*n*, A's length, when none does)."""
    out = [n] * len(columns)
    nxt = n
    for column in reversed(columns):
        if column.cells[0].index is not None:
            nxt = column.cells[0].index
        out[column.index] = nxt
    return out


def _mark_text(a: Pattern, i: int, kind: str, others: list[str]) -> Words:
    """One line saying what differs at A's stroke *i* (for ``ins``: before it)."""
    who = ", ".join(others)
    if kind == INS:
        if i >= len(a.strokes):
            return Words.of(N_("{who}: an extra stroke after A's last stroke"), who=who)
        return Words.of(N_("{who}: an extra stroke before A's stroke {i}"), who=who, i=i + 1)
    s = a.strokes[i]
    if kind == SUB:
        other = "□ 鼓" if s.glyph == "○" else "○ 鼙"
        return Words.of(NN_("A stroke {i} {glyph} {drum}: {who} strikes {other}",
                            "A stroke {i} {glyph} {drum}: {who} strike {other}"), len(others),
                        i=i + 1, glyph=s.glyph, drum=s.drum.value, who=who, other=other)
    return Words.of(NN_("A stroke {i} {glyph} {drum}: {who} has no stroke here",
                        "A stroke {i} {glyph} {drum}: {who} have no stroke here"), len(others),
                    i=i + 1, glyph=s.glyph, drum=s.drum.value, who=who)


def _bell_place(i: int, kind: str, n: int, played: range) -> tuple[bool, float, int]:
    """Where the bell for a difference at A's stroke *i* sounds: (whether the
    rite plays it, its offset in slots, the A stroke it is offset from)."""
    # An extra stroke sounds half a slot before A's stroke i (between the two
    # strokes it stands between); after the last one, half a slot after it.
    if kind == INS:
        # Heard when the two strokes it stands between are both played (or it
        # stands at an end of the pattern, next to a played one).
        audible = (i == 0 or i - 1 in played) and (i == n or i in played) and n > 0
        return audible, (-0.5 if i < n else 0.5), min(i, n - 1)
    return i in played, 0.0, i


def _marks_and_cues(places: dict[tuple[int, str], list[str]], a: Pattern, score: Score,
                    rite: Rite) -> tuple[tuple[Mark, ...], tuple[Cue, ...]]:
    """A mark for each place (one per pass where the rite plays it, else one
    unheard), and a bell for each heard mark; marks heard first, in time order."""
    n = len(a.strokes)
    first_played = a.half_start if rite is Rite.TOUHU else 0
    played = range(first_played, n)     # A's strokes the rite plays
    marks: list[Mark] = []
    cues = []
    check_parts(score.repeat * len(places), "differences to mark (cues)")
    for (i, kind), others in places.items():
        words = _mark_text(a, i, kind, others)
        text = words.english
        variant = ", ".join(others)
        audible, offset, position = _bell_place(i, kind, n, played)
        if not audible:
            marks.append(Mark(None, None, kind, variant, i, text, words))
            continue
        k = position - first_played
        for p in range(score.repeat):
            idx = score.count_in + p * score.per_pass + k
            # on the grid: the stroke's step, or half a step before or after it
            cue = Cue(step=max(Fraction(0), score.step + idx + Fraction(offset)),
                      interval=score.interval, label=text)
            said = Words.of(N_("{text} (pass {p})"), text=words, p=p + 1) if score.repeat > 1 else words
            marks.append(Mark(cue.time, p, kind, variant, i, said.english, said))
            cues.append(cue)
    marks.sort(key=lambda m: (m.time is None, m.time or 0.0, m.a_index))
    cues.sort(key=lambda c: c.time)
    return tuple(marks), tuple(cues)


def _diff_notes(patterns: Sequence[Pattern], places: dict, cues: Sequence[Cue],
                rite: Rite) -> tuple[Words, ...]:
    """What ``diff`` tells the listener when there is nothing to hear: no
    difference at all, or only differences the rite does not play."""
    if not places:
        return (Words.of(NN_("no differences: {others} reads as A", "no differences: {others} read as A"),
                         len(patterns) - 1, others=_others(patterns)),)
    if not cues:
        return (Words.of(N_("every difference lies before 半, which {chinese} does not play: "
                            "use --rite she to hear them"), chinese=rite.chinese),)
    return ()


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


def unheard_note(patterns: Sequence[Pattern], rite: Rite) -> Words | None:
    """A warning when the readings differ but not in the strokes *rite* plays
    (in 投壺 a variant before 半 is not heard), else ``None``."""
    played = {tuple(s.drum for s in p.strokes_for(rite)) for p in patterns}
    whole = {tuple(s.drum for s in p.strokes) for p in patterns}
    if len(played) == 1 and len(whole) > 1:
        return Words.of(N_("note: the readings differ only before 半, which {chinese} ({rite}) "
                           "does not play: use --rite she to hear the difference"),
                        chinese=rite.chinese, rite=rite.value)
    return None

"""Agreement groups: which readings of one pattern are the same, and how the others differ.

A scholar's question is "who reads what": :func:`groups` gathers the
readings of one pattern (editions, and the witnesses of their notes) into
groups that read the whole pattern identically — the same strokes, 半 at the
same place — largest group first (ties: in the order the readings are
given). Each other group's differences from the largest are stated in words
(:func:`differences`), on an alignment of the two readings, part by part::

    before 半: □ for ○ at stroke 4
    after 半: one ○□ fewer at strokes 3–4
    before 半: one ○ more after stroke 19

Strokes are numbered within their part, as the largest group's reading
writes them: "before 半" from the first stroke, "after 半" from the first
stroke after 半. A run of strokes one reading lacks is "one ○□ fewer" (one
such run), a run it adds "one ○□ more", a run it strikes on the other drum
"□□ for ○○". The parts before and after 半 are aligned each on its own (a
stroke before 半 in one reading never faces one after it in the other), with
the fewest runs among the cheapest alignments (:func:`align_runs`). Where
several places give the same reading (one ○ fewer in ○○○), the first is
named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .align import DEL, INS, MATCH, SUB, check_alignment, check_patterns
from .hirschberg import SMALL_CELLS, codes
from .runs_split import trace_runs
from ..apparatus.witnesses import origins_of
from ..reading.notation import Pattern
from ...i18n import N_, Words

__all__ = ["Group", "groups", "differences"]


@dataclass(frozen=True)
class Group:
    """Readings that agree: the whole reading (``before`` and ``after`` 半, as
    ○ □) and the names of the readings that have it; ``differences`` from the
    largest group, in words (empty for the largest)."""

    before: str
    after: str
    editions: tuple[str, ...]
    differences: tuple[str, ...] = ()
    #: the same differences as :class:`~guji.i18n.Words`: :meth:`said` in the user's language
    words: tuple[Words, ...] = ()

    def said(self) -> list[str]:
        """The differences in the language in use (English ones when no words are kept)."""
        return [w.shown() for w in self.words] if self.words else list(self.differences)

    def to_json(self) -> dict:
        return {"before": self.before, "after": self.after, "editions": list(self.editions),
                "differences": list(self.differences)}


def _parts(pattern: Pattern) -> tuple[str, str]:
    """The strokes before 半 and after it, as ○ □."""
    return ("".join(s.glyph for s in pattern.before), "".join(s.glyph for s in pattern.half))


def groups(readings: Mapping[str, Pattern]) -> tuple[Group, ...]:
    """The readings (name → pattern) in agreement groups, largest first (see
    the module docstring). Two readings share a group exactly when their
    whole readings are equal."""
    members: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], Pattern] = {}
    for name, pattern in readings.items():
        key = _parts(pattern)
        members.setdefault(key, []).append(name)
        first.setdefault(key, pattern)
    order = sorted(members, key=lambda k: -len(members[k]))      # stable: ties keep order
    if not order:
        return ()
    largest = first[order[0]]
    said = [() if i == 0 else tuple(_said(readings, members[order[0]], members[k], largest))
            for i, k in enumerate(order)]
    return tuple(Group(k[0], k[1], tuple(members[k]), tuple(w.english for w in said[i]), said[i])
                 for i, k in enumerate(order))


def _said(readings: Mapping[str, Pattern], largest: list[str], names: list[str],
          ref: Pattern) -> list[Words]:
    """How the group of *names* differs from the largest group (*ref*): as
    its notes say where one of them is a witness of a text in the largest
    group (:func:`note_words`), else as the alignment finds it."""
    for name in names:
        p = readings[name]
        text = None if p.witness is None else name[: -len(p.witness) - 1]
        if text in largest:
            said = note_words(readings[text], p)
            if said is not None:
                return said
    return difference_words(ref, readings[names[0]])


def note_words(text: Pattern, witness: Pattern) -> list[Words] | None:
    """How *witness* (a reading of *text*'s notes) differs from *text*, in
    words, one phrase per note's edit at the place the note puts it, part by
    part as :func:`difference_words` says them; None when its notes carry no
    edits (:func:`~guji.text.apparatus.witnesses.origins_of`)."""
    if origins_of(text, witness) is None:
        return None
    glyphs = "".join(s.glyph for s in text.strokes)
    half = text.half_start
    parts: tuple[list, list] = ([], [])
    for note in witness.notes:
        edit = note.edit
        n, read = len(edit.strokes), "".join(edit.strokes)
        after = edit.at > half or (edit.at == half and (edit.kind != "insert" or note.after_half))
        at = edit.at - half if after else edit.at
        if edit.kind == "insert":
            phrase = (Words.of(N_("one {added} more after stroke {seen}"), added=read, seen=at)
                      if at else Words.of(N_("one {added} more before stroke 1"), added=read))
        elif edit.kind == "delete":
            phrase = Words.of(N_("one {written} fewer at {at}"), written=read,
                              at=_strokes(n, at + 1))
        else:
            phrase = Words.of(N_("{read} for {written} at {at}"), at=_strokes(n, at + 1),
                              written=glyphs[edit.at:edit.at + n], read=read)
        parts[after].append((at, phrase))
    out = []
    for side, found in zip((N_("before 半: {phrases}"), N_("after 半: {phrases}")), parts):
        if found:
            out.append(Words.of(side, phrases=_listed([w for _, w in sorted(
                found, key=lambda f: f[0])])))
    return out


def align_runs(a: Sequence, b: Sequence) -> list[tuple[str, int | None, int | None]]:
    """A cheapest alignment of *a* with *b* (the edit distance of
    :func:`guji.text.collation.align.align`) that, among the cheapest, has the fewest
    *runs* of differences (consecutive substitutions, deletions or
    insertions), so that ``○□`` missing is one run, not two.

    Returns ``(op, i, j)`` triples: ``match``/``sub`` (i, j), ``del`` (i,
    None), ``ins`` (None, j). Ties are broken as :func:`~guji.text.collation.align.align`
    does: traced back from the ends, the diagonal first, then a deletion.
    Over :data:`~guji.text.collation.hirschberg.SMALL_CELLS` cells the same ops come
    from :mod:`guji.text.collation.runs_split`, in linear memory; over
    :attr:`guji.limits.Limits.alignment` pairs, :class:`~guji.limits.LimitError`.
    """
    n, m = len(a), len(b)
    check_alignment(n, m)
    if n * m > SMALL_CELLS:
        return trace_runs(*codes(list(a), list(b)))
    return runs_table(a, b)


def runs_table(a: Sequence, b: Sequence) -> list[tuple[str, int | None, int | None]]:
    """:func:`align_runs` from its whole table (small inputs; the definition
    :mod:`guji.text.collation.runs_split` is checked against)."""
    n, m = len(a), len(b)
    kinds = (MATCH, SUB, DEL, INS)
    worst = (n + m + 1, n + m + 1)
    cost = [[dict.fromkeys(kinds, worst) for _ in range(m + 1)] for _ in range(n + 1)]
    cost[0][0][MATCH] = (0, 0)

    def step(old: tuple[int, int], last: str, kind: str) -> tuple[int, int]:
        edits, runs = old
        if kind == MATCH:
            return edits, runs
        return edits + 1, runs + (last != kind)

    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            for last, old in list(here.items()):
                if old == worst:
                    continue
                if i < n and j < m:
                    kind = MATCH if a[i] == b[j] else SUB
                    cost[i + 1][j + 1][kind] = min(cost[i + 1][j + 1][kind], step(old, last, kind))
                if i < n:
                    cost[i + 1][j][DEL] = min(cost[i + 1][j][DEL], step(old, last, DEL))
                if j < m:
                    cost[i][j + 1][INS] = min(cost[i][j + 1][INS], step(old, last, INS))
    return _trace(a, b, cost, worst)


def _trace(a, b, cost, worst) -> list[tuple[str, int | None, int | None]]:
    """Trace :func:`align_runs`'s table back from the ends."""
    i, j = len(a), len(b)
    kind = min(cost[i][j], key=lambda k: cost[i][j][k])
    target = cost[i][j][kind]
    ops = []
    while i or j:
        here = target
        pi, pj = (i - 1, j - 1) if kind in (MATCH, SUB) else (i - 1, j) if kind == DEL else (i, j - 1)
        ops.append((kind, pi if kind != INS else None, pj if kind != DEL else None))
        for last in (MATCH, SUB, DEL, INS):
            old = cost[pi][pj][last]
            if old == worst:
                continue
            edits, runs = old
            if kind != MATCH:
                edits, runs = edits + 1, runs + (last != kind)
            if (edits, runs) == here:
                kind, target = last, old
                break
        i, j = pi, pj
    ops.reverse()
    return ops


def _strokes(n: int, first: int) -> Words:
    if n == 1:
        return Words.of(N_("stroke {first}"), first=first)
    return Words.of(N_("strokes {first}–{last}"), first=first, last=first + n - 1)


def _phrases(mine: str, theirs: str) -> list[Words]:
    """How *theirs* differs from *mine* (one part of a pattern each, ○ □), in words."""
    ops = align_runs(mine, theirs)
    phrases: list[Words] = []
    seen = k = 0                          # strokes of *mine* before the run
    while k < len(ops):
        kind = ops[k][0]
        if kind == MATCH:
            seen, k = seen + 1, k + 1
            continue
        run = [ops[k]]
        k += 1
        while k < len(ops) and ops[k][0] == kind:
            run.append(ops[k])
            k += 1
        if kind == INS:
            added = "".join(theirs[j] for _, _, j in run)
            phrases.append(Words.of(N_("one {added} more after stroke {seen}"), added=added, seen=seen)
                           if seen else Words.of(N_("one {added} more before stroke 1"), added=added))
            continue
        at = _strokes(len(run), seen + 1)
        written = "".join(mine[i] for _, i, _ in run)
        if kind == DEL:
            phrases.append(Words.of(N_("one {written} fewer at {at}"), written=written, at=at))
        else:
            phrases.append(Words.of(N_("{read} for {written} at {at}"), at=at, written=written,
                                    read="".join(theirs[j] for _, _, j in run)))
        seen += len(run)
    return phrases


def differences(ref: Pattern, other: Pattern) -> list[str]:
    """:func:`difference_words` in English (what collate's JSON holds)."""
    return [w.english for w in difference_words(ref, other)]


def difference_words(ref: Pattern, other: Pattern) -> list[Words]:
    """How *other* reads where *ref* reads otherwise, in words: one phrase per
    part (``before 半: □ for ○ at stroke 4``, ``after 半: one ○□ fewer at
    strokes 3–4``). The parts are aligned each on its own (:func:`align_runs`):
    a stroke is before 半 or after it in both readings."""
    check_patterns(ref, other)
    out = []
    for side, mine, theirs in ((N_("before 半: {phrases}"), _parts(ref)[0], _parts(other)[0]),
                               (N_("after 半: {phrases}"), _parts(ref)[1], _parts(other)[1])):
        phrases = _phrases(mine, theirs)
        if phrases:
            out.append(Words.of(side, phrases=_listed(phrases)))
    return out


def _listed(phrases: list[Words]) -> Words:
    """*phrases* one after another, ``, `` between them (``，`` in Chinese)."""
    listed = phrases[0]
    for p in phrases[1:]:
        listed = Words.of(N_("{first}, {then}"), first=listed, then=p)
    return listed

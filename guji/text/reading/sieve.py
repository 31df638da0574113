"""A quick look at a whole text, at string speed: could the prefilter keep any of it?

:func:`may_matter` answers for one text with ``str`` searches and compiled
regular expressions only (no numpy, no per-character Python): most files of a
library hold strokes (○ as a section mark, 口 in prose) and 半, but never a
cluster that matters, and this says so without mapping them
(:mod:`guji.text.reading.notespans`). It may answer True for a text that
holds nothing (then the exact map decides), never False for one where
:func:`guji.text.reading.prefilter.windows` keeps a window
(``tests/test_prefilter.py`` holds the two together).

Why False is safe (the rule is :mod:`guji.text.reading.prefilter`'s): with no
label in the text, a cluster matters only if it holds a stroke and a 半, or
six strokes (a note holding strokes and 半, or a ``(半)`` note beside strokes,
puts both in one cluster, since no break stands inside a note). Here the
strokes and 半 are grouped as the prefilter groups hits, except that two are
parted only where a break is *proved* between them — five ideographs (none a
hit nor a label's first character) outside every note and every markup tag —
so each group holds one of the prefilter's clusters or more, and counts at
least as many strokes and 半. A 半 in a note that is neither ``(半)`` nor a
quoted diagram (a commentary's word: ``(夜半三通)``) counts in no cluster,
and is left out before grouping (:func:`_counted_halves`). If no group
holds a stroke and a 半 or six strokes, no cluster matters. The notes are
known at string speed when the text's only note bracket is ``( )`` and no
two openers come without a closer
between them (no note inside a note: Kanripo's texts): each ``(`` is then
closed by the first ``)`` after it, if any. Other texts (other brackets,
nested notes) are left to the exact map, once they hold a label, or strokes
and 半, or six strokes (without these nothing matters, wherever the notes
are). (Only the text up to the first ``)`` after the last hit need be free
of nested notes: every note asked about opens before the last hit and
closes by then. It is looked at only when the grouping found nothing: a
group that matters sends the text to the map whatever its notes.)
"""

from __future__ import annotations

import re

from .notation import HALF, LABELS, ROUND_GLYPHS, SQUARE_GLYPHS

_STROKES = "".join(ROUND_GLYPHS) + "".join(SQUARE_GLYPHS)
_LABEL_ENDS = sorted({w[-1] for w in LABELS})
#: Two note openers with no closer between: a note inside a note.
_NESTED = re.compile(r"\([^()]*\(")
_OTHER_OPENERS = ("（", "【")
#: More hits than this, one in every 100 characters or more, are left to the exact map
#: (its numpy is quicker than a loop over the hits there).
DENSE_HITS = 1000
_LABEL_STARTS = frozenset(w[0] for w in LABELS)
#: Any stroke (in a note's inside: :func:`_quoted_or_half`).
_STROKE = re.compile("[" + re.escape(_STROKES) + "]")
#: The characters the quick look looks for, as one regular expression (what
#: it searched with before :func:`_places`; ``bench/bench_*_phases.py`` time a pass of it).
_LOOKED_AT = re.compile("[" + re.escape(_STROKES + HALF + "".join(_LABEL_ENDS) + "".join(_OTHER_OPENERS)) + "]")


def _run_class(ranges: list[tuple[int, int]], excluded: str) -> str:
    cut = sorted(ord(c) for c in excluded)
    parts = []
    for lo, hi in ranges:
        at = lo
        for c in cut:
            if lo <= c <= hi:
                if at < c:
                    parts.append((at, c - 1))
                at = c + 1
        if at <= hi:
            parts.append((at, hi))
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in parts)


def run_pattern(ideographs: list[tuple[int, int]], not_prose: str, length: int) -> re.Pattern:
    """*length* ideographs in a row (of the *ideographs* ranges, none of *not_prose*)."""
    return re.compile(f"[{_run_class(ideographs, not_prose)}]{{{length}}}")


def may_matter(text: str, runs: re.Pattern) -> bool:
    """Could any cluster of *text* matter (see the module)? *runs* matches a
    break (:func:`run_pattern`)."""
    for end in _LABEL_ENDS:             # a label (every first character with every last one is)
        if any(at and text[at - 1] in _LABEL_STARTS for at in _places(text, end)):
            return True
    # With no label, nothing matters without a stroke, nor without 半 or six
    # strokes, wherever the notes are: these texts are answered before the
    # brackets are looked at.
    strokes = _found(text, _STROKES)
    if not strokes:
        return False
    halves = _found(text, HALF)
    if not halves and len(strokes) < 6:
        return False
    if any(c in text for c in _OTHER_OPENERS):
        return True                     # the exact map pairs these notes
    last = max(strokes + halves)        # the notes asked about close by the last hit's closer
    if "(" in text:
        halves = _counted_halves(text, halves)
    hits = sorted([(at, 1) for at in strokes] + [(at, 0) for at in halves])
    if halves or len(strokes) >= 6:
        if len(hits) > DENSE_HITS and len(hits) * 100 > len(text):
            return True                 # hits everywhere: the vectorised map is quicker
        if _grouped(text, hits, runs):
            return True                 # (whatever the notes: the map decides)
    if "(" in text:                     # notes asked about up to the last hit, closed by then
        close = text.find(")", last)
        if _NESTED.search(text, 0, len(text) if close < 0 else close + 1):
            return True                 # a note inside a note: the grouping's notes were wrong
    return False


def _counted_halves(text: str, halves: list[int]) -> list[int]:
    """The 半 of *halves* (in increasing order) that a cluster counts: those
    outside every note, and those in a note that holds a stroke (a quoted
    diagram) or is 半 alone but for white space (a ``(半)``). A 半 in any
    other note (``(夜半三通)``, a commentary's word) counts for nothing in
    the map (:func:`guji.text.reading.prefilter._spans` counts 半 outside
    notes, and :func:`~guji.text.reading.prefilter._noted` only those two
    kinds of note), and taking it away leaves every other hit's group as it
    was: a break in the gap before it or after it is a break in the gap
    that joins them (no run of ideographs holds a hit). Notes as
    :class:`_Notes` reads them (``( )``, none nested: where one is, the
    caller's check for nested notes covers every 半 asked about here)."""
    out: list[int] = []
    opened = closed = -1                # the last ( and the last ) before the 半 asked about
    base = 0                            # … looked for up to here
    closer = None                       # the first ) after the last 半 asked about (-1: none)
    for at in halves:
        o = text.rfind("(", base, at)
        if o >= 0:
            opened = o
        c = text.rfind(")", base, at)
        if c >= 0:
            closed = c
        base = at
        if opened <= closed:
            out.append(at)              # outside every note
            continue
        if closer is None or 0 <= closer < at:
            closer = text.find(")", at)
        if closer < 0 or _quoted_or_half(text, opened + 1, closer):
            out.append(at)              # no note (an opener never closed), or one the map counts
    return out


def _quoted_or_half(text: str, start: int, end: int) -> bool:
    """Does the note inside ``text[start:end]`` hold a stroke, or 半 alone
    but for white space (what :meth:`guji.text.reading.prefilter.Lines.is_half` asks)?"""
    return bool(_STROKE.search(text, start, end)) or "".join(text[start:end].split()) == HALF


def _found(text: str, chars: str) -> list[int]:
    """Where the characters of *chars* stand in *text*, character by
    character (:func:`_places` without a generator's cost a place)."""
    find = text.find
    out: list[int] = []
    for c in chars:
        at = find(c)
        while at >= 0:
            out.append(at)
            at = find(c, at + 1)
    return out


def _places(text: str, c: str):
    """Where the character *c* stands in *text* (one ``str.find`` each: a
    search for one character runs at memory speed, quicker than a regular
    expression over every character)."""
    find = text.find
    at = find(c)
    while at >= 0:
        yield at
        at = find(c, at + 1)


def _grouped(text: str, hits: list[tuple[int, int]], runs: re.Pattern) -> bool:
    """Does a group of *hits* (offset, 1 for a stroke / 0 for 半), parted
    only by proved breaks, matter as a cluster would: a stroke and a 半
    outside notes, six strokes outside notes, a note holding strokes and 半,
    or a note holding 半 (a ``(半)``, taken so whatever else it holds: the
    quick look passes only the 半 :func:`_counted_halves` keeps) beside a
    stroke outside notes? (A note's hits come one after another.)

    The gap between two 半 in a row (in notes or not) is never searched for
    a break: whether it holds one cannot change the answer. Call a 半 of
    either kind an *A*, a stroke outside notes an *S*. The answer is "a
    note holds strokes and 半" (decided inside one note, where no break
    stands, whatever the groups) or "some group holds an S and an A, or six
    S" (a ``(半)`` beside strokes and a 半 beside strokes are the same test:
    an A and an S). Let G1 be the group ending at the first 半 of the gap
    and G2 the group starting at the second, had the gap been parted, and
    G = G1 + G2 what they make unparted. G1 and G2 each hold an A. If
    either holds an S, it matters alone (and so does G, which holds it).
    If neither does, G holds no S and does not matter. So G matters
    exactly when G1 or G2 does, and every other group is the same either
    way: the gaps searched are the same ones, each from its own hit (a
    hit's search starts after it, or after its note), and the notes and
    tags are asked about in increasing order as before. Leaving a gap
    unparted can in any case only join groups, which never turns a text
    that matters into one that does not (the quick look stays sound); here
    it does not even change which files go to the map."""
    notes, tags = _Notes(text), _Tags(text)
    strokes = halves = held_strokes = held_halves = 0     # outside notes / in the last note
    quoted = half_note = False
    note = None                         # the end of the last hit's note
    resume = -1                         # where a break after the last hit may start
    half = False                        # the last hit was a 半 (in a note or not)
    for at, stroke in hits:
        if resume >= 0 and (stroke or not half) and _parted(text, resume, at, runs, notes, tags):
            strokes = halves = 0
            quoted = half_note = False
            note = None
        end = notes.end_of(at)
        if end is None:
            strokes += stroke
            halves += 1 - stroke
            resume = at + 1
        else:
            if end != note:
                note, held_strokes, held_halves = end, 0, 0
            held_strokes += stroke
            held_halves += 1 - stroke
            quoted = quoted or bool(held_strokes and held_halves)
            half_note = half_note or held_halves > 0
            resume = end                # no break inside a note
        if (strokes and halves) or strokes >= 6 or quoted or (half_note and strokes):
            return True
        half = not stroke
    return False


def _parted(text: str, a: int, b: int, runs: re.Pattern, notes: "_Notes", tags: "_Tags") -> bool:
    """Is a break proved in ``text[a:b]`` (asked in increasing order)?"""
    at = a
    while True:
        m = runs.search(text, at, b)
        if m is None:
            return False
        start = m.start()
        end = notes.end_of(start)
        if end is not None:             # inside a closed note: no break there
            at = end
            continue
        if not tags.holds(start):
            return True
        feed = text.find("\n", start, b)
        close = text.find(">", start, b if feed < 0 else feed)
        end = close if close >= 0 else feed
        if end < 0:
            return False                # the tag runs on to the stretch's end
        at = end + 1


class _Notes:
    """The closed notes of a text without nested notes and with ``( )`` only,
    asked about in increasing order (each stretch of text searched once)."""

    def __init__(self, text: str):
        self.text = text
        self.any = "(" in text
        self.last_close = text.rfind(")")
        self.base = 0
        self.open = -1                  # the opener still open at base, if any
        self.end = -1                   # … and just past its closer, once found

    def end_of(self, at: int) -> int | None:
        """If *at* stands inside a closed note, where the note ends."""
        if not self.any:
            return None
        text = self.text
        opener = text.rfind("(", self.base, at)
        if opener >= 0:
            if opener != self.open:
                self.open, self.end = opener, -1
            if text.find(")", opener, at) >= 0:
                self.open = -1
        elif self.open >= 0 and text.find(")", self.base, at) >= 0:
            self.open = -1
        self.base = at
        if self.open < 0 or self.last_close < at:
            return None
        if self.end < 0:
            self.end = text.find(")", at) + 1
        return self.end


class _Tags:
    """Markup tags (``<pb:…>``, within one line), asked about in increasing order."""

    def __init__(self, text: str):
        self.text = text
        self.base = 0
        self.open = False               # a < with no > nor line feed since, at base

    def holds(self, at: int) -> bool:
        """Does a tag hold *at*: a ``<`` before it, with no ``>`` nor ``\\n`` between?"""
        text = self.text
        lt = text.rfind("<", self.base, at)
        since = self.base
        if lt >= 0:
            self.open, since = True, lt + 1
        if self.open and (text.find(">", since, at) >= 0 or text.find("\n", since, at) >= 0):
            self.open = False
        self.base = at
        return self.open

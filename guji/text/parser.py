"""Tokens → patterns: :func:`parse` one pattern, :func:`scan` a whole text.

:func:`parse` is strict: the text must be one pattern (strokes, one 半, and at
most one score label or heading). Anything else is a :class:`NotationError`
naming the line and column.

:func:`scan` reads any text (a whole chapter, a web page, a user's notes),
finds the drum diagrams in it and skips the prose around them.

Reading a whole text
--------------------
:func:`scan` is written for texts people type and paste, where a wrong reading
that looks right is the worst failure: it reads what the text admits and
refuses or reports the rest.

* **Typos are errors.** A character that is not a stroke, 半 or ignorable,
  standing between two strokes of one pattern, is a :class:`NotationError` at
  that character, with a suggestion for the usual look-alikes
  (:data:`guji.notation.LOOKALIKES`).
* **Labels are attached for the whole text at once.** In the first diagram
  the label follows its pattern (``鼓 ○□…半…  魯鼓  ○□…半…  薛鼓``, the leading
  鼓 a heading); in the second it precedes it (``魯鼓 ○□…半…  薛鼓 ○□…半…``).
  But users' texts mix layouts, so no layout is assumed: each pattern takes
  one label adjacent to it and no label serves two. Patterns and labels that
  stand next to each other form alternating chains; a chain of even length
  (``P L P L``, ``L P L P``) can be read one way only. A chain with one label
  more than patterns (``L P L``), or one pattern more (``P L P``), reads two
  ways: the conventions decide (a heading before it: labels after; a diagram
  read before it: labels before), and where they do not, nothing is guessed:
  a notice names both readings. Punctuation never decides.
* **Diagram numbers follow the text**, per score.

The caller can force one side with ``labels="after"`` or ``"before"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..errors import Location, NotationError, describe_char, escape_controls
from .lexer import Kind, SourceText, Token, tokenize
from .notation import HALF, LOOKALIKES, ROUND, Pattern, Stroke, Tradition

LabelMode = Literal["auto", "after", "before"]
LABEL_MODES = ("auto", "after", "before")


@dataclass(frozen=True)
class Notice:
    """A warning from the scanner: something that looked like notation but was not read."""

    message: str
    location: Location | None
    filename: str | None = None

    def __str__(self) -> str:
        name = self.filename or "<text>"
        where = f"{name}:{self.location}" if self.location else name
        return escape_controls(f"{where}: warning: {self.message}")


@dataclass(frozen=True)
class ScanResult:
    """What :func:`scan` found: the patterns in order, and warnings."""

    patterns: tuple[Pattern, ...]
    notices: tuple[Notice, ...]

    def find(self, tradition: Tradition, diagram: int) -> Pattern | None:
        for p in self.patterns:
            if p.tradition is tradition and p.diagram == diagram:
                return p
        return None


# ---------------------------------------------------------------------------
# Runs: maximal stretches of strokes and 半 (notes and punctuation between them
# are skipped; symbols are kept to be checked).
# ---------------------------------------------------------------------------

@dataclass
class _Run:
    tokens: list[Token]

    @property
    def strokes(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.STROKE]

    @property
    def halves(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.HALF]


_RUN_KINDS = (Kind.STROKE, Kind.HALF, Kind.SYMBOL)


def _error(src: SourceText, message: str, offset: int) -> NotationError:
    loc = src.location(offset)
    return NotationError(message, loc, src.filename, src.line_text(loc.line))


def _build_pattern(src: SourceText, run_tokens: list[Token], tradition: Tradition,
                   diagram: int, edition: str | None,
                   label: Token | None) -> Pattern:
    strokes: list[Stroke] = []
    half_start = -1
    half_loc: Location | None = None
    for tok in run_tokens:
        if tok.kind is Kind.STROKE:
            strokes.append(Stroke(tok.drum, len(strokes), tok.text, tok.location))
        elif tok.kind is Kind.HALF:
            half_start = len(strokes)
            half_loc = tok.location
    assert half_loc is not None
    first, last = strokes[0].location.line, strokes[-1].location.line
    lines = tuple((n, src.line_text(n)) for n in range(first, last + 1))
    return Pattern(tradition, diagram, tuple(strokes), half_start, half_loc,
                   edition=edition, filename=src.filename, lines=lines,
                   label_location=label.location if label else None)


def _check_run(src: SourceText, tokens: list[Token]) -> None:
    """Raise for a run that should be one pattern but is malformed."""
    strokes = [t for t in tokens if t.kind is Kind.STROKE]
    if not strokes:
        raise _error(src, "no drum strokes (○ or □) in the pattern", tokens[0].offset)
    before = after = 0
    half: Token | None = None
    for tok in tokens:
        if tok.kind is Kind.SYMBOL:
            raise _error(src, foreign_message(tok), tok.offset)
        if tok.kind is Kind.HALF:
            if half is not None:
                raise _error(src, "a second 半 in one pattern: every pattern has exactly one",
                             tok.offset)
            if before == 0:
                raise _error(src, "nothing before 半: the first part of the pattern is empty",
                             tok.offset)
            half = tok
        elif half is None:
            before += 1
        else:
            after += 1
    if half is None:
        raise _error(src, "no 半 in the pattern: every pattern has exactly one half marker",
                     strokes[0].offset)
    if after == 0:
        raise _error(src, "nothing after 半: the half (played for 投壺) is empty", half.offset)


# ---------------------------------------------------------------------------
# parse: one pattern
# ---------------------------------------------------------------------------

def parse(text: str, tradition: Tradition | str | None = None, diagram: int = 1,
          filename: str | None = None, edition: str | None = None) -> Pattern:
    """Parse *text* as exactly one pattern.

    Parameters
    ----------
    text:
        A pattern such as ``"魯鼓 ○□○○□□○○半○□○○□○○○○□○□○"``. White space,
        punctuation, markup and bracketed notes are skipped; one score label
        (魯鼓, 薛鼓 and variants) may stand before or after the strokes, and a
        heading (鼓, 記鼓) before them.
    tradition:
        The score's tradition (``Tradition.LU``, ``"lu"``, ``"魯"``…) when the
        text names none; if both are given they must agree.
    diagram:
        1 or 2, recorded on the pattern.
    filename, edition:
        Recorded on the pattern and named in errors.

    Raises
    ------
    NotationError
        With the file, line and column of the first problem.
    """
    src = SourceText(text, filename)
    tokens = tokenize(src)
    given = Tradition.from_name(tradition) if isinstance(tradition, str) else tradition
    label: Token | None = None
    run: list[Token] = []
    run_started = run_ended = False
    for tok in tokens:
        if tok.kind in _RUN_KINDS:
            if run_ended:
                raise _error(src, "strokes after the score label: the label stands before or "
                             "after the whole pattern (use scan for a whole text)", tok.offset)
            run.append(tok)
            run_started = True
        elif tok.kind is Kind.NOTE:
            continue
        elif tok.kind is Kind.UNCLOSED:
            raise _error(src, f"note opened with '{tok.text[0]}' is never closed", tok.offset)
        elif tok.kind is Kind.TEXT:
            raise _error(src, foreign_message(tok), tok.offset)
        elif tok.kind is Kind.HEADING:
            if run_started or label is not None:
                raise _error(src, f"heading '{tok.text}' must come before the strokes",
                             tok.offset)
        elif tok.kind is Kind.LABEL:
            if label is not None:
                raise _error(src, f"a second score label '{tok.text}': one pattern has one score",
                             tok.offset)
            run_ended = run_started
            label = tok
    if not run:
        raise _error(src, "no drum strokes (○ or □) found", _first_content(text))
    if not any(t.kind is Kind.STROKE for t in run):
        raise _error(src, "no drum strokes (○ or □) found", run[0].offset)
    _check_run(src, run)
    tradition = label.tradition if label else None
    if given is not None and tradition is not None and given is not tradition:
        raise _error(src, f"the label says {label.text} but the score given is {given.label}",
                     label.offset)
    tradition = tradition or given
    if tradition is None:
        first = next(t for t in run if t.kind is Kind.STROKE)
        raise _error(src, "pattern has no score name: write 魯鼓 or 薛鼓 next to it, "
                     "or give the score", first.offset)
    return _build_pattern(src, run, tradition, diagram, edition, label)


def _first_content(text: str) -> int:
    for i, ch in enumerate(text):
        if not ch.isspace():
            return i
    return 0


# ---------------------------------------------------------------------------
# scan: any text
# ---------------------------------------------------------------------------

#: Longest stretch (in characters, ignorables not counted) of prose or symbols
#: between two strokes that is still read as a typo inside one pattern rather
#: than as words between two things.
MAX_TYPO_CHARS = 4


@dataclass
class _Segment:
    """Strokes and 半 with only ignorable text (and notes) between them."""

    tokens: list[Token]
    notes: list[Token] = field(default_factory=list)

    @property
    def strokes(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.STROKE]

    @property
    def halves(self) -> list[Token]:
        return [t for t in self.tokens if t.kind is Kind.HALF]

    @property
    def first(self) -> Token:
        return self.tokens[0]

    @property
    def last(self) -> Token:
        return self.tokens[-1]

    def can_end(self) -> bool:
        """Does it end as a pattern ends: a 半 somewhere, strokes after the last one?"""
        return self.last.kind is Kind.STROKE and any(t.kind is Kind.HALF for t in self.tokens)

    def can_start(self) -> bool:
        """Does it start as a pattern starts: strokes, then a 半?"""
        return self.first.kind is Kind.STROKE and any(t.kind is Kind.HALF for t in self.tokens)

    def is_pattern(self) -> bool:
        halves = self.halves
        return (len(halves) == 1 and self.first.kind is Kind.STROKE
                and self.last.kind is Kind.STROKE)


#: A piece of the text: a segment, or one token that is not part of one.
_Piece = "_Segment | Token"


def _pieces(tokens: list[Token]) -> list:
    """Tokens → segments and the tokens between them (notes between
    segments dropped: they are commentary). A 半 glued to prose on both sides
    is a word (取半以下, 要縫半下), not the marker: it counts as prose."""
    pieces: list = []
    pending: list[Token] = []
    for k, tok in enumerate(tokens):
        if tok.kind is Kind.HALF and _prose_half(tokens, k):
            tok = Token(Kind.TEXT, tok.text, tok.location)
        if tok.kind in (Kind.STROKE, Kind.HALF):
            if pieces and isinstance(pieces[-1], _Segment):
                pieces[-1].tokens.append(tok)
                pieces[-1].notes.extend(pending)
            else:
                pieces.append(_Segment([tok]))
            pending = []
        elif tok.kind is Kind.NOTE:
            pending.append(tok)
        else:
            pieces.append(tok)
            pending = []
    return pieces


def _prose_half(tokens: list[Token], k: int) -> bool:
    """Is the 半 at ``tokens[k]`` glued to prose on both sides?"""
    if not 0 < k < len(tokens) - 1:
        return False
    left, half, right = tokens[k - 1], tokens[k], tokens[k + 1]
    return (left.kind is Kind.TEXT and right.kind is Kind.TEXT
            and left.end == half.offset and half.end == right.offset)


def _glued(left, right) -> bool:
    """No character at all between two pieces."""
    a = left.last if isinstance(left, _Segment) else left
    b = right.first if isinstance(right, _Segment) else right
    return a.end == b.offset


def _is_section_mark(pieces: list, k: int, side: int) -> bool:
    """Is segment ``pieces[k]`` a lone stroke glued to prose on its *side*
    (−1 left, +1 right)? Such a ○ is a section mark (``右作樂○記鼓``,
    ``擊鼓○疏曰``, ``○圜音圓``), not part of a pattern. (Glued to a heading
    or a label it is a pattern's first or last stroke: ``右鼔○□…``.)"""
    seg = pieces[k]
    if len(seg.tokens) != 1 or seg.first.kind is not Kind.STROKE:
        return False
    j = k + side
    if not 0 <= j < len(pieces) or isinstance(pieces[j], _Segment):
        return False
    other = pieces[j]
    if other.kind is not Kind.TEXT:
        return False
    return _glued(other, seg) if side < 0 else _glued(seg, other)


def _lookalike(text: str) -> str | None:
    """The glyph a look-alike stands for (``o`` → ○, ``[]`` → □), or None."""
    key = "".join(text.split())
    if key in LOOKALIKES:
        return LOOKALIKES[key]
    if key and len(set(key)) == 1 and key[0] in LOOKALIKES:
        return LOOKALIKES[key[0]]
    return None


def foreign_message(tok: Token) -> str:
    """The message for *tok* standing inside a pattern, with a suggestion
    for the usual look-alikes."""
    glyph = _lookalike(tok.text)
    hint = ""
    if glyph is not None:
        drum = "鼙" if glyph == ROUND else "鼓"
        hint = f": did you mean {glyph} ({drum})?"
    if tok.kind is Kind.SYMBOL and len(tok.text) == 1:
        return (f"unknown symbol {describe_char(tok.text)} inside a pattern: not a drum glyph"
                + (hint or " (see `guji glyphs`)"))
    if tok.kind is Kind.SYMBOL:
        return f"empty brackets {describe_char(tok.text)} inside a pattern{hint or ''}"
    if tok.kind is Kind.HEADING:
        return (f"'{tok.text}' inside a pattern: a heading stands before the strokes, "
                "not between them")
    if tok.kind is Kind.UNCLOSED:
        return f"note opened with '{tok.text[0]}' inside a pattern is never closed"
    word = tok.text[:10]
    shown = describe_char(word) if len(word) == 1 else f"'{escape_controls(word)}'"
    return (f"unexpected text {shown} inside a pattern"
            + (hint or ": only ○ □ 半, punctuation and notes in brackets belong between strokes"))


def _typo_gap(gap: list) -> bool:
    """Could *gap* (the pieces between two segments) be a typo inside one
    pattern: short, and no score label in it?"""
    if not gap:
        return False
    chars = 0
    for tok in gap:
        if tok.kind is Kind.LABEL:
            return False
        chars += len(tok.text) if tok.kind is not Kind.UNCLOSED else 1
    return chars <= MAX_TYPO_CHARS


def _check_typos(src: SourceText, pieces: list) -> None:
    """Raise :class:`NotationError` at the first character that is not a
    stroke, 半 or ignorable and stands inside a pattern (see :func:`scan`)."""
    segs = [k for k, p in enumerate(pieces) if isinstance(p, _Segment)]
    errors: list[Token] = []
    # chains: segments joined by typo-sized gaps; only a chain with a 半 is a pattern
    chain: list[int] = []
    for n, k in enumerate(segs + [None]):
        if chain and (k is None or not _typo_gap(pieces[chain[-1] + 1:k])):
            errors += _chain_errors(pieces, chain)
            chain = []
        if k is not None:
            chain.append(k)
    for seg in (pieces[k] for k in segs):
        halves = seg.halves
        if len(halves) >= 2 and len(seg.strokes) >= 2:
            errors.append(halves[1])
    if errors:
        tok = min(errors, key=lambda t: t.offset)
        if tok.kind is Kind.HALF:
            raise _error(src, "a second 半 in one pattern: every pattern has exactly one",
                         tok.offset)
        raise _error(src, foreign_message(tok), tok.offset)


def _chain_errors(pieces: list, chain: list[int]) -> list[Token]:
    """The misplaced tokens of one chain of segments (see :func:`_check_typos`).

    A chain is read as one pattern with typos only if, joined, it would be
    one: a 半 with strokes before and after it.
    """
    kinds = [t.kind for k in chain for t in pieces[k].tokens]
    strokes = [i for i, kind in enumerate(kinds) if kind is Kind.STROKE]
    if not any(kind is Kind.HALF and strokes[0] < i < strokes[-1]
               for i, kind in enumerate(kinds) if strokes):
        return []
    out = []
    for a, b in zip(chain, chain[1:]):
        if pieces[a].can_end() and pieces[b].can_start():
            continue                                   # two patterns, words between
        if _is_section_mark(pieces, a, -1) or _is_section_mark(pieces, b, +1):
            continue
        out.append(pieces[a + 1])
    # a look-alike glued to either end of the chain
    first, last = chain[0], chain[-1]
    if first > 0 and _glued(pieces[first - 1], pieces[first]):
        tok = pieces[first - 1]
        if tok.kind in (Kind.TEXT, Kind.SYMBOL) and _lookalike(tok.text):
            out.append(tok)
    if last + 1 < len(pieces) and _glued(pieces[last], pieces[last + 1]):
        tok = pieces[last + 1]
        if tok.kind in (Kind.TEXT, Kind.SYMBOL) and _lookalike(tok.text):
            out.append(tok)
    return out


def _caption_lines(tokens: list[Token]) -> set[int]:
    """Lines holding two or more score labels and nothing else but notes
    (``魯鼓　　薛鼓`` above a diagram): captions, not labels of patterns. A
    line of labels right after a pattern is not a caption: its first label
    may be that pattern's (``…○□□○`` / ``薛鼓魯鼓`` / ``○□○…``)."""
    labels: dict[int, int] = {}
    other: set[int] = set()
    after_stroke: set[int] = set()
    previous: Token | None = None
    for tok in tokens:
        if tok.kind is Kind.LABEL:
            line = tok.location.line
            if labels.get(line, 0) == 0 and previous is not None and previous.kind is Kind.STROKE:
                after_stroke.add(line)
            labels[line] = labels.get(line, 0) + 1
        elif tok.kind is not Kind.NOTE:
            other.add(tok.location.line)
        if tok.kind is not Kind.NOTE:
            previous = tok
    return {line for line, n in labels.items()
            if n >= 2 and line not in other and line not in after_stroke}


def scan(text: str, filename: str | None = None, edition: str | None = None,
         labels: LabelMode = "auto") -> ScanResult:
    """Find every drum pattern in *text*.

    Returns a :class:`ScanResult`: the patterns in order of appearance, each
    with its score, diagram and position; and notices for what looked like
    notation but was not read (runs of strokes without 半, patterns with no
    label or with two possible ones, text whose symbols were lost).

    Reading
    -------
    1. A pattern is strokes and exactly one 半, with only ignorable text
       between them (white space, punctuation, markup, notes).
    2. Typos are errors: anything else standing between two strokes of one
       pattern raises :class:`NotationError` at that character, suggesting ○ or □
       for the usual look-alikes (``o``, ``0``, ``●``, ``[]`` …). Between two
       strokes "of one pattern" means the strokes on one side or the other do
       not make a whole pattern by themselves; a lone stroke glued to prose is
       a section mark (``○圜音圓``), not part of a pattern.
    3. Labels are attached for the whole text at once: each pattern takes one
       score label adjacent to it (before or after, with only ignorable text
       between), and no label serves two patterns. Where exactly one such
       assignment exists, it is used, whatever the layout. Where several
       fit, the diagrams' conventions decide: a heading (鼓, 記鼓) before the
       patterns means labels after them (the first diagram); after a diagram
       already read, labels before (the second). Otherwise the patterns
       concerned are not read, and a notice names both readings.
       *labels* ``"after"`` / ``"before"`` forces one side.
    4. Diagram numbers follow the text: the n-th 魯鼓 pattern is 魯鼓's
       diagram n, and so for 薛鼓.

    Raises :class:`NotationError` for a pattern that is there but broken: a
    typo between its strokes, or a second 半.
    """
    if labels not in LABEL_MODES:
        raise ValueError(f"labels must be one of {LABEL_MODES}, not {labels!r}")
    src = SourceText(text, filename)
    tokens = tokenize(src)
    notices: list[Notice] = []

    def notice(message: str, offset: int | None) -> None:
        notices.append(Notice(message, src.location(offset) if offset is not None else None,
                              filename))

    pieces = _pieces(tokens)
    _check_typos(src, pieces)
    items = _items(pieces, _caption_lines(tokens), notice)
    assigned = _attach_all(items, labels, notice)
    counters = {t: 0 for t in Tradition}
    patterns: list[Pattern] = []
    for seg, label in assigned:
        counters[label.tradition] += 1
        patterns.append(_build_pattern(src, seg.tokens, label.tradition,
                                       counters[label.tradition], edition, label))
    many = [t for t, n in counters.items() if n > 2]
    if many:
        notice(f"{' and '.join(t.label for t in many)}: more than the chapter's two diagrams "
               "found; numbered in order of appearance", None)
    if not patterns:
        _explain_nothing(tokens, notice)
    return ScanResult(tuple(patterns), tuple(notices))


def _explain_nothing(tokens: list[Token], notice) -> None:
    halves = [t for t in tokens if t.kind is Kind.HALF]
    labels_found = [t for t in tokens if t.kind is Kind.LABEL]
    if labels_found and halves and not any(t.kind is Kind.STROKE for t in tokens):
        notice("score labels and 半 but no ○ or □ at all: this text seems to have lost "
               "its drum symbols", labels_found[0].offset)


def _items(pieces: list, captions: set[int], notice) -> list[tuple[str, object]]:
    """Pieces → ``('P', segment)``, ``('L', label)``, ``('H', heading)`` and
    ``('|', None)`` breaks (prose, symbols, runs that are not patterns)."""
    items: list[tuple[str, object]] = []
    for k, piece in enumerate(pieces):
        if isinstance(piece, _Segment):
            if piece.is_pattern():
                items.append(("P", piece))
            else:
                _not_a_pattern(piece, notice)
                items.append(("|", None))
        elif piece.kind is Kind.LABEL:
            if piece.location.line not in captions:
                items.append(("L", piece))
        elif piece.kind is Kind.HEADING:
            items.append(("H", piece))
        elif piece.kind is Kind.SYMBOL and _beside_pattern(pieces, k):
            notice(f"symbol {describe_char(piece.text)} beside a pattern: ignored", piece.offset)
        else:
            items.append(("|", None))
    return items


def _beside_pattern(pieces: list, k: int) -> bool:
    return any(0 <= j < len(pieces) and isinstance(pieces[j], _Segment) and pieces[j].is_pattern()
               for j in (k - 1, k + 1))


def _not_a_pattern(seg: _Segment, notice) -> None:
    """Say why a run of strokes that might have been meant as a pattern is not one."""
    strokes, halves = seg.strokes, seg.halves
    bracketed = [n for n in seg.notes if _is_bracketed_half(n.text)]
    if not halves and bracketed:
        note = bracketed[0]
        notice(f"a run of {len(strokes)} strokes with no 半, but {escape_controls(note.text)} "
               "in brackets inside it: not read as a pattern (if it is the half marker, "
               "remove the brackets)", note.offset)
    elif len(halves) == 1 and len(strokes) >= 2:
        side = "before" if seg.first.kind is Kind.HALF else "after"
        notice(f"{len(strokes)} strokes with nothing {side} 半: not read as a pattern",
               strokes[0].offset)
    elif not halves and len(strokes) >= 6:
        notice(f"a run of {len(strokes)} strokes with no 半: not read as a pattern",
               strokes[0].offset)


def _is_bracketed_half(note: str) -> bool:
    return "".join(note[1:-1].split()) == HALF


def _attach_all(items: list[tuple[str, object]], mode: LabelMode,
                notice) -> list[tuple[_Segment, Token]]:
    """Pair patterns with labels for the whole text (see :func:`scan`, step 3).

    The patterns and labels that stand next to each other (only ignorable
    text between) form alternating chains ``P L P L …``; each chain is read
    on its own, in text order.
    """
    out: list[tuple[_Segment, Token]] = []
    i, n = 0, len(items)
    while i < n:
        if items[i][0] not in ("P", "L"):
            i += 1
            continue
        j = i + 1
        while j < n and items[j][0] in ("P", "L") and items[j][0] != items[j - 1][0]:
            j += 1
        chain = items[i:j]
        if any(kind == "P" for kind, _ in chain):
            heading = i > 0 and items[i - 1][0] == "H"
            out += _attach_chain(chain, mode, heading, bool(out), notice)
        i = j
    return out


def _reading(chain: list[tuple[str, object]], side: int) -> list[tuple[_Segment, Token | None]]:
    """Each pattern of *chain* with the label on its *side* (−1 before, +1 after)."""
    out = []
    for k, (kind, value) in enumerate(chain):
        if kind == "P":
            j = k + side
            out.append((value, chain[j][1] if 0 <= j < len(chain) else None))
    return out


def _traditions(reading) -> list[Tradition | None]:
    return [label.tradition if label is not None else None for _, label in reading]


def _attach_chain(chain: list[tuple[str, object]], mode: LabelMode, heading: bool,
                  after_diagram: bool, notice) -> list[tuple[_Segment, Token]]:
    """Read one alternating chain of patterns and labels (see :func:`_attach_all`)."""
    before, after = _reading(chain, -1), _reading(chain, +1)
    if mode == "after":
        reading = after
    elif mode == "before":
        reading = before
    elif len(chain) % 2 == 0:                 # P L … P L or L P … L P: one way only
        reading = after if chain[0][0] == "P" else before
    elif heading:                             # 鼓 P L P L …: the first diagram
        reading = after
    elif after_diagram or _traditions(before) == _traditions(after):
        reading = before                      # the second diagram's convention
    else:
        notice(_ambiguity(before, after), before[0][0].first.offset)
        return []
    out = []
    for seg, label in reading:
        if label is None:
            notice("pattern with no score name (魯鼓 or 薛鼓) beside it: skipped; "
                   "use parse() or --labels to name it", seg.first.offset)
        else:
            out.append((seg, label))
    return out


def _ambiguity(before, after) -> str:
    """The notice for a chain that reads two ways."""
    where = ", ".join(str(seg.first.location) for seg, _ in before)
    n = len(before)

    def names(reading) -> str:
        return ", ".join(label.text if label is not None else "(none)" for _, label in reading)

    return (f"ambiguous score labels: the {'pattern' if n == 1 else f'{n} patterns'} at {where} "
            f"read {names(after)} if labels follow their patterns (as in the first diagram), "
            f"or {names(before)} if they precede them (as in the second): not read; "
            "say which with --labels after or --labels before")

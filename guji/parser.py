"""Tokens → patterns: :func:`parse` one pattern, :func:`scan` a whole text.

:func:`parse` is strict: the text must be one pattern (strokes, one 半, and at
most one score label or heading). Anything else is a :class:`NotationError`
naming the line and column.

:func:`scan` reads any text (a whole chapter, a web page, a user's notes),
finds the drum diagrams in it and skips the prose around them.

Label attachment
----------------
In the first diagram the label follows its pattern
(``鼓 ○□…半…  魯鼓  ○□…半…  薛鼓``, the leading 鼓 a heading); in the second
it precedes it (``魯鼓 ○□…半…  薛鼓 ○□…半…``). The scanner decides this from
the structure of each diagram, never from punctuation:

1. A diagram is a stretch of patterns, labels and headings with nothing but
   white space, punctuation, markup and notes between them; prose ends it,
   and so does a heading (which opens a new one).
2. Caption lines — lines holding only score labels (``魯鼓　　薛鼓``) — are
   set aside.
3. A diagram that opens with a heading has its labels after the patterns.
   Otherwise each reading (after / before) is tried and the one that names
   more patterns wins; on a tie, a diagram that opens with a label has its
   labels before the patterns, one that opens with a pattern after them.

The caller can force one reading with ``labels="after"`` or ``"before"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import Location, NotationError
from .lexer import Kind, SourceText, Token, tokenize
from .notation import Pattern, Stroke, Tradition

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
        return f"{where}: warning: {self.message}"


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


def _symbol_message(tok: Token) -> str:
    return (f"unknown symbol '{tok.text}' (U+{ord(tok.text):04X}) inside a pattern: "
            f"not a drum glyph (see `guji glyphs`)")


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
            raise _error(src, _symbol_message(tok), tok.offset)
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

def parse(text: str, score: Tradition | str | None = None, diagram: int = 1,
          filename: str | None = None, edition: str | None = None) -> Pattern:
    """Parse *text* as exactly one pattern.

    Parameters
    ----------
    text:
        A pattern such as ``"魯鼓 ○□○○□□○○半○□○○□○○○○□○□○"``. White space,
        punctuation, markup and bracketed notes are skipped; one score label
        (魯鼓, 薛鼓 and variants) may stand before or after the strokes, and a
        heading (鼓, 記鼓) before them.
    score:
        The score (``Tradition.LU``, ``"lu"``, ``"魯"``…) when the text names
        none; if both are given they must agree.
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
    if isinstance(score, str):
        score = Tradition.from_name(score)
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
            raise _error(src, f"note opened with '{tok.text}' is never closed", tok.offset)
        elif tok.kind is Kind.TEXT:
            raise _error(src, f"unexpected text '{tok.text[:10]}' in a pattern: only ○ □ 半, "
                         "a score label (魯鼓/薛鼓) and notes in brackets belong here",
                         tok.offset)
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
    if score is not None and tradition is not None and score is not tradition:
        raise _error(src, f"the label says {label.text} but the score given is {score.label}",
                     label.offset)
    tradition = tradition or score
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

def scan(text: str, filename: str | None = None, edition: str | None = None,
         labels: LabelMode = "auto") -> ScanResult:
    """Find every drum pattern in *text*.

    Returns a :class:`ScanResult`: the patterns in order of appearance, each
    with its score, diagram (1, 2… in order of appearance) and position; and
    notices for what looked like notation but was not read (runs of strokes
    without 半, patterns with no label, text whose symbols were lost).

    Raises :class:`NotationError` for a pattern that is there but broken: an
    unknown symbol between its strokes, or a second 半.
    """
    if labels not in LABEL_MODES:
        raise ValueError(f"labels must be one of {LABEL_MODES}, not {labels!r}")
    src = SourceText(text, filename)
    tokens = tokenize(src)
    notices: list[Notice] = []

    def notice(message: str, offset: int | None) -> None:
        notices.append(Notice(message, src.location(offset) if offset is not None else None,
                              filename))

    # 1. items: ('P', run tokens) | ('L', token) | ('H', token) | ('|', None) breaks
    items: list[tuple[str, object]] = []
    run: list[Token] = []

    def close_run() -> None:
        nonlocal run
        if not run:
            return
        tokens_ = _trim_symbols(run, notice)
        run = []
        if not tokens_:
            items.append(("|", None))
            return
        strokes = [t for t in tokens_ if t.kind is Kind.STROKE]
        halves = [t for t in tokens_ if t.kind is Kind.HALF]
        if len(halves) == 1 and strokes and strokes[0].offset < halves[0].offset < strokes[-1].offset:
            _check_run(src, tokens_)          # symbols in the middle raise here
            items.append(("P", tokens_))
        elif len(halves) >= 2 and len(strokes) >= 2:
            _check_run(src, tokens_)          # raises: a second 半
        else:
            if len(halves) == 1 and len(strokes) >= 2:
                side = "before" if halves[0].offset < strokes[0].offset else "after"
                notice(f"{len(strokes)} strokes with nothing {side} 半: not read as a pattern",
                       strokes[0].offset)
            elif not halves and len(strokes) >= 6:
                notice(f"a run of {len(strokes)} strokes with no 半: not read as a pattern",
                       strokes[0].offset)
            items.append(("|", None))

    for tok in tokens:
        if tok.kind in _RUN_KINDS:
            if tok.kind is Kind.SYMBOL and not run:
                items.append(("|", None))
                continue
            run.append(tok)
            continue
        if tok.kind is Kind.NOTE:
            continue
        close_run()
        if tok.kind is Kind.LABEL:
            items.append(("L", tok))
        elif tok.kind is Kind.HEADING:
            items.append(("H", tok))
        else:  # TEXT, UNCLOSED
            items.append(("|", None))
    close_run()

    # 2. groups split at breaks; headings open a new group.
    groups: list[list[tuple[str, object]]] = [[]]
    for kind, value in items:
        if kind == "|":
            groups.append([])
        elif kind == "H":
            groups.append([(kind, value)])
        else:
            groups[-1].append((kind, value))

    patterns: list[Pattern] = []
    diagram = 0
    for group in groups:
        if not any(k == "P" for k, _ in group):
            continue
        group = _drop_captions(group)
        assigned = _attach(group, labels)
        seen: set[Tradition] = set()
        started = False
        for run_tokens, label in assigned:
            if label is None:
                first = next(t for t in run_tokens if t.kind is Kind.STROKE)
                notice("pattern with no score name (魯鼓 or 薛鼓) beside it: skipped; "
                       "use parse() or --labels to name it", first.offset)
                continue
            if not started or label.tradition in seen:
                diagram += 1
                seen = set()
                started = True
            seen.add(label.tradition)
            patterns.append(_build_pattern(src, run_tokens, label.tradition, diagram,
                                           edition, label))
    if diagram > 2:
        notice(f"{diagram} diagrams found where the chapter has two: numbered in order "
               "of appearance", None)
    if not patterns:
        halves = [t for t in tokens if t.kind is Kind.HALF]
        labels_found = [t for t in tokens if t.kind is Kind.LABEL]
        if labels_found and halves and not any(t.kind is Kind.STROKE for t in tokens):
            notice("score labels and 半 but no ○ or □ at all: this text seems to have lost "
                   "its drum symbols", labels_found[0].offset)
        elif labels_found and halves:
            notice("score labels and 半 found, but no pattern could be read",
                   labels_found[0].offset)
    return ScanResult(tuple(patterns), tuple(notices))


def _trim_symbols(run: list[Token], notice) -> list[Token]:
    """Drop symbols at the edges of a run (warned); those inside stay, to be refused."""
    start, end = 0, len(run)
    while start < end and run[start].kind is Kind.SYMBOL:
        start += 1
    while end > start and run[end - 1].kind is Kind.SYMBOL:
        end -= 1
    strokes = [t for t in run if t.kind is Kind.STROKE]
    for tok in run[:start] + run[end:]:
        if len(strokes) >= 2 and any(t.kind is Kind.HALF for t in run):
            notice(f"symbol '{tok.text}' (U+{ord(tok.text):04X}) beside a pattern: ignored",
                   tok.offset)
    return run[start:end]


def _drop_captions(group: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """Set aside labels on lines that hold two or more labels and nothing else."""
    lines_with_other: set[int] = set()
    labels_per_line: dict[int, int] = {}
    for kind, value in group:
        if kind == "L":
            line = value.location.line
            labels_per_line[line] = labels_per_line.get(line, 0) + 1
        elif kind == "P":
            for t in value:
                lines_with_other.add(t.location.line)
        elif kind == "H":
            lines_with_other.add(value.location.line)
    caption_lines = {ln for ln, c in labels_per_line.items()
                     if c >= 2 and ln not in lines_with_other}
    return [(k, v) for k, v in group
            if not (k == "L" and v.location.line in caption_lines)]


def _attach(group: list[tuple[str, object]], mode: LabelMode):
    """Pair each pattern of a diagram with its label: ``[(run, label or None)]``."""
    kinds = [k for k, _ in group]

    def assign(direction: str):
        out = []
        for i, (k, v) in enumerate(group):
            if k != "P":
                continue
            j = i + 1 if direction == "after" else i - 1
            label = group[j][1] if 0 <= j < len(group) and kinds[j] == "L" else None
            out.append((v, label))
        return out

    if mode == "auto":
        if kinds[0] == "H":
            mode = "after"
        else:
            after, before = assign("after"), assign("before")
            n_after = sum(1 for _, lab in after if lab is not None)
            n_before = sum(1 for _, lab in before if lab is not None)
            if n_after != n_before:
                mode = "after" if n_after > n_before else "before"
            else:
                mode = "before" if kinds[0] == "L" else "after"
    return assign(mode)

"""Tokens → one pattern (:func:`parse`), and what both readers share.

:func:`parse` is strict: the text must be one pattern (strokes, one 半, and at
most one score label or heading). Anything else is a :class:`NotationError`
naming the line and column.

:func:`guji.text.reading.scan.scan` reads any text (a whole chapter, a web page, a
user's notes), finds the drum diagrams in it and skips the prose around them;
:mod:`guji.text.reading.scan` describes how it reads.

Both readers speak the same terms, kept here: what the scanner returns
(:class:`ScanResult`, :class:`Notice`), the errors (:func:`error_at`, and
:func:`foreign_message` for what stands inside a pattern, with a suggestion
for the usual look-alikes), and the making of a :class:`Pattern` from its
tokens (:func:`build_pattern`).
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import intern
from dataclasses import dataclass, replace

from ...errors import Location, NotationError, describe_char, escape_controls, quoted
from ...i18n import _, pgettext
from .lexer import Kind, SourceText, Token, tokenize
from .notation import LOOKALIKES, ROUND, Pattern, Stroke, Tradition


@dataclass(frozen=True)
class Notice:
    """A warning from the scanner: something that looked like notation but was not read."""

    message: str
    location: Location | None
    filename: str | None = None

    def __str__(self) -> str:
        name = self.filename or "<text>"
        if self.location is None:
            return escape_controls(_("{file}: warning: {message}").format(file=name, message=self.message))
        return escape_controls(_("{file}:{line}:{column}: warning: {message}").format(
            file=name, line=self.location.line, column=self.location.column, message=self.message))


@dataclass(frozen=True)
class ScanResult:
    """What :func:`~guji.text.reading.scan.scan` found: the patterns in order, and warnings."""

    patterns: tuple[Pattern, ...]
    notices: tuple[Notice, ...]

    def find(self, tradition: Tradition, diagram: int) -> Pattern | None:
        for p in self.patterns:
            if p.tradition is tradition and p.diagram == diagram:
                return p
        return None


# ---------------------------------------------------------------------------
# What both readers share: errors, the making of a pattern
# ---------------------------------------------------------------------------

def error_at(src: SourceText, message: str, offset: int) -> NotationError:
    """A :class:`NotationError` for *message* at *offset* of *src*, with its
    line, column and the text of its line."""
    loc = src.location(offset)
    return NotationError(message, loc, src.filename, src.line_text(loc.line))


def build_pattern(src: SourceText, run_tokens: list[Token], tradition: Tradition,
                  diagram: int, edition: str | None,
                  label: Token | None, notes: Sequence[Token] = ()) -> Pattern:
    """The :class:`Pattern` of *run_tokens* (strokes and exactly one 半,
    already checked), with the source lines it spans, where its *label*
    stands, and the witnesses' readings in its *notes* (the note tokens
    inside it and right after its last stroke: :mod:`guji.text.apparatus.witnesses`)."""
    strokes: list[Stroke] = []
    half_start = -1
    half_loc: Location | None = None
    for tok in run_tokens:
        if tok.kind is Kind.STROKE:
            strokes.append(Stroke(tok.drum, len(strokes), intern(tok.text), tok.location))
        elif tok.kind is Kind.HALF:
            half_start = len(strokes)
            half_loc = tok.location
    assert half_loc is not None
    first, last = strokes[0].location.line, strokes[-1].location.line
    lines = tuple((n, src.line_text(n)) for n in range(first, last + 1))
    pattern = Pattern(tradition, diagram, tuple(strokes), half_start, half_loc,
                      edition=edition, filename=src.filename, lines=lines,
                      label_location=label.location if label else None)
    if not notes:
        return pattern
    from ..apparatus.witnesses import notes_of, variants_of     # the apparatus: only where there are notes
    offsets = [s.location.offset for s in strokes]
    variants, unread = variants_of(pattern, notes_of(offsets, notes), src)
    return replace(pattern, variants=variants, unread=unread)


def lookalike(text: str) -> str | None:
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
    glyph = lookalike(tok.text)
    hint = ""
    if glyph is not None:
        drum = "鼙" if glyph == ROUND else "鼓"
        hint = _(": did you mean {glyph} ({drum})?").format(glyph=glyph, drum=drum)
    if tok.kind is Kind.SYMBOL and len(tok.text) == 1:
        return (_("unknown symbol {shown} inside a pattern: not a drum glyph").format(
            shown=describe_char(tok.text)) + (hint or _(" (see `guji glyphs`)")))
    if tok.kind is Kind.SYMBOL:
        return _("empty brackets {shown} inside a pattern").format(shown=describe_char(tok.text)) + hint
    if tok.kind is Kind.HEADING:
        return _("'{heading}' inside a pattern: a heading stands before the strokes, "
                 "not between them").format(heading=tok.text)
    if tok.kind is Kind.UNCLOSED:
        return _("note opened with '{bracket}' inside a pattern is never closed").format(bracket=tok.text[0])
    word = tok.text[:10]
    if len(word) == 1:
        said = pgettext("one character", "unexpected text {shown} inside a pattern")
    else:
        said = pgettext("several characters", "unexpected text {shown} inside a pattern")
    shown = describe_char(word) if len(word) == 1 else quoted(escape_controls(word))
    return said.format(shown=shown) + (
        hint or _(": only ○ □ 半, punctuation and notes in brackets belong between strokes"))


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
        punctuation, markup and bracketed notes are skipped (variant notes
        inside the pattern or right after it are read as other witnesses'
        readings: :attr:`Pattern.variants`); one score label
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
    run, label = _run_and_label(src, tokens)
    if not run:
        raise error_at(src, _("no drum strokes (○ or □) found"), _first_content(text))
    if not any(t.kind is Kind.STROKE for t in run):
        raise error_at(src, _("no drum strokes (○ or □) found"), run[0].offset)
    _check_run(src, run)
    return build_pattern(src, run, _tradition(src, run, label, given), diagram, edition, label,
                         _notes_of_run(tokens, run))


def _notes_of_run(tokens: list[Token], run: list[Token]) -> list[Token]:
    """The note tokens inside *run* and right after its last token (before
    anything else)."""
    notes = []
    for tok in tokens:
        if tok.offset <= run[0].offset:
            continue
        if tok.kind is Kind.NOTE:
            notes.append(tok)
        elif tok.offset > run[-1].offset:
            break
    return notes


#: The tokens of a pattern's run: strokes and 半, and symbols (kept to be checked).
_RUN_KINDS = (Kind.STROKE, Kind.HALF, Kind.SYMBOL)


def _run_and_label(src: SourceText, tokens: list[Token]) -> tuple[list[Token], Token | None]:
    """The one run of *tokens* (strokes, 半 and symbols; notes and punctuation
    between them skipped) and its score label, if any; raise for anything
    else (prose, a second label, strokes on both sides of the label…)."""
    label: Token | None = None
    run: list[Token] = []
    run_started = run_ended = False
    for tok in tokens:
        if tok.kind in _RUN_KINDS:
            if run_ended:
                raise error_at(src, _("strokes after the score label: the label stands before or "
                                      "after the whole pattern (use scan for a whole text)"), tok.offset)
            run.append(tok)
            run_started = True
        elif tok.kind is Kind.NOTE:
            continue
        elif tok.kind is Kind.UNCLOSED:
            raise error_at(src, _("note opened with '{bracket}' is never closed").format(bracket=tok.text[0]),
                           tok.offset)
        elif tok.kind is Kind.TEXT:
            raise error_at(src, foreign_message(tok), tok.offset)
        elif tok.kind is Kind.HEADING:
            if run_started or label is not None:
                raise error_at(src, _("heading '{heading}' must come before the strokes").format(
                    heading=tok.text), tok.offset)
        elif tok.kind is Kind.LABEL:
            if label is not None:
                raise error_at(src, _("a second score label '{label}': one pattern has one "
                                      "score").format(label=tok.text), tok.offset)
            run_ended = run_started
            label = tok
    return run, label


def _tradition(src: SourceText, run: list[Token], label: Token | None,
               given: Tradition | None) -> Tradition:
    """The pattern's tradition: its label's or the one *given*, which must agree."""
    named = label.tradition if label else None
    if given is not None and named is not None and given is not named:
        raise error_at(src, _("the label says {label} but the score given is {given}").format(
            label=label.text, given=given.label), label.offset)
    tradition = named or given
    if tradition is None:
        first = next(t for t in run if t.kind is Kind.STROKE)
        raise error_at(src, _("pattern has no score name: write 魯鼓 or 薛鼓 next to it, "
                              "or give the score"), first.offset)
    return tradition


def _check_run(src: SourceText, tokens: list[Token]) -> None:
    """Raise for a run that should be one pattern but is malformed."""
    strokes = [t for t in tokens if t.kind is Kind.STROKE]
    if not strokes:
        raise error_at(src, _("no drum strokes (○ or □) in the pattern"), tokens[0].offset)
    before = after = 0
    half: Token | None = None
    for tok in tokens:
        if tok.kind is Kind.SYMBOL:
            raise error_at(src, foreign_message(tok), tok.offset)
        if tok.kind is Kind.HALF:
            if half is not None:
                raise error_at(src, _("a second 半 in one pattern: every pattern has exactly one"),
                               tok.offset)
            if before == 0:
                raise error_at(src, _("nothing before 半: the first part of the pattern is empty"),
                               tok.offset)
            half = tok
        elif half is None:
            before += 1
        else:
            after += 1
    if half is None:
        raise error_at(src, _("no 半 in the pattern: every pattern has exactly one half marker"),
                       strokes[0].offset)
    if after == 0:
        raise error_at(src, _("nothing after 半: the half (played for 投壺) is empty"), half.offset)


def _first_content(text: str) -> int:
    for i, ch in enumerate(text):
        if not ch.isspace():
            return i
    return 0

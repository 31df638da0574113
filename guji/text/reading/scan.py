"""A whole text → its patterns: :func:`scan`.

:func:`scan` reads any text (a whole chapter, a web page, a user's notes),
finds the drum diagrams in it and skips the prose around them. It cuts the
tokens into segments (:mod:`guji.text.reading.segments`), raises for typos inside a
pattern (:mod:`guji.text.reading.typos`), attaches the labels
(:mod:`guji.text.reading.labels`) and numbers the diagrams.
:func:`guji.text.reading.parser.parse` reads one pattern, strictly.

Reading a whole text
--------------------
:func:`scan` is written for texts people type and paste, where a wrong reading
that looks right is the worst failure: it reads what the text admits and
refuses or reports the rest.

* **Typos are errors.** A character that is not a stroke, 半 or ignorable,
  standing between two strokes of one pattern, is a :class:`NotationError` at
  that character, with a suggestion for the usual look-alikes
  (:data:`guji.text.reading.notation.LOOKALIKES`).
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
* **Variant notes are readings.** The notes inside a pattern and right after
  its last stroke that give another witness's reading (``(一本作○)``) become
  that witness's whole reading (:attr:`Pattern.variants
  <guji.text.reading.notation.Pattern.variants>`, :mod:`guji.text.apparatus.witnesses`); a
  note with strokes that cannot be read is listed (:attr:`Pattern.unread
  <guji.text.reading.notation.Pattern.unread>`) and a notice says why.

The caller can force one side with ``labels="after"`` or ``"before"``.
"""

from __future__ import annotations

from ...i18n import _, ngettext
from .cost import check_reading
from .hidden import bracketed, hidden_notices, lost_symbols, unbracketed
from .labels import LABEL_MODES, LabelMode, attach_labels, caption_lines, label_items
from .lexer import SourceText, Token, paused_collector, tokenize
from .notation import Pattern, Tradition
from .parser import Notice, ScanResult, build_pattern
from .segments import Segment, pieces_of
from .typos import check_typos


def scan(text: str, filename: str | None = None, edition: str | None = None,
         labels: LabelMode = "auto", read_bracketed: bool = False) -> ScanResult:
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
    5. What the text hides is said (:mod:`guji.text.reading.hidden`): labels and 半
       whose strokes are lost, patterns inside a note (read as patterns with
       *read_bracketed*).
    4. Diagram numbers follow the text: the n-th 魯鼓 pattern is 魯鼓's
       diagram n, and so for 薛鼓.

    Raises :class:`NotationError` for a pattern that is there but broken: a
    typo between its strokes, or a second 半.
    """
    if labels not in LABEL_MODES:
        raise ValueError(f"labels must be one of {LABEL_MODES}, not {labels!r}")
    with paused_collector():
        return _scan(text, filename, edition, labels, read_bracketed)


def _scan(text: str, filename: str | None, edition: str | None, labels: LabelMode,
          read_bracketed: bool) -> ScanResult:
    check_reading([(text, 0, len(text))], filename)
    src = SourceText(text, filename)
    return read_tokens(src, tokenize(src), edition, labels, read_bracketed)


def read_tokens(src: SourceText, tokens: list[Token], edition: str | None,
                labels: LabelMode, read_bracketed: bool = False) -> ScanResult:
    """:func:`scan`'s reading of the *tokens* of *src* (all of them, or those of
    the windows :mod:`guji.text.reading.prefilter` keeps).

    *tokens* is emptied once it is read, and each segment let go once its
    pattern is made: the tokens of a text dense with patterns are freed as
    its patterns are made, not held beside them all."""
    said = Said()
    src, assigned = _assigned(src, tokens, labels, read_bracketed, said)
    tokens.clear()
    patterns = _number(src, assigned, edition, said.teller(src, "numbering"))
    return ScanResult(tuple(patterns), said.notices(src.filename))


#: How many warnings of one kind a scan gives; one more line says how many
#: more there were (a text of labels without strokes gave a warning for each
#: group of them: 17,625 lines from 2.6 MB).
SAID_OF_A_KIND = 5


class Said:
    """The warnings of one scan, at most :data:`SAID_OF_A_KIND` of each kind
    (of one step of the scan: the labels, the symbols lost, the notes, the
    numbering), the others only counted."""

    def __init__(self):
        self._said: list[tuple[str, Notice]] = []
        self._counts: dict[str, int] = {}

    def teller(self, src: SourceText, kind: str):
        """``notice(message, offset)``: a warning of *kind* at *offset* of *src*."""
        def notice(message: str, offset: int | None) -> None:
            n = self._counts[kind] = self._counts.get(kind, 0) + 1
            if n <= SAID_OF_A_KIND:
                self._said.append((kind, Notice(
                    message, src.location(offset) if offset is not None else None, src.filename)))
        return notice

    def notices(self, filename: str | None) -> tuple[Notice, ...]:
        """The warnings kept, in order; after the last of a kind that had more,
        a line saying how many more."""
        out: list[Notice] = []
        seen: dict[str, int] = {}
        for kind, notice in self._said:
            out.append(notice)
            seen[kind] = seen.get(kind, 0) + 1
            more = self._counts[kind] - SAID_OF_A_KIND
            if seen[kind] == SAID_OF_A_KIND and more > 0:
                out.append(Notice(ngettext("… and {n:,} more like this", "… and {n:,} more like these",
                                           more).format(n=more), None, filename))
        return tuple(out)


def _assigned(src: SourceText, tokens: list[Token], labels: LabelMode, read_bracketed: bool,
              said: Said) -> tuple[SourceText, list[tuple[Segment, Token]]]:
    """The segments of *tokens* that are patterns, each with its label, and the
    source they are read in (the text without its brackets, with
    *read_bracketed*); what is said on the way goes to *said*."""
    pieces = pieces_of(tokens)
    check_typos(src, pieces)
    hidden = bracketed(src, tokens)
    notice = said.teller(src, "notes")
    for message, offset in hidden_notices(src, hidden, read_bracketed):
        notice(message, offset)
    if hidden and read_bracketed:
        src = SourceText(unbracketed(src.text, hidden), src.filename)
        tokens = tokenize(src)
        pieces = pieces_of(tokens)
        check_typos(src, pieces)
    notice = said.teller(src, "lost")
    for message, offset in lost_symbols(tokens):
        notice(message, offset)
    items = label_items(pieces, caption_lines(tokens), said.teller(src, "runs"))
    return src, attach_labels(items, labels, said.teller(src, "labels"))


def _number(src: SourceText, assigned: list[tuple[Segment, Token]], edition: str | None,
            notice) -> list[Pattern]:
    """The patterns of the *assigned* segments, each numbered by its score's
    count in text order (see :func:`scan`, step 4); a notice if a score has
    more than the chapter's two diagrams. *assigned* is emptied as it is read."""
    counters = {t: 0 for t in Tradition}
    patterns: list[Pattern] = []
    for k, (seg, label) in enumerate(assigned):
        assigned[k] = None                  # type: ignore[call-overload]  # its tokens freed
        counters[label.tradition] += 1
        pattern = build_pattern(src, seg.tokens, label.tradition, counters[label.tradition],
                                edition, label, seg.notes + seg.trailing)
        for note in pattern.unread:
            notice(_("{score} (diagram {diagram}): variant note not read: {reason}").format(
                score=pattern.tradition.label, diagram=pattern.diagram, reason=note.reason),
                note.location.offset)
        patterns.append(pattern)
    many = [t for t, n in counters.items() if n > 2]
    if many:
        notice(_("{scores}: more than the chapter's two diagrams found; numbered in order of "
                 "appearance").format(scores=_(" and ").join(t.label for t in many)), None)
    return patterns

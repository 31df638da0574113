"""Labels for a whole text: which score label names which pattern.

Each pattern takes one score label adjacent to it and no label serves two;
patterns and labels that stand next to each other form alternating chains,
each read on its own (see :func:`~guji.text.reading.scan.scan`, step 3, and the
module documentation of :mod:`guji.text.reading.scan`). Lines of labels alone above
a diagram are captions (:func:`caption_lines`); runs of strokes that are not
patterns are reported (:func:`label_items`); a chain that reads two ways is
not read, and a notice names both readings.
"""

from __future__ import annotations

from typing import Literal

from ...i18n import _, ngettext
from ...errors import describe_char, escape_controls
from .lexer import Kind, Token
from .notation import HALF, Tradition
from .segments import Segment

#: Which side of its pattern a label stands: found for the whole text
#: (``"auto"``), or forced (the ``labels`` argument of :func:`~guji.text.reading.scan.scan`).
LabelMode = Literal["auto", "after", "before"]
LABEL_MODES = ("auto", "after", "before")


def caption_lines(tokens: list[Token]) -> set[int]:
    """Lines holding two or more score labels and nothing else but notes
    (``魯鼓　　薛鼓`` above a diagram): captions, not labels of patterns. A
    line of labels right after a pattern is not a caption: its first label
    may be that pattern's (``…○□□○`` / ``薛鼓魯鼓`` / ``○□○…``)."""
    labels: dict[int, int] = {}
    after_stroke: set[int] = set()
    previous: Token | None = None
    for tok in tokens:
        if tok.kind is Kind.NOTE:
            continue
        if tok.kind is Kind.LABEL:
            line = tok.location.line
            if labels.get(line, 0) == 0 and previous is not None and previous.kind is Kind.STROKE:
                after_stroke.add(line)
            labels[line] = labels.get(line, 0) + 1
        previous = tok
    lines = {line for line, n in labels.items() if n >= 2 and line not in after_stroke}
    return lines - _lines_with_more(tokens, lines)


def _lines_with_more(tokens: list[Token], lines: set[int]) -> set[int]:
    """Those of *lines* holding a token that is neither a label nor a note.
    The tokens are walked in order against the lines' spans, so a book of
    millions of tokens costs no line lookup per token."""
    if not lines:
        return set()
    src = tokens[0].source
    spans = sorted((src.line_start(line), src.line_start(line + 1)
                    if line < src.line_count else len(src.text), line) for line in lines)
    found: set[int] = set()
    k = 0
    for tok in tokens:
        if tok.kind is Kind.LABEL or tok.kind is Kind.NOTE:
            continue
        while k < len(spans) and spans[k][1] <= tok.offset:
            k += 1
        if k == len(spans):
            break
        if spans[k][0] <= tok.offset:
            found.add(spans[k][2])
    return found


def label_items(pieces: list, captions: set[int], notice) -> list[tuple[str, object]]:
    """Pieces → ``('P', segment)``, ``('L', label)``, ``('H', heading)`` and
    ``('|', None)`` breaks (prose, symbols, runs that are not patterns)."""
    items: list[tuple[str, object]] = []
    for k, piece in enumerate(pieces):
        if isinstance(piece, Segment):
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
            notice(_("symbol {shown} beside a pattern: ignored").format(shown=describe_char(piece.text)),
                   piece.offset)
        else:
            items.append(("|", None))
    return items


def _beside_pattern(pieces: list, k: int) -> bool:
    return any(0 <= j < len(pieces) and isinstance(pieces[j], Segment) and pieces[j].is_pattern()
               for j in (k - 1, k + 1))


def _not_a_pattern(seg: Segment, notice) -> None:
    """Say why a run of strokes that might have been meant as a pattern is not one."""
    strokes, halves = seg.strokes, seg.halves
    bracketed = [n for n in seg.notes if _is_bracketed_half(n.text)]
    if not halves and bracketed:
        note = bracketed[0]
        notice(_("a run of {n} strokes with no 半, but {note} "
                 "in brackets inside it: not read as a pattern (if it is the half marker, "
                 "remove the brackets)").format(n=len(strokes), note=escape_controls(note.text)),
               note.offset)
    elif len(halves) == 1 and len(strokes) >= 2:
        said = (_("{n} strokes with nothing before 半: not read as a pattern")
                if seg.first.kind is Kind.HALF else _("{n} strokes with nothing after 半: not read as a pattern"))
        notice(said.format(n=len(strokes)), strokes[0].offset)
    elif not halves and len(strokes) >= 6:
        notice(_("a run of {n} strokes with no 半: not read as a pattern").format(n=len(strokes)),
               strokes[0].offset)


def _is_bracketed_half(note: str) -> bool:
    return "".join(note[1:-1].split()) == HALF


def attach_labels(items: list[tuple[str, object]], mode: LabelMode,
                  notice) -> list[tuple[Segment, Token]]:
    """Pair patterns with labels for the whole text (see
    :func:`~guji.text.reading.scan.scan`, step 3).

    The patterns and labels that stand next to each other (only ignorable
    text between) form alternating chains ``P L P L …``; each chain is read
    on its own, in text order.
    """
    out: list[tuple[Segment, Token]] = []
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


def _reading(chain: list[tuple[str, object]], side: int) -> list[tuple[Segment, Token | None]]:
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
                  after_diagram: bool, notice) -> list[tuple[Segment, Token]]:
    """Read one alternating chain of patterns and labels (see :func:`attach_labels`)."""
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
            notice(_("pattern with no score name (魯鼓 or 薛鼓) beside it: skipped; write "
                     "魯鼓 or 薛鼓 beside it, or give a file of this one pattern as the id "
                     "with --score lu or --score xue"), seg.first.offset)
        else:
            out.append((seg, label))
    return out


def _ambiguity(before, after) -> str:
    """The notice for a chain that reads two ways."""
    where = ", ".join(str(seg.first.location) for seg, _label in before)
    n = len(before)

    def names(reading) -> str:
        return ", ".join(label.text if label is not None else _("(none)") for _seg, label in reading)

    return ngettext("ambiguous score labels: the pattern at {where} "
                    "read {after} if labels follow their patterns (as in the first diagram), "
                    "or {before} if they precede them (as in the second): not read; "
                    "say which with --labels after or --labels before",
                    "ambiguous score labels: the {n} patterns at {where} "
                    "read {after} if labels follow their patterns (as in the first diagram), "
                    "or {before} if they precede them (as in the second): not read; "
                    "say which with --labels after or --labels before", n).format(
        n=n, where=where, after=names(after), before=names(before))

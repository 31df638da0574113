"""A pattern typed where an id goes, or a file that is one pattern with no label.

``guji play '○□○○□□○□○○□半○□○□○○○□□○□○'`` hears the strokes typed;
``guji play nolabel.txt --score xue`` reads the whole file as one pattern.
Either may carry its score label (``魯鼓○□半○□``); where it does not, the
score given (``--score``) names it, and where none is given it is read as
魯鼓 and :func:`read_one` says so (a pattern has a score: the name of its
track, its title).
"""

from __future__ import annotations

import os
from typing import Callable

from ...i18n import _
from ...errors import NotationError
from .encoding import read_text
from .notation import ROUND_GLYPHS, SQUARE_GLYPHS, Pattern, Tradition
from .parser import parse

#: The characters that make an id a typed pattern: no SCORE or DIAGRAM holds them.
_STROKES = frozenset((*ROUND_GLYPHS, *SQUARE_GLYPHS))


def is_typed(text: str) -> bool:
    """Whether *text*, given as an id, is a pattern typed out: it holds a drum
    glyph before any ``@`` (``lu@口述.txt`` names a file) and names no file
    that is there."""
    first = next((i for i, ch in enumerate(text) if ch in _STROKES), None)
    if first is None or "@" in text[:first] or "＠" in text[:first]:
        return False
    return not os.path.exists(text)


def read_typed(text: str, score: str | None, said: Callable[[str], None]) -> Pattern:
    """The one pattern *text* is, named by its label or *score* (``lu``,
    ``xue``); read as 魯鼓 with a line to *said* when neither names it."""
    return _named(text, score, said, None)


def read_file(path: str, score: str | None, said: Callable[[str], None],
              encoding: str | None = None) -> Pattern:
    """The one pattern the file *path* (``-``: standard input) holds, named as
    :func:`read_typed` names it."""
    text, _encoding = read_text(path, encoding)
    return _named(text, score, said, "<stdin>" if path == "-" else path)


def _named(text: str, score: str | None, said: Callable[[str], None],
           filename: str | None) -> Pattern:
    """:func:`parse` of *text*, with 魯鼓 (and a line said) for a pattern no
    label and no *score* names."""
    try:
        return parse(text, tradition=score, filename=filename)
    except NotationError:
        if score is not None:
            raise
        pattern = parse(text, tradition=Tradition.LU, filename=filename)   # a typo: raised again
    said(_("{where}: no score name (魯鼓 or 薛鼓) in the pattern: read as 魯鼓 "
           "(--score xue for 薛鼓)").format(where=filename or _("typed pattern")))
    return pattern

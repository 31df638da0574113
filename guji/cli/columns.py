"""Text laid out in terminal columns, counted by display width, not by characters.

A terminal gives a CJK character (East Asian Wide or Fullwidth: 鼓, 魯, ：)
two columns and most others one (:func:`guji.errors.display_width`), so
Python's ``str.ljust`` and ``{:<8}``, which count characters, leave a
Chinese column short by one column a character. :func:`pad` and
:func:`table` pad by display width instead (the tables of ``guji list``,
``guji claims`` and ``guji devices``); :class:`HelpFormatter` does the same
for the continuation lines of argparse's usage, which argparse indents by
the length of ``usage: `` in characters (「用法：」 is 3 characters, 6 columns).

○ and □ are East Asian *ambiguous*: one column, as glibc's ``wcwidth``, VTE
and macOS Terminal count them by default.
"""

from __future__ import annotations

import argparse
import re
from typing import Sequence

from ..errors import display_width
from ..i18n import translator

__all__ = ["HelpFormatter", "pad", "table", "wrap"]

#: What a line may not begin with (closing punctuation: it stays with the character before it).
NO_START = set("，。、；：？！）」』》〉】〕,.;:?!)]}")
_TOKENS = re.compile(r"\s+|[^\s\u1100-\uffff]+|.")


def pad(text: str, width: int, right: bool = False) -> str:
    """*text* padded with spaces to *width* display columns (on the left when
    *right*: numbers); text already as wide or wider is left as it is."""
    room = " " * max(0, width - display_width(text))
    return room + text if right else text + room


def table(rows: Sequence[Sequence[str]], right: Sequence[int] = (), gap: str = "  ",
          indent: str = "") -> list[str]:
    """The lines of *rows* (cells as strings), each column as wide as its widest
    cell in display columns; the columns numbered in *right* aligned right.
    The last column is not padded, and no line ends in spaces."""
    if not rows:
        return []
    count = max(len(r) for r in rows)
    widths = [max((display_width(r[i]) for r in rows if i < len(r)), default=0)
              for i in range(count)]
    lines = []
    for row in rows:
        cells = [cell if i == len(row) - 1 and i not in right else pad(cell, widths[i], i in right)
                 for i, cell in enumerate(row)]
        lines.append((indent + gap.join(cells)).rstrip())
    return lines


def wrap(text: str, width: int) -> list[str]:
    """*text*'s words in lines of at most *width* display columns: a line may
    break between any two CJK characters (no spaces between them) and at
    spaces, never inside a Latin word or number, and never before closing
    punctuation (，。）」 hang on to the character before them). A word wider
    than *width* has a line of its own."""
    lines: list[list[str]] = [[]]
    used, space = 0, False
    for token in _TOKENS.findall(" ".join(text.split())):
        if token.isspace():
            space = bool(lines[-1])
            continue
        need = display_width(token) + (1 if space else 0)
        if lines[-1] and used + need > width:
            carried = _carried(lines[-1]) if token in NO_START else []
            if carried is not None:      # else: the closer hangs past the line's end
                lines.append(carried)
                used, space = sum(display_width(t) for t in carried), False
                need = display_width(token)
        lines[-1] += [" ", token] if space else [token]
        used += need
        space = False
    return ["".join(line).strip() for line in lines if line]


def _carried(line: list[str]) -> list[str] | None:
    """The tokens to take from the end of *line* onto the next one, so that the
    next does not begin with closing punctuation: the character closed and the
    closers after it (None: no such character on the line, nothing taken)."""
    for k in range(len(line) - 1, 0, -1):
        if line[k].isspace():
            return None
        if line[k] not in NO_START:
            carried = line[k:]
            del line[k:]
            return carried
    return None


def _wide(text: str) -> bool:
    return display_width(text) != len(text)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its usage's continuation lines indented by the display
    width of the ``usage:`` prefix in the language in use (argparse counts its
    characters), and help text with CJK in it wrapped by display width
    (:func:`wrap`; text without any is wrapped by argparse, as before)."""

    def _split_lines(self, text, width):  # type: ignore[override]
        return wrap(text, width) if _wide(text) else super()._split_lines(text, width)

    def _fill_text(self, text, width, indent):  # type: ignore[override]
        if not _wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def _format_usage(self, usage, actions, groups, prefix):  # type: ignore[override]
        if usage is not None:        # given whole (already laid out): argparse does not wrap it
            return super()._format_usage(usage, actions, groups, prefix)
        shown = translator("argparse").gettext("usage: ") if prefix is None else prefix
        extra = max(0, display_width(shown) - len(shown))
        self._width -= extra         # the lines argparse wraps are that much wider on screen
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += extra
        if not extra:
            return text
        first, *rest = text.split("\n")
        return "\n".join([first] + [" " * extra + line if line.strip() else line for line in rest])

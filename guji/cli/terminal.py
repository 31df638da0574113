"""What reaches the terminal: text with its control characters shown, never obeyed.

A file name or a line of a user's text may hold ESC, BEL or a bidirectional
override; written raw, ESC would drive the terminal and U+202E reorder the
rest of the line. :class:`SafeStream` wraps ``sys.stdout`` and
``sys.stderr`` for the whole of a command (:func:`guji.cli.main`): whatever is
printed has every control or format character written as ``U+001B``, except
line breaks and tabs.

The live displays (the stroke display of ``guji play``, the progress bar)
write their own control sequences on purpose (``\\r``, reverse video): they
escape their content with :func:`guji.errors.escape_controls` and write
through :func:`unescaped`.
"""

from __future__ import annotations

from typing import TextIO

from ..errors import escape_controls

_KEPT = {"\n": "\x00N", "\t": "\x00T"}


def escape_text(text: str) -> str:
    """:func:`~guji.errors.escape_controls`, keeping line breaks (``\\n``) and tabs."""
    if text.isprintable():
        return text
    lines = text.split("\n")
    return "\n".join("\t".join(escape_controls(cell) for cell in line.split("\t"))
                     for line in lines)


class SafeStream:
    """A text stream that escapes control characters on the way to *stream*.

    Everything but :meth:`write` is the wrapped stream's own (``isatty``,
    ``fileno``, ``encoding``, ``flush`` …).
    """

    def __init__(self, stream: TextIO):
        self.unescaped = stream

    def write(self, text: str) -> int:
        self.unescaped.write(escape_text(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.unescaped, name)


def unescaped(stream: TextIO) -> TextIO:
    """The stream under a :class:`SafeStream` (or *stream* itself), for
    writers of deliberate control sequences."""
    while isinstance(stream, SafeStream):
        stream = stream.unescaped
    return stream

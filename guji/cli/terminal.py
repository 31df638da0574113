"""What reaches the terminal: text with its control characters shown, never obeyed.

A file name or a line of a user's text may hold ESC, BEL or a bidirectional
override; written raw, ESC would drive the terminal and U+202E reorder the
rest of the line. :class:`SafeStream` wraps ``sys.stdout`` and
``sys.stderr`` for the whole of a command (:func:`guji.cli.main`): whatever is
printed has every control or format character written as ``U+001B``, except
line breaks and tabs.

Text out is UTF-8 whatever the locale when it is data (:func:`encoded`):
standard output to a file or a pipe (``guji list --json > x.json``, a
listing piped on) is written in UTF-8 even where the locale or
``PYTHONIOENCODING`` says cp1252; to a terminal, and for the messages of
standard error, the stream keeps its encoding and a character it cannot
show degrades to an escape (``\\u9f13``), never a ``UnicodeEncodeError``.

On Windows the console is asked to obey ANSI sequences
(:func:`windows_console`), as Windows Terminal does already.

The live displays (the stroke display of ``guji play``, the progress bar)
write their own control sequences on purpose (``\\r``, reverse video): they
escape their content with :func:`guji.errors.escape_controls` and write
through :func:`unescaped`.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, TextIO

from ..errors import escape_controls

_KEPT = {"\n": "\x00N", "\t": "\x00T"}


def escape_text(text: str) -> str:
    """:func:`~guji.errors.escape_controls`, keeping line breaks (``\\n``) and tabs."""
    if text.isprintable() or (text[-1:] == "\n" and text[:-1].isprintable()):
        return text                     # (a line at a time, as most writes are: quick)
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


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextmanager
def encoded(stdout: TextIO, stderr: TextIO) -> Iterator[None]:
    """For the ``with`` block: *stdout* in UTF-8 unless it is a terminal; a
    terminal's and *stderr*'s characters they cannot encode as escapes.
    The streams' encodings come back after it."""
    changed = []
    windows_console(stdout)
    for stream, data in ((stdout, True), (stderr, False)):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        saved = {"encoding": stream.encoding, "errors": stream.errors}
        try:
            if data and not _is_terminal(stream):
                reconfigure(encoding="utf-8", errors="backslashreplace")
            else:
                reconfigure(errors="backslashreplace")
        except (ValueError, OSError, LookupError):
            continue
        changed.append((reconfigure, saved))
    try:
        yield
    finally:
        for reconfigure, saved in changed:
            try:
                reconfigure(**saved)
            except (ValueError, OSError, LookupError):
                pass


def windows_console(stream: TextIO) -> None:
    """On Windows, turn on the console's VT processing for *stream* (Windows 10
    and later: ``ENABLE_VIRTUAL_TERMINAL_PROCESSING``), so that the live
    displays' reverse video shows as such; elsewhere, or where the console
    refuses, nothing."""
    from .. import system
    if system.name() != "windows" or not _is_terminal(stream):
        return
    try:
        import ctypes
        import msvcrt
        handle = msvcrt.get_osfhandle(stream.fileno())
        kernel32 = ctypes.WinDLL("kernel32")
        mode = ctypes.c_uint32()
        if kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            kernel32.SetConsoleMode(handle, mode.value | 0x0004)
    except (ImportError, AttributeError, OSError, ValueError):
        pass

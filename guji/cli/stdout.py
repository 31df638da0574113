"""Standard output that fails: one line and exit 2, never a traceback.

``guji list > /dev/full`` once ended in an ``OSError`` traceback, and
``guji list >&-`` (standard output closed) in an ``AttributeError`` for every
command. :class:`CheckedOutput` wraps ``sys.stdout`` for the whole of a
command (:func:`guji.cli.main.main`): a write or flush that fails raises
:class:`OutputError`, a :class:`~guji.errors.UsageError` (one line: what
failed and why, exit 2). The reader of a pipe going away (``guji list |
head -1``) stays a :class:`BrokenPipeError`, which is no error (exit 0).

Once standard output has failed, its descriptor is pointed at the null device
so that the interpreter's last flush, at exit, has nowhere to fail.
"""

from __future__ import annotations

import os
import sys

from ..i18n import _
from ..errors import UsageError
from ..files import reason


class OutputError(UsageError):
    """Standard output cannot be written."""


class CheckedOutput:
    """*stream* (``sys.stdout``, or ``None`` when it is closed), whose failures
    are :class:`OutputError`."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        if self.stream is not None:
            self._call("flush")

    def _call(self, name: str, *args):
        if self.stream is None:
            raise OutputError(_('standard output is closed: nothing can be written to it'))
        try:
            return getattr(self.stream, name)(*args)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:
            self._silence()
            raise OutputError(_('standard output: cannot write: {value}').format(value=reason(e))) from None

    def _silence(self) -> None:
        """Point the real standard output at the null device (not a test's capture)."""
        if self.stream is not sys.__stdout__:
            return
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.stream.fileno())
            os.close(null)
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str):
        if self.stream is None:
            if name in ("isatty", "writable"):
                return lambda: False
            raise OutputError(_('standard output is closed: nothing can be written to it'))
        return getattr(self.stream, name)

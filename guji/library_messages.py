"""Messages of C libraries (ALSA, JACK) kept off the terminal, and counted.

alsa-lib prints its errors with ``fprintf(stderr, …)`` from whatever thread
meets them — during playback, PortAudio's audio thread, in the middle of the
stroke display::

    ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred

and libjack prints five lines when no JACK server runs. guji catches them
while it plays or talks MIDI, and reports them after, in one line of its own.
Two ways, both measured on Debian 12 (alsa-lib 1.2.8, PortAudio 19.6):

:class:`AlsaMessages`
    ``snd_lib_error_set_handler`` through ctypes on the process's
    ``libasound.so.2`` — the library PortAudio and rtmidi loaded, so the
    handler applies to them. Nothing reaches file descriptor 2; each message
    is kept (:attr:`AlsaMessages.messages`). The handler is variadic in C
    (``file, line, function, err, fmt, ...``): ctypes cannot take a
    ``va_list``, so the message is *fmt* with its first argument put in
    when that is a ``%s`` (x86-64 and arm64 Linux pass the first variadic
    argument in the register after *fmt*; elsewhere *fmt* is kept as it
    is). Eight underruns forced at 8.7 ms of latency gave eight lines on
    stderr without the handler; with it, none, and eight messages kept.

:class:`StderrCapture`
    The blunt one, for anything else C code writes to file descriptor 2
    (libjack): a pipe is put on descriptor 2 for the duration and a thread
    collects its lines; Python's own ``sys.stderr`` writes to a copy of the
    real descriptor meanwhile, so a traceback still shows.

Both are context managers and do nothing harmful where the library is
missing (no libasound: :attr:`AlsaMessages.active` is False).
"""

from __future__ import annotations

import ctypes
import os
import platform
import re
import sys
import threading

_FIRST_CONVERSION = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?([a-zA-Z%])")
_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                            ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
_REGISTER_VARARGS = (sys.platform.startswith("linux")
                     and platform.machine() in ("x86_64", "AMD64", "aarch64", "arm64"))


def _text(raw: bytes | None, default: str = "?") -> str:
    return raw.decode(errors="replace") if raw else default


class AlsaMessages:
    """Route alsa-lib's error messages into :attr:`messages` while active.

    ``with AlsaMessages() as alsa: …`` then ``alsa.messages``, strings such as
    ``"pcm.c:8570 snd_pcm_recover: underrun occurred"``. alsa-lib's own
    handler (print to stderr) is put back on exit.
    """

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.active = False
        self._lock = threading.Lock()
        self._lib = None
        self._handler = _HANDLER(self._on_error)   # a reference kept: C holds the pointer

    def _on_error(self, file, line, function, err, fmt, first_arg) -> None:
        try:
            text = _text(fmt, "")
            found = _FIRST_CONVERSION.search(text)
            if found and found.group(1) == "s" and first_arg and _REGISTER_VARARGS:
                arg = ctypes.string_at(first_arg).decode(errors="replace")
                text = text[:found.start()] + arg + text[found.end():]
            message = f"{_text(file)}:{line} {_text(function)}: {text}"
            if err:
                message += f": {os.strerror(-err) if err < 0 else err}"
            with self._lock:
                self.messages.append(message)
        except Exception:   # never raise into C
            pass

    def __enter__(self) -> "AlsaMessages":
        try:
            self._lib = ctypes.CDLL("libasound.so.2")
            self._lib.snd_lib_error_set_handler.argtypes = [ctypes.c_void_p]
            self._lib.snd_lib_error_set_handler(ctypes.cast(self._handler, ctypes.c_void_p))
            self.active = True
        except (OSError, AttributeError):
            self._lib = None
        return self

    def __exit__(self, *exc) -> None:
        if self._lib is not None:
            self._lib.snd_lib_error_set_handler(None)
            self.active = False

    @property
    def underruns(self) -> int:
        """How many of the messages are ALSA's "underrun occurred"."""
        return sum("underrun" in m for m in self.messages)


class StderrCapture:
    """Collect everything written to file descriptor 2 while active (C libraries too).

    Python's ``sys.stderr`` keeps writing to the real terminal meanwhile;
    :attr:`lines` holds what was caught.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._saved_fd: int | None = None
        self._saved_stderr = None
        self._reader: threading.Thread | None = None
        self._read_end: int | None = None

    def __enter__(self) -> "StderrCapture":
        try:
            sys.stderr.flush()
            self._saved_fd = os.dup(2)
        except (OSError, ValueError, AttributeError):
            return self            # no descriptor 2 to take over: nothing to do
        read_end, write_end = os.pipe()
        os.dup2(write_end, 2)
        os.close(write_end)
        self._read_end = read_end
        self._saved_stderr = sys.stderr
        sys.stderr = open(os.dup(self._saved_fd), "w", buffering=1,
                          encoding=getattr(self._saved_stderr, "encoding", None) or "utf-8",
                          errors="backslashreplace")
        self._reader = threading.Thread(target=self._read, name="stderr-capture", daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        pending = b""
        while True:
            chunk = os.read(self._read_end, 4096)
            if not chunk:
                break
            pending += chunk
            *done, pending = pending.split(b"\n")
            self.lines.extend(d.decode(errors="replace") for d in done)
        if pending:
            self.lines.append(pending.decode(errors="replace"))
        os.close(self._read_end)

    def __exit__(self, *exc) -> None:
        if self._saved_fd is None:
            return
        os.dup2(self._saved_fd, 2)        # the pipe's last write end closes: the reader ends
        os.close(self._saved_fd)
        self._saved_fd = None
        self._reader.join(2)
        sys.stderr.close()
        sys.stderr = self._saved_stderr

"""Calls into PortAudio that cannot hang, and the words for an output that stopped.

With its sound server killed (PulseAudio, JACK) or its device unplugged,
PortAudio may stop calling the player back and never return from a stop,
an abort or a close: ``guji play`` used to freeze, deaf to Ctrl-C and
SIGTERM, until killed. So:

* :func:`bounded` runs such a call on a thread of its own and waits at most
  :data:`PORTAUDIO_WAIT`; the player leaves a stream whose call never
  returned (and keeps sounddevice's exit handler, which would block the
  interpreter's exit on it, from running);
* the player notices an output that stopped: PortAudio ends the stream
  before its end (``stopped``), or no callback comes for :data:`STALL`
  seconds beyond the latency (:data:`STARTING` while the stream starts:
  ``stopped answering``); it stops and raises
  :class:`OutputStopped`, which the transport (:mod:`guji.live`) words as
  ``the sound output stopped after stroke 3 of 12``.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from ..errors import GujiError

#: Seconds without an audio callback, on top of the latency, after which the
#: output is taken to have stopped (a sound server killed, a device unplugged).
STALL = 0.6

#: The same, while the stream is still starting (its callbacks have not yet
#: spanned one latency): a PulseAudio server starting a stream on a loaded
#: machine calls back once, then waits up to a second before the next.
STARTING = 3.0

#: Seconds any one call into PortAudio that may block (stop, abort, close) is
#: waited for; past it the stream is left behind (and PortAudio's own exit
#: handler with it, which would block the interpreter's exit).
PORTAUDIO_WAIT = 0.4


class OutputStopped(GujiError):
    """The sound output stopped in the middle of playback: its server or device
    went away (exit status 1). *detail*: PortAudio's own words, if any."""

    exit_status = 1
    #: The command line ends the process at once after saying it: with the server
    #: gone, PortAudio's own clean-up at the interpreter's exit fails an assertion
    #: (JACK, exit 134) or crashes (PulseAudio, exit 139, one run in five).
    end_now = True

    def __init__(self, reason: str, detail: str | None = None):
        self.reason, self.detail = reason, detail
        super().__init__(reason)


def stopped_words(output: str, what: str, heard: int, total: int | None = None,
                  loop_pass: int | None = None) -> str:
    """``the sound output stopped after stroke 3 of 12`` (a loop: ``… (pass 2 of the
    loop)``; nothing heard yet: ``… before the first stroke``)."""
    if not heard:
        return f"the {output} {what} before the first stroke"
    where = f"after stroke {heard}"
    if total is not None:
        where += f" of {total}"
    elif loop_pass is not None:
        where += f" (pass {loop_pass + 1} of the loop)"
    return f"the {output} {what} {where}"


def bounded(action: Callable[[], Any], seconds: float) -> bool:
    """Run *action* (a call into PortAudio that may block forever when the
    server is gone) on a thread of its own; whether it returned within
    *seconds*. Its errors are dropped (the stream is going away anyway)."""
    done = threading.Event()

    def run() -> None:
        try:
            action()
        except Exception:
            pass
        finally:
            done.set()

    threading.Thread(target=run, name="guji-portaudio-call", daemon=True).start()
    return done.wait(seconds)

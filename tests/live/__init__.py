"""Real audio and MIDI servers for the live tests, started and stopped by the tests.

* :mod:`live.pulse` — a private PulseAudio null sink (it runs on the clock,
  as a sound card does), ALSA pointed at it for a child process, and
  ``parec`` recordings of its monitor anchored on ``time.monotonic()``;
* :mod:`live.jack` — a private JACK server on the dummy driver, for MIDI;
* :mod:`live.stalls` — whether the machine itself kept time during a try (a
  real-time canary process and the host's steal), so that a try held up by
  the host is told from guji's own lateness.

A missing server skips a test outside CI and fails it under CI
(:func:`tools.need`).
"""

from __future__ import annotations

import subprocess


def end(proc: subprocess.Popen | None) -> None:
    """Stop *proc* if it still runs: SIGTERM, then SIGKILL after 5 s."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

"""Real audio and MIDI servers for the live tests, started and stopped by the tests.

* :mod:`live.pulse` — a private PulseAudio null sink (it runs on the clock,
  as a sound card does), ALSA pointed at it for a child process, and
  ``parec`` recordings of its monitor anchored on ``time.monotonic()``;
* :mod:`live.jack` — a private JACK server on the dummy driver, for MIDI.

A missing server skips a test outside CI and fails it under CI
(:func:`tools.need`).
"""

"""Time: one even grid (間若一), and what sounds on it — whole grid steps, never seconds.

One concept a module, each importing only those above it:

* :mod:`guji.timing.voices` — :class:`~guji.timing.voices.Voice`: the two
  drums (○ 鼙, □ 鼓), the count-in click, the cue bell; what may be muted;
* :mod:`guji.timing.extent` — how long a piece may be (the limits, and the
  hard limit past which sample positions stop being exact);
* :mod:`guji.timing.score` — :class:`~guji.timing.score.Score`: a pattern on
  the grid from a grid step (an ``int``, or an exact ``Fraction``), event *i*
  at ``(step + i) × interval``; the interval, repeat and count-in checks;
* :mod:`guji.timing.performance` — :class:`~guji.timing.performance.Part`,
  :class:`~guji.timing.performance.Cue` (a bell on a grid step),
  :class:`~guji.timing.performance.Performance`: what every sink takes;
  minus-one (:meth:`~guji.timing.performance.Performance.muting`);
* :mod:`guji.timing.layout` — the combinators: ``perform``, ``sequence``,
  ``stack``, ``alternate``, ``count_in``, and ``lay_out``, the one layout of
  the patterns named on a command line;
* :mod:`guji.timing.loop` — :class:`~guji.timing.loop.Loop`: a performance
  played until stopped, each pass from its own grid steps;
* :mod:`guji.timing.bars` — the bar lines (the sections of the piece) that
  MIDI files and sheet music share;
* :mod:`guji.timing.events` — the one schedule: every stroke, click and cue as
  an :class:`~guji.timing.events.Onset` (its step, what the score says, what
  sounds), in time order: what the MIDI file, live MIDI, the player, the
  display, ``--json`` and the sheet play.

Seconds, ticks and samples are worked out from the steps only at each sink's
edge (``sample = round((step + i) × interval × rate)``). The compare modes,
a command's feature built on these, are one floor up (:mod:`guji.compare`).
"""

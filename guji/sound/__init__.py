"""The sound stage: voices, kits, the mixer, audio files and playback.

One concept a module, each importing only those above it:

* :mod:`~guji.sound.synth` — :class:`~guji.sound.synth.VoiceParams`, the default voices and
  modal synthesis of one hit;
* :mod:`~guji.sound.recordings` — recordings of one hit: reading, trimming,
  resampling;
* :mod:`~guji.sound.oneshot` — one hit of a voice at a sample rate,
  synthesised or recorded, cached; the sample rates allowed;
* :mod:`~guji.sound.kit` — :class:`~guji.sound.kit.Kit` (the four voices), kit files and
  ``samples/`` (``python -m guji.sound.kit --write-samples DIR``);
* :mod:`~guji.sound.onsets` — the sample of each stroke's onset;
* :mod:`~guji.sound.headroom` — the exact peak of a render, and its gain;
* :mod:`~guji.sound.pan` — the constant-power pan law;
* :mod:`~guji.sound.loudness` — integrated loudness by ITU-R BS.1770 (LUFS),
  memory flat;
* :mod:`~guji.sound.limiter` — the look-ahead true-peak limiter;
* :mod:`~guji.sound.level` — ``--loudness``: the gain that brings a render to
  its target through the limiter, found by measuring;
* :mod:`~guji.sound.mixer` — :class:`~guji.sound.mixer.Mix`, the block renderer;
* :mod:`~guji.sound.riff` — WAV and RF64 written by guji: the header first,
  then the samples (to a pipe too; RF64 past 4 GiB);
* :mod:`~guji.sound.vio` — what libsndfile writes FLAC and OGG through: real
  errors, streams never seeked, one Ogg serial number;
* :mod:`~guji.sound.files` — writing WAV, FLAC and OGG files, byte for byte
  the same;
* :mod:`~guji.sound.devices` — the audio output devices (PortAudio), and the
  one-line errors when there is none;
* :mod:`~guji.sound.feed` — what the live player plays: blocks, and the
  strokes at their frames (:class:`~guji.sound.feed.Sounding`), of a
  performance or of an endless loop;
* :mod:`~guji.sound.ring` — blocks rendered ahead by a feeder thread, read
  by the audio callback without a lock;
* :mod:`~guji.sound.clock` — when each output frame is heard (PortAudio's
  DAC time);
* :mod:`~guji.sound.report` — underruns, gaps and ALSA's messages, after;
* :mod:`~guji.sound.player` — the live player: a callback stream, each
  stroke announced when heard, pause, stop;
* :mod:`~guji.sound.play` — :func:`~guji.sound.play.play`, live playback in one call.

Nothing here writes to a terminal: progress and the stroke display are the
command line's (:mod:`guji.cli.progress`, :mod:`guji.cli.display`), passed in
as callables; alsa-lib's messages are caught while playing
(:mod:`guji.library_messages`) and end up in the report.
"""

"""A seeded drummer playing along with guji, and what its report should say.

Used by ``play --check``'s tests (tests/test_play_check_passes.py live on a
PulseAudio sink, tests/test_check_passes.py through a fed capture) and
bench/bench_check_passes.py: :func:`drummer` plays the strokes of a
performance's events that the drummer plays (all, or one drum's under
minus-one) with guji's voices (tests/practice_set.py), seeded jitter and
mistakes, into a WAV whose time ``practice_set.LEAD`` is the performance's
first stroke; its truth says each stroke's kind and time. :func:`offsets`
compares a report with it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import soundfile as sf

import practice_set
from guji.text.reading.notation import Drum
from guji.timing.voices import Voice

RATE = 48000


def drummer(tmp_path, events, *, seed, plays=lambda e: True, wrong=(), missing=(),
             extra=(), jitter=0.015):
    """A drummer's WAV of *events* (with absolute times; the strokes *plays* keeps,
    jittered; *wrong*/*missing*: their numbers among those; *extra*: hits half a
    step after these numbers' strokes) and the truth: [(kind, time in the file,
    the event's time from the first stroke's)] of the strokes played, and the
    extras' times. The file's time LEAD is the performance's first stroke (played
    or not), as in tests/test_play_check.py."""
    rng = np.random.default_rng(seed)
    origin = min(e.time for e in events if e.drum is not None)   # the file's LEAD
    events = [replace(e, time=e.time - origin) for e in events]
    strokes = [e for e in events if e.drum is not None and plays(e)]
    after = {e.step: n for n, e in enumerate(events)}
    placed, truth, extras = [], [], []
    for k, e in enumerate(strokes):
        if k in missing:
            truth.append(("missing", None, e.time))
            continue
        t = practice_set.LEAD + e.time + float(np.clip(rng.normal(0, jitter), -0.1, 0.1))
        big = (e.drum is Drum.BIG) != (k in wrong)
        placed.append((t, Voice.BIG if big else Voice.SMALL, 10 ** (rng.uniform(-3, 3) / 20)))
        truth.append(("wrong drum" if k in wrong else "ok", t, e.time))
        if k in extra:
            following = events[after[e.step] + 1]
            t = practice_set.LEAD + (e.time + following.time) / 2
            placed.append((t, Voice.SMALL, 1.0))
            extras.append(t)
    x, _onset = practice_set._sounded(placed, RATE, "guji")
    path = tmp_path / "drummer.wav"
    sf.write(path, (0.5 * x / max(1.0, np.abs(x).max())).astype(np.float32), RATE,
             subtype="FLOAT")
    return path, truth, extras


def offsets(report, truth) -> list[float]:
    """(reported − true deviation) in ms of each stroke both have, by order: the
    drummer's start against guji's grid, one constant if all is well."""
    rows = [r for r in report["strokes"] if r["kind"] != "extra"]
    assert len(rows) == len(truth), (len(rows), len(truth))
    return [row["deviation_ms"] - (t - practice_set.LEAD - at) * 1000
            for row, (kind, t, at) in zip(rows, truth)
            if t is not None and row["deviation_ms"] is not None]


def per_pass(truth, strokes: int) -> list[list]:
    """*truth* cut into passes of *strokes* strokes."""
    return [truth[k:k + strokes] for k in range(0, len(truth), strokes)]

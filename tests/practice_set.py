"""A generated, seeded test set for ``guji check``: performances with their truth.

Nothing here was tuned on by the detector (guji.practice): each performance
is built from guji's own voices (the synthesised 鼙, 鼓 and click of
:func:`guji.sound.kit.one_shot`) placed by a seeded "player":

* human timing — Gaussian jitter of *jitter* seconds on every stroke but the
  first (the first hit anchors time, so it is on time by definition), and a
  loudness that varies by ±3 dB;
* tempo — a slow *drift* (the interval grows, or with a negative drift
  shrinks, evenly from the first step to the last, by that fraction) and a
  *rush*ed passage (the steps *from* … *to* played at *factor* of the
  interval, the time won kept: the rest comes that much early);
* mistakes — strokes played on the wrong drum, strokes left out, extra hits
  half-way between two strokes;
* noise — white noise at *noise_db* dB relative to the 鼙's peak (``None``:
  none).

:func:`perform` returns the samples and a :class:`Truth`: every hit played
(time, drum), and for every stroke of the score what became of it. Run as a
script to print the figures of every condition::

    .venv/bin/python tests/practice_set.py
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import practice_sounds
from guji.practice.expected import expected_events
from guji.sound.kit import default_kit, one_shot
from guji.text.reading.editions import all_patterns
from guji.text.reading.notation import Drum, Rite
from guji.timing.layout import lay_out
from guji.timing.performance import Timing, Voice

LEAD = 0.5        # seconds of silence (or noise) before the first hit
TAIL = 2.5


@dataclass
class Truth:
    """What was played: *hits* (time s, big?) in time order; *strokes*: for each
    drum stroke of the score (clicks left out), ``("ok" | "wrong drum" |
    "missing", time or None)``; *anchor*: the recording's time of the
    performance's time 0 (the first hit); *events*: the expected events."""

    hits: list[tuple[float, bool]] = field(default_factory=list)
    strokes: list[tuple[str, float | None]] = field(default_factory=list)
    extra: list[float] = field(default_factory=list)
    anchor: float = LEAD
    events: tuple = ()
    expected_times: list[float] = field(default_factory=list)

    def deviation(self, k: int) -> float | None:
        """The true deviation (s) of stroke *k* from its grid time, anchored on the first hit."""
        kind, t = self.strokes[k]
        return None if t is None else t - (self.anchor + self.expected_times[k])


def shipped_patterns():
    """Every shipped pattern (every edition's every diagram)."""
    return all_patterns()


def perform(pattern, *, seed: int, rate: int = 48000, jitter: float = 0.0,
            wrong: int = 0, missing: int = 0, extra: int = 0, noise_db: float | None = None,
            late: tuple[int, float] | None = None, rite: Rite = Rite.SHE,
            interval: float = 0.6, repeat: int = 1, count_in: int = 0,
            drift: float = 0.0, rush: tuple[int, int, float] | None = None,
            sound: str = "guji", rt60: float | None = None):
    """(mono float64 samples, :class:`Truth`) of one performance (module docstring).
    *late*: (stroke, seconds) — that stroke played that much late."""
    rng = np.random.default_rng(seed)
    events = expected_events(lay_out([pattern], Timing(rite, interval, repeat, count_in)))
    played_at = _played_steps(events, interval, drift, rush)
    strokes = [e for e in events if not e.is_click]
    n = len(strokes)
    pool = rng.permutation(np.arange(1, n))              # the first stroke stays right
    wrong_at = set(pool[:wrong].tolist())
    missing_at = set(pool[wrong:wrong + missing].tolist())
    truth = Truth(events=events, expected_times=[e.time for e in strokes])
    placed: list[tuple[float, Voice, float]] = []
    k = -1
    for e in events:
        if e.is_click:
            placed.append((LEAD + played_at[e.step], Voice.CLICK, 1.0))
            continue
        k += 1
        if k in missing_at:
            truth.strokes.append(("missing", None))
            continue
        t = LEAD + played_at[e.step]
        if placed or k:                                   # not the first hit
            t += float(np.clip(rng.normal(0, jitter), -0.3 * interval, 0.3 * interval)) \
                if jitter else 0.0
        if late is not None and late[0] == k:
            t += late[1]
        big = (e.drum is Drum.BIG) != (k in wrong_at)
        placed.append((t, Voice.BIG if big else Voice.SMALL, 10 ** (rng.uniform(-3, 3) / 20)))
        truth.strokes.append(("wrong drum" if k in wrong_at else "ok", t))
    for j in rng.permutation(np.arange(1, n))[:extra].tolist():
        t = LEAD + (played_at[strokes[j - 1].step] + played_at[strokes[j].step]) / 2 \
            + rng.uniform(-0.05, 0.05) * interval
        big = bool(rng.integers(2))
        placed.append((t, Voice.BIG if big else Voice.SMALL, 10 ** (rng.uniform(-3, 3) / 20)))
        truth.extra.append(t)
    x, onset = _sounded(placed, rate, sound)
    if rt60:
        x = practice_sounds.reverb(x, rate, rt60, seed)
    x = _noisy(x, rate, noise_db, rng, sound)
    truth.strokes = [(kind, None if t is None else onset[t]) for kind, t in truth.strokes]
    truth.extra = [onset[t] for t in truth.extra]
    placed = [(onset[t], v, g) for t, v, g in placed]
    truth.hits = sorted((round(t * rate) / rate, v is Voice.BIG) for t, v, _ in placed
                        if v is not Voice.CLICK)
    truth.strokes = [(kind, None if t is None else round(t * rate) / rate)
                     for kind, t in truth.strokes]
    truth.extra = sorted(round(t * rate) / rate for t in truth.extra)
    first = min(t for t, _, _ in placed)
    truth.anchor = round(first * rate) / rate - events[0].time
    return x, truth


def _played_steps(events, interval: float, drift: float, rush) -> np.ndarray:
    """The time (s from the first step) each grid step is played at: the
    interval of step *j* is ``interval · (1 + drift · j / last)``, times the
    rush's factor inside the rushed passage."""
    last = max(e.step for e in events)
    j = np.arange(last + 1, dtype=np.float64)
    local = interval * (1.0 + drift * j / max(last, 1))
    if rush is not None:
        first, stop, factor = rush
        local[first:stop] *= factor
    return np.concatenate(([0.0], np.cumsum(local)[:-1]))


def _shots(sound: str, rate: int) -> dict:
    kit = practice_sounds.recorded_kit(rate) if sound == "recorded" else default_kit(rate)
    return {v: np.asarray(one_shot(kit, v, rate), dtype=np.float64)
            for v in (Voice.SMALL, Voice.BIG, Voice.CLICK)}


#: What plays the performance: guji's voices, FluidSynth's GM drums, the recorded kit.
SOUNDS = ("guji", "fluidsynth", "recorded")


def _sounded(placed, rate: int, sound: str):
    """(samples, {time placed: time the hit truly begins}) of *placed* played by *sound*."""
    if sound == "fluidsynth":
        x, onsets = practice_sounds.fluidsynth_mix(placed, rate)
        x = np.concatenate((x, np.zeros(int(TAIL * rate))))
        return x, {t: o for (t, _, _), o in zip(placed, onsets)}
    shots = _shots(sound, rate)
    end = max(t for t, _, _ in placed) + TAIL
    x = np.zeros(int(end * rate))
    for t, v, gain in placed:
        i = round(t * rate)
        s = shots[v][: len(x) - i]
        x[i:i + len(s)] += gain * s
    return x, {t: t for t, _, _ in placed}


def _noisy(x, rate: int, noise_db: float | None, rng, sound: str) -> np.ndarray:
    """*x* with white noise *noise_db* below a lone 鼙's peak, scaled to peak ≤ 0.9."""
    if noise_db is not None:
        if sound == "fluidsynth":
            ref = float(np.max(np.abs(practice_sounds.fluidsynth_mix(
                [(0.1, Voice.SMALL, 1.0)], rate)[0])))
        else:
            ref = float(np.max(np.abs(_shots(sound, rate)[Voice.SMALL])))
        x = x + rng.normal(0, ref * 10 ** (noise_db / 20), len(x))
    return x / max(1.0, float(np.max(np.abs(x))) / 0.9)


def f1(found, truth, tolerance: float = 0.020) -> tuple[float, int]:
    """(F1 of *found* hit times against *truth* within *tolerance*, hits matched)."""
    found, truth = sorted(found), sorted(truth)
    i = j = hits = 0
    while i < len(found) and j < len(truth):
        d = found[i] - truth[j]
        if abs(d) <= tolerance:
            hits += 1
            i += 1
            j += 1
        elif d < 0:
            i += 1
        else:
            j += 1
    if not found or not truth:
        return (1.0 if found == truth else 0.0), hits
    precision, recall = hits / len(found), hits / len(truth)
    return (0.0 if hits == 0 else 2 * precision * recall / (precision + recall)), hits


def _figures(noise_db, jitter, mistakes: int, sound: str = "guji", rt60=None,
             seeds: int = 1000) -> str:
    """One line of figures: F1 (20 ms), drum right, deviation error, over every pattern."""
    from guji.practice.pairing import pair
    from guji.practice.transcribe import transcribe_array
    scores, right, errors = [], [], []
    for i, pattern in enumerate(shipped_patterns()):
        x, truth = perform(pattern, seed=seeds + i, jitter=jitter, wrong=mistakes,
                           missing=mistakes, extra=mistakes, noise_db=noise_db, sound=sound,
                           rt60=rt60)
        heard = transcribe_array(x, 48000)
        scores.append(f1([h.time for h in heard.hits], [t for t, _ in truth.hits])[0])
        drum = dict(truth.hits)
        p = pair(truth.events, heard.hits, 0.6)          # the drums told again as it pairs
        right += [drum[min(drum, key=lambda t: abs(t - h.time))] == h.big for h in p.hits]
        errors += [abs(p.deviation[op.b] - truth.deviation(op.a)) * 1000 for op in p.alignment.ops
                   if op.a is not None and op.b is not None
                   and truth.deviation(op.a) is not None]
    noise = "none" if noise_db is None else f"{noise_db:g} dB"
    room = f"rt60 {rt60:g} s" if rt60 else "dry"
    return (f"{sound:>10}, {room:>10}, noise {noise:>7}, jitter {jitter * 1000:2.0f} ms, mistakes {mistakes}: "
            f"F1 min {min(scores):.3f} mean {np.mean(scores):.4f}; drum right "
            f"{np.mean(right) * 100:.2f} %; deviation error median {np.median(errors):.3f} ms, "
            f"95th {np.percentile(errors, 95):.3f} ms")


if __name__ == "__main__":
    import sys
    if "--sounds" in sys.argv:           # other timbres and rooms
        seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else 1000
        for sound in SOUNDS:
            for rt60 in (None, 0.4, 0.8):
                for noise_db in (None, -30.0):
                    print(_figures(noise_db, 0.02, 2, sound, rt60, seeds), flush=True)
    else:
        for noise_db in (None, -40.0, -30.0, -25.0, -20.0):
            for jitter in (0.005, 0.04):
                print(_figures(noise_db, jitter, 2), flush=True)

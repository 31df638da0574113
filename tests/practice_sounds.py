"""Other sounds for the practice test set: FluidSynth's General MIDI drums, a kit
of recordings, a room's reverb.

* :func:`fluidsynth_mix` — the hits (time, voice, gain) written as a MIDI
  file (mido; guji's GM keys: 鼙 62 Mute Hi Conga, 鼓 41 Low Floor Tom, the
  click 76) and played by FluidSynth with the TimGM6mb soundfont into a WAV:
  another synthesiser's drums, sampled ones.
* :func:`recorded_kit` — a directory kit (``small.wav``, ``big.wav``,
  ``click.wav``, as ``guji render --kit DIR`` takes) of single hits of the
  FluidR3 soundfont's recorded drums (鼙: 50 High Tom; 鼓: 36 Bass Drum 1),
  each rendered by FluidSynth and loaded by :func:`guji.sound.kit.load_kit`
  (trimmed to its onset as every user recording is).
* :func:`reverb` — the signal convolved with a synthetic room impulse
  response: the direct sound, a few early reflections (5–40 ms), and a tail
  of seeded noise decaying 60 dB in *rt60* seconds, as much energy in it as
  in the direct sound (direct-to-reverberant ratio 0 dB; *drr_db*).

FluidSynth renders MIDI events on its own 64-frame blocks, so its strokes
stand up to 1.3 ms from their times; :func:`fluidsynth_mix` says where each
hit truly begins by finding, in the rendered file of each hit alone, its
first sample above −60 dB of its peak.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

from guji.midi.gm import DEFAULT_KEYS
from guji.timing.performance import Voice

TIM = Path("/usr/share/sounds/sf2/TimGM6mb.sf2")
FLUID = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
#: The keys of the recorded kit (FluidR3's samples): 鼙 High Tom, 鼓 Bass Drum 1, click Side Stick.
RECORDED_KEYS = {Voice.SMALL: 50, Voice.BIG: 36, Voice.CLICK: 37}
TPB, TEMPO = 9600, 500_000          # ticks of 1/19200 s


def missing() -> str | None:
    if shutil.which("fluidsynth") is None:
        return "fluidsynth: apt-get install fluidsynth"
    for f, pkg in ((TIM, "timgm6mb-soundfont"), (FLUID, "fluid-soundfont-gm")):
        if not f.exists():
            return f"{f}: apt-get install {pkg}"
    return None


def _midi(notes, path: Path) -> None:
    """(time s, key, velocity) → a type-0 MIDI file on channel 10."""
    import mido
    mid = mido.MidiFile(ticks_per_beat=TPB)
    track = mido.MidiTrack()
    mid.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=TEMPO, time=0))
    events = []
    for t, key, vel in notes:
        on = round(t * TPB * 2)
        events += [(on, 1, key, vel), (on + TPB // 10, 0, key, 0)]
    now = 0
    for tick, kind, key, vel in sorted(events):
        track.append(mido.Message("note_on" if kind else "note_off", channel=9, note=key,
                                  velocity=vel, time=tick - now))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=TPB * 4))
    mid.save(path)


def _render(notes, font: Path, rate: int) -> np.ndarray:
    import tools
    tools.outside_the_loop("FluidSynth")
    with tempfile.TemporaryDirectory() as tmp:
        mid, wav = Path(tmp) / "in.mid", Path(tmp) / "out.wav"
        _midi(notes, mid)
        subprocess.run(["fluidsynth", "-ni", "-q", "-R", "0", "-C", "0", "-r", str(rate), "-F",
                        str(wav), str(font), str(mid)], check=True, capture_output=True,
                       timeout=300)
        x, _ = sf.read(wav, always_2d=True)
    return x.mean(axis=1)


@functools.lru_cache(maxsize=None)
def _lead(key: int, velocity: int, font: Path, rate: int) -> float:
    """Seconds from a note's time to its first sample over −60 dB of its peak,
    for a note at time 0.5 s (FluidSynth's block edge and the sample's own start)."""
    x = _render([(0.5, key, velocity)], font, rate)
    first = np.flatnonzero(np.abs(x) >= np.abs(x).max() * 1e-3)[0]
    return first / rate - 0.5


def fluidsynth_mix(placed, rate: int) -> tuple[np.ndarray, list[float]]:
    """(samples, the true onset of each hit of *placed*) of *placed*
    ((time, voice, gain) …) played by FluidSynth's TimGM6mb drums."""
    notes = []
    for t, v, gain in placed:
        vel = int(np.clip(round(100 * gain), 1, 127))
        notes.append((t, DEFAULT_KEYS[v], vel))
    x = _render(notes, TIM, rate)
    onsets = [t + _lead(k, vel, TIM, rate) for t, k, vel in notes]
    return x, onsets


@functools.lru_cache(maxsize=None)
def recorded_kit(rate: int = 48000):
    """The directory kit of :data:`RECORDED_KEYS` (module docstring), loaded."""
    import atexit
    from guji.sound.kit import load_kit
    folder = Path(tempfile.mkdtemp(prefix="guji-recorded-kit-"))
    atexit.register(shutil.rmtree, folder, True)      # the kit is loaded: its files are not kept
    for voice, name in ((Voice.SMALL, "small"), (Voice.BIG, "big"), (Voice.CLICK, "click")):
        x = _render([(0.1, RECORDED_KEYS[voice], 110)], FLUID, rate)
        sf.write(folder / f"{name}.wav", x[int(0.05 * rate):], rate, subtype="PCM_24")
    return load_kit(folder, rate)


def reverb(x: np.ndarray, rate: int, rt60: float, seed: int = 0,
           drr_db: float = 0.0) -> np.ndarray:
    """*x* in a room (module docstring), as loud at its peak as before; the
    tail holds *drr_db* dB less energy than the direct sound (0 dB: as much,
    a drum a metre or two from the microphone in a small hall)."""
    rng = np.random.default_rng(seed)
    n = int(rt60 * rate)
    t = np.arange(n) / rate
    # the energy of a tail of amplitude a: a² · rate · rt60 / (6 ln 10)
    a = np.sqrt(10 ** (-drr_db / 10) * 6 * np.log(10) / (rate * rt60))
    ir = rng.normal(0, 1, n) * 10 ** (-3 * t / rt60) * a
    ir[: int(0.005 * rate)] = 0.0
    ir[0] = 1.0
    for delay, gain in ((0.007, 0.5), (0.013, -0.35), (0.021, 0.3), (0.034, 0.2)):
        ir[int(delay * rate)] += gain
    size = 1 << int(np.ceil(np.log2(len(x) + n)))
    y = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[:len(x)]
    return y * (np.abs(x).max() / max(np.abs(y).max(), 1e-12))

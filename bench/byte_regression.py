"""Byte regression: write the outputs of a fixed set of guji commands, or compare two sets.

    .venv/bin/python bench/byte_regression.py write /tmp/base21     # before a change
    .venv/bin/python bench/byte_regression.py write /tmp/after21    # after it
    .venv/bin/python bench/byte_regression.py compare /tmp/base21 /tmp/after21
    # the outputs of another commit, with this venv:
    git archive 82f71cc | tar -x -C /tmp/src-82f71cc
    GUJI_SOURCE=/tmp/src-82f71cc .venv/bin/python bench/byte_regression.py write /tmp/base21

Each command writes one output (MIDI, WAV, FLAC, OGG, MusicXML, LilyPond,
page, compare modes), with the options a schedule change could touch
(--mute/--solo/--ghost/--repeat/--count-in/--stack/--interval). ``compare``
lists the outputs that differ; for WAVs it says which onsets moved and by
how many samples (the first differing sample of each).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

GUJI = str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "guji")
#: Set GUJI_SOURCE to a checkout of another commit to write its outputs with this venv
#: (``git archive COMMIT | tar -x -C DIR``).
SOURCE = os.environ.get("GUJI_SOURCE")
#: Set GUJI_SOUND_ARGS to options added to every command that makes sound (render,
#: compare, page), e.g. ``--strike exact`` to compare today's sound with an older commit's.
SOUND_ARGS = os.environ.get("GUJI_SOUND_ARGS", "").split()

#: (name of the output, the command's arguments; OUT stands for the output path)
COMMANDS = [
    ("lu.mid", "midi lu -o OUT"),
    ("lu-xue-she.mid", "midi lu xue --rite she --repeat 8 --count-in 4 -o OUT"),
    ("lu-mute-gu-ghost.mid", "midi lu --mute 鼓 --ghost click --repeat 3 -o OUT"),
    ("lu-xue-stack.mid", "midi lu xue --stack --count-in 2 -o OUT"),
    ("xue2-melodic.mid", "midi xue:2 --melodic --interval 0.37 --repeat 5 -o OUT"),
    ("lu.wav", "render lu -o OUT"),
    ("lu-mute-gu.wav", "render lu --interval 0.25 --mute 鼓 -o OUT"),
    ("lu-solo-pi-ghost.wav", "render lu --solo 鼙 --ghost click --count-in 3 -o OUT"),
    ("lu-xue-x3.wav", "render lu xue lu xue lu xue --repeat 4 --interval 0.37 --rate 44100 -o OUT"),
    ("lu-xue-stack.wav", "render lu xue --stack --interval 0.13 --repeat 3 -o OUT"),
    ("xue2-she.flac", "render xue:2 --rite she --repeat 3 --count-in 2 -o OUT"),
    ("lu2.ogg", "render lu:2 --bpm 90 --repeat 3 -o OUT"),
    ("lu-odd.wav", "render lu xue --interval 0.1234567 --rate 22050 --repeat 7 --count-in 5 -o OUT"),
    ("lu-xue.musicxml", "sheet lu xue --rite she --repeat 3 --count-in 4 -o OUT"),
    ("lu-mute.ly", "sheet lu --mute 鼓 --ghost click --repeat 2 -o OUT"),
    ("cmp-seq.wav", "compare lu:1 lu:1@wuli-tongkao --mode sequence --interval 0.3 -o OUT"),
    ("cmp-diff.wav", "compare lu:1 lu:1@wuli-tongkao --mode diff --rite she --interval 0.37 -o OUT"),
    ("cmp-alt.mid", "compare xue:2 xue:2@lijing-benyi --mode alternate --repeat 3 -o OUT"),
    ("cmp-stereo.flac", "compare lu:1 lu:1@wuli-tongkao --mode stereo -o OUT"),
    ("cmp-diff.mid", "compare lu:1 lu:1@wuli-tongkao --mode diff --rite she --interval 0.37 -o OUT"),
    ("page-lu1", "page lu:1 lu:1@wuli-tongkao -o OUT/"),
    # layouts where a part's start, added in seconds, put onsets one sample off
    ("lu-xue-x3-22k.wav", "render lu xue lu xue lu xue --interval 0.45 --rate 22050 --channels 1 -o OUT"),
    ("lu-xue-x3-r4.wav", "render lu xue lu xue lu xue --repeat 4 --interval 0.37 --rate 22050 --channels 1 -o OUT"),
    ("lu-xue-x3-r4.mid", "midi lu xue lu xue lu xue --repeat 4 --interval 0.37 -o OUT"),
    ("cmp-seq-22k.wav", "compare lu:1 lu:1@wuli-tongkao xue:1 --mode sequence --interval 0.13 --rate 22050 -o OUT"),
]


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, command in COMMANDS:
        out = folder / name
        args = [a.replace("OUT", str(out)) for a in command.split()]
        if args[0] in ("render", "compare", "page"):
            args += SOUND_ARGS
        env = dict(os.environ, PYTHONPATH=SOURCE) if SOURCE else None
        command = [sys.executable, "-m", "guji"] if SOURCE else [GUJI]
        run = subprocess.run([*command, *args], capture_output=True, text=True, env=env,
                             cwd=SOURCE)          # -m puts the working folder first on the path
        status = "ok" if run.returncode == 0 else f"exit {run.returncode}: {run.stderr.strip()}"
        print(f"{name:24} {status}")


def digests(folder: Path) -> dict[str, str]:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def wav_moves(a: Path, b: Path) -> str:
    """Where two audio files differ: the first differing frame, and how many frames differ."""
    import numpy as np
    import soundfile
    x, _ = soundfile.read(a, dtype="float32", always_2d=True)
    y, _ = soundfile.read(b, dtype="float32", always_2d=True)
    if x.shape != y.shape:
        return f"lengths {len(x)} vs {len(y)} frames"
    bad = np.flatnonzero(np.any(x != y, axis=1))
    if not len(bad):
        return "the same samples"
    # a moved onset: a run of differing frames that starts where one of the onsets starts
    starts = bad[np.r_[True, np.diff(bad) > 1]]
    shown = ", ".join(str(f) for f in starts[:8]) + (" …" if len(starts) > 8 else "")
    return f"{len(bad)} frames differ, in {len(starts)} runs starting at frames {shown}"


#: The renders the grid-step fix moves onsets in (issue 21), and how to make
#: their performances here: (output, rate, a function giving the performance).
def _moved_cases():
    from guji.compare import compare as modes
    from guji.text.reading.editions import load
    from guji.timing.layout import lay_out
    from guji.timing.performance import Timing
    lu, xue = load("lu"), load("xue")
    return [
        ("lu-xue-x3-22k.wav", 22050, lambda: lay_out([lu, xue] * 3, Timing(interval=0.45))),
        ("lu-xue-x3-r4.wav", 22050, lambda: lay_out([lu, xue] * 3, Timing(interval=0.37, repeat=4))),
        ("cmp-seq-22k.wav", 22050, lambda: modes([load("lu:1"), load("lu:1@wuli-tongkao"),
                                                  load("xue:1")], "sequence",
                                                 Timing(interval=0.13)).performance),
    ]


def explain_moves(a: Path, b: Path) -> None:
    """For the renders of :func:`_moved_cases`: how many onsets the old arithmetic
    (``step × interval + i × interval``) puts elsewhere than ``round((step + i) ×
    interval × rate)``, by how much, and whether every differing frame lies within
    the ring of one of them (then nothing else changed)."""
    import numpy as np
    import soundfile
    from guji.sound.kit import default_kit, one_shot
    from guji.timing.performance import Voice
    for name, rate, make in _moved_cases():
        if not ((a / name).exists() and (b / name).exists()):
            continue
        perf = make()
        ring = max(len(one_shot(default_kit(rate), v, rate)) for v in Voice)
        moved, total = [], 0
        for part in perf.parts:
            iv, step = part.score.interval, part.step
            for i in range(len(part.score)):
                old, new = round((step * iv + i * iv) * rate), round((step + i) * iv * rate)
                total += 1
                if old != new:
                    moved.append((min(old, new), abs(old - new)))
        x = soundfile.read(a / name, always_2d=True)[0]
        y = soundfile.read(b / name, always_2d=True)[0]
        bad = np.flatnonzero(np.any(x != y, axis=1)) if x.shape == y.shape else np.arange(1)
        inside = np.zeros(max(len(x), 1), bool)
        for frame, _ in moved:
            inside[frame:frame + ring + 1] = True
        print(f"{name}: {len(moved)} of {total} onsets moved, by {sorted({d for _, d in moved})} "
              f"sample(s); differing frames outside their rings: {int((~inside[bad]).sum())}")


def compare(a: Path, b: Path) -> int:
    da, db = digests(a), digests(b)
    changed = 0
    for name in sorted(set(da) | set(db)):
        if da.get(name) == db.get(name):
            continue
        changed += 1
        why = ""
        if name.endswith((".wav", ".flac", ".ogg")) and name in da and name in db:
            why = " — " + wav_moves(a / name, b / name)
        print(f"differs: {name}{why}" if name in da and name in db else
              f"only in {'first' if name in da else 'second'}: {name}")
    print(f"{len(set(da) | set(db)) - changed} identical, {changed} differ")
    if changed:
        explain_moves(a, b)
    return 1 if changed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["write"]:
        write(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)

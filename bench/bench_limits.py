"""What refusing an oversized request costs: time and memory of each, as a user runs it.

Each request of the fault sweep that once ran away (until the disk was full,
or memory was) is run as a whole ``guji`` command in a fresh process, and its
wall time, peak resident memory and exit status are printed, with the line
it prints. Not a test: figures (other load on the machine moves the times;
each is the best of three).

Issue 20 added the requests that are refused before their work starts, or,
with ``--force``, done within bounded memory: aligning two long readings
(``diff``, ``collate``, ``draw`` of a 3,000-stroke pattern and of two 24 KB
texts; 106 s and 4.1 GB once), a kit folder of 30-minute recordings (6.9 GB
once), ``--force`` with an endless input. Their inputs are made in the
bench's folder first (:func:`make_inputs`).

Run from the repository root::

    .venv/bin/python bench/bench_limits.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

REQUESTS = [
    ["render", "lu", "--interval", "1e15", "-o", "out.wav"],
    ["render", "lu", "--repeat", "1000000000", "-o", "out.wav"],
    ["render", "lu", "--count-in", "1000000000", "-o", "out.wav"],
    ["render", "lu", "xue", "--gap", "1000000000", "-o", "out.wav"],
    ["midi", "lu", "--repeat", "1000000000", "-o", "out.mid"],
    ["midi", "lu", "--interval", "1e6", "--force", "-o", "out.mid"],
    ["midi", "lu", "--bpm", "12000", "--repeat", "100000", "-o", "out.mid"],
    ["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "alternate", "--repeat", "100000000",
     "-o", "out.wav"],
    ["midi", "lu", "--interval=1e308", "-o", "out.mid"],
    ["scan", "/dev/zero"],
    # issue 20: alignment measured before it starts (strokes × strokes) ...
    ["collate", "--only", "one.txt"],
    ["diff", "lu@a.txt", "lu@b.txt"],
    ["draw", "lu@a.txt", "lu@b.txt", "-o", "out.svg"],
    ["compare", "lu@a.txt", "lu@b.txt", "--mode", "diff", "-o", "out.wav"],
    # ... and with --force, done in linear memory
    ["collate", "--only", "one.txt", "--force"],
    ["diff", "lu@a.txt", "lu@b.txt", "--force"],
    ["draw", "lu@a.txt", "lu@b.txt", "-o", "out.svg", "--force"],
    # a kit folder of two 30-minute, 8-channel recordings: only their first 30 s decoded
    ["render", "lu", "--kit", "kit", "-o", "out.wav"],
    ["show", "lu@/dev/zero", "--force"],
    ["render", "lu", "-o", "disk"],                   # a block device (if one can be made)
    ["glyphs"],                                       # for comparison: a command doing nothing
]


def make_inputs(folder: str) -> None:
    """The inputs of issue 20's requests: a 3,000-stroke pattern with one variant
    note, two 24 KB texts of 8,000 strokes, a kit folder of long recordings."""
    import random
    import stat

    import numpy as np
    import soundfile as sf

    rng = random.Random(20)

    def strokes(n: int) -> str:
        return "".join(rng.choice("○□") for _ in range(n))

    with open(os.path.join(folder, "one.txt"), "w", encoding="utf-8") as f:
        f.write(f"魯鼓\n{strokes(1499)}□(一本作○)半{strokes(1500)}\n")
    for name in ("a.txt", "b.txt"):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(f"魯鼓\n{strokes(4000)}半{strokes(4000)}\n")
    kit = os.path.join(folder, "kit")
    os.mkdir(kit)
    rate = 48000
    t = np.arange(int(0.3 * rate)) / rate
    hit = (0.8 * np.sin(2 * np.pi * 200 * t) * np.exp(-t * 20))[:, None].repeat(8, 1)
    with sf.SoundFile(os.path.join(kit, "small.flac"), "w", samplerate=rate, channels=8,
                      subtype="PCM_16", format="FLAC") as f:
        f.write(hit)
        silence = np.zeros((rate * 60, 8), dtype=np.int16)
        for _ in range(30):
            f.write(silence)
    os.link(os.path.join(kit, "small.flac"), os.path.join(kit, "big.flac"))
    try:      # a loop device number no kernel has made: nothing could be written over
        os.mknod(os.path.join(folder, "disk"), stat.S_IFBLK | 0o600, os.makedev(7, 252))
    except OSError:
        pass


def measure(args: list[str], folder: str) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit status, last line of stderr) of one run."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "guji", *args], cwd=folder,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    line = (err.strip().splitlines() or [""])[-1]
    return took, usage.ru_maxrss / 1024, proc.returncode, line


def main() -> None:
    print(f"{'seconds':>8} {'peak MB':>8} {'exit':>4}  request, and what guji says")
    with tempfile.TemporaryDirectory() as folder:
        make_inputs(folder)
        inputs = set(os.listdir(folder))
        for args in REQUESTS:
            runs = [measure(args, folder) for _ in range(3)]
            took = min(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            _, _, status, line = runs[0]
            print(f"{took:8.2f} {peak:8.1f} {status:4}  guji {' '.join(args)}\n"
                  f"{'':24}{line[:150]}")
            made = set(os.listdir(folder)) - inputs
            assert status == 0 or not made, made          # a refusal writes nothing
            for name in made:
                os.remove(os.path.join(folder, name))


if __name__ == "__main__":
    main()

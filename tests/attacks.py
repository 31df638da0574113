"""The attacks of issue 35: whole guji processes, drawn at random, run bounded, judged.

:func:`draw` makes one attack in a folder of its own: a command line over
any subcommand, the files it reads (big texts from :func:`fuzz.big_text`,
folders and kits with symbolic-link loops, kit files of absurd numbers from
:data:`fuzz.ABSURD_NUMBERS`, named pipes), odd option values, ``/dev/full``
as standard output or error, and a signal (SIGINT, SIGTERM, SIGHUP) from
0 ms after launch. :func:`attacks_run.run` runs it as a user would (a fresh
process in a session of its own, under ``tests/runner.py``'s resource
bounds, with a ``$TMPDIR`` of its own) and :func:`attacks_run.judge` says
what went wrong. Each attack is drawn from ``random.Random(f"{seed}:{index}")``,
so a failure is reproduced from its seed and index alone
(``bench/fuzz_attacks.py --seed S --only I``), and :meth:`Attack.shown`
prints the exact command line.

Used by ``bench/fuzz_attacks.py`` (the campaign: thousands of runs, texts of
tens of MB) and ``tests/test_fuzz_attacks.py`` (its bounded form in CI).
"""

from __future__ import annotations

import os
import random
import shlex
import signal
from dataclasses import dataclass, field
from pathlib import Path

import fuzz

#: What an attack goes for; :func:`draw` makes one of each kind on demand.
KINDS = ("dense", "long-line", "labels", "circles", "symlink-loop", "kit-number", "options",
         "fifo", "full", "signal")
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: Commands that read a pattern id (a text file named in it: ``lu@t.txt``), and what they write.
ID_COMMANDS = {"show": (), "diff": (), "midi": (".mid",), "sheet": (".musicxml", ".mxl", ".svg",
               ".ly", ".pdf"), "render": (".wav", ".flac", ".ogg"), "draw": (".svg", ".png"),
               "compare": (".wav", ".flac", ".mid"), "page": ("/", ".html"), "edition": (".mei",),
               "play": (), "check": (".svg",)}
PATH_COMMANDS = ("scan", "collate", "claims", "studio")
BARE_COMMANDS = (["list"], ["list", "--json"], ["glyphs"], ["glyphs", "--json"], ["devices"],
                 ["ports"], ["completion", "bash"], ["completion", "zsh"], ["man"], ["--help"],
                 ["demo", "--write", "-o", "d/"], ["--version"])
#: Commands that take a kit (``--kit``), and those that never end alone (a signal ends them).
KIT_COMMANDS = ("render", "compare", "page", "play", "demo")
ENDLESS = ("studio",)

#: Option values, odd and absurd: what a typo or a script may give.
ODD_VALUES = {
    "--interval": ("1.5117087697748306", "0.05", "1e-9", "1e308", "nan", "-0", "0x10", "1_0"),
    "--bpm": ("100", "1e9", "0.0001", "inf", "-1"),
    "--count-in": ("10", "0", "9007199254740993", "1e3", "-0"),
    "--repeat": ("2", "900719925474099", "0", "٣"),
    "--gap": ("3", "-1", "99999999999"),
    "--rate": ("8000", "1", "384001", "44100.5", "0"),
    "--channels": ("1", "3"),
    "--pan": ("鼙=-1", "big=2", "small=nan", "x", "鼓=1e308"),
    "--loudness": ("off", "-23", "0", "-1e308", "nan", "99"),
    "--room": ("hall", "court", "missing.wav", "t.txt", "/dev/zero"),
    "--ramp": ("40:300", "0:1", "1e308:1", "x"),
    "--ticks-per-beat": ("1", "0", "65536", "96"),
    "--scale": ("1", "0", "1e6", "nan"),
    "--jobs": ("1", "0", "-3", "100000"),
    "--latency": ("0", "1e308", "-1"),
    "--rite": ("touhu", "she"),
    "--strike": ("vary", "exact"),
    "--labels": ("after", "before", "auto"),
    "--encoding": ("gb18030", "big5", "utf-32", "rot13", "nope"),
    "--title": ("\x1b[2J", "\ufffe", "x" * 5000),
    "--map": ("鼙=36", "鼓=999", "x"),
    "--velocity": ("鼙=0", "鼓=128", "鼙=127"),
    "--port": ("0", "1", "65536", "x"),
}
#: Short values keep a run quick: most attacks render at these.
QUICK = ["--interval", "0.05", "--rate", "8000"]


@dataclass(frozen=True)
class Attack:
    """One command line and what surrounds it: the files made for it (*setup*,
    said in words), where its standard output and error go (``pipe`` or
    ``full``: ``/dev/full``), a signal and its moment (seconds after launch),
    named pipes guji reads (*fifo_in*, fed a text) or writes (*fifo_out*,
    drained), and the files it may write (*outputs*, checked after)."""

    kind: str
    seed: str
    argv: tuple[str, ...]
    setup: tuple[str, ...] = ()
    stdout: str = "pipe"
    stderr: str = "pipe"
    signal: int | None = None
    delay: float = 0.0
    fifo_in: str | None = None
    fifo_in_text: bytes = b""
    fifo_out: str | None = None
    outputs: tuple[str, ...] = ()
    endless: bool = field(default=False)

    def shown(self) -> str:
        """The command line as a shell runs it, with what it was made of."""
        line = "guji " + shlex.join(self.argv)
        line += " >/dev/full" if self.stdout == "full" else ""
        line += " 2>/dev/full" if self.stderr == "full" else ""
        if self.signal is not None:
            line += f"   # {signal.Signals(self.signal).name} {self.delay * 1000:.0f} ms after launch"
        made = "".join(f"\n    {s}" for s in self.setup)
        return f"[{self.kind}, seed {self.seed}] {line}{made}"


def _text_file(rng: random.Random, folder: Path, kind: str, biggest: int) -> tuple[str, str]:
    """A big text of *kind* (log-uniform size, up to *biggest* bytes) as ``t.txt``."""
    size = int(2 ** rng.uniform(10, max(11, biggest.bit_length())))
    size = min(size, biggest)
    (folder / "t.txt").write_bytes(fuzz.big_text(rng, kind, size))
    return "t.txt", f"t.txt: {kind} text, {size:,} bytes (fuzz.big_text)"


def _symlink_loop(rng: random.Random, folder: Path) -> tuple[str, str]:
    """A loop of links, in a folder of texts or alone: the path to name and its setup."""
    lib = folder / "lib"
    lib.mkdir()
    (lib / "a.txt").write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    how = rng.choice(("self", "pair", "up", "deep"))
    if how == "self":
        os.symlink("self.txt", lib / "self.txt")
        target, said = rng.choice(("lib", "lib/self.txt")), "lib/self.txt -> self.txt"
    elif how == "pair":
        os.symlink("b.txt", lib / "a2.txt")
        os.symlink("a2.txt", lib / "b.txt")
        target, said = rng.choice(("lib", "lib/b.txt")), "lib/a2.txt <-> lib/b.txt"
    elif how == "up":
        os.symlink("..", lib / "up")
        target, said = "lib", "lib/up -> .."
    else:
        (lib / "x" / "y").mkdir(parents=True)
        os.symlink("../../..", lib / "x" / "y" / "back")
        target, said = "lib", "lib/x/y/back -> ../../.."
    return target, f"lib/a.txt (one pattern), {said}"


def _kit(rng: random.Random, folder: Path, loops: bool) -> tuple[str, str]:
    """A kit with a symbolic-link loop for a sample (*loops*) or absurd numbers."""
    if loops:
        kit = folder / "kit"
        kit.mkdir()
        os.symlink("small.wav", kit / "small.wav")
        os.symlink("../kit", kit / "big.wav") if rng.random() < 0.5 else None
        if rng.random() < 0.5:
            (folder / "kit.toml").write_text('[small]\nsample = "kit/small.wav"\n')
            return "kit.toml", 'kit.toml: [small] sample = "kit/small.wav", a link to itself'
        return "kit", "kit/small.wav -> small.wav (itself)"
    lines = []
    for voice in rng.sample(("small", "big", "click", "cue", "鼙", "鼓"), rng.randint(1, 2)):
        lines.append(f"[{voice}]")
        keys = ("fundamental", "level", "pan", "length", "fade", "attack", "noise_level",
                "noise_decay", "noise_cutoff", "pitch_fall", "pitch_fall_time", "seed", "variants",
                "force_spread", "strike_position", "position_spread", "mode_ratios", "mode_decays")
        for key in rng.sample(keys, rng.randint(1, 4)):
            value = rng.choice(fuzz.ABSURD_NUMBERS)
            lines.append(f"{key} = [{value}, 1.0]" if key.startswith("mode_") else f"{key} = {value}")
    (folder / "kit.toml").write_text("\n".join(lines) + "\n")
    return "kit.toml", "kit.toml: " + "; ".join(lines)


def _options_of(command: str) -> set[str]:
    """The long options *command* takes, from guji's own parser."""
    import argparse
    from guji.cli.main import build_parser
    if command not in _OPTIONS:
        sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
        for name, parser in sub.choices.items():
            _OPTIONS[name] = {o for a in parser._actions for o in a.option_strings}
    return _OPTIONS.get(command, set())


_OPTIONS: dict[str, set[str]] = {}


def _odd_options(rng: random.Random, command: str, count: int) -> list[str]:
    """Up to *count* of *command*'s options (a stray one a time in ten), odd values."""
    known = sorted(set(ODD_VALUES) & _options_of(command)) or sorted(ODD_VALUES)
    if rng.random() < 0.1:
        known = sorted(ODD_VALUES)
    out: list[str] = []
    for option in rng.sample(known, min(count, len(known))):
        out += [option, rng.choice(ODD_VALUES[option])]
    return out


def _command(rng: random.Random, folder: Path, text: str | None) -> tuple[list[str], list[str]]:
    """A command line reading *text* (a path) where one is given: argv, and outputs."""
    if text is None and rng.random() < 0.15:
        argv = list(rng.choice(BARE_COMMANDS))
        return argv, (["d"] if argv[0] == "demo" else [])
    choice = rng.random()
    if text is not None and choice < 0.35:
        command = rng.choice(PATH_COMMANDS)
        return [command, text] + (["--json"] if command != "studio" and rng.random() < 0.3
                                  else ["--no-browser"] if command == "studio" else []), []
    command = rng.choice(sorted(ID_COMMANDS))
    source = f"@{text}" if text else rng.choice(("", "@wuli-tongkao", "@lijing-benyi"))
    ids = [f"{rng.choice(('lu', 'xue', '魯', 'lu:2', 'xue:2'))}{source}" for _ in range(2)]
    argv = [command, *ids[: 2 if command in ("diff", "compare", "page") else 1]]
    if command == "check":
        _wav(folder / "rec.wav")
        argv.insert(1, "rec.wav")
    suffixes = ID_COMMANDS[command]
    outputs = []
    if suffixes:
        out = "out" + rng.choice(suffixes)
        if command in ("midi", "render", "draw", "compare") and rng.random() < 0.15:
            out = "-"                           # standard output: a pipe, or /dev/full
        argv += ["-o", out]
        outputs += [out.rstrip("/")] if out != "-" else []
    if command in ("render", "compare", "page", "play", "midi"):
        argv += QUICK if command != "midi" else QUICK[:2]
    return argv, outputs


def _wav(path: Path) -> None:
    import numpy as np
    import soundfile as sf
    t = np.arange(8000) / 8000
    sf.write(path, (0.3 * np.sin(2 * np.pi * 200 * t) * np.exp(-t * 8)).astype(np.float32), 8000)


def draw(seed: str, folder: Path, kind: str | None = None, biggest: int = 1 << 20,
         mixed: bool = False) -> Attack:
    """An attack of *kind* (any, when None) in *folder*, from ``random.Random(seed)``;
    big texts up to *biggest* bytes. *mixed*: /dev/full and a signal may join any kind."""
    rng = random.Random(seed)
    kind = kind or rng.choice(KINDS)
    setup: list[str] = []
    text = None
    if kind in fuzz.BIG_TEXTS:
        text, said = _text_file(rng, folder, kind, biggest)
        setup.append(said)
    elif kind == "symlink-loop" and rng.random() < 0.5:
        text, said = _symlink_loop(rng, folder)
        setup.append(said)
    elif kind not in ("symlink-loop", "kit-number") and rng.random() < 0.3:
        text, said = _text_file(rng, folder, rng.choice(fuzz.BIG_TEXTS), 4096)
        setup.append(said)
    argv, outputs = _command(rng, folder, text)
    if kind in ("symlink-loop", "kit-number") and text is None:
        argv, outputs = _kit_command(rng, folder, kind, setup)
    if kind == "symlink-loop" and text is None and rng.random() < 0.3 and "-o" in argv:
        target = argv[argv.index("-o") + 1]
        os.symlink(target, folder / target) if "/" not in target else None
        setup.append(f"{target} -> {target} (the output a link to itself)")
    if kind == "options":
        argv += _odd_options(rng, argv[0], rng.randint(1, 4))
    fifo_in = fifo_out = None
    if kind == "fifo":
        argv, fifo_in, fifo_out = _fifos(rng, folder, argv, outputs, setup)
    full = kind == "full" or (mixed and rng.random() < 0.1)
    stdout, stderr = ("pipe", "pipe") if not full else rng.choice(
        (("full", "pipe"), ("full", "pipe"), ("pipe", "full"), ("full", "full")))
    sig, delay = None, 0.0
    endless = argv[0] in ENDLESS or argv[0] == "play"
    if kind == "signal" or endless or (mixed and rng.random() < 0.15):
        sig = rng.choice(SIGNALS)
        delay = rng.choices((0.0, rng.uniform(0, 0.05), rng.uniform(0.05, 0.5), rng.uniform(0.5, 3)),
                            (1, 2, 3, 4))[0]
        if kind == "signal" and "--repeat" in _options_of(argv[0]):   # work to stop in
            argv += ["--repeat", str(rng.choice((20, 100, 400)))]
        if endless and kind != "signal" and not mixed:   # a stop, not an attack on start-up
            delay = max(delay, 1.0)
    return Attack(kind, seed, tuple(argv), tuple(setup), stdout, stderr, sig, delay,
                  fifo_in, fuzz.big_text(rng, "dense", 2000) if fifo_in else b"", fifo_out,
                  tuple(outputs), endless)


def _kit_command(rng, folder: Path, kind: str, setup: list[str]) -> tuple[list[str], list[str]]:
    kit, said = _kit(rng, folder, loops=kind == "symlink-loop")
    setup.append(said)
    command = rng.choice(KIT_COMMANDS)
    if command == "demo":
        return ["demo", "--write", "-o", "d/", "--kit", kit, *QUICK], ["d"]
    ids = ["lu", "xue:2"][: 2 if command in ("compare", "page") else 1]
    out = {"render": "out." + rng.choice(("wav", "flac", "ogg")), "compare": "out.wav",
           "page": "out/", "play": None}[command]
    argv = [command, *ids, "--kit", kit, *QUICK] + (["-o", out] if out else [])
    return argv, [out.rstrip("/")] if out else []


def _fifos(rng, folder: Path, argv: list[str], outputs: list[str], setup: list[str]):
    """Named pipes: the text guji reads (fed by the campaign) and/or the file it writes."""
    fifo_in = fifo_out = None
    names_text = [i for i, a in enumerate(argv) if a.endswith("t.txt")]
    if names_text or rng.random() < 0.5:
        os.mkfifo(folder / "in.txt")
        fifo_in = "in.txt"
        if names_text:
            argv = [a.replace("t.txt", "in.txt") for a in argv]
        else:
            argv = ["show", "lu@in.txt"] if rng.random() < 0.5 else ["scan", "in.txt"]
            outputs = []
        setup.append("in.txt: a named pipe, fed a dense text of 2,000 bytes then closed")
    if "-o" in argv and argv[argv.index("-o") + 1] not in ("out/", "d/") and rng.random() < 0.7:
        i = argv.index("-o") + 1
        suffix = Path(argv[i]).suffix
        argv[i] = "pipe" + suffix
        os.mkfifo(folder / argv[i])
        fifo_out = argv[i]
        setup.append(f"{argv[i]}: a named pipe, drained, what came through checked as {suffix}")
    return argv, fifo_in, fifo_out

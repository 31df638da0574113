"""Random texts for fuzzing: mostly the stuff of drum diagrams, plus everything else.

:func:`text` draws a text from fragments that make a reader's decisions hard
(strokes of every glyph, 半, labels and headings in every variant, notes,
look-alikes, prose, punctuation, markup, control and format characters,
line breaks of every kind) and from random code points; :func:`encoded`
gives it as bytes in one of the encodings a user's file may have, or
damaged. Used by the CLI fuzz test and ``bench/fuzz_scan.py``.

The attacks of ``tests/attacks.py`` (whole guji processes, ``bench/fuzz_attacks.py``
and ``test_fuzz_attacks``) draw their big texts from :func:`big_text` (pattern-dense
lines of random strokes, one long line, labels with few strokes, ○ alone, of any
size) and their kit files' numbers from :data:`ABSURD_NUMBERS`.

The command-line fuzz tests (``test_cli_fuzz``, ``test_fuzz_sweep``) share
how a run is made and bounded: :func:`run_main` calls the command line in
this process, as the console script does; :func:`bounded_block` runs one
block of such runs in a process of its own under ``tests/runner.py``'s
resource bounds, so a regression that runs away fails the test, not the
machine.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

FRAGMENTS = (
    "○", "□", "囗", "口", "〇", "◯", "■", "◍", "半", "半", "○□○", "□○□□", "○○□半○□",
    "魯鼓", "薛鼓", "鲁鼓", "薛鼔", "薜鼓", "鼓", "記鼓", "右鼔",
    "（", "）", "(", ")", "【", "】", "()", "[]", "（半）", "(吳澄本作○)",
    "o", "O", "0", "°", "●", "◎", "☐", "a", "1.", "一、", "①", "- ", "> ", "**", "#", "|", "`",
    "，", "。", "：", "；", "、", " ", "\u3000", "\t", "\n", "\r\n", "\r", "\n\n",
    "取半以下", "圜音圓", "投壺", "禮記", "prose ", "¶", "<pb:12>", "<b>",
    "\x00", "\x1b[2J", "\u202e", "\ufeff", "\u2028", "\ud7ff", "\U0001f600",
    # whole patterns, labelled before or after, and a heading
    "魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", "○□○○□□○□○○□半○□○□○○○□□○□○ 魯鼓 ",
    "薛鼓 ○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○\n", "鼓 ○□○半○□ 魯鼓 ○□□半□○ 薛鼓\n",
)


def text(rng: random.Random, parts: int | None = None) -> str:
    """A random text of about *parts* fragments (random when None)."""
    n = parts if parts is not None else rng.randint(0, 60)
    out = []
    for _ in range(n):
        if rng.random() < 0.08:
            out.append(chr(rng.choice((rng.randint(0x20, 0x7E), rng.randint(0xA0, 0xD7FF),
                                       rng.randint(0xE000, 0x10FFFF)))))
        else:
            out.append(rng.choice(FRAGMENTS))
    return "".join(out)


def encoded(rng: random.Random, value: str) -> bytes:
    """*value* as a file's bytes: UTF-8 (with or without BOM), UTF-16, UTF-32,
    GB18030, Big5 (what they cannot hold replaced), or damaged bytes."""
    choice = rng.random()
    if choice < 0.5:
        return value.encode("utf-8", "surrogatepass")
    if choice < 0.6:
        return value.encode("utf-8-sig", "replace")
    if choice < 0.7:
        return value.encode("utf-16", "replace")
    if choice < 0.75:
        return value.encode("utf-32", "replace")
    if choice < 0.85:
        return value.encode(rng.choice(("gb18030", "big5")), "replace")
    data = bytearray(value.encode("utf-8", "replace"))
    for _ in range(rng.randint(1, 5)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


LABELS = ("魯鼓", "薛鼓", "鲁鼓", "薛鼔", "魯鼔", "薜鼓")

#: Numbers a kit file may hold that no voice can use: huge, tiny, subnormal, not numbers.
ABSURD_NUMBERS = ("1e308", "-1e308", "1e-320", "-1e-320", "4.9e-324", "1.7976931348623157e308",
                  "9" * 400, "-" + "9" * 400, "18446744073709551617", "-9223372036854775809",
                  "nan", "inf", "-inf", '"NaN"', '"inf"', '"1e308"', "0", "-0.0", "1e999")
BIG_TEXTS = ("dense", "long-line", "labels", "circles")


def _strokes(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("○□") for _ in range(n))


def _dense_line(rng: random.Random) -> str:
    """One pattern: a label, random strokes, 半, random strokes (as 魯鼓○□○○□□○□○○半…)."""
    return (rng.choice(LABELS[:4]) + _strokes(rng, rng.randint(1, 14)) + "半"
            + _strokes(rng, rng.randint(1, 16)))


def big_text(rng: random.Random, kind: str, size: int) -> bytes:
    """About *size* bytes (UTF-8) of one of :data:`BIG_TEXTS`: ``dense``, a pattern
    a line; ``long-line``, patterns without a line break; ``labels``, the labels
    over and over with a stroke or two between; ``circles``, ○ alone."""
    if kind == "circles":
        return ("○" * (size // 3)).encode()
    if kind == "labels":
        unit = "".join(rng.choice(LABELS) + _strokes(rng, rng.randint(0, 2))
                       + ("半" if rng.random() < 0.1 else "") for _ in range(500))
    else:
        unit = ("\n" if kind == "dense" else rng.choice(("", " ", "\u3000"))).join(
            _dense_line(rng) for _ in range(300)) + ("\n" if kind == "dense" else "")
    data = unit.encode()
    return (data * (size // len(data) + 1))[:size].decode("utf-8", "ignore").encode()


def run_main(argv: list[str]) -> tuple[int, str]:
    """``guji.cli.main.main(argv)`` with standard output and error captured, as
    bytes, like a terminal-less run: its exit status and what it said on stderr."""
    from guji.cli.main import main
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    try:
        status = main(argv)
        sys.stderr.flush()
        return status, sys.stderr.buffer.getvalue().decode("utf-8", "replace")
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def bounded_block(module: str, function: str, seed: int, runs: int, folder: Path):
    """``module.function(seed, runs, folder)`` (a block of fuzz runs, returning
    something JSON can hold) in a fresh Python process under the resource
    bounds of :func:`runner.run`, the tests' folder on its path; what it
    returned. The process must end with status 0 and print nothing else."""
    import runner
    import tools
    tools.outside_the_loop("a block of fuzz runs")
    code = (f"import json, {module} as t\n"
            f"print(json.dumps(t.{function}({seed}, {runs}, t.Path({str(folder)!r}))))\n")
    r = runner.run([sys.executable, "-c", code], folder,
                   env=runner.environment(PYTHONPATH=str(Path(__file__).parent)))
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.decode("utf-8", "replace").strip().splitlines()
    assert lines[:-1] == [], "\n".join(lines[:-1])[:6000]
    return json.loads(lines[-1])

"""Every example in docs/ runs as written.

* ``$ guji …`` transcripts (in a code block): each command is run in a shell, in a
  folder holding what a clone holds (one folder for a block's commands, in order),
  and prints what the block shows after it (an elapsed time ``(0.3 s)`` aside);
* ```` ```python ```` blocks: run in a fresh folder (with a ``chapter.txt``, the
  text they read); a line ending in ``# LITERAL`` (a Python literal first) is
  evaluated and must equal it.

The README's own examples are run by ``tests/test_newcomer.py``.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUJI = str(Path(sys.executable).with_name("guji"))
DOCS = sorted((ROOT / "docs").glob("*.md"))


def blocks(path: Path) -> list[tuple[str, list[str]]]:
    """(language, lines) of every fenced code block of *path*."""
    out, lang, lines = [], None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, lines = line[3:].strip(), []
            else:
                out.append((lang, lines))
                lang = None
        elif lang is not None:
            lines.append(line)
    return out


def transcripts():
    """One param per code block with a ``$ guji`` line: its commands in order,
    each with what the block shows after it (run in one folder, so a block may
    make the file its later commands read)."""
    for path in DOCS:
        for k, (_, lines) in enumerate(blocks(path)):
            if not any(line.startswith("$ guji ") for line in lines):
                continue
            steps, command, shown = [], None, []
            for line in lines + ["$ "]:
                if line.startswith("$ "):
                    if command:
                        steps.append((command, shown))
                    command, shown = line[2:], []
                else:
                    shown.append(line)
            first = next(c for c, _ in steps if c.startswith("guji "))
            yield pytest.param(steps, id=f"{path.name} #{k + 1}: {first[:40]}")


def pythons():
    for path in DOCS:
        for k, (lang, lines) in enumerate(blocks(path)):
            if lang == "python":
                yield pytest.param(lines, id=f"{path.name} #{k + 1}")


def clone(tmp_path: Path) -> dict:
    (tmp_path / "patterns").symlink_to(ROOT / "patterns")
    return dict(os.environ, PATH=f"{Path(GUJI).parent}:{os.environ['PATH']}",
                PYTHONIOENCODING="utf-8")


@pytest.mark.parametrize("steps", list(transcripts()))
def test_a_transcript_in_the_docs_prints_what_it_shows(tmp_path, steps):
    env = clone(tmp_path)
    for command, shown in steps:
        r = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                           encoding="utf-8", env=env, cwd=tmp_path, timeout=120,
                           stdin=subprocess.DEVNULL)
        printed = (r.stdout + r.stderr).splitlines()
        assert [_timeless(x) for x in printed] == [_timeless(x) for x in shown], \
            (command, r.stdout, r.stderr)


def _timeless(line: str) -> str:
    """A line with its elapsed time (``(0.3 s)``, the one figure a run cannot
    repeat) left out."""
    return re.sub(r"\(\d+(\.\d+)? s\)", "(… s)", line)


def _literal(comment: str):
    """The Python literal a comment starts with (``'○□…': the note's reading``), or a miss."""
    text = comment.strip()
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end])
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return _MISS


_MISS = object()


@pytest.mark.parametrize("lines", list(pythons()))
def test_a_python_example_in_the_docs_runs_and_gives_what_it_says(tmp_path, lines, monkeypatch):
    shutil.copy(ROOT / "patterns" / "liji-zhengyi.txt", tmp_path / "chapter.txt")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    checked = 0
    for line in lines:
        code, _, comment = line.partition("  # ")
        expected = _literal(comment) if comment and not code.lstrip().startswith("#") else _MISS
        if expected is not _MISS and not re.match(r"\s*(from|import)\b|.*[^=!<>]=[^=]", code):
            value = eval(code, scope)
            if isinstance(value, dict):
                value = {getattr(k, "name", k): v for k, v in value.items()}
                expected = {k.split(".")[-1] if isinstance(k, str) else k: v
                            for k, v in expected.items()} if isinstance(expected, dict) else expected
            assert value == expected, line
            checked += 1
        else:
            exec(line, scope)
    assert checked >= 1

"""Running guji as a user does: a fresh process, with bounds on what it may take.

:func:`guji` runs ``python -m guji`` (or a wrapper script) in a folder of its
own, under resource limits (file size, memory, CPU seconds) so that a
regression that runs away — writing until the disk is full, growing without
end — fails the test instead of the machine. :func:`wrapped` runs a few lines
of Python before the command line: the tests use it to deliver a real signal
at an exact point (an import, the first block written).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

#: Bounds of a run: 200 MB a file, 2 GiB of address space, 120 CPU seconds.
FILE_BYTES = 200 * 10 ** 6
MEMORY_BYTES = 2 * 2 ** 30
CPU_SECONDS = 120


@dataclass
class Run:
    returncode: int
    stdout: bytes
    stderr: str

    @property
    def err_lines(self) -> list[str]:
        return self.stderr.splitlines()


def _bounded(file_bytes: int, memory_bytes: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    return limit


#: What chooses the language guji speaks (guji.i18n.choose).
LANGUAGE_VARIABLES = ("GUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def environment(**extra: str) -> dict:
    """This process's environment for a guji process, in English whatever the
    desktop's language (``GUJI_LANG=en``), unless *extra* chooses a language
    (``LANG=zh_TW.UTF-8``): then the inherited choices are dropped and only
    *extra*'s count."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1", GUJI_LANG="en")
    if any(v in extra for v in LANGUAGE_VARIABLES):
        for v in LANGUAGE_VARIABLES:
            env.pop(v, None)
    env.update(extra)
    return env


def run(argv: list[str], cwd: Path, *, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        file_bytes: int = FILE_BYTES, memory_bytes: int = MEMORY_BYTES, env=None) -> Run:
    """*argv* (a whole command) in *cwd*, bounded."""
    proc = subprocess.run(argv, cwd=cwd, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          env=env or environment(),
                          preexec_fn=_bounded(file_bytes, memory_bytes), timeout=600)
    return Run(proc.returncode, proc.stdout or b"", proc.stderr.decode("utf-8", "replace"))


def guji(args: list[str], cwd: Path, **options) -> Run:
    """``guji ARGS…`` in a fresh process (``python -m guji``), bounded."""
    return run([sys.executable, "-m", "guji", *args], cwd, **options)


def wrapped(prelude: str, args: list[str], cwd: Path, **options) -> Run:
    """``guji ARGS…`` as the console script runs it, after *prelude* (Python)."""
    code = textwrap.dedent(prelude) + textwrap.dedent(f"""
        import sys
        sys.argv = ["guji", *{args!r}]
        from guji.cli import main
        sys.exit(main())
        """)
    return run([sys.executable, "-c", code], cwd, **options)


def leftovers(folder: Path) -> list[str]:
    """Hidden temporary files (``.name.XXXX.ext``) left in *folder*."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))

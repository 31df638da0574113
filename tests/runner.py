"""Running guji as a user does: a fresh process, with bounds on what it may take.

:func:`guji` runs ``python -m guji`` (or a wrapper script) in a folder of its
own, under resource limits (file size, memory, CPU seconds) so that a
regression that runs away — writing until the disk is full, growing without
end — fails the test instead of the machine. :func:`wrapped` runs a few lines
of Python before the command line: the tests use it to deliver a real signal
at an exact point (an import, the first block written). Every test file runs
guji through these (:func:`command` gives the command line alone, for a
process a test drives itself).
"""

from __future__ import annotations

import os
import resource
import signal
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
    """What a finished process gave: its status, its standard output (bytes,
    or text with ``text=True``) and its standard error (text, or bytes with
    ``text=False``)."""
    returncode: int
    stdout: bytes | str
    stderr: str | bytes

    @property
    def err_lines(self) -> list[str]:
        return self.stderr.splitlines()


def _bounded(file_bytes: int, memory_bytes: int):
    def limit() -> None:
        # the stop signals as a terminal gives them: a suite started by a script's `&`
        # passes SIGINT on ignored, and guji keeps an ignored signal ignored (nohup)
        for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(stop, signal.SIG_DFL)
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


def run(argv: list[str], cwd: Path | None = None, *, stdin=subprocess.DEVNULL,
        input: bytes | None = None, stdout=subprocess.PIPE, file_bytes: int = FILE_BYTES,
        memory_bytes: int = MEMORY_BYTES, env=None, timeout: float = 600,
        text: bool | None = None) -> Run:
    """*argv* (a whole command) in *cwd* (this process's folder if ``None``),
    bounded, killed after *timeout* seconds. *input*: bytes written to its
    standard input (instead of *stdin*). The output as :class:`Run` has it:
    *text* ``True`` gives both streams as text (UTF-8, strict), ``False``
    both as bytes, as written."""
    proc = subprocess.run(argv, cwd=cwd, stdin=None if input is not None else stdin, input=input,
                          stdout=stdout, stderr=subprocess.PIPE, env=env or environment(),
                          preexec_fn=_bounded(file_bytes, memory_bytes), timeout=timeout)
    out, err = proc.stdout or b"", proc.stderr
    if text:
        return Run(proc.returncode, out.decode("utf-8"), err.decode("utf-8"))
    if text is False:
        return Run(proc.returncode, out, err)
    return Run(proc.returncode, out, err.decode("utf-8", "replace"))


#: The console script beside this Python, as a user runs it (``pip install`` made it).
SCRIPT = str(Path(sys.executable).with_name("guji"))


def command(args: list[str], *, script: bool = False) -> list[str]:
    """The command line of ``guji ARGS…``: ``python -m guji``, or with
    *script* the installed console script (which, unlike ``python -m``, never
    imports a checkout found in the working folder)."""
    return [SCRIPT, *args] if script else [sys.executable, "-m", "guji", *args]


def guji(args: list[str], cwd: Path | None = None, *, script: bool = False, **options) -> Run:
    """``guji ARGS…`` in a fresh process (:func:`command`), bounded (:func:`run`'s *options*)."""
    return run(command(args, script=script), cwd, **options)


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

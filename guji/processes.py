"""Programs guji runs (Chromium for a PNG, LilyPond for a PDF), ended whole on any stop.

:func:`run` starts a program in a process group of its own and waits for
it. If the wait ends early — a timeout, Ctrl-C, SIGTERM — the whole group
is killed (the program and the helpers it started: Chromium's renderers,
LilyPond's Ghostscript) and waited for, so none is left writing into the
temporary folder guji is about to remove ("Directory not empty"), nor
running after guji has gone. :func:`worker_pool` gives guji's own worker
processes (a library scan's) the same end: killed with guji, never waited for.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .stops import SIGNALS as _STOP_SIGNALS, taken


def run(cmd: list[str], *, timeout: float, cwd=None, env=None
        ) -> subprocess.CompletedProcess:
    """Run *cmd* (text output captured) in its own process group; after it
    ends, or on any exception (:class:`subprocess.TimeoutExpired` included,
    re-raised), its group is ended. :class:`OSError` if it cannot start."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        end_group(proc)
        raise
    end_group(proc)          # helpers the program left behind
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def end_group(proc: subprocess.Popen, wait: float = 5.0) -> None:
    """Kill *proc*'s process group and wait (up to *wait* s) until it is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):   # gone; Windows
        pass
    proc.wait()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except (ProcessLookupError, PermissionError, AttributeError):
            return
        time.sleep(0.01)


#: What ends the processes guji has started and not yet ended (:func:`end_all`).
_running: dict[int, Callable[[], None]] = {}


def end_all() -> None:
    """End at once every pool of workers still running (a stop is being
    reported: whatever held them, none outlives guji)."""
    while _running:
        _running.popitem()[1]()


@contextmanager
def worker_pool(jobs: int) -> Iterator:
    """A :class:`~concurrent.futures.ProcessPoolExecutor` of *jobs* workers
    (forked where the system can: they start at once) that stops with guji.
    The workers are forked with the stop signals blocked, and each gives
    them their default action before it takes them again: a signal ends a
    worker at once, quietly — never guji's handler running in a worker, nor a
    worker's traceback. Left normally, the pool is shut down and joined; left
    by an exception (a stop), or on :func:`end_all`, its workers are killed,
    not joined (a worker busy for minutes on one file, or holding a queue's
    lock, cannot hold guji up)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_starts)
    key = id(pool)
    _running[key] = lambda: _kill(pool)
    try:
        with _blocked():
            pool.submit(int)      # the workers forked now, while the stop signals wait
        yield pool
    except BaseException:
        _running.pop(key, None)
        _kill(pool)
        raise
    _running.pop(key, None)
    pool.shutdown(wait=True)


def _worker_starts() -> None:
    """A worker's first step: the stop signals' default action (but those guji
    left ignored: :func:`guji.stops.taken`), then taken again."""
    for s in taken():
        signal.signal(s, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


@contextmanager
def _blocked() -> Iterator[None]:
    """The stop signals held back in this block (those that arrive are taken after it)."""
    if not hasattr(signal, "pthread_sigmask"):       # Windows: workers are fresh processes
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _kill(pool) -> None:
    """Kill *pool*'s workers, reap them, and let the pool go without waiting for it."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        try:
            worker.kill()
        except (OSError, ValueError, AttributeError):
            pass
    for worker in workers:
        try:
            worker.join(1.0)
        except (OSError, ValueError, AssertionError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)

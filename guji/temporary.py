"""guji's temporary files and folders: named as guji's, locked while in use, swept when stale.

Everything guji writes is made under a temporary name beside its target and
moved into place when whole (:func:`guji.files.atomic_path`, :func:`staged`).
A temporary name is ``.NAME.XXXXXXXX.guji-tmp``: hidden, and with no real
extension, so that nothing — a player, a file manager, a script globbing
``*.wav`` — takes a half-written file for a finished one.

Ctrl-C, SIGTERM and SIGHUP remove it; SIGKILL (or a power cut) cannot. So
while guji writes it holds a lock on its temporary file or folder
(``flock``), and every guji that writes into a folder first removes the
temporary files there that no running guji holds (:func:`sweep`): a stale one
lasts only until the next write. Where ``flock`` does not exist (Windows)
only those older than a day are removed.

:func:`staged` writes several results as one: a page's audio and HTML, a
compare's audio and MIDI, the demo's files. They are made in a temporary
folder, then moved into the target folder together, under a lock on that
folder and with signals held (:func:`guji.stops.held`), so two guji writing
one place never mix their files, and a stop leaves the old files, or the
new ones, never some of each.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .stops import check, held

try:
    import fcntl
except ImportError:         # Windows
    fcntl = None

#: The ending of every temporary name.
SUFFIX = ".guji-tmp"
#: Without locks (Windows), temporary files older than this are stale.
STALE_SECONDS = 24 * 3600

_ours: set[str] = set()      # the temporary folders this process holds


def _lock(fd: int, *, wait: bool = False) -> bool:
    """Take the lock on *fd*; whether it was taken (always, without ``flock``)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


class Held:
    """A temporary file or folder, locked by this process until :meth:`release`."""

    def __init__(self, path: str, fd: int):
        self.path = path
        self._fd: int | None = fd
        _lock(fd, wait=True)

    def release(self) -> None:
        _ours.discard(os.path.realpath(self.path))
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def new_file(target: Path) -> Held:
    """A new, empty, locked temporary file beside *target* (its folder swept first)."""
    folder = target.parent if str(target.parent) else Path(".")
    with _folder_locked(folder):
        _sweep(folder)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=SUFFIX, dir=folder)
        return Held(tmp, fd)


def new_folder(folder: Path, name: str) -> Held:
    """A new, empty, locked temporary folder in *folder* (swept first)."""
    with _folder_locked(folder):
        _sweep(folder)
        tmp = tempfile.mkdtemp(prefix=f".{name}.", suffix=SUFFIX, dir=folder)
        held = Held(tmp, os.open(tmp, os.O_RDONLY))
    _ours.add(os.path.realpath(tmp))
    return held


@contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """*folder*'s own lock, held by whoever makes a temporary name, sweeps or
    moves results in it (so a sweep never meets a file made but not yet
    locked); none where the folder cannot be opened or locked."""
    if os.path.realpath(folder) in _ours:     # our own temporary folder: nobody else's
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        _lock(fd, wait=True)
        yield
    finally:
        os.close(fd)


def is_temporary(name: str) -> bool:
    return name.startswith(".") and name.endswith(SUFFIX)


def shown(name: str) -> str:
    """*name* as a user reads it: a file being written in a temporary folder
    of :func:`staged` (``out/.guji-results.XXXXXXXX.guji-tmp/lu.wav``) named
    where it goes (``out/lu.wav``). Messages never name guji's temporary paths."""
    parts = name.split(os.sep)
    kept = [p for p in parts[:-1] if not (p.startswith(".guji-results.") and is_temporary(p))]
    return os.sep.join(kept + parts[-1:]) if len(kept) < len(parts) - 1 else name


def sweep(folder: str | os.PathLike) -> list[str]:
    """Remove the temporary files and folders in *folder* that no running guji
    holds (left by one that was killed); return their names. Never fails."""
    with _folder_locked(Path(folder)):
        return _sweep(folder)


def _sweep(folder) -> list[str]:
    removed = []
    try:
        entries = [e for e in os.scandir(folder) if is_temporary(e.name)]
    except OSError:
        return removed
    for entry in entries:
        try:
            if _stale(entry):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            pass
    return removed


def _stale(entry: os.DirEntry) -> bool:
    """Whether no guji holds *entry* (its lock is free)."""
    if fcntl is None:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS
    fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        return _lock(fd)
    finally:
        os.close(fd)


@contextmanager
def staged(folder: Path) -> Iterator[Path]:
    """A temporary folder inside *folder* to write results into; when the
    block ends well, every file in it is moved into *folder* at once (under
    a lock on *folder*, with signals held); otherwise it is removed and
    *folder* keeps what it held."""
    stage = new_folder(folder, "guji-results")
    try:
        yield Path(stage.path)
        check()
        with held():
            _move_all(Path(stage.path), folder)
    finally:
        shutil.rmtree(stage.path, ignore_errors=True)
        stage.release()


def _move_all(stage: Path, folder: Path) -> None:
    """Move every file of *stage* into *folder*, holding *folder*'s lock."""
    with _folder_locked(folder):
        for entry in sorted(os.scandir(stage), key=lambda e: e.name):
            os.replace(entry.path, folder / entry.name)

"""Writing files: whole or not at all.

Every file guji writes goes through :func:`atomic_path`: the data is written
to a temporary name beside the target and renamed into place only when
complete, so an error, a full disk or Ctrl-C never leaves a half-written
file, and the old file stays intact until the new one is whole.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .errors import UsageError


@contextmanager
def atomic_path(path: str | os.PathLike, suffix: str | None = None):
    """Yield a temporary path beside *path*; rename it into place on success.

    On any exception (Ctrl-C included) the temporary file is removed and
    *path* is left untouched. *suffix* defaults to *path*'s own suffix, so
    libraries that pick a format from the extension still see it.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix or target.suffix or ".tmp",
                               dir=directory)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes 0600; a finished file gets the usual mode
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def check_target(path: str | os.PathLike, hint: str = "") -> Path:
    """*path* as a :class:`Path` a file can be written to, or :class:`UsageError`
    (one line): it must not be a directory, and its folder must exist. *hint*
    is added to the "is a directory" message (what to give instead)."""
    target = Path(path)
    if str(path) == "":
        raise UsageError("no file name given")
    if target.is_dir():
        raise UsageError(f"{path}: is a directory{hint}")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{path}: no such directory {str(parent)!r}")
    return target


@contextmanager
def writing(path: str | os.PathLike, *, hint: str = "", errors: tuple = ()):
    """Check *path* (:func:`check_target`) and yield a temporary path to write
    the whole file to (:func:`atomic_path`); a failure of the file system
    (``OSError``, or one of *errors*) becomes one :class:`UsageError` line
    naming *path* and the cause."""
    target = check_target(path, hint)
    try:
        with atomic_path(target) as tmp:
            yield tmp
    except (OSError, *errors) as e:
        reason = getattr(e, "strerror", None) or (str(e).splitlines() or ["failed"])[0]
        raise UsageError(f"{path}: cannot write: {reason}") from None

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

"""Writing files: whole or not at all, and never over what is not a file.

Every file guji writes goes through :func:`writing`, the one place that
decides how a target is written (:func:`destination`):

* **a regular file, or a new name**: written under a temporary name beside it
  and renamed into place when complete (:func:`atomic_path`). An error, a
  full disk, Ctrl-C or SIGTERM leaves no half-written file, and the old file
  stays intact (its permission bits kept) until the new one is whole (a
  hard link to the old file keeps the old content);
* **a symbolic link**: followed; the file it points to is written
  atomically, and the link stays a link;
* **a character device, a FIFO, a socket** (``/dev/null``, a named pipe):
  written to directly, in order, never replaced, never read back
  (*streamed*): ``-o /dev/null`` times a render, ``-o pipe`` feeds another
  program; a **block device** (a disk, ``/dev/sda``) is refused;
* **``-``** (or ``/dev/stdout``): standard output, streamed (refused for binary data when it is a
  terminal); an open binary file object is streamed too;
* **a directory**: refused, as is an empty name or a missing folder.

Every failure of the file system becomes one
:class:`~guji.errors.UsageError` line naming the path and the cause in words
(:func:`reason`: ``ENOSPC`` → "disk full").
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from .i18n import _
from . import stops, temporary
from .errors import UsageError, escape_controls

#: The name that means standard output.
STDOUT = "-"
#: Paths that name standard output too, written exactly as ``-`` is (not
#: replaced by a new file when the output is redirected to one).
STDOUT_PATHS = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})

#: How a device or FIFO is opened: for writing, not inherited by programs guji
#: runs, in binary (Windows' ``O_BINARY``; POSIX has no text mode, Windows no
#: ``O_CLOEXEC``: its descriptors are not inherited anyway).
_STREAM_FLAGS = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)

#: The causes of file-system errors, in words (those the system has).
_REASONS = {getattr(errno, code): words for code, words in (
    ("ENOSPC", "disk full"),
    ("EDQUOT", "disk quota exceeded"),
    ("EROFS", "read-only file system"),
    ("EACCES", "permission denied"),
    ("EPERM", "operation not permitted"),
    ("EFBIG", "file too large for this file system"),
    ("EIO", "input/output error"),
    ("ENAMETOOLONG", "file name too long"),
    ("ENOENT", "no such file or directory"),
    ("ENOTDIR", "a part of the path is not a directory"),
    ("EISDIR", "is a directory"),
    ("ENXIO", "no such device or address (a socket, or a device that is not there)"),
    ("EPIPE", "the reader closed the pipe"),
    ("ELOOP", "too many levels of symbolic links"),
    ("ETXTBSY", "file busy"),
    ("EMFILE", "too many open files"),
    ("EBADF", "not open for writing"),
) if hasattr(errno, code)}


def reason(error: BaseException) -> str:
    """The cause of a file-system error in words (``ENOSPC`` → ``disk full``)."""
    code = getattr(error, "errno", None)
    if code in _REASONS:
        return _REASONS[code]
    text = getattr(error, "strerror", None) or (str(error).splitlines() or ["failed"])[0]
    return text[:1].lower() + text[1:] if text else "failed"


@contextmanager
def atomic_path(path: str | os.PathLike, suffix: str | None = None):
    """Yield a temporary path beside *path*; rename it into place on success.

    On any exception (Ctrl-C included) the temporary file is removed and
    *path* is left untouched. The temporary name is guji's
    (``.NAME.XXXXXXXX.guji-tmp``, no real extension: :mod:`guji.temporary`),
    locked while it is written, so that one a killed guji left is removed by
    the next guji writing in that folder. (*suffix* is accepted and ignored:
    every writer opens the file itself.) An existing file's permission bits
    are given to the new one; a new file gets the usual ones (``0666`` less
    the umask).
    """
    target = Path(path)
    held = temporary.new_file(target)
    tmp = held.path
    try:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)       # mkstemp makes 0600
        yield tmp
        stops.check()             # never move a result in after a stop (one Python swallowed)
        if os.name == "nt":       # an open file cannot be renamed there
            held.release()
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    finally:
        held.release()


@dataclass(frozen=True)
class Destination:
    """How a target is written, decided before any work (:func:`destination`).

    Attributes
    ----------
    name:
        What messages call it: the path as given, or ``standard output``.
    path:
        The file to write: the path itself, or the file a symbolic link
        points to; ``None`` for standard output and file objects.
    streamed:
        True for devices, FIFOs, sockets, standard output and file objects:
        written directly, in order; False for a regular file or a new name:
        written atomically.
    """

    name: str
    path: Path | None
    streamed: bool
    file: object = None

    @property
    def suffix(self) -> str:
        """The extension of the name as given, lower case (``""`` for streams
        without one, such as ``/dev/null`` or ``-``)."""
        return Path(self.name).suffix.lower() if self.path is not None else ""


def destination(where, *, hint: str = "", binary: bool = True) -> Destination:
    """Where *where* (a path, ``-`` or a binary file object) would be written,
    or :class:`UsageError` (one line) if it cannot be: an empty name, a
    directory (*hint* is added: what to give instead), a missing folder, an
    existing file without write permission, binary data to a terminal."""
    if hasattr(where, "write"):
        return Destination(str(getattr(where, "name", "<stream>")), None, True, where)
    name = os.fspath(where)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if name == "":
        raise UsageError(_('no file name given'))
    if name == STDOUT or name in STDOUT_PATHS:
        if binary and _is_terminal(sys.stdout):
            raise UsageError(_('standard output is a terminal: redirect it to a file or a pipe, or give a file name'))
        return Destination("standard output", None, True)
    path = Path(name)
    try:
        info = os.stat(path)          # follows symbolic links
    except FileNotFoundError:
        if name.endswith(("/", os.sep)):
            raise UsageError(_('{name}: no such directory{hint}').format(name=name, hint=hint)) from None
        return Destination(name, _new_file(name, path), False)
    except OSError as e:
        raise UsageError(_('{name}: cannot write: {value}').format(name=name, value=reason(e))) from None
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(_('{name}: is a directory{hint}').format(name=name, hint=hint))
    if stat.S_ISBLK(info.st_mode):            # a disk or a partition: never written over
        raise UsageError(_('{name}: is a block device (a disk or a partition): guji writes only to files, character devices, named pipes and sockets').format(name=name))
    if not stat.S_ISREG(info.st_mode):
        return Destination(name, path, True)      # a device, FIFO or socket: written directly
    if not os.access(path, os.W_OK):
        raise UsageError(_('{name}: cannot write: {value}').format(name=name, value=_why_not_writable(path)))
    return Destination(name, Path(os.path.realpath(path)), False)


def _why_not_writable(path: Path) -> str:
    """Why an existing file cannot be written: its file system, or its permissions."""
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return reason(OSError(errno.EROFS, ""))
    except (OSError, AttributeError):          # AttributeError: no statvfs (Windows)
        pass
    return reason(OSError(errno.EACCES, ""))


def _new_file(name: str, path: Path) -> Path:
    """The file to create for the new name *path* (a dangling symbolic link:
    the file it points to); its folder must exist."""
    real = Path(os.path.realpath(path))
    parent = real.parent
    if not parent.is_dir():
        if path.is_symlink():                  # a link into a folder that is not there
            raise UsageError(_('{name}: a link to {value}, in no such directory {value2}').format(name=name, value=repr(escape_controls(os.readlink(path))), value2=repr(escape_controls(str(parent)))))
        shown = path.parent if str(path.parent) else Path(".")
        raise UsageError(_('{name}: no such directory {value}').format(name=name, value=repr(str(shown))))
    return real


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Output(os.PathLike):
    """What :func:`writing` gives a writer: a path to open (``os.fspath``) or
    a file to write (:meth:`open`), written once, from start to end.

    For a streamed destination (:attr:`streamed`) nothing may seek back or
    open the file twice. The file :meth:`open` returns is closed (or, for
    standard output and file objects, flushed) by :func:`writing`.
    """

    def __init__(self, where: Destination, path: str | None):
        self.destination = where
        self.name = where.name
        self.streamed = where.streamed
        self._path = path
        self._file: BinaryIO | None = None
        self._owned = True

    def __fspath__(self) -> str:
        if self._path is None:
            raise TypeError(f"{self.name} has no path: use Output.open()")
        return self._path

    def __repr__(self) -> str:
        return f"Output({self.name!r}, streamed={self.streamed})"

    def open(self) -> BinaryIO:
        """The destination opened for writing, in binary (one file, opened once)."""
        if self._file is None:
            self._owned = True
            if self.destination.file is not None:
                self._file, self._owned = self.destination.file, False
            elif self._path is None:
                self._file, self._owned = _standard_output()
            elif self.streamed:            # a device or FIFO: never created, never truncated
                self._file = open(os.open(self._path, _STREAM_FLAGS), "wb")
            else:
                self._file = _open_fresh(self._path)
        return self._file

    def _close(self) -> None:
        f, self._file = self._file, None
        if f is None:
            return
        if self._owned:
            f.close()
        else:
            f.flush()


def _open_fresh(path: str) -> BinaryIO:
    """*path* (guji's new, empty temporary file) opened for writing, not
    truncated: on ext4 a file truncated to nothing is flushed to disk when it
    is closed (``auto_da_alloc``), which cost a stopped 300 MB render 0.3 s
    and every render a flush. A file that is not empty is truncated."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    try:
        if os.fstat(fd).st_size:
            os.ftruncate(fd, 0)
        return open(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def _standard_output() -> tuple[BinaryIO, bool]:
    """Standard output for binary data, and whether it is ours to close: a
    duplicate of its descriptor, or (where it has none: a test's capture)
    its binary buffer."""
    sys.stdout.flush()
    try:
        return open(os.dup(sys.stdout.fileno()), "wb"), True
    except (AttributeError, OSError, ValueError):
        return sys.stdout.buffer, False


@contextmanager
def writing(where, *, hint: str = "", errors: tuple = (), binary: bool = True
            ) -> Iterator[Output]:
    """Write *where* (a path, ``-`` for standard output, or a binary file
    object) as :func:`destination` decides; yield the :class:`Output` to
    write.

    A failure of the file system (``OSError``, or one of *errors*) becomes
    one :class:`UsageError` line naming *where* and the cause (:func:`reason`);
    the reader of standard output going away stays a :class:`BrokenPipeError`.
    """
    where_to = destination(where, hint=hint, binary=binary)
    out = None
    try:
        if where_to.streamed:
            out = Output(where_to, None if where_to.path is None else str(where_to.path))
            try:
                yield out
            finally:
                out._close()
        else:
            with atomic_path(where_to.path) as tmp:
                out = Output(where_to, tmp)
                try:
                    yield out
                finally:
                    out._close()
    except (OSError, *errors) as e:
        if isinstance(e, BrokenPipeError) and where_to.path is None:
            raise                     # standard output's reader went away: not an error here
        raise cannot_write(where_to.name, e, out._path if out is not None else None) from None


def cannot_write(name: str, error: BaseException, temporary_path: str | None = None
                 ) -> UsageError:
    """The one line for *error* met writing *name*: *name* as the user gave it
    (:func:`guji.temporary.shown`), and the cause in words (:func:`reason`), the
    *temporary_path* a library's words may hold named *name* too."""
    name = temporary.shown(name)
    why = reason(error)
    if temporary_path:
        why = why.replace(temporary_path, name)
    return UsageError(_('{name}: cannot write: {value}').format(name=name, value=why))


def make_folder(path: str | os.PathLike, *, parents: bool = False) -> tuple[Path, bool]:
    """*path* as a folder to write files into, made if missing (its parent
    must exist, unless *parents*: then missing folders above it are made
    too); return it and whether it was made. :class:`UsageError` (one line)
    if it is something else, or cannot be made."""
    folder = Path(path)
    name = os.fspath(path) or "."
    if os.path.isdir(folder):            # os.path: False for a name too long, not OSError
        return folder, False
    if os.path.lexists(folder):
        raise UsageError(_('{name}: exists and is not a directory').format(name=name))
    parent = folder.parent if str(folder.parent) else Path(".")
    if not parents and not os.path.isdir(parent):
        raise UsageError(_('{name}: no such directory {value}').format(name=name, value=repr(str(parent))))
    try:
        folder.mkdir(parents=parents)
    except OSError as e:
        raise UsageError(_('{name}: cannot make the folder: {value}').format(name=name, value=reason(e))) from None
    return folder, True


def check_target(path: str | os.PathLike, hint: str = "") -> Destination:
    """Check that *path* can be written (see :func:`destination`), before any work."""
    return destination(path, hint=hint)

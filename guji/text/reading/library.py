"""A whole library scanned: folders walked, files read in parallel processes.

:func:`walk` goes through files and folders (recursively, sorted, one
folder's listing at a time: never a list of the whole library), with
``--include``/``--exclude`` globs; hidden files and folders (a name starting
with ``.``) are skipped and said. :func:`scan_files` reads each file as
``guji scan FILE`` would (:func:`guji.text.reading.encoding.decode`, the limits of
:mod:`guji.limits`) with the prefilter (:func:`guji.text.reading.prefilter.prefiltered_scan`),
skips binary files (a NUL byte in the first 8 KiB), and yields one
:class:`FileScan` per file, in order, as soon as it is done, from
``jobs`` worker processes fed a few files at a time (at most a few batches
in flight, so memory stays bounded whatever the library's size), killed at
once if guji is stopped (:func:`guji.processes.worker_pool`).
"""

from __future__ import annotations

import codecs
import fnmatch
import os
import stat
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from ...i18n import _, ngettext
from ...errors import EncodingError, GujiError
from ...files import reason
from ...limits import Limits, current, using
from .cost import check_reading
from .encoding import open_text_file, read_open, read_text

#: Bytes looked at for a NUL that marks a binary file.
BINARY_PROBE = 8192
#: A batch sent to a worker: at most this many files, or about this many bytes.
BATCH_FILES, BATCH_BYTES = 64, 4 << 20
_WIDE_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_BE)
#: Bytes of a big file read (and decoded) at a time.
CHUNK = 8 << 20
#: Files over this many bytes (UTF-8) are scanned a chunk at a time, never held whole.
BIG_FILE = 32 << 20


@dataclass(frozen=True)
class Skipped:
    """A path :func:`walk` did not scan, and why (``hidden``, ``excluded``, ``not found``…)."""

    path: str
    why: str


@dataclass(frozen=True)
class FileScan:
    """What scanning one file of a library found (all of it plain data, to
    cross between processes): the patterns' JSON (:meth:`Pattern.to_json
    <guji.text.reading.notation.Pattern.to_json>`), the notices' lines, or the one
    error that stopped the file; ``skipped`` for a binary file."""

    path: str
    size: int = 0
    encoding: str | None = None
    patterns: list = field(default_factory=list)
    notices: list = field(default_factory=list)
    lines: list = field(default_factory=list)    #: each pattern's display line (see scan)
    error: str | None = None
    skipped: str | None = None

    def to_json(self) -> dict:
        out = {"file": self.path, "bytes": self.size, "encoding": self.encoding,
               "patterns": self.patterns, "notices": self.notices}
        if self.error is not None:
            out["error"] = self.error
        return out


def walk(paths: Sequence[str], include: Sequence[str] = (), exclude: Sequence[str] = ()
         ) -> Iterator[str | Skipped]:
    """Every file under *paths* (files as given, folders recursively, each
    folder's entries sorted by name), or a :class:`Skipped` for what is not
    scanned. A file found in a folder is scanned when its name or its path
    below the folder matches one of *include* (all files if none) and none
    of *exclude*; *exclude* matching a folder skips it whole."""
    for top in paths:
        if top == "-" or not os.path.isdir(top):
            yield top
            continue
        yield from _folder(top, "", include, exclude)


def _folder(top: str, rel: str, include, exclude, above: frozenset = frozenset()
            ) -> Iterator[str | Skipped]:
    """The files of one folder; *above*: the (device, inode) of the folders
    it is in, so a link back to one of them (a loop) is skipped, not walked
    until the path is too long."""
    here = os.path.join(top, rel) if rel else top
    try:
        info = os.stat(here)
        with os.scandir(here) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as e:
        yield Skipped(here, f"cannot read the folder: {reason(e)}")
        return
    above = above | {(info.st_dev, info.st_ino)}
    for entry in entries:
        sub = f"{rel}/{entry.name}" if rel else entry.name
        path = os.path.join(here, entry.name)
        if entry.name.startswith("."):
            yield Skipped(path, "hidden")
            continue
        if _matches(entry.name, sub, exclude):
            yield Skipped(path, "excluded")
            continue
        try:
            folder = entry.is_dir() and (entry.stat().st_dev, entry.stat().st_ino)
            regular = not folder and entry.is_file()
        except OSError as e:                     # a loop of links
            yield Skipped(path, f"cannot read: {reason(e)}")
            continue
        if folder in above:
            yield Skipped(path, "a link to a folder it is in (a loop)")
        elif folder:
            yield from _folder(top, sub, include, exclude, above)
        elif not regular:
            yield Skipped(path, "not a regular file")
        elif include and not _matches(entry.name, sub, include):
            yield Skipped(path, "not included")
        else:
            yield path


def _matches(name: str, rel: str, globs) -> bool:
    return any(fnmatch.fnmatchcase(name, g) or fnmatch.fnmatchcase(rel, g) for g in globs)


def scan_file(path: str, encoding: str | None = None, labels: str = "auto") -> FileScan:
    """One file of a library, read as ``guji scan FILE`` reads it (errors kept, not raised)."""
    return scan_many([path], encoding, labels)[0]


def scan_many(paths: list[str], encoding: str | None = None, labels: str = "auto",
              read_bracketed: bool = False) -> list[FileScan]:
    """:func:`scan_file` of each of *paths*, the prefilter mapping their texts
    at once (with *read_bracketed*, patterns inside notes read: each text whole)."""
    from .prefilter import prefiltered_scan, windows_of_each
    read: list = []
    big: dict[str, FileScan] = {}
    for path in paths:
        try:
            done = None if read_bracketed else scan_big_file(path, encoding, labels)
            if done is not None:
                result, size = done
                big[path] = FileScan(path, size, "utf-8", [p.to_json() for p in result.patterns],
                                     [str(n) for n in result.notices],
                                     [_line(p) for p in result.patterns])
                continue
            text, used, size = read_lean(path, encoding)
            if text is not None:
                check_reading([(text, 0, len(text))], path)   # before the texts are mapped
            read.append((path, text, used, size, None))
        except GujiError as e:
            read.append((path, None, None, 0, str(e)))
    texts = [r[1] for r in read if r[1] is not None]
    spans = iter(windows_of_each(texts))
    out = []
    for path, text, used, size, error in read:
        while paths and paths[len(out)] in big:
            out.append(big.pop(paths[len(out)]))
        if error is not None:
            out.append(FileScan(path, error=error))
        elif text is None:
            out.append(FileScan(path, size, skipped="binary"))
        else:
            try:
                result = prefiltered_scan(text, path, None, labels, next(spans),  # type: ignore
                                          read_bracketed=read_bracketed)
            except GujiError as e:
                out.append(FileScan(path, size, used, error=str(e)))
                continue
            out.append(FileScan(path, size, used, [p.to_json() for p in result.patterns],
                                [str(n) for n in result.notices],
                                [_line(p) for p in result.patterns]))
    while len(out) < len(paths):
        out.append(big.pop(paths[len(out)]))
    return out


def scan_big_file(path: str, encoding: str | None, labels: str, binary_ok: bool = False,
                  jobs: int = 1):
    """``(scan result, size)`` of a UTF-8 file over :data:`BIG_FILE` bytes,
    scanned a chunk at a time (:mod:`guji.text.reading.bigfile`; its first pass in
    *jobs* processes); None for any other file (small, another encoding, a
    BOM, binary: read whole)."""
    if encoding:
        return None
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size <= BIG_FILE:
            return None
        with open(path, "rb") as f:
            head = f.read(BINARY_PROBE)
    except OSError:
        return None                              # read_lean says why
    if head.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
            not binary_ok and b"\0" in head):
        return None
    most = current().text_bytes
    if info.st_size > most:
        return None                              # read_text refuses it, in its words
    from .bigfile import scan_big
    result = scan_big(path, path, labels, jobs=jobs)
    return None if result is None else (result, info.st_size)


def read_lean(path: str, encoding: str | None = None, binary_ok: bool = False
              ) -> tuple[str | None, str, int]:
    """:func:`guji.text.reading.encoding.read_text` of a regular file (the same text,
    encoding and errors) with less memory: UTF-8 is decoded as it is read,
    a chunk at a time, so the file's bytes are never all held beside its
    text. ``(None, "", size)`` for a binary file (a NUL in its first 8 KiB)
    unless *binary_ok*. Other encodings, BOMs and special files: read_text."""
    most = current().text_bytes
    f = open_text_file(path, path)
    with f:
        try:
            info = os.fstat(f.fileno())
            small = stat.S_ISREG(info.st_mode) and info.st_size <= CHUNK
            data = f.read(info.st_size + 1) if small else b""  # a small file: one read
            head = data[:BINARY_PROBE] if small else f.read(BINARY_PROBE)
        except OSError as e:
            raise EncodingError(_('{path}: cannot read: {value}').format(path=path, value=reason(e))) from None
        if not binary_ok and b"\0" in head and not head.startswith(_WIDE_BOMS):
            return None, "", info.st_size
        if not stat.S_ISREG(info.st_mode):      # a pipe or a device: read on, not again
            text, used = read_open(f, path, encoding, head=head)
            return text, used, info.st_size
        if (encoding or info.st_size > most
                or head.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))):
            text, used = read_text(path, encoding)
            return text, used, info.st_size
        if small and len(data) <= info.st_size:         # read whole: decode once
            try:
                return data.decode("utf-8"), "utf-8", len(data)
            except UnicodeDecodeError:
                text, used = read_text(path, encoding)
                return text, used, len(data)
        pieces, decoder = [], codecs.getincrementaldecoder("utf-8")()
        try:
            pieces.append(decoder.decode(data if small else head))
            while chunk := f.read(CHUNK):
                pieces.append(decoder.decode(chunk))
            pieces.append(decoder.decode(b"", final=True))
        except UnicodeDecodeError:
            del pieces
            text, used = read_text(path, encoding)      # GB18030 or Big5, decided on the whole
            return text, used, info.st_size
        except OSError as e:
            raise EncodingError(_('{path}: cannot read: {value}').format(path=path, value=reason(e))) from None
    text = "".join(pieces)
    return text, "utf-8", info.st_size


def _line(p) -> list[str]:
    """The lines ``guji scan`` prints for pattern *p*."""
    out = [f"  {p.tradition.slug}:{p.diagram}  {p.tradition.label}  "
           f"{p.location.line}:{p.location.column}  {p.notation()}"]
    for v in p.variants:        # every note of the witness cited, with its place
        cited = _("; ").join(_("{note} at {place}").format(note=n.text.replace(chr(10), '⏎'),
                                                          place=n.location) for n in v.notes)
        out.append(f"    ~{v.witness}  {v.notation()}  " + ngettext(
            "(note {cited})", "(notes {cited})", len(v.notes)).format(cited=cited))
    for n in p.unread:
        out.append("    " + _("note {note} at {place}: not read").format(
            note=n.text.replace(chr(10), '⏎'), place=n.location))
    return out


def _batch(paths: list[str], encoding, labels, limits: Limits, read_bracketed: bool = False
           ) -> list[FileScan]:
    with using(limits):
        return scan_many(paths, encoding, labels, read_bracketed)


def scan_files(paths: Iterable[str], encoding: str | None = None, labels: str = "auto",
               jobs: int | None = None, read_bracketed: bool = False) -> Iterator[FileScan]:
    """:func:`scan_file` of each of *paths*, in order, from *jobs* processes
    (default: one a core; 1: this process); *read_bracketed* as ``guji scan
    --read-bracketed``."""
    for batch in scan_batches(paths, encoding, labels, jobs, read_bracketed):
        yield from batch


def scan_batches(paths: Iterable[str], encoding: str | None = None, labels: str = "auto",
                 jobs: int | None = None, read_bracketed: bool = False) -> Iterator[list[FileScan]]:
    """:func:`scan_files`, the files done together (a batch) in one list at a time."""
    jobs = jobs or os.cpu_count() or 1
    limits = current()
    from .slicemap import roomy_heap
    roomy_heap()                                         # (before the workers fork: theirs too)
    if jobs == 1:
        for batch in _batches(paths):
            yield scan_many(batch, encoding, labels, read_bracketed)
        return
    from ...processes import worker_pool                 # here: the command line starts
    from . import prefilter  # noqa: F401  (imported once, before the workers fork)
    with worker_pool(jobs) as pool:        # a stop kills the workers: never joined busy
        pending: deque = deque()
        for batch in _batches(paths):
            pending.append(pool.submit(_batch, batch, encoding, labels, limits, read_bracketed))
            while len(pending) > 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _batches(paths: Iterable[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path in paths:
        try:
            size += os.path.getsize(path) if path != "-" else 0
        except OSError:
            pass
        batch.append(path)
        if len(batch) >= BATCH_FILES or size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch

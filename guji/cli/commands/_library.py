"""What ``guji scan`` and ``guji collate`` share for folders: options, the
walk, the parallel scan, progress on a terminal, what was skipped."""

from __future__ import annotations

import argparse
import os
import sys
import time

from ...i18n import N_, _
from ...errors import UsageError, escape_controls
from ...limits import size_text
from ...text.reading.library import FileScan, Skipped, scan_batches, walk
from ..terminal import unescaped
from ._common import checked


def add_library_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--include", action="append", default=[], metavar="GLOB",
                        help=_("in folders, scan only files whose name or path below the folder "
                             "matches GLOB (e.g. '*.txt'; may be repeated)"))
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help=_("in folders, skip files and folders whose name or path matches "
                             "GLOB (may be repeated)"))
    parser.add_argument("--jobs", type=checked(_jobs, int, N_("a whole number")), default=None, metavar="N",
                        help=_("processes scanning a library (default: one a core); for one big "
                             "file, processes mapping it (default 1: less memory)"))


def _jobs(n: int) -> int:
    if not 1 <= n <= 256:
        raise UsageError(_('{n} processes: give 1 to 256').format(n=n))
    return n


def is_library(paths: list[str]) -> bool:
    """More than one path, or a folder: a library (else one file, read as before)."""
    if "-" in paths and len(paths) > 1:
        raise UsageError(_('- (standard input) cannot be scanned with other paths'))
    return len(paths) > 1 or (paths[0] != "-" and os.path.isdir(paths[0]))


class Tally:
    """Counts of a library scan, and the progress line drawn on a terminal."""

    def __init__(self, stream=None):
        self.files = self.bytes = self.patterns = self.with_patterns = self.failed = 0
        self.skipped: dict[str, list[str]] = {}
        self.started = time.monotonic()
        self._drawn = 0.0
        self.stream = unescaped(stream if stream is not None else sys.stderr)
        try:
            self.live = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self.live = False

    def skip(self, item: Skipped) -> None:
        self.skipped.setdefault(item.why, []).append(item.path)
        if item.why not in ("hidden", "excluded", "not included"):
            self._say(f"guji: {item.path}: skipped: {item.why}")

    def add(self, done: FileScan) -> None:
        if done.skipped:
            self.skip(Skipped(done.path, f"{done.skipped} file"))
            return
        self.files += 1
        self.bytes += done.size
        self.patterns += len(done.patterns)
        self.with_patterns += bool(done.patterns)
        self.failed += done.error is not None
        now = time.monotonic()
        if self.live and now - self._drawn >= 0.1:
            self._drawn = now
            self.stream.write(f"\rguji: {self.files:,} files, {size_text(self.bytes)}, "
                              f"{self.patterns:,} patterns\x1b[K")
            self.stream.flush()

    def _say(self, line: str) -> None:
        if self.live and self._drawn:
            self.stream.write("\r\x1b[K")
        print(escape_controls(line), file=sys.stderr)

    def close(self) -> None:
        if self.live and self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        quiet = {why: paths for why, paths in self.skipped.items()
                 if why in ("hidden", "excluded", "not included")}
        for why, paths in quiet.items():
            shown = ", ".join(paths[:3]) + (" …" if len(paths) > 3 else "")
            print(escape_controls(f"guji: skipped {len(paths):,} {why} "
                                  f"{'path' if len(paths) == 1 else 'paths'}: {shown}"),
                  file=sys.stderr)

    def summary(self) -> str:
        took = time.monotonic() - self.started
        return (f"{_count(self.files, 'file')}, {size_text(self.bytes)}: "
                f"{_count(self.patterns, 'pattern')} in {_count(self.with_patterns, 'file')} "
                f"({took:.1f} s)" + (f"; {self.failed:,} with errors" if self.failed else ""))


def _count(n: int, word: str) -> str:
    """``1 file``, ``3,970 files``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def library_scans(args, tally: Tally):
    """Each file of the paths in *args* scanned (:class:`FileScan`), in order;
    what is skipped is counted and said on *tally*."""
    for batch in library_batches(args, tally):
        yield from batch


def library_batches(args, tally: Tally):
    """:func:`library_scans`, the files done together in one list at a time."""
    def files():
        for item in walk(args.paths, args.include, args.exclude):
            if isinstance(item, Skipped):
                tally.skip(item)
            else:
                yield item
    for batch in scan_batches(files(), args.encoding, args.labels, args.jobs,
                              getattr(args, "read_bracketed", False)):
        done = []
        for scanned in batch:
            tally.add(scanned)
            if not scanned.skipped:
                done.append(scanned)
        yield done

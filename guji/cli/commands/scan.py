"""``guji scan PATH…``: find the drum diagrams in any text, or in a whole library."""

from __future__ import annotations

import json
import sys

from ...i18n import _, ngettext
from ...text.reading.encoding import read_text
from ...text.reading.library import _line, read_lean, scan_big_file
from ._common import add_input_options, add_json_option, print_json
from ._library import Tally, add_library_options, is_library, library_batches


def register(sub) -> None:
    p = sub.add_parser("scan", help=_("find the drum patterns in text files and folders"),
                       description=_("Find the drum diagrams in a text file (a chapter, a web "
                                     "page's text, notes), skipping the prose around them; or in "
                                     "every file of folders (a library: recursively, in parallel; "
                                     "hidden and binary files skipped). Warnings go to stderr."),
                       epilog=_("Examples: guji scan chapter.txt; guji scan kanripo/ --include "
                                "'*.txt' --json"))
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help=_("a text file, - for standard input, or folders and files"))
    add_input_options(p)
    add_library_options(p)
    p.add_argument("--read-bracketed", action="store_true",
                   help=_("read a pattern standing inside a note's brackets ( ) （ ） 【 】 (a quoted "
                          "diagram, or a stray bracket) as a pattern; without it such a pattern "
                          "is named in a warning and not read"))
    add_json_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ...text.reading.prefilter import prefiltered_scan   # numpy: not for guji --help
    if is_library(args.paths):
        return _library(args)
    path = args.paths[0]
    name = "<stdin>" if path == "-" else path
    jobs = args.jobs or 1          # a big file's first pass in N processes only if asked: memory
    big = None if path == "-" or args.read_bracketed else scan_big_file(path, args.encoding, args.labels, True, jobs)
    if big is not None:
        result, encoding = big[0], "utf-8"
    else:
        if path == "-":
            text, encoding = read_text(path, args.encoding)
        else:
            text, encoding, _binary = read_lean(path, args.encoding, binary_ok=True)
        result = prefiltered_scan(text, filename=name, labels=args.labels,
                                  read_bracketed=args.read_bracketed)
    for notice in result.notices:
        print(_("guji: {message}").format(message=notice), file=sys.stderr)
    if args.json:
        print_json([p.to_json() for p in result.patterns])
        return 0
    if not result.patterns:
        print(_("{file}: no drum patterns found ({encoding})").format(file=name, encoding=encoding))
        return 0
    n = len(result.patterns)
    print(ngettext("{file}: {n} pattern ({encoding})", "{file}: {n} patterns ({encoding})", n).format(
        file=name, n=n, encoding=encoding))
    for p in result.patterns:
        print("\n".join(_line(p)))
    return 0


def _library(args) -> int:
    """Every file of a library: the files with patterns listed (or one JSON
    object a file, written as each batch of files is done), errors said, a
    summary at the end."""
    tally = Tally()
    try:
        for batch in library_batches(args, tally):
            for done in batch:
                _one_of_library(done, args.json)
            if args.json:
                sys.stdout.flush()                 # (the batch's files were done together)
    finally:
        tally.close()
    if not args.json:
        print(tally.summary())
    return 2 if tally.failed else 0


def _one_of_library(done, as_json: bool) -> None:
    for notice in done.notices:
        print(_("guji: {message}").format(message=notice), file=sys.stderr)
    if done.error:
        print(_("guji: {message}").format(message=done.error), file=sys.stderr)
    if as_json:
        sys.stdout.write(json.dumps(done.to_json(), ensure_ascii=False) + "\n")
    elif done.patterns:
        n = len(done.patterns)
        print(ngettext("{file}: {n} pattern ({encoding})", "{file}: {n} patterns ({encoding})",
                       n).format(file=done.path, n=n, encoding=done.encoding))
        for lines in done.lines:
            print("\n".join(lines))

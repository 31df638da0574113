"""``guji edition [ID…] -o FILE.mei``: a critical edition of the patterns, as MEI."""

from __future__ import annotations

import argparse
import os
import sys

from ...i18n import _, ngettext
from ...errors import UsageError
from ._common import add_input_options
from .collate import add_base_option


def register(sub) -> None:
    p = sub.add_parser("edition", help=_("write a critical edition of the patterns as MEI"),
                       description=_("Write one MEI 4.0.1 document (Music Encoding Initiative) "
                                   "of the chosen patterns across the witnesses: the base "
                                   "reading as <lem>, an <app> at every place where a witness "
                                   "differs, one <rdg source> per distinct reading, a <source> "
                                   "per witness with its bibliographic description, the "
                                   "variant notes and the count claims as <annot>. verovio "
                                   "engraves it and plays any reading; guji plays them too: "
                                   "guji midi 'lu:1@FILE.mei~wuli-tongkao'."),
                       epilog=_("Examples: guji edition -o tuohu.mei; guji edition lu:1 xue:1 "
                              "-o diagram1.mei; guji edition lu@mine.txt --base mine -o e.mei; "
                              "guji edition mine.txt -o e.mei; guji edition --only lu@a.txt lu@b.txt "
                              "-o ab.mei"))
    p.add_argument("ids", nargs="*", metavar="ID",
                   help=_("patterns (lu, xue:2 …; default all four), each optionally with an "
                        "edition or text file to collate too (lu:1@mine.txt); a text file "
                        "alone is collated for every pattern it has (as guji collate FILE)"))
    p.add_argument("-o", "--output", required=True, metavar="FILE.mei",
                   help=_("the MEI file to write ('-': standard output)"))
    p.add_argument("--only", action="store_true",
                   help=_("collate only the editions and files the ids name, not every shipped "
                        "edition"))
    add_base_option(p)
    add_input_options(p)
    p.set_defaults(func=run)


def _chosen(ids: list[str]) -> tuple[set, list[str], list[str]]:
    """The patterns the ids choose, and the shipped editions and files they name."""
    from ...text.reading.editions import PatternId     # not for guji --help
    patterns, shipped, files = set(), [], []
    for raw in ids:
        if "@" not in raw and os.path.isfile(raw):       # a text file: every pattern it has
            if raw not in files:
                files.append(raw)
            continue
        pid = PatternId.parse(raw)
        if pid.witness is not None:
            raise UsageError(_('{raw}: guji edition takes patterns and editions, not one witness: every witness of the notes is in the edition').format(raw=raw))
        patterns.add((pid.tradition, pid.diagram))
        if "@" in raw:
            named = files if pid.is_file else shipped
            if pid.source not in named:
                named.append(pid.source)
    return patterns, shipped, files


def run(args: argparse.Namespace) -> int:
    from ...edition.mei import to_mei
    from ...files import check_target, writing
    from ...text.collation.collate import collate
    from ...text.collation.corpus import file_text, shipped_text, texts
    if args.output != "-" and not args.output.lower().endswith(".mei"):
        raise UsageError(_('{output}: an MEI edition is written to a .mei file (guji reads its readings back by that extension)').format(output=args.output))
    patterns, shipped, files = _chosen(args.ids)
    if args.only and not (shipped or files):
        raise UsageError(_('--only collates the editions and files the ids name (lu@wuli-tongkao, lu@mine.txt): name at least one'))
    check_target(args.output)                               # before the work
    if args.only:
        corpus = [shipped_text(s) for s in shipped] + [
            file_text(f, args.encoding, args.labels) for f in files]
    else:
        corpus = texts(files, False, args.encoding, args.labels)
    for text in corpus:
        for notice in text.notices:
            print(_('guji: {notice}').format(notice=notice), file=sys.stderr)
    results = [c for c in collate(corpus, args.base)
               if not patterns or (c.tradition, c.diagram) in patterns]
    if not results:
        raise UsageError(_('none of the texts has the patterns asked for'))
    data = to_mei(results).encode("utf-8")
    with writing(args.output) as out:
        out.open().write(data)
    apps = sum(len(c.variants) for c in results)
    sources = len({n for c in results for n in c.readings})
    print(_('wrote {output}: {patterns}, {sources} sources, {places} of variation (<app>)').format(output=args.output, patterns=ngettext('{n} pattern', '{n} patterns', len(results)).format(n=len(results)), sources=sources, places=ngettext('{n} place', '{n} places', apps).format(n=apps)),
          file=sys.stderr if args.output == "-" else sys.stdout)
    return 0

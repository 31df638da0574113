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
                   help=_("the MEI file to write ('-': standard output); a .tei.xml name "
                        "(or --tei) writes the textual apparatus as TEI P5"))
    p.add_argument("--tei", action="store_true",
                   help=_("write TEI P5: the witnesses, the passage in parallel segmentation "
                        "(<app><lem><rdg>), the variant notes and count claims as <note>"))
    p.add_argument("--editor", metavar="NAME",
                   help=_("the editor who signs the edition (its respStmt and pubStmt)"))
    p.add_argument("--licence", metavar="SPDX-ID",
                   help=_("the edition's licence, an SPDX id (CC-BY-4.0, CC0-1.0 …)"))
    p.add_argument("--title", metavar="TEXT", help=_("the edition's title"))
    p.add_argument("--project", metavar="FILE",
                   help=_("a TOML of title, editor, licence and the texts' [addresses] "
                        "(default: guji-edition.toml in the current folder, if there is one)"))
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


def _addressed(corpus, addresses: dict) -> list:
    """The texts, each with the address the project gives it (by its name)."""
    from dataclasses import replace
    return [replace(t, bibl=replace(t.bibl, address=addresses[t.name]))
            if t.name in addresses else t for t in corpus]


def _is_tei(args: argparse.Namespace) -> bool:
    """Whether the edition is TEI (--tei, or a .tei.xml name); :class:`UsageError`
    for a name that is neither MEI's .mei nor TEI's .xml."""
    name = args.output.lower()
    tei = args.tei or name.endswith(".tei.xml")
    if tei and args.output != "-" and not name.endswith(".xml"):
        raise UsageError(_('{output}: a TEI edition is written to an .xml file (FILE.tei.xml)').format(output=args.output))
    if not tei and args.output != "-" and not name.endswith(".mei"):
        raise UsageError(_('{output}: an MEI edition is written to a .mei file (guji reads its readings back by that extension)').format(output=args.output))
    return tei


def _absent(corpus, results) -> list:
    """The texts with no reading of the patterns edited, each said on stderr."""
    read = {n for c in results for n in c.readings}
    out = [t for t in corpus if t.name not in read]
    for t in out:
        print(_('guji: {text} holds no diagram of the patterns edited: recorded in the edition as a source without one').format(text=t.path or t.name), file=sys.stderr)
    return out


def run(args: argparse.Namespace) -> int:
    from ...edition.header import header_of
    from ...edition.mei import to_mei
    from ...edition.tei import to_tei
    from ...files import check_target, writing
    from ...text.collation.collate import collate
    from ...text.collation.corpus import file_text, shipped_text, texts
    tei = _is_tei(args)
    header = header_of(args.title, args.editor, args.licence, args.project)
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
    corpus = _addressed(corpus, header.addresses)
    results = [c for c in collate(corpus, args.base)
               if not patterns or (c.tradition, c.diagram) in patterns]
    if not results:
        raise UsageError(_('none of the texts has the patterns asked for'))
    absent = _absent(corpus, results)
    data = (to_tei if tei else to_mei)(results, header, absent).encode("utf-8")
    with writing(args.output) as out:
        out.open().write(data)
    apps = sum(len(c.variants) for c in results)
    sources = len({n for c in results for n in c.readings})
    print(_('wrote {output}: {patterns}, {sources} sources, {places} of variation (<app>)').format(output=args.output, patterns=ngettext('{n} pattern', '{n} patterns', len(results)).format(n=len(results)), sources=sources, places=ngettext('{n} place', '{n} places', apps).format(n=apps)),
          file=sys.stderr if args.output == "-" else sys.stdout)
    return 0

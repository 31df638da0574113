"""``guji collate [FILE…]``: every edition's reading of each pattern, aligned, grouped, checked."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ...i18n import _, ngettext
from ...errors import UsageError, display_width
from ...text.reading.notation import HALF
from ._common import add_input_options, add_json_option, print_json
from ._library import Tally, add_library_options, library_scans

if TYPE_CHECKING:
    from ...text.collation.collate import Collation

GAP = "·"        # same (ambiguous) width class as ○ and □, so columns line up
DIFF = "↑"
HALF_GAP = "\u3000"   # as wide as 半


def register(sub) -> None:
    p = sub.add_parser("collate", help=_("align, group and check every edition's reading of "
                                       "each pattern"),
                       description=_("Collate the four patterns over the shipped editions and "
                                   "any text files given (each file an edition named by its "
                                   "file's stem; in folders, every file holding patterns): the readings aligned stroke by stroke, with "
                                   "the witnesses of their variant notes as readings of their "
                                   "own (yishu~一本); the agreement groups (who shares which "
                                   "whole reading, largest first, the others' differences in "
                                   "words); and every reading's counts of 鼙 and 鼓 held "
                                   "against every count claim any of the texts states "
                                   "(徐伯鲁's, in 礼经本义, among them)."),
                       epilog=_("Examples: guji collate; guji collate yishu.txt jishuo.txt; "
                              "guji collate --only a.txt b.txt --json"))
    p.add_argument("files", nargs="*", metavar="PATH",
                   help=_("text files to collate, each an edition named by its file's stem; "
                        "or folders: every file in them holding patterns (a library scan)"))
    p.add_argument("--only", action="store_true",
                   help=_("collate only the files given, not the shipped editions"))
    add_base_option(p)
    p.add_argument("--format", choices=("text", "json", "csv", "tsv"), default="text",
                   help=_("text (default); json (as --json: every reading with its id, locus and "
                        "notes); csv or tsv: the apparatus, one row per place of variation"))
    add_input_options(p)
    add_library_options(p)
    add_json_option(p)
    p.set_defaults(func=run)


def add_base_option(p) -> None:
    """--base NAME: the base reading of a collation (guji collate, guji edition)."""
    p.add_argument("--base", metavar="NAME",
                   help=_("the base reading: an edition's slug, a file's stem, or NAME~WITNESS "
                        "(default: the first text's)"))


def run(args) -> int:
    from ...text.collation.collate import collate     # not for guji --help
    from ...text.collation.corpus import texts
    files = args.files
    if any(os.path.isdir(f) for f in files):
        files = _editions_found(args)
    corpus = texts(files, args.only, args.encoding, args.labels)
    for text in corpus:
        for notice in text.notices:
            print(_('guji: {notice}').format(notice=notice), file=sys.stderr)
    results = collate(corpus, args.base)
    read = {n for c in results for n in c.readings}
    for text in corpus:
        if text.name not in read:       # its silence is evidence: said, not dropped
            print(_('guji: {text} holds no diagram of 魯鼓 or 薛鼓: it gives no reading to collate').format(text=text.path or text.name), file=sys.stderr)
    unplaced = [c for t in corpus for c in t.claims if c.diagram is None]
    for c in unplaced:
        print(_('guji: {value}:{location}: warning: count claim {value2} names no diagram and follows no pattern of its score: not checked').format(value=c.filename or c.source, location=c.location, value2=c.claim.text.replace(chr(10), '⏎')), file=sys.stderr)
    if args.json or args.format == "json":
        print_json([c.to_json() for c in results])
        return 0
    if args.format in ("csv", "tsv"):
        from ...edition.table import to_table
        sys.stdout.write(to_table(results, "," if args.format == "csv" else "\t"))
        return 0
    for c in results:
        _print_collation(c)
        print()
    n_variants = sum(len(c.variants) for c in results)
    n_mismatch = sum(len(c.mismatches) for c in results)
    print(_('{n_variants} variant readings, {n_mismatch} count mismatches').format(n_variants=n_variants, n_mismatch=n_mismatch))
    return 0


def _editions_found(args) -> list[str]:
    """The files given, and every file of the folders given that holds a
    pattern (found by a library scan, in parallel; the rest is said)."""
    args.paths = args.files
    tally = Tally()
    found = []
    try:
        for done in library_scans(args, tally):
            if done.error and done.path in args.files:    # named by the user: not skipped
                raise UsageError(done.error)
            if done.error:
                print(_('guji: {error}').format(error=done.error), file=sys.stderr)
            elif done.patterns or done.path in args.files:
                found.append(done.path)
    finally:
        tally.close()
    print(ngettext('guji: {summary}: collating {n:,} file', 'guji: {summary}: collating {n:,} files', len(found)).format(summary=tally.summary(), n=len(found)), file=sys.stderr)
    if not found and args.only:
        raise UsageError(_('no file in the folders given holds a drum pattern'))
    return found


def _print_collation(c: Collation) -> None:
    width = max(display_width(ed) for ed in c.readings)
    half_cols = _half_cols(c)
    print(_('{label}, diagram {diagram}  (base: {base})').format(label=c.tradition.label, diagram=c.diagram, base=c.base))
    for ed, row in c.columns.items():
        cells = [cell or (HALF_GAP if i in half_cols else GAP) for i, cell in enumerate(row)]
        print(f"  {ed}{' ' * (width - display_width(ed))}  {''.join(cells)}")
    if c.variants:
        diff_cols = {v.column + k for v in c.variants for k in range(v.width)}
        marks = [(DIFF if i in diff_cols else (HALF_GAP if i in half_cols else " "))
                 for i in range(len(next(iter(c.columns.values()))))]
        print(f"  {'':<{width}}  {''.join(marks).rstrip()}")
        for v in c.variants:
            print(_('  variant: {value}').format(value=v.describe(c.base)))
    else:
        print(_('  no variant readings'))
    print(_('  agreement:'))
    for n, g in enumerate(c.groups, 1):
        said = (": " + _("; ").join(g.said())) if g.differences else ""
        print(f"    {n}. {', '.join(g.editions)} ({len(g.editions)}){said}")
    _print_claims(c)


def _print_claims(c: Collation) -> None:
    """Each claiming text's counts for this pattern, then the mismatches."""
    from ...text.collation.checked import part_word
    sources: dict[str, list] = {}
    for claim in c.claims:
        sources.setdefault(claim.source, []).append(claim)
    for source, claims in sources.items():
        counts = _(", ").join(f"{part_word(cl.claim.part)} {cl.claim.drum.value} {cl.claim.count}"
                              for cl in claims)
        print(_('  claims of {source} ({location}): {counts}').format(source=source, location=claims[0].location, counts=counts))
        for cl in claims:
            if cl.doubt is not None:
                print(f"    {cl.doubt.said()}")
    for m in c.mismatches:
        print(_('  MISMATCH {value}').format(value=m.describe()))


def _half_cols(c) -> set[int]:
    cols = set()
    for row in c.columns.values():
        cols.update(i for i, cell in enumerate(row) if cell == HALF)
    return cols

"""``guji show ID``: one pattern, its counts and its source."""

from __future__ import annotations

from ...i18n import _, ngettext
from ...text.reading.notation import HALF, Drum, Rite
from ._common import add_input_options, add_json_option, load_patterns, print_json


def register(sub) -> None:
    p = sub.add_parser("show", help=_("show one pattern: strokes, counts, source"),
                       description=_("Show a pattern's strokes with the half (半) marked, the "
                                   "counts of 鼙 (○) and 鼓 (□) for the whole (射禮) and the half "
                                   "(投壺), and where it comes from."))
    p.add_argument("ids", nargs="+", metavar="ID", help=_("pattern id, e.g. lu, xue:2@wuli-tongkao"))
    add_input_options(p)
    add_json_option(p)
    p.set_defaults(func=run)


def source_info(pat) -> dict:
    """Where a pattern comes from, for display and JSON."""
    loc = pat.location
    info = {"file": pat.filename, "line": loc.line, "column": loc.column}
    if pat.edition:
        from ...text.reading.editions import edition     # not for guji --help
        ed = edition(pat.edition)
        seed_line, seed_col = ed.seed_position(loc.line, loc.column)
        info.update(title=ed.title, title_en=ed.title_en, passage=ed.passage, seed=ed.seed,
                    seed_line=seed_line, seed_column=seed_col, volume=ed.volume,
                    digitised=ed.digitised())
    return info


def run(args) -> int:
    pats = load_patterns(args.ids, args)
    if args.json:
        out = [dict(p.to_json(), source=source_info(p)) for p in pats]
        print_json(out[0] if len(out) == 1 else out)
        return 0
    for n, pat in enumerate(pats):
        if n:
            print()
        before = "".join(s.glyph for s in pat.before)
        after = "".join(s.glyph for s in pat.half)
        w, h = pat.counts(Rite.SHE), pat.counts(Rite.TOUHU)
        src = source_info(pat)
        print(_('{id}  {label}, diagram {diagram}').format(id=pat.id, label=pat.tradition.label, diagram=pat.diagram))
        print(f"  {before}{HALF}{after}")
        print(_('  射禮 (whole): {value:>2} strokes  鼙 {value2:>2}  鼓 {value3:>2}').format(value=len(pat.whole), value2=w[Drum.SMALL], value3=w[Drum.BIG]))
        print(_('  投壺 (half):  {value:>2} strokes  鼙 {value2:>2}  鼓 {value3:>2}').format(value=len(pat.half), value2=h[Drum.SMALL], value3=h[Drum.BIG]))
        raw = "".join(s.raw for s in pat.before) + HALF + "".join(s.raw for s in pat.half)
        if raw != f"{before}{HALF}{after}":
            print(_('  as written: {raw}').format(raw=raw))
        if pat.edition:
            from ...text.reading.editions import edition
            ed = edition(pat.edition)
            print(_('  source: {value}').format(value=ed.cite(src['line'], src['column'])))
            print(f"          {src['title_en']}")
            from ...text.reading.editions import said
            d = {k: said(v) for k, v in src["digitised"].items()}
            print(_('  digitised: collection {collection}, commit {commit}; printed edition {printed}').format(**d))
        else:
            print(_('  source: {value} {value2}:{value3}').format(value=src['file'] or '<text>', value2=src['line'], value3=src['column']))
        _print_apparatus(pat)
    return 0


def _print_apparatus(pat) -> None:
    """A witness's notes; a pattern's witnesses and the notes not read."""
    for note in pat.notes:
        print(_('  reading of {witness}, from the note {value} at {location}').format(witness=pat.witness, value=note.text.replace(chr(10), '⏎'), location=note.location))
    for v in pat.variants:
        print(_('  in its notes: {id}  {value}').format(id=v.id, value=v.notation()))
    if pat.unread:
        n = len(pat.unread)
        print(ngettext('  {n} note with strokes not read as a variant (first at {location}; guji scan says why)', '  {n} notes with strokes not read as a variant (first at {location}; guji scan says why)', n).format(n=n, location=pat.unread[0].location))

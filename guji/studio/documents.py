"""What the studio may read: the texts the user named or opened, the shipped editions.

The studio never opens a path a request names. It reads the files named on
its command line when it starts, and the texts the page sends (a file the
user chose in the browser, or pasted text): each is a :class:`Document`
under a key of its own (``file:1``, ``paste:1``) and a name no other open
text has (pasted texts are ``pasted-1.txt``, ``pasted-2.txt`` …; a second
``notes.txt`` opened is ``notes-2.txt``), so that every reading's id
(``lu:1@pasted-2.txt``) names one text, on screen and in the exports; the shipped editions
are ``edition:SLUG``. A reading is named by a *ref*,
``KEY|SCORE:DIAGRAM|WITNESS`` (the witness empty for the text's own
reading): :meth:`Library.pattern` finds it, and nothing else can be named.

What a text holds is read with :func:`guji.text.reading.prefilter.prefiltered_scan`,
exactly as ``guji scan`` reads it (the full scanner on the stretches that can
hold a pattern: :func:`guji.text.reading.scan.scan`'s result, a tenth of its
time on a chapter, so a keystroke's answer is quick): the patterns (marked in the page at their glyphs'
offsets), the variant notes and their witnesses, the warnings, and the
first error with the message the command line prints (:func:`reading_json`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from ..page_words import _
from ..errors import GujiError, NotationError, UsageError
from ..text.reading.editions import editions, scan_edition
from ..text.reading.encoding import decode, read_text
from ..text.reading.notation import Pattern, Tradition
from ..text.reading.parser import ScanResult
from ..text.reading.prefilter import prefiltered_scan


@dataclass(frozen=True)
class Document:
    """One text the studio holds: its *key*, the *name* it is shown and cited by,
    the *text*, the *encoding* it was read in, and what the scan found
    (*result*; ``None`` while it has an error)."""

    key: str
    name: str
    text: str
    encoding: str
    result: ScanResult | None
    error: NotationError | None = None
    on_disk: bool = False     #: named on the command line: the commands can read it there


def read_document(key: str, name: str, text: str, encoding: str = "utf-8",
                  on_disk: bool = False) -> Document:
    """*text* read as guji reads a file called *name*."""
    try:
        return Document(key, name, text, encoding, prefiltered_scan(text, filename=name),
                        on_disk=on_disk)
    except NotationError as e:
        return Document(key, name, text, encoding, None, e, on_disk)


#: The most texts one session holds (each within :attr:`guji.limits.Limits.text_bytes`).
MOST_DOCUMENTS = 64


class Library:
    """The documents of one studio session (thread-safe: one lock)."""

    def __init__(self, paths: list[str] | tuple[str, ...] = ()):
        self._lock = threading.Lock()
        self._docs: dict[str, Document] = {}
        self._names: set[str] = set()        # the names given (each once: an id names one text)
        self._count = 0
        for path in paths:                   # named on the command line: read now
            text, encoding = read_text(path)
            self.add("file", str(path), text, encoding, on_disk=True)

    def add(self, kind: str, name: str | None, text: str, encoding: str = "utf-8",
            on_disk: bool = False) -> Document:
        """A new document of *kind* (``file``, ``paste``); a name the page gives is
        reduced to its last part (never a path) and made unique among the open texts;
        a paste with no name is ``pasted-N.txt``."""
        if not on_disk and name is not None:
            name = _plain_name(name)
        with self._lock:
            if len(self._docs) >= MOST_DOCUMENTS:
                raise UsageError(_("this studio holds {n} texts already: start guji studio "
                                   "again for more").format(n=MOST_DOCUMENTS))
            self._count += 1
            key = f"{kind}:{self._count}"
            if not on_disk:
                name = self._free_name(name)
            else:
                self._names.add(Path(str(name)).name)
        assert name is not None
        doc = read_document(key, name, text, encoding, on_disk)
        with self._lock:
            self._docs[key] = doc
        return doc

    def _free_name(self, name: str | None) -> str:
        """*name*, or ``STEM-2.EXT``, ``STEM-3.EXT`` … if an open text has it already
        (no name: ``pasted-1.txt``, ``pasted-2.txt`` …). Called under the lock."""
        stem, suffix, n = Path(name or "pasted.txt").stem, Path(name or "x.txt").suffix, 1
        candidate = name or f"{stem}-1{suffix}"
        while candidate in self._names:
            n += 1
            candidate = f"{stem}-{n}{suffix}"
        self._names.add(candidate)
        return candidate

    def add_bytes(self, name: str, data: bytes) -> Document:
        """A file the user opened in the page, decoded as guji decodes files."""
        text, encoding = decode(data, None, _plain_name(name))
        return self.add("file", _plain_name(name), text, encoding)

    def update(self, key: str, text: str) -> Document:
        """The document *key* with its text edited (read again)."""
        old = self.get(key)
        # an edited file is no longer the one on disk: its exports write the edit
        doc = read_document(key, old.name, text, old.encoding, old.on_disk and text == old.text)
        with self._lock:
            self._docs[key] = doc
        return doc

    def get(self, key: str) -> Document:
        with self._lock:
            doc = self._docs.get(key)
        if doc is None:
            raise UsageError(_("no text {key!r} is open in this studio").format(key=key))
        return doc

    def documents(self) -> list[Document]:
        with self._lock:
            return list(self._docs.values())

    def pattern(self, ref: str) -> Pattern:
        """The reading *ref* names (see the module); :class:`UsageError` if none."""
        key, sep, rest = ref.partition("|")
        score, sep2, witness = rest.partition("|")
        if not (sep and sep2):
            raise UsageError(_("bad reading {ref!r}: write KEY|SCORE:DIAGRAM|WITNESS").format(
                ref=ref))
        result = self._result(key)
        slug, _colon, diagram = score.partition(":")
        try:
            found = result.find(Tradition.from_name(slug), int(diagram))
        except ValueError:
            found = None
        if found is None:
            raise UsageError(_("{key} has no pattern {score!r}").format(key=key, score=score))
        if not witness:
            return found
        reading = found.variant(witness)
        if reading is None:
            raise UsageError(_("the notes of {id} give no reading of {witness!r}").format(
                id=found.id, witness=witness))
        return reading

    def _result(self, key: str) -> ScanResult:
        if key.startswith("edition:"):
            return scan_edition(key[len("edition:"):])
        doc = self.get(key)
        if doc.result is None:
            raise UsageError(_("{name} has an error: {error}").format(name=doc.name,
                                                                      error=doc.error))
        return doc.result


def _plain_name(name: str) -> str:
    """The last part of a name the browser gives (never a path to follow); a name that
    is no file's (``..``, a control character) is refused."""
    plain = Path(name.replace("\\", "/")).name or "opened.txt"
    if plain in (".", "..") or any(ord(c) < 32 or ord(c) == 127 for c in plain):
        raise UsageError(_("{name!r} is not a file's name").format(name=name))
    return plain


def _unique(notes: list) -> list:
    """The notes in text order, each once (a note may give several witnesses' readings)."""
    seen: dict[int, object] = {}
    for n in notes:
        seen.setdefault(n.location.offset, n)
    return [seen[k] for k in sorted(seen)]


def pattern_json(p: Pattern, key: str) -> dict:
    """A pattern for the page: its id, ref, where its glyphs stand, its notes."""
    strokes = [[s.location.offset, len(s.raw), s.drum.value] for s in p.strokes]
    return {
        "id": p.id, "ref": f"{key}|{p.tradition.slug}:{p.diagram}|", "label": p.tradition.label,
        "short": f"{p.tradition.slug}:{p.diagram}", "notation": p.notation(),
        "line": p.location.line, "column": p.location.column, "strokes": strokes,
        "half": p.half_location.offset,
        "label_at": p.label_location.offset if p.label_location else None,
        "notes": [{"text": n.text, "line": n.location.line, "column": n.location.column,
                   "offset": n.location.offset}
                  for n in _unique([*p.notes, *(n for v in p.variants for n in v.notes)])],
        "variants": [{"witness": v.witness, "id": v.id, "notation": v.notation(),
                      "ref": f"{key}|{p.tradition.slug}:{p.diagram}|{v.witness}"}
                     for v in p.variants],
        "unread": [{**n.to_json(), "offset": n.location.offset} for n in p.unread],
    }


def reading_json(doc: Document, text: bool = False) -> dict:
    """What the page shows of *doc*: patterns, warnings, the error (as the CLI words them);
    with *text*, the text too (the page has it already after an edit)."""
    out = {"key": doc.key, "name": doc.name, "encoding": doc.encoding,
           "text": doc.text if text else None, "patterns": [],
           "notices": [], "error": None}
    if doc.error is not None:
        e = doc.error
        loc = e.location
        out["error"] = {"message": e.message, "headline": e.headline(), "caret": e.caret(ambiguous_wide=True),
                        "line": loc.line if loc else None, "column": loc.column if loc else None,
                        "offset": loc.offset if loc else None}
        return out
    assert doc.result is not None
    out["patterns"] = [pattern_json(p, doc.key) for p in doc.result.patterns]
    out["notices"] = [{"text": str(n), "message": n.message,
                       "line": n.location.line if n.location else None,
                       "column": n.location.column if n.location else None,
                       "offset": n.location.offset if n.location else None}
                      for n in doc.result.notices]
    return out


def editions_json() -> list[dict]:
    """The shipped editions and their readings, for the page's list."""
    out = []
    for e in editions():
        try:
            patterns = scan_edition(e.slug).patterns
        except GujiError:
            continue
        out.append({"key": f"edition:{e.slug}", "slug": e.slug, "title": e.title,
                    "title_en": e.title_en,
                    "patterns": [pattern_json(p, f"edition:{e.slug}") for p in patterns]})
    return out

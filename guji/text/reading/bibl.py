"""Witnesses as a scholar cites them: the bibliographic description of each text.

A critical edition names every witness with a *siglum* and describes it:
title, author or compiler (and how: 撰 compiled, 注 annotated), dynasty or
date, the printed edition (欽定四庫全書本 …), the volume (卷) and chapter the
passage stands in, and the digital source it was read from (collection,
file, commit).

* A shipped edition's description is in ``patterns/editions.toml``
  (``[edition.bibl]``), each field taken from its seed: ``[[edition.evidence]]``
  quotes the seed's very text at its line and column, and a test holds every
  quote against the seed. A field the seed does not state is left out and
  listed in ``unknown`` — never filled in from elsewhere.
* A user's text file is described by its name, and by a small TOML beside it
  (``mynotes.source.toml`` for ``mynotes.txt``: any of the fields of
  :class:`Bibl`), see :func:`file_bibl`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from ...i18n import _, ngettext
from ...errors import UsageError

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["Evidence", "Bibl", "FIELDS", "file_bibl", "sidecar", "cited"]


@dataclass(frozen=True)
class Evidence:
    """Where the source states a field: *text*, exactly as the seed has it at
    *line*, *column* (1-based, columns in characters)."""

    field: str
    line: int
    column: int
    text: str

    def to_json(self) -> dict:
        return {"field": self.field, "line": self.line, "column": self.column, "text": self.text}


@dataclass(frozen=True)
class Bibl:
    """One witness's bibliographic description; ``""`` where not known.

    Attributes
    ----------
    title:
        The work's title, as the source writes it.
    author, responsibility, author_office:
        Who made the work, how (撰, 注 …), and the office the source gives him.
    date:
        Dynasty or date.
    printed:
        The printed edition the digitisation reproduces (欽定四庫全書 …).
    classification:
        Where a catalogue shelves the work (经部,礼类,通礼之属).
    volume, chapter, page:
        Where the passage stands: its 卷, its chapter (篇), the page of the
        digitised file.
    collection, file, commit:
        The digital source: the collection, the file read, its commit.
    address:
        Where a reader finds the text (a URL, a DOI), where the user gives
        one; an edition cites it with the text's SHA-256.
    quoted:
        Commentators the passage quotes (their words are read for the counts).
    unknown:
        The fields the source does not state (left out, not guessed).
    evidence:
        Where the source states each field given (:class:`Evidence`).
    """

    title: str = ""
    author: str = ""
    responsibility: str = ""
    author_office: str = ""
    date: str = ""
    printed: str = ""
    classification: str = ""
    volume: str = ""
    chapter: str = ""
    page: str = ""
    collection: str = ""
    file: str = ""
    commit: str = ""
    address: str = ""
    quoted: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()

    @classmethod
    def from_toml(cls, data: dict, evidence: list | tuple = (), where: str = "") -> "Bibl":
        """A description from a TOML table (*where*: the file, for errors)."""
        known = {f.name for f in fields(cls)} - {"evidence"}
        bad = sorted(set(data) - known)
        if bad:
            raise UsageError(ngettext('{where}: unknown field {bad} (fields: {known})', '{where}: unknown fields {bad} (fields: {known})', len(bad)).format(where=where, bad=', '.join(bad), known=', '.join(sorted(known))))
        values = {}
        for k, v in data.items():
            if k in ("quoted", "unknown"):
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise UsageError(_('{where}: {k} is a list of strings').format(where=where, k=k))
                values[k] = tuple(v)
            elif not isinstance(v, str):
                raise UsageError(_('{where}: {k} is a string, not {name__}').format(where=where, k=k, name__=type(v).__name__))
            else:
                values[k] = v
        return cls(**values, evidence=tuple(Evidence(**e) for e in evidence))

    def given(self) -> dict[str, str]:
        """The text fields given, in the order of :data:`FIELDS`."""
        return {name: getattr(self, name) for name in FIELDS if getattr(self, name)}

    def to_json(self) -> dict:
        return {**self.given(), "quoted": list(self.quoted), "unknown": list(self.unknown),
                "evidence": [e.to_json() for e in self.evidence]}


#: The text fields of a description, in the order a citation gives them.
FIELDS = ("title", "author", "responsibility", "author_office", "date", "printed",
          "classification", "volume", "chapter", "page", "collection", "file", "commit")


def cited(path: str | Path) -> str:
    """A user's file as guji's output names it: the path as given when
    relative, an absolute one relative to the current folder when inside it,
    else the file's name alone. No local absolute path leaves the machine in
    a sheet, a MIDI track name, a page or an edition; the edition adds the
    file's SHA-256 and the address its description gives (``address``)."""
    text = str(path)
    p = Path(text)
    if not p.is_absolute():
        return text
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return p.name


def sidecar(path: str | Path) -> Path:
    """The TOML that describes the text file *path*: ``STEM.source.toml`` beside it."""
    p = Path(path)
    return p.with_name(p.stem + ".source.toml")


def file_bibl(path: str | Path) -> tuple[Bibl, str, str]:
    """A user's text file described: its description, siglum and language.

    Without a :func:`sidecar` TOML: the title is the file's stem, the file its
    name, the rest unknown, siglum the stem, language ``zh``. The TOML may
    give any field of :class:`Bibl` and ``siglum`` and ``lang``; a bad one is
    one :class:`UsageError` line naming the file.
    """
    p = Path(path)
    data: dict = {}
    toml = sidecar(p)
    if toml.is_file():
        try:
            data = tomllib.loads(toml.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise UsageError(_('{toml}: not a TOML description of {name}: {e}').format(toml=toml, name=p.name, e=e)) from None
    siglum = data.pop("siglum", p.stem)
    lang = data.pop("lang", "zh")
    if not isinstance(siglum, str) or not isinstance(lang, str):
        raise UsageError(_('{toml}: siglum and lang are strings').format(toml=toml))
    data.setdefault("title", p.stem)
    data.setdefault("file", p.name)
    if "unknown" not in data:
        data["unknown"] = [f for f in FIELDS if f not in data]
    return Bibl.from_toml(data, where=str(toml)), siglum, lang

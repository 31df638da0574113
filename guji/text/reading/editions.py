"""The shipped editions, pattern ids, and loading patterns by id.

An id names one pattern: ``SCORE[:DIAGRAM][@EDITION][~WITNESS]``.

* SCORE: ``lu``, ``魯`` or ``鲁`` (魯鼓); ``xue`` or ``薛`` (薛鼓). A pattern's
  Chinese name stands for SCORE:DIAGRAM: ``魯鼓後圖`` (``鲁鼓后图``, ``魯鼓二``) is
  ``lu:2``, ``薛鼓前圖`` is ``xue:1``.
* DIAGRAM: 1 or 2 (default 1): the first or second diagram of the chapter.
* EDITION: a shipped edition's slug (``guji list`` shows them; default
  the 禮記正義, ``liji-zhengyi``), its title in either script (``五禮通考``,
  ``五礼通考``), a prefix of one slug only (``wuli``), or the path of a text
  file, which is then scanned (``-``: standard input).
* Full-width ``：＠～`` and digits, as a Chinese input method types them, are
  ``:@~`` and digits (:mod:`guji.text.reading.typing_ids`).
* WITNESS: another witness's reading given in the text's variant notes
  (``(一本作○)``: :mod:`guji.text.apparatus.witnesses`), named as the note names it:
  ``~一本``, ``~宋本``. The witness is what follows the last ``~``, unless that
  holds a path separator or the whole EDITION is an existing file (a file
  name with ``~`` in it); a witness whose name holds ``~`` follows the first
  ``~`` after an edition or an existing file.

Examples: ``lu``, ``xue:2``, ``魯:1@wuli-tongkao``, ``lu:2@mynotes.txt``,
``lu:1@mynotes.txt~一本``.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable
from importlib import resources

from ...i18n import _
from ...errors import UsageError, escape_controls
from .bibl import Bibl, cited
from .notation import Pattern, Tradition
from .parser import Notice, ScanResult
from .scan import scan
from .encoding import read_text
from .typing_ids import as_typed, close_names, edition_named

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class Edition:
    """One shipped edition: a raw passage and where it comes from."""

    slug: str
    title: str
    volume: str           #: where in the work, as the seed writes it: 卷第五十九之二 …
    title_en: str
    description: str
    passage: str          #: file name of the raw passage in guji.patterns
    seed: str             #: the seed file the passage is cut from
    seed_line: int        #: 1-based line of the passage's first character in the seed
    seed_column: int      #: 1-based column of that character
    end_line: int
    end_column: int
    sha256: str
    siglum: str = ""      #: guji's short name for the witness (an editor's choice)
    lang: str = "zh"      #: BCP 47 tag of the passage's writing: zh-Hant, zh-Hans
    bibl: Bibl = Bibl()   #: the witness as a scholar cites it (:mod:`guji.text.reading.bibl`)

    def text(self) -> str:
        """The raw passage, exactly as the source has it."""
        return _resource(self.passage).decode("utf-8")

    def seed_position(self, line: int, column: int) -> tuple[int, int]:
        """Map a (line, column) in the passage to the same place in the seed."""
        if line == 1:
            return self.seed_line, self.seed_column + column - 1
        return self.seed_line + line - 1, column

    def cite(self, line: int | None = None, column: int | None = None) -> str:
        """How a reader finds the passage: ``禮記正義 卷第五十九之二``, with the
        line and column of the digitised text, and its collection
        (``unknown`` where the seed names none), when a place is given."""
        where = f"{self.title} {self.volume}"
        if line is None:
            return where
        sl, sc = self.seed_position(line, column or 1)
        return _("{where}, line {line} column {column} of its digitised text (collection "
                 "{collection})").format(where=where, line=sl, column=sc,
                                         collection=said(self.digitised()["collection"]))

    def digitised(self) -> dict[str, str]:
        """The digitised source as its seed's header gives it: the collection,
        the file, the printed edition it reproduces, the volume (卷 or page) —
        ``unknown`` where the seed does not state it."""
        b = self.bibl
        return {"collection": b.collection or "unknown", "file": self.seed,
                "commit": b.commit or "unknown", "printed": b.printed or "unknown",
                "volume": self.volume}

    def provenance(self) -> str:
        """Where the passage comes from, in words: the work, the place, the lines."""
        return (f"{self.cite()} ({self.title_en}), lines {self.seed_line}–{self.end_line} of "
                f"its digitised text")


def said(value: str) -> str:
    """A field of :meth:`Edition.digitised` as the user's language says it
    (``unknown``: 不詳)."""
    return _("unknown") if value == "unknown" else value


def _resource(name: str) -> bytes:
    return resources.files("guji").joinpath("data", "patterns", name).read_bytes()


@lru_cache(maxsize=None)
def _catalogue() -> tuple[str, tuple[Edition, ...]]:
    data = tomllib.loads(_resource("editions.toml").decode("utf-8"))
    editions = tuple(_edition(dict(e)) for e in data["edition"])
    return data["default"], editions


def _edition(data: dict) -> Edition:
    """One ``[[edition]]`` table of ``editions.toml`` as an :class:`Edition`."""
    bibl = Bibl.from_toml(data.pop("bibl", {}), data.pop("evidence", []),
                          where=f"editions.toml: {data.get('slug')}")
    return Edition(**data, bibl=bibl)


def editions() -> tuple[Edition, ...]:
    """Every shipped edition, the default first."""
    default, eds = _catalogue()
    return tuple(sorted(eds, key=lambda e: e.slug != default))


def default_edition() -> str:
    return _catalogue()[0]


def edition(slug: str) -> Edition:
    """The shipped edition *slug*; :class:`UsageError` if there is none."""
    for e in editions():
        if e.slug == slug:
            return e
    raise UsageError(_("unknown edition {slug}: shipped editions are {editions}").format(
        slug=_q(slug), editions=", ".join(e.slug for e in editions())))


@lru_cache(maxsize=None)
def scan_edition(slug: str) -> ScanResult:
    """The patterns of a shipped edition, derived from its raw passage."""
    ed = edition(slug)
    data = _resource(ed.passage)
    if hashlib.sha256(data).hexdigest() != ed.sha256:
        raise UsageError(_('edition {slug}: passage {passage} does not match its recorded SHA-256 (edited by hand?)').format(slug=slug, passage=ed.passage))
    return scan(data.decode("utf-8"), filename=ed.passage, edition=slug)


def all_patterns() -> tuple[Pattern, ...]:
    """Every pattern of every shipped edition."""
    return tuple(p for e in editions() for p in scan_edition(e.slug).patterns)


@dataclass(frozen=True)
class PatternId:
    """A parsed id: score, diagram, and edition slug or file path."""

    tradition: Tradition
    diagram: int
    source: str   #: edition slug or file path
    is_file: bool
    witness: str | None = None   #: a witness of the text's variant notes

    @classmethod
    def parse(cls, text: str) -> "PatternId":
        """Parse ``SCORE[:DIAGRAM][@EDITION][~WITNESS]``; :class:`UsageError` if malformed."""
        raw = text
        text, witness = _witness_part(as_typed(text))
        if witness == "":
            raise UsageError(_("bad id {value}: nothing after '~' (a witness of the text's notes, e.g. ~一本)").format(value=_q(raw)))
        pid = cls._parse(text, raw)
        return pid if witness is None else replace(pid, witness=witness)

    @classmethod
    def _parse(cls, text: str, raw: str) -> "PatternId":
        """Parse ``SCORE[:DIAGRAM][@EDITION]`` (*raw*: the whole id, for errors)."""
        source = None
        if "@" in text:
            text, source = text.split("@", 1)
            if not source:
                raise UsageError(_("bad id {value}: nothing after '@' (an edition or a file)").format(value=_q(raw)))
        diagram = 1
        if ":" in text:
            text, d = text.split(":", 1)
            if d not in ("1", "2"):
                raise UsageError(_('bad id {value}: the diagram is 1 or 2, not {value2}').format(value=_q(raw), value2=_q(d)))
            diagram = int(d)
        tradition = _score(text, raw)
        if source is None:
            return cls(tradition, diagram, default_edition(), False)
        titles = {e.slug: e.title for e in editions()}
        if source in titles:
            return cls(tradition, diagram, source, False)
        if source == "-" or os.path.exists(source) or os.sep in source or "." in source:
            return cls(tradition, diagram, source, True)
        slug = edition_named(source, titles)
        if slug is not None:
            return cls(tradition, diagram, slug, False)
        raise UsageError(_('bad id {value}: {value2} is neither a shipped edition ({value3}) nor an existing file').format(value=_q(raw), value2=_q(source), value3=', '.join(sorted(titles))) + _meant(source, [*titles, *titles.values()]))


def _score(text: str, raw: str) -> Tradition:
    """The score *text* names; :class:`UsageError` (with the names it may have
    been meant as) if none (*raw*: the whole id, for the error)."""
    try:
        return Tradition.from_name(text)
    except ValueError:
        pass
    names = ["lu", "xue", "魯鼓", "薛鼓"]
    raise UsageError(_('bad id {value}: the score is lu (魯) or xue (薛), not {value2}; ids look like lu, xue:2, lu:1@wuli-tongkao').format(value=_q(raw), value2=_q(text)) + _meant(text.lower(), names))


def _meant(typed: str, names: list[str]) -> str:
    """`` (did you mean 'x'?)`` for the names *typed* may have been meant as; empty if none."""
    close = close_names(typed, names)
    if not close:
        return ""
    return _(" (did you mean {names}?)").format(names=_(" or ").join(_q(n) for n in close))


def _witness_part(text: str) -> tuple[str, str | None]:
    """*text* split into the id before ``~WITNESS`` and the witness (None if
    there is none: see the module docstring)."""
    head, tilde, witness = text.rpartition("~")
    if not tilde or "/" in witness or os.sep in witness:
        return text, None
    source = text.split("@", 1)[1] if "@" in text else ""
    if source and os.path.isfile(source):
        return text, None
    # a witness whose name holds ~ (一~本): the first ~ after an edition or a file that is there
    at = text.find("@") + 1
    if at and "~" in head[at:]:
        slugs = {e.slug for e in editions()}
        for k in (i for i, ch in enumerate(text) if ch == "~" and i > at):
            if text[at:k] in slugs or os.path.isfile(text[at:k]):
                return text[:k], text[k + 1:]
    return head, witness


def _witness_of(found: Pattern, pid: PatternId, pattern_id: str) -> Pattern:
    """The reading of *pid*'s witness in *found*'s notes; :class:`UsageError` if none."""
    reading = found.variant(pid.witness)
    if reading is not None:
        return reading
    named = ", ".join(v.witness for v in found.variants)
    unread = (f"; {len(found.unread)} note{'s' if len(found.unread) > 1 else ''} with strokes "
              f"not read (first at {found.unread[0].location}: guji scan shows why)"
              if found.unread else "")
    raise UsageError(_('{pattern_id}: the notes of {id} give no reading of {value} (witnesses read there: {value2}){unread}').format(pattern_id=pattern_id, id=found.id, value=_q(pid.witness), value2=named or 'none', unread=unread)
                     + _meant(pid.witness, [v.witness for v in found.variants]))


def load(pattern_id: str, encoding: str | None = None, labels: str = "auto",
         warn: Callable[[Notice], None] | None = None) -> Pattern:
    """The pattern named by *pattern_id* (see the module docstring).

    For a text file, *warn* (if given) is called with each of the scan's
    notices (patterns it could not read, ambiguous labels …); when the
    pattern asked for is not there, the error says what the scan found and
    repeats its first notice.

    >>> load("lu:2").notation()
    '○□○○□□○○半○□○○□○○○○□○□○'
    """
    pid = PatternId.parse(pattern_id)
    if pid.is_file:
        result = _scan_file(pid.source, encoding, labels)
        where = pid.source
        if warn is not None:
            for notice in result.notices:
                warn(notice)
    else:
        result = scan_edition(pid.source)
        where = f"edition {pid.source}"
    found = result.find(pid.tradition, pid.diagram)
    if found is None:
        have = _ids(result.patterns)
        said = ""
        if result.notices and warn is not None:
            said = f"; see the warning{'s' if len(result.notices) > 1 else ''} above"
        elif result.notices:
            first = result.notices[0]
            more = len(result.notices) - 1
            said = (f"; the scan warned at {first.location or 'the end'}: {first.message}"
                    + (f" (and {more} more: guji scan {pid.source})" if more else ""))
        raise UsageError(_('{pattern_id}: {where} has no {label} in diagram {diagram} (it has: {have}){said}').format(pattern_id=pattern_id, where=where, label=pid.tradition.label, diagram=pid.diagram, have=have, said=said))
    return found if pid.witness is None else _witness_of(found, pid, pattern_id)


#: The scans of the last text files named, by ``(path as given, encoding,
#: labels)``: ``(the file's identity, the scan)``.
_SCANNED: dict[tuple, tuple[tuple, ScanResult]] = {}
#: How many scans :data:`_SCANNED` keeps (``guji diff A@a.txt B@b.txt`` names two texts).
_KEPT = 2


def _scan_file(source: str, encoding: str | None, labels: str) -> ScanResult:
    """The scan of the text file *source*, read once while it stays the same
    file: ids naming one file (``lu@t.txt xue@t.txt``) read and scan it once,
    and a named pipe, which gives its text once, is not opened again to wait
    for a writer that never comes. Standard input (``-``) is read each time."""
    key = (source, encoding, labels)
    identity = _identity(source)
    kept = _SCANNED.get(key)
    if kept is not None and identity is not None and kept[0] == identity:
        return kept[1]
    text, _encoding = read_text(source, encoding)
    result = scan(text, filename=cited(source), labels=labels)
    _SCANNED.pop(key, None)
    if identity is not None:
        _SCANNED[key] = (identity, result)
        while len(_SCANNED) > _KEPT:
            del _SCANNED[next(iter(_SCANNED))]
    return result


def _identity(source: str) -> tuple | None:
    """What tells the file at *source* from another that takes its place: a
    regular file's device, inode, size and change time; for a named pipe or a
    device, its device and inode (a pipe's times change as it is written).
    ``None`` for standard input or a path that cannot be looked at."""
    if source == "-":
        return None
    try:
        st = os.stat(source)
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(st.st_mode):
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    return (st.st_dev, st.st_ino)


#: The most patterns named where the one asked for is not there.
_NAMED = 20


def _ids(patterns: tuple[Pattern, ...]) -> str:
    """``lu:1, xue:1``: the first :data:`_NAMED` of *patterns* (a text dense with
    patterns has hundreds of thousands: one line, not megabytes)."""
    shown = ", ".join(f"{p.tradition.slug}:{p.diagram}" for p in patterns[:_NAMED]) or "none"
    if len(patterns) <= _NAMED:
        return shown
    return _("{shown} … ({n:,} in all)").format(shown=shown, n=len(patterns))


def _q(text: str) -> str:
    """*text* quoted for a message, controls and bytes that were not UTF-8 escaped
    as every message shows them (``'bad\\xff.txt'``)."""
    return f"'{escape_controls(text)}'"

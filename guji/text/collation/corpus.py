"""The texts a collation reads: the shipped editions and any text files.

Each :class:`Text` is one edition as :mod:`guji.text.collation.collate` sees it: a
name, its patterns (with the witnesses of their variant notes) and the count
claims it states (:mod:`guji.text.collation.checked`). A shipped edition is named by
its slug (``lijing-benyi``), a text file by its file's stem (``yishu`` for
``notes/yishu.txt``); a witness of its notes by both (``yishu~一本``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ...i18n import _
from ...errors import UsageError
from ..reading.bibl import Bibl, cited, file_bibl
from .checked import CheckedClaim, text_claims
from ..reading.editions import edition, editions, scan_edition
from ..reading.encoding import read_text
from ..reading.labels import LabelMode
from ..reading.notation import Pattern, Tradition
from ..reading.parser import Notice
from ..reading.scan import scan

__all__ = ["Text", "shipped_text", "file_text", "texts"]


@dataclass(frozen=True)
class Text:
    """One edition of a collation.

    Attributes
    ----------
    name:
        The edition's slug, or the stem of its file's name.
    patterns:
        Its patterns as scanned, each with its witnesses' readings
        (:attr:`Pattern.variants <guji.text.reading.notation.Pattern.variants>`).
    claims:
        The count claims it states, placed and counted against its own
        patterns.
    notices:
        What the scan and the claims reader warned about.
    bibl, siglum, lang:
        The witness as a scholar cites it (:mod:`guji.text.reading.bibl`), its
        siglum, and the BCP 47 tag of its writing (zh-Hant, zh-Hans, zh).
    path:
        The file it is read from (a user's text) as guji cites it
        (:func:`~guji.text.reading.bibl.cited`: never a local absolute path),
        None for a shipped edition.
    sha256:
        The SHA-256 of the text's bytes (a shipped edition's passage file, a
        user's file), so a reader can check the very text collated.
    """

    name: str
    patterns: tuple[Pattern, ...]
    claims: tuple[CheckedClaim, ...] = ()
    notices: tuple[Notice, ...] = ()
    bibl: Bibl = Bibl()
    siglum: str = ""
    lang: str = "zh"
    path: str | None = None
    sha256: str = ""

    def find(self, tradition: Tradition, diagram: int) -> Pattern | None:
        """Its pattern of *tradition*'s diagram *diagram*, if it has one."""
        return next((p for p in self.patterns
                     if p.tradition is tradition and p.diagram == diagram), None)

    def readings(self, tradition: Tradition, diagram: int) -> dict[str, Pattern]:
        """Its reading of one pattern and its witnesses' (``name~witness``)."""
        pattern = self.find(tradition, diagram)
        if pattern is None:
            return {}
        return {self.name: pattern,
                **{f"{self.name}~{v.witness}": v for v in pattern.variants}}


def shipped_text(slug: str) -> Text:
    """A shipped edition as a :class:`Text`."""
    result = scan_edition(slug)
    ed = edition(slug)
    claims, notices = text_claims(ed.text(), result.patterns, slug, ed.passage)
    return Text(slug, result.patterns, claims, result.notices + notices, ed.bibl, ed.siglum,
                ed.lang, sha256=ed.sha256)


def file_text(path: str, encoding: str | None = None, labels: LabelMode = "auto") -> Text:
    """A text file as a :class:`Text`, named by its file's stem."""
    hashed = hashlib.sha256()
    text, _ = read_text(path, encoding, digest=hashed)     # read once: a named pipe gives it once
    shown = cited(path)
    result = scan(text, filename=shown, labels=labels)
    name = Path(path).stem
    claims, notices = text_claims(text, result.patterns, name, shown)
    bibl, siglum, lang = file_bibl(path)
    return Text(name, result.patterns, claims, result.notices + notices, bibl, siglum, lang,
                shown, hashed.hexdigest())


def texts(files: Sequence[str] = (), only: bool = False, encoding: str | None = None,
          labels: LabelMode = "auto") -> list[Text]:
    """The texts of a collation: the shipped editions (unless *only*), then
    each of *files*, in order.

    Raises :class:`UsageError` when two texts would have one name (two files
    with one stem, or a file named like a shipped edition) or when *only* is
    given without files.
    """
    if only and not files:
        raise UsageError(_('--only collates the files given: give at least one FILE'))
    out = [] if only else [shipped_text(e.slug) for e in editions()]
    where = {t.name: f"the shipped edition {t.name}" for t in out}
    for path in files:
        name = Path(path).stem
        if name in where:
            raise UsageError(_("{path}: its edition name {name} (the file's stem) is taken by {value}: rename the file").format(path=path, name=repr(name), value=where[name]))
        where[name] = path
        out.append(file_text(path, encoding, labels))
    return out

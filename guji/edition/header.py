"""What an editor signs: the edition's title, editor, licence and date (:class:`Header`).

``guji edition --editor NAME --licence SPDX-ID --title TEXT`` gives them, or
a small TOML for a project (``guji-edition.toml`` in the current folder, or
the file ``--project FILE`` names)::

    title = "投壺鼓譜 (a teacher's collation)"
    editor = "A. Editor"
    licence = "CC-BY-4.0"

    [addresses]          # where a reader finds each text (by its name)
    yishu = "https://example.org/yishu.txt"

The options win over the TOML. The MEI and TEI editions put them in their
headers: the title, the editor's ``respStmt``, the publication statement
(the date, the licence as ``availability``), and a ``revisionDesc`` saying
which guji collated what, when. The date is today's (UTC), or the one
``SOURCE_DATE_EPOCH`` gives, so a build can be made again byte for byte.
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import _
from ..errors import UsageError

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["Header", "PROJECT", "collated", "header_of", "licence_url", "normalization", "today"]

#: The project file guji edition reads from the current folder when present.
PROJECT = "guji-edition.toml"
#: An SPDX licence id (``CC-BY-4.0``, ``CC0-1.0``, ``MIT``, ``LicenseRef-mine``).
_SPDX = re.compile(r"(LicenseRef-)?[A-Za-z0-9][A-Za-z0-9.+-]*")
_KEYS = {"title", "editor", "licence", "addresses"}


@dataclass(frozen=True)
class Header:
    """The edition's title (empty: guji's own), its editor, its licence (an
    SPDX id), the date of this revision (ISO 8601), and the address of each
    text where the editor gives one (text name → URL or DOI)."""

    title: str = ""
    editor: str = ""
    licence: str = ""
    date: str = ""
    addresses: dict = field(default_factory=dict)


def licence_url(licence: str) -> str:
    """The SPDX page of an SPDX licence id (empty for a ``LicenseRef-``)."""
    if not licence or licence.startswith("LicenseRef-"):
        return ""
    return f"https://spdx.org/licenses/{licence}.html"


def today() -> str:
    """Today's date in UTC, or ``SOURCE_DATE_EPOCH``'s (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    moment = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
              if epoch.isdigit() else datetime.datetime.now(datetime.timezone.utc))
    return moment.date().isoformat()


def _project(path: str | None) -> tuple[dict, str]:
    """The project TOML's table and its name (``{}`` when there is none)."""
    name = path or PROJECT
    if path is None and not os.path.isfile(name):
        return {}, name
    try:
        data = tomllib.loads(Path(name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(_('{file}: no such project file').format(file=name)) from None
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UsageError(_('{file}: not a TOML project file: {e}').format(file=name, e=e)) from None
    bad = sorted(set(data) - _KEYS)
    if bad:
        raise UsageError(_('{file}: unknown key {bad} (keys: {known})').format(
            file=name, bad=", ".join(bad), known=", ".join(sorted(_KEYS))))
    return data, name


def header_of(title: str | None, editor: str | None, licence: str | None,
              project: str | None = None) -> Header:
    """The header the options give, the project file's fields filling what
    they leave out; :class:`UsageError` for a bad project file or licence."""
    data, name = _project(project)
    addresses = data.get("addresses", {})
    values = {"title": title, "editor": editor, "licence": licence}
    for key in values:
        if values[key] is None:
            values[key] = data.get(key, "")
        if not isinstance(values[key], str):
            raise UsageError(_('{file}: {key} is a string').format(file=name, key=key))
    if not isinstance(addresses, dict) or not all(
            isinstance(v, str) for v in addresses.values()):
        raise UsageError(_('{file}: addresses is a table of text names and addresses').format(
            file=name))
    if values["licence"] and not _SPDX.fullmatch(values["licence"]):
        raise UsageError(_('--licence {licence}: not an SPDX licence id (CC-BY-4.0, CC0-1.0, '
                           'MIT …)').format(licence=repr(values["licence"])))
    return Header(values["title"].strip(), values["editor"].strip(), values["licence"],
                  today(), dict(addresses))


def normalization() -> str:
    """The glyph normalisation, as the editions' ``<normalization>`` states it."""
    from ..text.reading.notation import ROUND, ROUND_GLYPHS, SQUARE, SQUARE_GLYPHS

    def listed(table: dict) -> str:
        return ", ".join(f"{g} U+{ord(g):04X}" for g in table)
    return (f"The glyphs of a stroke are normalised: every glyph of the small drum (pi) guji "
            f"accepts ({listed(ROUND_GLYPHS)}) is read as {ROUND} U+{ord(ROUND):04X}, every "
            f"glyph of the big drum (gu) ({listed(SQUARE_GLYPHS)}) as {SQUARE} "
            f"U+{ord(SQUARE):04X} (guji glyphs: where each is seen). The apparatus compares "
            f"the normalised strokes; each source's own glyphs are declared with it, and each "
            f"note keeps the glyph its reading's first witness writes.")


def collated(collations, absent=()) -> str:
    """What was collated: the patterns, the texts, the texts without a diagram."""
    patterns = ", ".join(f"{c.tradition.label} {c.diagram}" for c in collations)
    texts: list[str] = []
    for c in collations:
        texts += [n for n in c.readings if n not in texts]
    said = (f"Collated by guji: {patterns}, across {len(texts)} readings ({', '.join(texts)})")
    if absent:
        said += "; without a diagram of them: " + ", ".join(t.name for t in absent)
    return said + "."

"""Taking away what is on screen: the files the commands write, byte for byte.

Each export runs the very command a user would type — ``guji midi``,
``guji render``, ``guji compare``, ``guji sheet``, ``guji page``,
``guji show --json`` — in a child process (``python -m guji``), with the
readings' ids and the page's timing as its options, into a temporary
folder, and hands back what it wrote. So an export has the same bytes as
the command by construction, and the command's own limits and checks
apply (no ``--force``). A text pasted or opened in the page has no file:
it is written into the temporary folder under its name first, and the
command is run there, as it would be run beside that file.

:func:`export_command` says which command; :func:`shown_command` is the whole
line the page shows under its buttons, one a user can run (beside the
pasted text saved under its name); :func:`run_export` runs it. The file
is named for what it holds (:func:`file_name`: the readings, the compare
mode, the rite), e.g. ``guji-lu1-liji-zhengyi-lu1-wuli-tongkao-diff-she.wav``.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .. import i18n
from ..errors import UsageError
from ..page_words import _
from ..compare import MODES
from .documents import Document, Library
from .views import Request, checked_length, reading_performance

#: Export kinds → (file extension, MIME type).
KINDS = {
    "midi": ("mid", "audio/midi"), "wav": ("wav", "audio/wav"), "flac": ("flac", "audio/flac"),
    "ogg": ("ogg", "audio/ogg"), "musicxml": ("musicxml", "application/vnd.recordare.musicxml+xml"),
    "ly": ("ly", "text/x-lilypond"), "pdf": ("pdf", "application/pdf"),
    "svg": ("svg", "image/svg+xml"), "page": ("html", "text/html"),
    "json": ("json", "application/json"),
}
#: Seconds an export may take (LilyPond's PDF is the slowest: about 10 s).
TIMEOUT = 180


@dataclass(frozen=True)
class Export:
    """A file an export made: its *name*, *mime* type and *data*."""

    name: str
    mime: str
    data: bytes


def export_command(ids: list[str], request: Request, kind: str, mode: str | None,
                   output: str) -> list[str]:
    """The ``guji`` arguments that write *kind* of the readings *ids* to *output*
    (``None`` output: JSON on standard output)."""
    if kind not in KINDS:
        raise UsageError(_("unknown export {kind!r}: use one of {kinds}").format(
            kind=kind, kinds=", ".join(KINDS)))
    compared = len(ids) >= 2 and mode in MODES
    timing = request.options()
    plain = [o for o in timing if o not in ("--mute", "--solo", request.mute, request.solo)]
    if kind == "json":
        if len(ids) >= 2:
            return ["compare", *ids, "--mode", mode if mode in MODES else "sequence", *plain,
                    "--json"]
        return ["show", *ids, "--json"]
    if kind == "page":
        return ["page", *ids, *plain, "--single-file", "-o", output]
    if kind in ("musicxml", "ly", "pdf", "svg"):
        return ["sheet", *ids, *timing, "-o", output]
    if compared:
        extra = [] if kind == "midi" else ["--no-midi"]
        return ["compare", *ids, "--mode", mode, *plain, *extra, "-o", output]
    return ["midi" if kind == "midi" else "render", *ids, *timing, "-o", output]


def file_name(ids: list[str], request: Request, kind: str, mode: str | None) -> str:
    """The name of the file an export writes: the readings, the compare mode when there is
    one (``ab``: several readings one after another), the rite, the extension."""
    parts = ["guji"]
    for i in ids:
        score, _at, rest = i.partition("@")
        source, _tilde, witness = rest.partition("~")
        if not source.startswith(("http:", "https:")) and "." in Path(source).name:
            source = Path(source).stem                      # a file's name without .txt
        else:
            source = Path(source).name
        parts.append("-".join(x for x in (score.replace(":", ""), source, witness) if x))
    if len(ids) >= 2:
        parts.append(mode if mode in MODES else "sequence" if kind == "json" else "ab")
    parts.append(request.timing.rite.value)
    stem = re.sub(r"[\s/\\:*?\"<>|]+", "-", "-".join(parts))[:120].strip("-")
    return f"{stem}.{KINDS[kind][0]}"


def content_disposition(name: str) -> str:
    """``Content-Disposition`` for a download called *name* (an ASCII fallback, and the
    name itself as UTF-8: the header is Latin-1)."""
    fallback = "".join(c if 32 <= ord(c) < 127 and c not in '"\\%' else "_" for c in name)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


def shown_command(library: Library, request: Request, kind: str, mode: str | None) -> str:
    """The command line that writes *kind* of what is chosen, as the page shows it."""
    ids = [command_id(library, ref)[0] for ref in request.refs]
    output = file_name(ids, request, kind, mode)
    return shlex.join(["guji", *export_command(ids, request, kind, mode, output)])


def run_export(library: Library, request: Request, kind: str, mode: str | None) -> Export:
    """Run the command of :func:`export_command` and return what it wrote."""
    ext, mime = KINDS.get(kind, (None, None))
    if ext is None:
        raise UsageError(_("unknown export {kind!r}: use one of {kinds}").format(
            kind=kind, kinds=", ".join(KINDS)))
    if mode in MODES and len(request.refs) >= 2:
        from ..compare import compare
        checked_length(compare(request.patterns(library), mode, request.timing).performance)
    for ref in request.refs:                    # what is on screen, within what it plays
        reading_performance(library.pattern(ref), request)
    with tempfile.TemporaryDirectory(prefix="guji-export-") as tmp:
        ids = []
        for ref in request.refs:
            found, doc = command_id(library, ref)
            ids.append(found)
            if doc is not None:                 # the text on screen, saved under its name
                (Path(tmp) / doc.name).write_text(doc.text, encoding="utf-8")
        output = file_name(ids, request, kind, mode)
        args = export_command(ids, request, kind, mode, str(Path(tmp) / output))
        # in the studio's language: a page, a sheet's credits, a drawing's legend
        done = subprocess.run([sys.executable, "-m", "guji", "--lang", i18n.language(), *args],
                              cwd=tmp,
                              capture_output=True, timeout=TIMEOUT)
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise UsageError(lines[0] if lines else _("guji {command} failed").format(
                command=args[0]))
        data = done.stdout if kind == "json" else (Path(tmp) / output).read_bytes()
    return Export(output, mime, data)


def command_id(library: Library, ref: str) -> tuple[str, Document | None]:
    """The command-line id of the reading *ref*, and the document to save under its name
    beside the command (``None``: an edition, or a file read from disk)."""
    library.pattern(ref)                                # checks the ref
    key, _sep, rest = ref.partition("|")
    score, _sep, witness = rest.partition("|")
    doc = None
    if key.startswith("edition:"):
        source = key[len("edition:"):]
    else:
        doc = library.get(key)
        source = doc.name
        if doc.on_disk:
            doc = None
    return f"{score}@{source}" + (f"~{witness}" if witness else ""), doc

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

:func:`export_command` says which command (also shown in the page, so the
user can run it again); :func:`run_export` runs it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import i18n
from ..errors import UsageError
from ..page_words import _
from ..compare import MODES
from .documents import Library
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
        ids = [_command_id(library, ref, Path(tmp)) for ref in request.refs]
        name = "guji-" + ("-".join(i.split("@")[0].replace(":", "") for i in ids))[:60]
        output = f"{name}.{ext}"
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


def _command_id(library: Library, ref: str, folder: Path) -> str:
    """The command-line id of the reading *ref*; a text with no file of its own
    is written into *folder* under its name first."""
    pattern = library.pattern(ref)                     # checks the ref
    key, _sep, rest = ref.partition("|")
    score, _sep, witness = rest.partition("|")
    if key.startswith("edition:"):
        source = key[len("edition:"):]
    else:
        doc = library.get(key)
        source = doc.name
        if not doc.on_disk:
            source = Path(doc.name).name or "text.txt"
            (folder / source).write_text(doc.text, encoding="utf-8")
    assert pattern is not None
    return f"{score}@{source}" + (f"~{witness}" if witness else "")

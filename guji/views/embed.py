"""A page in one file: its audio inside it, as ``data:`` URIs.

``guji page --single-file`` writes one ``.html`` file that holds everything
— the pictures, the style, the script and the audio of every player — so
it can be mailed or put anywhere as it is. The audio files are rendered as
usual, into a temporary folder, then read back and base64-encoded into each
``<source src>`` (:func:`data_uri`): a third larger than the files, and the
browser plays them the same.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from ..files import check_target, make_folder


def data_uri(path: str | os.PathLike, mime: str) -> str:
    """``data:audio/flac;base64,…`` of the file at *path* (*mime*'s parameters dropped)."""
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    return f"data:{mime.split(';')[0].strip()};base64,{data}"


def single_file_target(target: str | os.PathLike) -> Path:
    """The file a single-file page goes to: *target*, or ``index.html`` in it
    when it is a folder (existing, or named with a trailing ``/``; made if
    missing, its parent must exist)."""
    text = os.fspath(target)
    folder = Path(text)
    if not (text.endswith(("/", os.sep)) or os.path.isdir(folder)):
        check_target(text)
        return Path(text)
    folder, _ = make_folder(folder)
    return folder / "index.html"

"""What patterns are called: on screen, in tracks and players, and on disk.

The one place that names and files a pattern (the id itself is
:attr:`Pattern.id <guji.text.reading.notation.Pattern.id>`):

* :func:`part_name` — a part of a performance, a MIDI track set, a player:
  ``魯鼓 1 liji-zhengyi``;
* :func:`variant_names` — several patterns side by side, made unique;
* :func:`title` — what a legend or a page heading calls it:
  ``魯鼓 · 前圖 (diagram 1) · 禮記正義``;
* :func:`file_stem` — a file name for it: ``lu-1-liji-zhengyi`` (a text
  file's stem stands for the edition; a witness's reading adds its name:
  ``lu-1-notes-一本``), ASCII letters, digits, ``.``, ``-``
  and ``_`` (Chinese file stems are kept as they are);
* :func:`letter` — A, B, C … for the variants of a comparison;
* :func:`latin_first` — a name that travels to software reading MIDI text
  as Latin-1: ``Lu gu 魯鼓 1 liji-zhengyi`` (:func:`without_latin` undoes it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from ...page_words import _
from .notation import Pattern, Tradition

#: Letters naming the variants of a comparison (A, B, C …).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letter(index: int) -> str:
    """``A`` for 0, ``B`` for 1 … and ``#27`` beyond Z."""
    return LETTERS[index] if index < len(LETTERS) else f"#{index + 1}"


#: Each score's label in pinyin: 魯鼓 Lu gu, 薛鼓 Xue gu.
LATIN_LABELS = {Tradition.LU: "Lu gu", Tradition.XUE: "Xue gu"}


def latin_first(name: str) -> str:
    """*name* with the pinyin of its score's label put first, when it starts
    with the label: ``魯鼓 1 liji-zhengyi`` → ``Lu gu 魯鼓 1 liji-zhengyi``;
    any other name as it is.

    Programs that read a MIDI file's names as Latin-1 (pretty_midi, midi2ly,
    mido by default) show the Chinese as a few accented letters, but a name
    read from its start still says what it names.
    """
    for tradition, latin in LATIN_LABELS.items():
        if name.startswith(tradition.label):
            return f"{latin} {name}"
    return name


def without_latin(name: str) -> str:
    """The name :func:`latin_first` was given: ``Lu gu 魯鼓 1`` → ``魯鼓 1``."""
    for tradition, latin in LATIN_LABELS.items():
        if name.startswith(f"{latin} {tradition.label}"):
            return name[len(latin) + 1:]
    return name


def source_name(pattern: Pattern) -> str:
    """The edition's slug, the text file's name, or ``text``; for a witness's
    reading given in the text's notes, ``~WITNESS`` after it (``notes.txt~一本``)."""
    name = pattern.edition or pattern.filename or "text"
    return name if pattern.witness is None else f"{name}~{pattern.witness}"


def part_name(pattern: Pattern) -> str:
    """A readable name for a pattern's part: ``魯鼓 1 liji-zhengyi``."""
    return f"{pattern.tradition.label} {pattern.diagram} {source_name(pattern)}"


def variant_names(patterns: Sequence[Pattern]) -> list[str]:
    """:func:`part_name` of each pattern, with the id added where two would
    share a name, and ``#2``, ``#3`` … where even the ids are the same."""
    names = [part_name(p) for p in patterns]
    out = [name if names.count(name) == 1 else f"{name} [{p.id}]"
           for p, name in zip(patterns, names)]
    seen: dict[str, int] = {}
    final = []
    for name in out:
        seen[name] = seen.get(name, 0) + 1
        final.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return final


def title(pattern: Pattern) -> str:
    """``魯鼓 · 前圖 (diagram 1) · 禮記正義``: what a legend, a page or a sheet calls
    a pattern, in the chosen language (:mod:`guji.page_words`; the label, 前圖/後圖
    and the edition's Chinese title as the sources write them; a user's text
    by its file name)."""
    from .editions import editions

    source = pattern.filename or _("text")
    if pattern.edition:
        source = next((e.title for e in editions() if e.slug == pattern.edition), pattern.edition)
    which = {1: "前圖", 2: "後圖"}.get(pattern.diagram)
    words = (_("{label} · {which} (diagram {n}) · {source}") if which
             else _("{label} · diagram {n} · {source}"))
    out = words.format(label=pattern.tradition.label, which=which, n=pattern.diagram,
                       source=source)
    if pattern.witness is not None:
        out += _(" · {witness} (in its notes)").format(witness=pattern.witness)
    return out


def file_stem(pattern: Pattern, *, lower: bool = False, ascii_only: bool = False) -> str:
    """``lu-1-liji-zhengyi``: a file name (without suffix) for *pattern*.

    Runs of anything but word characters, ``.`` and ``-`` become one ``-``;
    *ascii_only* makes that ASCII word characters (for names in a web page).
    """
    source = pattern.edition or (Path(pattern.filename).stem if pattern.filename else "text")
    base = f"{pattern.tradition.slug}-{pattern.diagram}-{source}"
    if pattern.witness is not None:
        base += f"-{pattern.witness}"
    flags = re.ASCII if ascii_only else 0
    stem = re.sub(r"[^\w.-]+", "-", base, flags=flags).strip("-.")
    return (stem.lower() if lower else stem) or "x"

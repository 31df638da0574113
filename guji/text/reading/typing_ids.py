"""Ids as a reader of Chinese types them, and advice for an id that names nothing.

:class:`~guji.text.reading.editions.PatternId` reads ``SCORE[:DIAGRAM][@EDITION][~WITNESS]``;
this module makes what a Chinese input method gives into that form first
(:func:`as_typed`), and finds the names a mistyped part was meant to be
(:func:`close_names`):

* full-width ``：＠～`` and digits ``０``–``９`` are ``:@~`` and ``0``–``9``;
* a pattern's Chinese name is its score and diagram: ``魯鼓後圖`` (``鲁鼓后图``)
  is ``lu:2``, ``薛鼓前圖`` is ``xue:1``, ``魯鼓二`` is ``lu:2`` — 前圖, the first
  diagram; 後圖, the second;
* an edition may be named by its title in either script (``五禮通考``,
  ``五礼通考``: :func:`fold` reads both as one) or by a prefix of its slug
  that only it has (``wuli``).
"""

from __future__ import annotations

import difflib
import os
import re

#: Full-width forms an input method types, as the id's ASCII.
_FULL_WIDTH = str.maketrans({"：": ":", "＠": "@", "～": "~", "〜": "~",
                             **{chr(0xFF10 + d): str(d) for d in range(10)}})

#: Simplified forms of the Traditional characters in the shipped editions'
#: titles and the diagrams' names (禮記正義, 礼经本义, 五禮通考, 前圖, 後圖, 魯鼓):
#: enough to read a title or a name typed in either script as one.
_SIMPLIFIED = str.maketrans({"禮": "礼", "記": "记", "義": "义", "經": "经",
                             "圖": "图", "後": "后", "魯": "鲁"})

#: A diagram's Chinese name (after folding to Simplified) → its number.
_DIAGRAMS = {"前图": 1, "后图": 2, "一": 1, "二": 2, "1": 1, "2": 2,
             "图一": 1, "图二": 2, "第一图": 1, "第二图": 2}

#: The score's Chinese names (folded), longest first.
_SCORES = {"鲁鼓": "lu", "鲁鼔": "lu", "鲁": "lu", "薛鼓": "xue", "薛鼔": "xue",
           "薜鼓": "xue", "薛": "xue", "薜": "xue"}


def fold(text: str) -> str:
    """*text* with the Traditional characters of the shipped titles and names
    in their Simplified forms (``五禮通考`` → ``五礼通考``), and full-width
    forms in ASCII."""
    return text.translate(_FULL_WIDTH).translate(_SIMPLIFIED)


def as_typed(text: str) -> str:
    """*text* as an id: full-width ``：＠～０-９`` as ASCII, and a Chinese
    pattern name before ``@``/``:``/``~`` as ``SCORE:DIAGRAM``
    (``魯鼓後圖@五禮通考`` → ``lu:2@五禮通考``). The edition part is kept as typed
    (a file's name is the file's): :func:`edition_named` reads titles."""
    at = re.search("[@＠]", text)
    head, source = (text[:at.start()], "@" + text[at.end():]) if at else (text, "")
    text = head.translate(_FULL_WIDTH) + _source_as_typed(source)
    match = re.match(r"([^:@~]*)(.*)", text, re.S)
    head, rest = match.group(1), match.group(2)
    named = _chinese_name(head)
    if named is None:
        return text
    score, diagram = named
    if diagram is None or rest.startswith(":"):
        return score + rest
    return f"{score}:{diagram}{rest}"


def _source_as_typed(source: str) -> str:
    """``@EDITION[~WITNESS]`` with full-width forms in ASCII, but a file's name
    as it is: an existing file (``@筆記：二.txt``) keeps its own, and so does
    one before a full-width ``～``."""
    path = source[1:]
    if not path or os.path.exists(path):
        return source
    before, tilde, witness = path.rpartition("～")
    if tilde and os.path.exists(before):
        return f"@{before}~{witness}"
    return source.translate(_FULL_WIDTH)


def _chinese_name(head: str) -> tuple[str, int | None] | None:
    """``("lu", 2)`` for ``魯鼓後圖``, ``("xue", None)`` for ``薛鼓``; None for
    anything else (``lu``, a typo: :class:`PatternId` says what is wrong)."""
    key = fold(head.strip())
    for name in sorted(_SCORES, key=len, reverse=True):
        if key.startswith(name):
            tail = key[len(name):].strip()
            if not tail:
                return _SCORES[name], None
            if tail in _DIAGRAMS:
                return _SCORES[name], _DIAGRAMS[tail]
            return None
    return None


def edition_named(source: str, slugs_titles: dict[str, str]) -> str | None:
    """The slug *source* names: a slug, a title in either script, or a prefix
    of one slug only; None if it names none or several (*slugs_titles*: each
    shipped edition's slug → its title)."""
    if source in slugs_titles:
        return source
    wanted = fold(source)
    for slug, title in slugs_titles.items():
        if fold(title) == wanted:
            return slug
    starting = [slug for slug in slugs_titles if slug.startswith(source.lower())]
    return starting[0] if len(starting) == 1 else None


def close_names(typed: str, names: list[str]) -> list[str]:
    """The *names* that *typed* may have been meant as: those it begins, then
    those close to it (:mod:`difflib`), at most three, best first."""
    starting = [n for n in names if n.startswith(typed)] if typed else []
    close = difflib.get_close_matches(typed, names, n=3, cutoff=0.6)
    heads = {n[:len(typed)]: n for n in names if len(n) > len(typed)}   # a mistyped prefix
    close += [heads[h] for h in difflib.get_close_matches(typed, list(heads), n=3, cutoff=0.75)]
    out: list[str] = []
    for name in starting + close:
        if name not in out:
            out.append(name)
    return out[:3]

"""The languages guji talks in: 繁體中文 (zh-Hant), 简体中文 (zh-Hans) and English.

Messages are written in English in the code and wrapped: ``_("…")`` for one
message, ``ngettext(singular, plural, n)`` for a count, ``N_("…")`` to mark a
message kept in a table and translated where it is shown. The translations
are gettext catalogs, ``guji/locale/<language>/LC_MESSAGES/<domain>.po``, and
their compiled ``.mo`` files ship in the wheel and are read by the standard
library's :mod:`gettext` (Babel is needed only to extract and compile them:
``python -m guji.i18n_tools``).

The language is chosen as users expect (:func:`choose`): ``--lang``, then
``GUJI_LANG``, then the system's — ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` on
POSIX; on Windows those when set (Git Bash, MSYS), else the user's UI language
(``GetUserDefaultUILanguage``); on macOS ``LC_ALL``/``LC_MESSAGES`` when set,
else the first of the user's preferred languages (``AppleLanguages``), else
``LANG``. zh-TW, zh-HK, zh-MO and zh-Hant read 繁體 (zh-Hant); zh-CN, zh-SG,
zh-Hans and a bare zh read 简体 (zh-Hans); anything else reads English.

Several domains share the choice: ``guji`` (the command line), ``argparse``
(argparse's own words: ``usage:``, ``options:``, …, routed by
:func:`route_argparse`) and ``page`` (the page, the drawings, the sheet):
:func:`translator` gives any of them. Data never changes with the language.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
import io
import os
from functools import lru_cache
from pathlib import Path

#: The languages guji speaks, English first (the source language).
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
#: The command line's gettext domain.
DOMAIN = "guji"
#: Where the compiled catalogs are (package data: installed as files by the wheel;
#: read by path, not importlib.resources, whose import alone costs guji's start-up ~40 ms).
LOCALE = Path(__file__).resolve().parent / "locale"
#: Each language's folder under ``guji/locale`` (Babel's locale names).
FOLDERS = {"zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
_TRADITIONAL_REGIONS = {"tw", "hk", "mo"}

_current: list[str] = []      # the language in use, once chosen


class LanguageError(ValueError):
    """A ``--lang`` guji does not know."""


def normalise(tag: str) -> str:
    """The guji language of a locale or language tag: ``zh_TW.UTF-8`` →
    ``zh-Hant``, ``zh-Hans-CN`` → ``zh-Hans``, ``C`` or ``fr_FR`` → ``en``."""
    parts = tag.split(".")[0].split("@")[0].replace("_", "-").lower().split("-")
    if parts[0] != "zh":
        return "en"
    if "hans" in parts:                  # a script named wins over the region
        return "zh-Hans"
    if "hant" in parts or _TRADITIONAL_REGIONS & set(parts[1:]):
        return "zh-Hant"
    return "zh-Hans"


def strict(tag: str) -> str:
    """:func:`normalise` for a ``--lang`` the user typed: English only when
    English is asked for; anything else unknown is a :class:`LanguageError`."""
    head = tag.split(".")[0].replace("_", "-").lower()
    if head.split("-")[0] in ("zh", "en") or head in ("c", "posix"):
        return normalise(tag)
    raise LanguageError(tag)


def system_language(environ=None, platform: str | None = None,
                    windows_ui=None, mac_languages=None) -> str | None:
    """The system's language tag, or ``None``. *windows_ui* and
    *mac_languages* are the platform look-ups (replaced in tests, which
    simulate Windows and macOS on Linux)."""
    environ = os.environ if environ is None else environ
    if platform is None:
        from . import system
        platform = system.PLATFORM
    explicit = next((environ[v] for v in ("LC_ALL", "LC_MESSAGES") if environ.get(v)), None)
    if explicit:
        return explicit
    if platform == "darwin":
        found = (mac_languages or _mac_languages)()
        if found:
            return found
    if environ.get("LANG"):
        return environ["LANG"]
    if platform == "win32":
        return (windows_ui or _windows_ui_language)()
    return None


def _windows_ui_language() -> str | None:
    """The Windows display language (``GetUserDefaultUILanguage``) as ``zh_TW``."""
    try:
        import ctypes
        import locale
        langid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
        return locale.windows_locale.get(langid)
    except (AttributeError, OSError, ImportError):
        return None


def _mac_languages() -> str | None:
    """The first of the user's preferred languages on macOS (``zh-Hant-TW``)."""
    import subprocess
    try:
        out = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True,
                             text=True, timeout=3, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_apple_languages(out)


def parse_apple_languages(text: str) -> str | None:
    """The first entry of ``defaults read -g AppleLanguages``'s list."""
    for line in text.splitlines():
        item = line.strip().strip(",").strip('"')
        if item and item not in ("(", ")"):
            return item
    return None


def choose(option: str | None = None, environ=None, **platform) -> str:
    """The language to speak: *option* (``--lang``, strict), then ``GUJI_LANG``,
    then the system's (:func:`system_language`), else English."""
    environ = os.environ if environ is None else environ
    if option:
        return strict(option)
    if environ.get("GUJI_LANG"):
        return normalise(environ["GUJI_LANG"])
    found = system_language(environ, **platform)
    return normalise(found) if found else "en"


def use(lang: str) -> None:
    """Speak *lang* (one of :data:`LANGUAGES`) from now on."""
    if lang not in LANGUAGES:
        raise LanguageError(lang)
    _current[:] = [lang]
    route_argparse()


def without_lang(args: list[str]) -> tuple[list[str], str | None]:
    """*args* without ``--lang X`` / ``--lang=X`` (anywhere before ``--``: the
    language is chosen before the parsers are built, their help in it), and the
    last language asked for."""
    rest, asked, i = [], None, 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        if arg == "--lang" and i + 1 < len(args):
            asked, i = args[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            asked = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return rest, asked


def language_of(args: list[str]) -> str:
    """The language in use, or, before one is chosen (a stop while guji's modules
    load), the one command line *args* asks for: its ``--lang``, else the
    environment's (:func:`choose`; an unknown ``--lang`` is ignored here)."""
    if not _current:
        try:
            _current.append(choose(without_lang(args)[1]))
        except LanguageError:
            _current.append(choose())
    return _current[0]


def language() -> str:
    """The language in use (chosen from the environment the first time)."""
    if not _current:
        _current.append(choose())
    return _current[0]


@lru_cache(maxsize=None)
def catalog(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalog of *domain* in *lang* (English: the messages as written)."""
    folder = FOLDERS.get(lang)
    if folder is None:
        return gettext.NullTranslations()
    try:
        data = (LOCALE / folder / "LC_MESSAGES" / f"{domain}.mo").read_bytes()
    except OSError:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


def translator(domain: str = DOMAIN) -> gettext.NullTranslations:
    """*domain*'s catalog in the language in use (``gettext``, ``ngettext``,
    ``pgettext`` on it)."""
    return catalog(domain, language())


def _(message: str) -> str:
    """*message* in the language in use."""
    return translator().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for *n*, in the language in use."""
    return translator().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """*message* in *context* (a word that reads two ways), in the language in use."""
    return translator().pgettext(context, message)


def N_(message: str) -> str:
    """Mark *message* for the catalogs; translate it later, where it is shown."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for the catalogs; count and translate it where it is shown."""
    return singular, plural


@dataclass(frozen=True)
class Words:
    """A message not yet said: in English for the data (``--json``, MIDI markers:
    the same bytes in every language), in the user's language where a person
    reads it (:meth:`shown`). Built by data classes that keep both (the compare
    schedule, collate's agreement groups).

    *message* is a msgid marked with ``N_()``, or a ``(singular, plural)`` pair
    marked with ``NN_()`` and counted by *n*; *values* fill its ``{names}``, each
    a plain value or :class:`Words` of its own.
    """

    message: str | tuple[str, str]
    values: tuple[tuple[str, object], ...] = ()
    n: int = 1

    @classmethod
    def of(cls, message: str | tuple[str, str], count: int = 1, /, **values: object) -> Words:
        """*message* counted by *count*, its ``{names}`` filled from *values*."""
        return cls(message, tuple(values.items()), count)

    def _say(self, translated: bool) -> str:
        values = {k: v._say(translated) if isinstance(v, Words) else v for k, v in self.values}
        if isinstance(self.message, tuple):
            one, many = self.message
            text = ngettext(one, many, self.n) if translated else (one if self.n == 1 else many)
        else:
            text = _(self.message) if translated else self.message
        return text.format(**values)

    @property
    def english(self) -> str:
        """The words in English: what the data holds."""
        return self._say(False)

    def shown(self) -> str:
        """The words in the language in use."""
        return self._say(True)


def route_argparse() -> None:
    """argparse's own words (``usage:``, ``options:``, its errors) in the language
    in use: argparse calls the module-level ``_`` and ``ngettext`` it imported
    from :mod:`gettext`; they are pointed at guji's ``argparse`` domain."""
    import argparse
    argparse._ = _argparse_gettext                  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext          # type: ignore[attr-defined]


def _argparse_gettext(message: str) -> str:
    return translator("argparse").gettext(message)


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    return translator("argparse").ngettext(singular, plural, n)


__all__ = ["LANGUAGES", "DOMAIN", "LanguageError", "N_", "_", "catalog", "choose", "language",
           "language_of", "ngettext", "normalise", "pgettext", "route_argparse", "strict", "system_language",
           "translator", "use", "without_lang"]

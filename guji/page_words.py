"""The words a reader looks at, in the chosen language: gettext domain ``page``.

The shared page (``guji page``), the drawings' legends, keys and tooltips
(``guji draw``, SVG and PNG), the sheet's titles and credits (MusicXML,
LilyPond, MEI: the words printed, never the ids and names tools match on) and
the studio's page and script (``guji studio``) take their words from here, in
the language the command line chose (``--lang``, ``GUJI_LANG``, the system's:
:mod:`guji.i18n`). Their catalogs are ``guji/locale/<lang>/LC_MESSAGES/page.po``
(compiled ``page.mo`` beside), apart from the command line's (domain
``guji``), so that a reader's words and a terminal's are kept, checked and
translated each on its own.

* :func:`_`, :func:`ngettext` — a message, or the form of it for a count;
* :func:`N_` — marks a message kept in a table, translated where it is used;
* :func:`html_lang` — the BCP 47 tag of the language: ``zh-Hant``, ``zh-Hans``
  or ``en`` (a page's ``<html lang>``);
* :func:`script_words` — the studio script's messages in the chosen language,
  for the page to carry as JSON (the script itself holds only English keys).

Every function is read when it is called, not when a module is imported: the
language may be chosen after the modules are loaded.
"""

from __future__ import annotations

from . import i18n

#: The gettext domain of what a reader looks at.
DOMAIN = "page"


def _(message: str) -> str:
    """*message* in the chosen language (itself in English, or when not translated)."""
    return i18n.translator(DOMAIN).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of *singular*/*plural* for *n* in the chosen language."""
    return i18n.translator(DOMAIN).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """*message* itself: marked for the catalogs, translated where it is shown."""
    return message


def html_lang() -> str:
    """``zh-Hant``, ``zh-Hans`` or ``en``: the language the words are in."""
    return i18n.language()


def is_chinese() -> bool:
    """True when the words are Chinese (either script)."""
    return html_lang().startswith("zh")


def script_words(messages) -> dict[str, str]:
    """Each of *messages* (English, as the studio's script writes them) → its
    translation, for the script to look up; English gives an empty table."""
    if not is_chinese():
        return {}
    out = {}
    for message in messages:
        if isinstance(message, tuple):              # (singular, plural): both forms, by n
            one, many = message
            out[one] = ngettext(one, many, 1)
            out[many] = ngettext(one, many, 2)
        else:
            out[message] = _(message)
    return out

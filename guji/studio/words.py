"""The studio's page in the chosen language: its own words, and its script's.

The page (``assets/index.html``) writes each of its words as ``{{_ message}}``
(English); :func:`page` puts each in the language the studio was started in
(:mod:`guji.page_words`, gettext domain ``page``), sets ``<html lang>`` to it
and carries, as JSON in ``<script type="application/json" id="guji-words">``,
the translations the script needs: the script (``assets/studio.js``) writes
its messages in English as ``T("…")`` / ``TN("…", "…", n)`` and looks them up
there, so the script holds no language of its own. A JSON block is not run,
so the page's Content-Security-Policy (only the studio's own script) holds.
The extraction (``python -m guji.i18n_tools extract``) reads ``{{_ …}}`` from
the page and ``T``/``TN`` from the script.
"""

from __future__ import annotations

import html
import json
import re

from ..page_words import DOMAIN, _, html_lang, is_chinese
from .. import i18n

_MESSAGE = re.compile(r"\{\{_ (.+?)\}\}")


def script_words() -> dict[str, object]:
    """Every message of domain ``page`` in the chosen language, for the script:
    ``{message: translation}``, a counted message as ``{singular: [forms…]}``
    (Chinese has one form); English gives ``{}`` (the script's own words)."""
    if not is_chinese():
        return {}
    catalog = getattr(i18n.translator(DOMAIN), "_catalog", {})
    out: dict[str, object] = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):                      # (singular, form index)
            forms = out.setdefault(key[0], [])
            assert isinstance(forms, list)
            forms.extend([""] * (key[1] + 1 - len(forms)))
            forms[key[1]] = value
        elif key:
            out[key] = value
    return out


def page(template: str, token: str) -> str:
    """The studio's page from *template*: its words translated, its language
    said, the script's words carried, the session's *token* in."""
    words = json.dumps(script_words(), ensure_ascii=False, sort_keys=True)
    words = words.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    out = _MESSAGE.sub(lambda m: html.escape(_(m.group(1)), quote=True), template)
    return (out.replace("{{LANG}}", html_lang()).replace("{{WORDS}}", words)
            .replace("{{TOKEN}}", token))

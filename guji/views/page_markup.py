"""The shared page's markup: its style, and text escaped with its languages marked.

The page (:mod:`guji.views.page`) is English prose around Chinese names and
glyphs (魯鼓, 半, ○ □): :func:`zh` marks each run of Chinese characters
``lang="zh-Hant"`` so a screen reader speaks each part in its own language,
and :data:`STYLE` keeps the page whole at a phone's width (390 px): the
drawings keep their size (their text stays readable) inside regions that
scroll by themselves and take the keyboard's focus, as the alignment tables
and schedules do.
"""

from __future__ import annotations

import html

from ..errors import escape_controls, xml_text

STYLE = """
body { font-family: 'Noto Serif CJK TC', 'Noto Serif CJK SC', 'Source Han Serif TC', 'Songti TC',
       'PMingLiU', 'SimSun', 'Noto Sans CJK TC', 'Microsoft JhengHei', serif;
       margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; line-height: 1.5;
       overflow-wrap: anywhere; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
*, *::before, *::after { box-sizing: border-box; }
figure { margin: 1em 0; } .picture, .scroll { overflow: auto; max-width: 100%; }
.picture svg { display: block; }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
table.alignment { border-collapse: collapse; margin: .5em 0; }
table.alignment td, table.alignment th { border: 1px solid #ddd; padding: 0 .25em;
       text-align: center; min-width: 1.2em; }
table.alignment th { font-weight: normal; color: #555; text-align: left; white-space: nowrap; }
table.alignment td.differs { background: #ffe08a; }
table.alignment td.half { color: #a12a1e; }
table.alignment td.gap { color: #595959; }
.player { margin: 1em 0 1.5em; } .player audio { width: 100%; max-width: 40em; display: block; }
.schedule { background: #f6f6f6; padding: .5em; font-size: .9em; overflow-x: auto; }
.note { color: #555; font-size: .9em; }
"""


def e(text: object) -> str:
    """*text* for HTML: control characters shown escaped (U+001B), then HTML-escaped."""
    return html.escape(xml_text(escape_controls(str(text))), quote=True)


def zh(text: object) -> str:
    """*text* escaped, its runs of Chinese characters marked ``lang="zh-Hant"``
    (the page is English prose around Chinese names and glyphs)."""
    out, run = [], []
    for ch in e(text):
        if is_zh(ch):
            run.append(ch)
            continue
        if run:
            out.append(f'<span lang="zh-Hant">{"".join(run)}</span>')
            run = []
        out.append(ch)
    if run:
        out.append(f'<span lang="zh-Hant">{"".join(run)}</span>')
    return "".join(out)


def is_zh(ch: str) -> bool:
    """A CJK ideograph, a CJK mark or a drum glyph (○ □ ―)."""
    code = ord(ch)
    return (0x3000 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x3FFFF
            or ch in "○□―·")

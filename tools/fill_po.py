"""Fill a catalog's translations from a table (a translator's aid).

    python tools/fill_po.py DOMAIN TABLE.py     # TABLE.py: T = {msgid or (context, msgid): zh-Hant text, ...}

Writes each zh-Hant translation into guji/locale/zh_Hant/LC_MESSAGES/DOMAIN.po
(plural messages: the one Chinese form) and leaves zh_Hans to
``python -m guji.i18n_tools simplify`` (OpenCC t2s, then read over).
"""

import runpy
import sys

from babel.messages.pofile import write_po

from guji.i18n_tools import po_path, read


def main(domain: str, table: str) -> None:
    wanted = runpy.run_path(table)["T"]
    path = po_path(domain, "zh_Hant")
    catalog = read(path, "zh_Hant")
    filled = 0
    for message in catalog:
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.context:
            key = (message.context, key)
        if message.id and key in wanted:
            text = wanted[key]
            message.string = [text] if isinstance(message.id, (list, tuple)) else text
            message.flags.discard("fuzzy")
            filled += 1
    with open(path, "wb") as f:
        write_po(f, catalog, width=100, sort_output=True, ignore_obsolete=True)
    print(f"{path}: {filled} filled, {len(wanted) - filled} of the table not in the catalog")


if __name__ == "__main__":
    main(*sys.argv[1:])

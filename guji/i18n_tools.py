"""Keeping the catalogs (a developer's tool; needs Babel: ``pip install -e '.[test]'``).

    python -m guji.i18n_tools extract     # the code's messages → guji/locale/DOMAIN.pot
    python -m guji.i18n_tools update      # the .pot → each language's .po (translations kept)
    python -m guji.i18n_tools compile     # each .po → its .mo (what guji reads)
    python -m guji.i18n_tools all         # the three, in order
    python -m guji.i18n_tools check       # missing, fuzzy, placeholders differing, stale .mo
    python -m guji.i18n_tools unwrapped   # literal messages the code shows without _()

Domains (:data:`DOMAINS`): ``guji`` (the command line, from the package's
code, minus the page side's files), ``argparse`` (argparse's own words, from
the running Python's ``argparse.py``), and whatever another part adds to the
table (``page``). Translations are written in zh-Hant; zh-Hans is made from them
with OpenCC (``tw2sp``) by ``python -m guji.i18n_tools simplify`` and read over.
"""

from __future__ import annotations

import argparse as _argparse_module
import io
import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
LOCALE = PACKAGE / "locale"
LOCALES = ("zh_Hant", "zh_Hans")
#: Babel's keywords: _(), N_(), ngettext(), pgettext() (Babel's defaults) and NN_() (guji.i18n).
KEYWORDS = {"_": None, "N_": None, "NN_": (1, 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def _guji_files() -> list[Path]:
    skip = set(PAGE_FILES)
    return [p for p in sorted(PACKAGE.rglob("*.py"))
            if p.name != "i18n_tools.py" and str(p.relative_to(PACKAGE)) not in skip] + \
        [PACKAGE / "data" / "patterns" / "counts.toml"]     # its reasons: shown, translated


#: Files whose messages are the page side's (domain ``page``), not the command line's:
#: every module taking its words from :mod:`guji.page_words`, and the studio's page and script.
PAGE_FILES: tuple[str, ...] = (
    "page_words.py", "text/reading/names.py", "sheet/texts.py", "views/legend.py",
    "views/page_html.py", "views/source.py", "views/timeline.py", "views/page.py",
    "views/draw.py", "views/png.py", "studio/words.py", "studio/documents.py",
    "studio/exports.py", "studio/views.py", "studio/server.py",
    "studio/assets/index.html", "studio/assets/studio.js")


def _page_files() -> list[Path]:
    return [PACKAGE / name for name in PAGE_FILES]


#: domain → a function listing its source files, and its keywords.
DOMAINS = {
    "guji": (_guji_files, KEYWORDS),
    "page": (_page_files, {**KEYWORDS, "T": None, "TN": (1, 2)}),
    "argparse": (lambda: [Path(_argparse_module.__file__)],
                 {"_": None, "ngettext": (1, 2)}),
}


def extract(domain: str):
    """The catalog of *domain*'s messages as the code has them now (Babel)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file
    files, keywords = DOMAINS[domain]
    catalog = Catalog(project="guji", domain=domain, charset="utf-8", copyright_holder="the guji authors",
                      msgid_bugs_address="", fuzzy=False)
    for path in files():
        method = {".js": "javascript", ".html": extract_template,
                  ".toml": extract_reasons}.get(path.suffix, "python")
        for line, message, comments, context in extract_from_file(
                method, str(path), keywords=keywords, comment_tags=("TRANSLATORS:",)):
            where = _where(path)
            catalog.add(message, locations=[(where, line)], auto_comments=comments,
                        context=context, flags=_flags(message))
    return catalog


def extract_template(fileobj, keywords, comment_tags, options):
    """Babel's extractor for the studio's page: each ``{{_ message}}`` (one line)."""
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        for found in re.finditer(r"\{\{_ (.+?)\}\}", line):
            yield number, "_", found.group(1), []


def extract_reasons(fileobj, keywords, comment_tags, options):
    """Babel's extractor for ``patterns/counts.toml``: each ``reason = "…"`` (the
    doubts' reasons, shown translated by :meth:`guji.text.collation.checked.Doubt.said`)."""
    try:  # Python 3.11+
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        found = re.fullmatch(r"reason\s*=\s*(\".*\")\s*", line)
        if found:
            yield number, "_", tomllib.loads("reason = " + found.group(1))["reason"], []


def _where(path: Path) -> str:
    try:
        return str(path.relative_to(PACKAGE.parent))
    except ValueError:
        return path.name


def _flags(message) -> tuple[str, ...]:
    text = message if isinstance(message, str) else message[0]
    return ("python-format",) if re.search(r"%(\(\w+\))?[-#0 +]*\d*(\.\d+)?[sdrifx]", text) else ()


def po_path(domain: str, locale: str) -> Path:
    return LOCALE / locale / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, locale: str | None = None):
    from babel.messages.pofile import read_po
    with open(path, "rb") as f:
        return read_po(f, locale=locale)


def write_pot(domain: str) -> Path:
    from babel.messages.pofile import write_po
    LOCALE.mkdir(exist_ok=True)
    path = LOCALE / f"{domain}.pot"
    with open(path, "wb") as f:
        write_po(f, extract(domain), width=100, omit_header=False, sort_output=True)
    return path


def update(domain: str) -> list[Path]:
    """Each language's .po brought to the code: new messages empty, gone ones dropped."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    template = extract(domain)
    written = []
    for locale in LOCALES:
        path = po_path(domain, locale)
        catalog = read(path, locale) if path.exists() else Catalog(locale=locale, domain=domain)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            write_po(f, catalog, width=100, sort_output=True, ignore_obsolete=True)
        written.append(path)
    return written


def mo_bytes(po: Path, locale: str) -> bytes:
    """The compiled form of *po* (what ``compile`` writes)."""
    from babel.messages.mofile import write_mo
    out = io.BytesIO()
    write_mo(out, read(po, locale), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> list[Path]:
    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(po, po.parts[-3]))
        written.append(mo)
    return written


_BRACES = re.compile(r"\{\w*(?:![rsa])?(?::[^{}]*)?\}")


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields and ``%(name)s`` / ``%s`` conversions of *text*, sorted."""
    braces = _BRACES.findall(text.replace("{{", "").replace("}}", ""))
    percents = re.findall(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdrifx]", text)
    return sorted(braces + percents)


def problems(domain: str) -> list[str]:
    """What is wrong with *domain*'s catalogs: each a line ``file: msgid: what``."""
    found = []
    code = {m.id for m in extract(domain) if m.id}
    for locale in LOCALES:
        path = po_path(domain, locale)
        if not path.exists():
            found.append(f"{path}: missing")
            continue
        catalog = read(path, locale)
        ids = {m.id for m in catalog if m.id}
        found += [f"{path}: {_show(i)}: not in the catalog" for i in sorted(code - ids, key=str)]
        found += [f"{path}: {_show(i)}: no longer in the code" for i in sorted(ids - code, key=str)]
        found += _message_problems(path, catalog)
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(path, locale):
            found.append(f"{mo}: not compiled from {path.name} (python -m guji.i18n_tools compile)")
    return found


def _message_problems(path: Path, catalog) -> list[str]:
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy:
            found.append(f"{path}: {_show(message.id)}: fuzzy")
        if not all(strings):
            found.append(f"{path}: {_show(message.id)}: not translated")
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        wanted = placeholders(ids[-1])
        for s in strings:
            if placeholders(s) != wanted and placeholders(s) != placeholders(ids[0]):
                found.append(f"{path}: {_show(message.id)}: placeholders {placeholders(s)} "
                             f"differ from {wanted}")
        found += [f"{path}: {_show(message.id)}: {e}" for e in message.check(catalog)]
    return found


def _show(msgid) -> str:
    text = msgid if isinstance(msgid, str) else msgid[0]
    return repr(text if len(text) < 60 else text[:57] + "...")


def simplify(domain: str) -> int:
    """zh_Hans's .po from zh_Hant's: each translation through OpenCC's tw2sp
    (Taiwan's characters and words → the mainland's: 檔案 → 文件, 字串 → 字符串),
    then :data:`MAINLAND`, where zh_Hans has no translation yet (a translation
    read over and corrected is kept). Returns the number converted."""
    import opencc
    from babel.messages.pofile import write_po
    converter = opencc.OpenCC("tw2sp")
    hant, hans_path = read(po_path(domain, "zh_Hant"), "zh_Hant"), po_path(domain, "zh_Hans")
    hans = read(hans_path, "zh_Hans")
    changed = 0
    for message in hans:
        source = hant.get(message.id, message.context)
        if not message.id or source is None or not source.string:
            continue
        wanted = ([_mainland(converter.convert(s)) for s in source.string]
                  if isinstance(source.string, (list, tuple)) else _mainland(converter.convert(source.string)))
        if not _filled(message.string):
            message.string = wanted
            changed += 1
    with open(hans_path, "wb") as f:
        write_po(f, hans, width=100, sort_output=True, ignore_obsolete=True)
    return changed


#: Words OpenCC leaves in Taiwan's usage, in the mainland's (read over in review).
MAINLAND = {"预设": "默认", "列印": "打印", "萤幕": "屏幕", "伺服器": "服务器", "执行绪": "线程",
            "副档名": "扩展名", "档名": "文件名", "文本档": "文本文件", "档案": "文件", "档": "文件",
            "终端机": "终端", "空白键": "空格键", "反白": "高亮显示", "行程": "进程", "位元组": "字节",
            "印出": "输出", "连接埠": "端口", "离开": "退出",
            "音效卡": "声卡", "附加套件": "附加组件", "数位音讯": "数字音频", "音讯": "音频",
            "在线": "线上",   # OpenCC reads 線上 as "online"
            "16 比特": "16 位", "结束码": "退出码", "请回报": "请报告", "数字文本": "数字化文本",
            "工作阶段权杖": "会话令牌"}


def _mainland(text: str) -> str:
    for taiwan, mainland in MAINLAND.items():
        text = text.replace(taiwan, mainland)
    return text


def _filled(string) -> bool:
    return all(string) if isinstance(string, (list, tuple)) else bool(string)


def main(argv: list[str] | None = None) -> int:
    parser = _argparse_module.ArgumentParser(prog="python -m guji.i18n_tools",
                                             description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("extract", "update", "compile", "all", "check",
                                         "simplify", "unwrapped"))
    parser.add_argument("--domain", action="append", choices=sorted(DOMAINS))
    args = parser.parse_args(argv)
    domains = args.domain or list(DOMAINS)
    try:
        import babel  # noqa: F401
    except ImportError:
        print("i18n_tools: Babel is needed: pip install -e '.[test]'", file=sys.stderr)
        return 2
    return _step(args.step, domains)


def _step(step: str, domains: list[str]) -> int:
    if step in ("extract", "all"):
        for d in domains:
            print(write_pot(d))
    if step in ("update", "all"):
        for d in domains:
            print(*update(d), sep="\n")
    if step in ("compile", "all"):
        print(*compile_all(), sep="\n")
    if step == "simplify":
        for d in domains:
            print(f"{d}: {simplify(d)} converted by OpenCC tw2sp")
    if step == "unwrapped":
        from .i18n_unwrapped import shadowed, unwrapped
        found = shadowed(_guji_files()) + unwrapped(_guji_files())
        print(*found, sep="\n")
        return 1 if found else 0
    if step == "check":
        found = [p for d in domains for p in problems(d)]
        print(*found, sep="\n")
        for d in domains:
            _coverage(d)
        return 1 if found else 0
    return 0


def _coverage(domain: str) -> None:
    total = len([m for m in extract(domain) if m.id])
    for locale in LOCALES:
        path = po_path(domain, locale)
        if path.exists():
            done = len([m for m in read(path, locale) if m.id and _filled(m.string) and not m.fuzzy])
            print(f"{domain} {locale}: {done}/{total} messages translated")


if __name__ == "__main__":
    sys.exit(main())

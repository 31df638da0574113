"""guji in its users' languages, as a user meets it: the language from the
desktop's locale (LANG), the error with its line, column and caret in each
language, the same exit statuses, --help with no English sentence left, and
data (JSON) the same bytes whatever the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import runner

PATTERNS = Path(__file__).resolve().parents[1] / "patterns"
#: a 魯鼓 diagram with the Latin letter o typed for ○, after full-width text
TYPO = "魯鼓\n鼓：○□○○□o□○○□半○□○□○○○□□○□○\n"

EXPECTED = {
    "zh_TW.UTF-8": "guji：禮記.txt 第2行第8列：圖中有非鼓點的字元「o」（U+006F）：是否為 ○（鼙）？",
    "zh_CN.UTF-8": "guji：禮記.txt 第2行第8列：图中有非鼓点的字符「o」（U+006F）：是否为 ○（鼙）？",
    "C": "guji: 禮記.txt:2:8: unexpected text 'o' (U+006F) inside a pattern: did you mean ○ (鼙)?",
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_a_typo_in_the_desktops_language_with_its_caret(tmp_path, lang):
    (tmp_path / "禮記.txt").write_text(TYPO, encoding="utf-8")
    done = runner.guji(["scan", "禮記.txt"], tmp_path, env=runner.environment(LANG=lang))
    assert done.returncode == 2
    headline, source, caret = done.err_lines
    assert headline == EXPECTED[lang]
    assert source == "    鼓：○□○○□o□○○□半○□○□○○○□□○□○"
    # 鼓 and ： are full-width (a full-width space under each), ○ □ one column each: the o
    # is at column 4 + 9
    assert caret == " " * 4 + "\u3000" * 2 + " " * 5 + "^"


def test_lang_and_guji_lang_before_the_locale(tmp_path):
    (tmp_path / "禮記.txt").write_text(TYPO, encoding="utf-8")
    env = runner.environment(LANG="zh_CN.UTF-8", GUJI_LANG="zh-Hant")
    assert runner.guji(["scan", "禮記.txt"], tmp_path, env=env).err_lines[0] == EXPECTED["zh_TW.UTF-8"]
    done = runner.guji(["--lang", "en", "scan", "禮記.txt"], tmp_path, env=env)
    assert done.err_lines[0] == EXPECTED["C"]
    done = runner.guji(["scan", "--lang=zh-TW", "禮記.txt"], tmp_path, env=runner.environment())
    assert done.err_lines[0] == EXPECTED["zh_TW.UTF-8"]
    bad = runner.guji(["--lang", "tlh", "list"], tmp_path)
    assert (bad.returncode, bad.err_lines) == (2, [
        "guji: unknown language 'tlh' for --lang (choose from en, zh-Hant, zh-Hans)"])


def test_argparse_speaks_the_language_too(tmp_path):
    done = runner.guji(["--lang", "zh-Hant", "scan"], tmp_path)
    assert done.returncode == 2
    assert done.err_lines[-1] == "guji scan：錯誤：缺少以下參數：PATH（見「guji scan --help」）"
    usage = runner.guji(["--lang", "zh-Hans", "scan", "--help"], tmp_path).stdout.decode()
    assert usage.startswith("用法：guji scan") and "\n选项:\n" in usage


@pytest.mark.parametrize("option, value, said", [
    ("--map", "鼙=x", "'鼙=x'：鍵須是 0–127 的整數"),
    ("--velocity", "鼙=0", "'鼙=0'：力度須在 1–127 之間，不是 0"),
])
def test_play_and_midi_say_a_bad_voice_table_alike(tmp_path, option, value, said):
    """play's --map/--velocity are midi's (one parser): the same words, in Chinese too."""
    for command in ("midi", "play"):
        done = runner.guji(["--lang", "zh-Hant", command, "lu", option, value], tmp_path)
        assert done.returncode == 2
        assert done.err_lines[-1] == (f"guji {command}：錯誤：參數 {option}：{said}"
                                      f"（見「guji {command} --help」）")


JSON_COMMANDS = [
    ["scan", "--json", str(PATTERNS / "liji-zhengyi.txt")],
    ["list", "--json"], ["show", "--json", "lu:1"], ["glyphs", "--json"],
    ["claims", "--json", str(PATTERNS / "wuli-tongkao.txt")],
    ["collate", "--json"],
]


@pytest.mark.parametrize("argv", JSON_COMMANDS, ids=lambda a: a[0])
def test_json_is_the_same_bytes_in_every_language(tmp_path, argv):
    outs = {}
    for lang in ("en", "zh-Hant", "zh-Hans"):
        done = runner.guji(["--lang", lang, *argv], tmp_path)
        assert done.returncode == 0, done.stderr
        outs[lang] = done.stdout
    assert outs["zh-Hant"] == outs["en"] and outs["zh-Hans"] == outs["en"]
    assert outs["en"].strip()


#: Words allowed in a Chinese --help: option names, metavars, ids, formats, tools.
_LATIN = re.compile(r"[A-Za-z][\w'’.-]*(?:\s+[A-Za-z][\w'’.-]*){3,}")
#: A command line quoted in the help (the words of a program, not a sentence).
_COMMANDS = ("guji ", "python ", "apt-get ", "brew ", "pip ", "man ")


def english_sentences(text: str) -> list[str]:
    """Runs of four or more Latin words outside usage lines and option names:
    what is left untranslated (a sentence), not a name (``--labels after``)."""
    found = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("用法：", "-", "[")) or not stripped:
            continue
        found += [m.group() for m in _LATIN.finditer(line) if not _code(m.group())]
    return found


def _code(words: str) -> bool:
    return words.startswith(_COMMANDS) or words.isupper()


def test_every_commands_help_in_zh_hans_has_no_english_sentence(tmp_path):
    from guji.cli.main import COMMANDS
    left = {}
    for command in ("", *COMMANDS):
        argv = ["--lang", "zh-Hans", *([command] if command else []), "--help"]
        done = runner.guji(argv, tmp_path)
        assert done.returncode == 0, done.stderr
        text = done.stdout.decode("utf-8")
        assert text.startswith("用法：guji")
        found = english_sentences(text)
        if found:
            left[command or "guji"] = found
    assert left == {}
    english = runner.guji(["--lang", "en", "scan", "--help"], tmp_path).stdout.decode()
    assert "find the drum diagrams in a text file" in " ".join(english_sentences(english)).lower()


README_NAMES = ("README.md", "README.zh-Hant.md", "README.zh-Hans.md")


def test_three_readmes_linked_from_their_first_lines_with_the_same_two_commands():
    root = Path(__file__).resolve().parents[1]
    texts = {name: (root / name).read_text(encoding="utf-8") for name in README_NAMES}
    commands = {}
    for name, text in texts.items():
        first = text.splitlines()[0]
        others = [n for n in README_NAMES if n != name]
        assert all(f"]({n})" in first for n in others), (name, first)
        commands[name] = re.findall(r"```sh\n(.*?)```", text, re.S)[:2]
    assert commands["README.zh-Hant.md"] == commands["README.md"] == commands["README.zh-Hans.md"]
    assert len(commands["README.md"]) == 2


def test_the_translations_keep_the_glossarys_terms():
    """Where a message's English has a glossary word, its zh-Hant has the term."""
    from guji.i18n_tools import po_path, read
    terms = {"variant note": ("異文注",), "count-in": ("預備拍",), "edition": ("版本", "校勘本"),
             "touhu": ("投壺",), "pattern id": ("圖號",), "witness": ("本",), "collate": ("校勘",)}
    catalog = read(po_path("guji", "zh_Hant"), "zh_Hant")
    wrong = []
    for message in catalog:
        english = message.id if isinstance(message.id, str) else message.id[0]
        chinese = message.string if isinstance(message.string, str) else message.string[0]
        for word, term in terms.items():
            if english and re.search(rf"(?<!guji )(?<![-\w{{]){re.escape(word)}\b", english) and not any(t in chinese for t in term):
                wrong.append((word, english[:60]))
    assert wrong == []


def test_midi_files_are_the_same_bytes_in_every_language(tmp_path):
    outs = set()
    for lang in ("en", "zh-Hant", "zh-Hans"):
        done = runner.guji(["--lang", lang, "midi", "lu:1", "xue:2@wuli-tongkao", "--count-in", "2",
                            "-o", f"{lang}.mid"], tmp_path)
        assert done.returncode == 0, done.stderr
        outs.add((tmp_path / f"{lang}.mid").read_bytes())
    assert len(outs) == 1

"""The languages (guji.i18n): how the language is chosen, and catalogs that
cannot rot (every message of the code in them, none missing or fuzzy, the
placeholders the same in every language, the .mo files compiled from the .po
files, read without Babel, shipped in the wheel).

Windows and macOS are simulated on this Linux machine: their look-ups
(``GetUserDefaultUILanguage`` through ctypes, ``defaults read -g
AppleLanguages``) are replaced by functions giving what those systems give."""

from __future__ import annotations

import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from guji import i18n, i18n_tools

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("tag, lang", [
    ("zh_TW.UTF-8", "zh-Hant"), ("zh_HK.UTF-8", "zh-Hant"), ("zh_MO", "zh-Hant"),
    ("zh-Hant", "zh-Hant"), ("zh-Hant-CN", "zh-Hant"), ("zh_TW.Big5@stroke", "zh-Hant"),
    ("zh_CN.UTF-8", "zh-Hans"), ("zh_SG.GB2312", "zh-Hans"), ("zh-Hans", "zh-Hans"),
    ("zh-Hans-HK", "zh-Hans"), ("zh", "zh-Hans"),
    ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"), ("en_GB.UTF-8", "en"), ("ja_JP.UTF-8", "en"),
    ("fr_FR@euro", "en"),
])
def test_locale_tags_map_to_the_three_languages(tag, lang):
    assert i18n.normalise(tag) == lang


def test_lang_then_guji_lang_then_the_system():
    env = {"GUJI_LANG": "zh-Hans", "LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}
    assert i18n.choose("zh-TW", env, platform="linux") == "zh-Hant"
    assert i18n.choose(None, env, platform="linux") == "zh-Hans"
    del env["GUJI_LANG"]
    assert i18n.choose(None, env, platform="linux") == "zh-Hant"          # LC_ALL over LANG
    assert i18n.choose(None, {"LC_MESSAGES": "zh_CN", "LANG": "zh_TW"}, platform="linux") == "zh-Hans"
    assert i18n.choose(None, {"LANG": "zh_HK.UTF-8"}, platform="linux") == "zh-Hant"
    assert i18n.choose(None, {}, platform="linux") == "en"
    with pytest.raises(i18n.LanguageError):
        i18n.choose("klingon", {}, platform="linux")


def test_windows_ui_language_simulated(monkeypatch):
    """Windows: no LANG in a console, the display language through
    GetUserDefaultUILanguage (a LANGID, 0x0C04 Hong Kong), simulated by a fake
    ``ctypes.windll``; a Git Bash's LANG still counts first."""
    import ctypes
    kernel32 = types.SimpleNamespace(GetUserDefaultUILanguage=lambda: 0x0C04)
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32), raising=False)
    assert i18n.choose(None, {}, platform="win32") == "zh-Hant"
    kernel32.GetUserDefaultUILanguage = lambda: 0x0804        # 中文(中华人民共和国)
    assert i18n.choose(None, {}, platform="win32") == "zh-Hans"
    assert i18n.choose(None, {"LANG": "en_US.UTF-8"}, platform="win32") == "en"
    monkeypatch.delattr(ctypes, "windll")
    assert i18n.choose(None, {}, platform="win32") == "en"     # no look-up: English


def test_macos_preferred_languages_simulated():
    """macOS: the first of AppleLanguages (the output of ``defaults read -g
    AppleLanguages`` as macOS prints it), over Terminal's LANG; LC_ALL first."""
    printed = '(\n    "zh-Hant-TW",\n    "en-US"\n)\n'
    assert i18n.parse_apple_languages(printed) == "zh-Hant-TW"
    mac = dict(platform="darwin", mac_languages=lambda: i18n.parse_apple_languages(printed))
    assert i18n.choose(None, {"LANG": "en_US.UTF-8"}, **mac) == "zh-Hant"
    assert i18n.choose(None, {"LC_ALL": "zh_CN.UTF-8"}, **mac) == "zh-Hans"
    assert i18n.choose(None, {"LANG": "zh_CN.UTF-8"}, platform="darwin",
                       mac_languages=lambda: None) == "zh-Hans"


def test_translation_switches_with_the_language():
    english = "show guji's version and exit"
    try:
        i18n.use("zh-Hant")
        hant = i18n._(english)
        i18n.use("zh-Hans")
        hans = i18n._(english)
        assert hant == "顯示 guji 的版本後結束" and hans == "显示 guji 的版本后结束"
        assert i18n.translator("argparse").gettext("usage: ") == "用法："
    finally:
        i18n.use("en")
    assert i18n._(english) == english


@pytest.mark.parametrize("domain", sorted(i18n_tools.DOMAINS))
def test_catalogs_complete_and_compiled(domain):
    """Every message the code wraps is in each language's catalog; none is
    missing, fuzzy or has other placeholders than the English (Babel's checks
    and guji's {name} check); each .mo is what the .po compiles to."""
    assert i18n_tools.problems(domain) == []


def test_placeholder_check_catches_a_difference():
    assert i18n_tools.placeholders("{name}:{line}: %(x)s, 50%%") == ["%(x)s", "{line}", "{name}"]
    assert i18n_tools.placeholders("{{literal}}") == []


def test_catalogs_load_without_babel(tmp_path):
    code = ("import sys; sys.modules['babel'] = None\n"
            "from guji import i18n; i18n.use('zh-Hant')\n"
            "print(i18n._(\"show guji's version and exit\"))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         encoding="utf-8", check=True, cwd=tmp_path).stdout
    assert out.strip() == "顯示 guji 的版本後結束"


def test_the_wheel_ships_the_compiled_catalogs(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("guji-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("zh_Hant", "zh_Hans"):
        for domain in ("guji", "argparse"):
            assert f"guji/locale/{lang}/LC_MESSAGES/{domain}.mo" in names


#: Modules whose every message is wrapped: they stay so (python -m guji.i18n_tools
#: unwrapped lists what is left elsewhere).
WRAPPED = ["errors.py", "cli/main.py", "cli/commands/scan.py", "text/reading/parser.py",
           "text/reading/typos.py", "text/reading/hidden.py", "text/reading/labels.py",
           "text/reading/scan.py", "text/reading/encoding.py", "text/reading/editions.py",
           "files.py", "timing/score.py", "sound/kit.py", "sound/recordings.py",
           "cli/commands/show.py", "cli/commands/list.py", "cli/commands/claims.py"]


def test_wrapped_modules_stay_wrapped_and_none_shadows_the_translator():
    from guji.i18n_unwrapped import shadowed, unwrapped
    package = Path(i18n_tools.__file__).parent
    assert unwrapped([package / m for m in WRAPPED]) == []
    assert shadowed(i18n_tools._guji_files()) == []


def test_the_unwrapped_finder_finds(tmp_path):
    from guji.i18n_unwrapped import shadowed, unwrapped
    sample = tmp_path / "sample.py"
    sample.write_text("class GujiError(Exception): pass\nclass BadThing(GujiError): pass\n"
                      "def f(x):\n    raise BadThing(f'bad thing {x}')\n"
                      "def g():\n    print('hello there')\n    print(_('fine here'))\n"
                      "def h(pair):\n    a, _ = pair\n    return _('shadowed')\n", encoding="utf-8")
    found = unwrapped([sample])
    assert [line.split(":")[1] for line in found] == ["4", "6"]
    assert [line.rsplit(" ", 1)[-1] for line in shadowed([sample])] == ["h"]

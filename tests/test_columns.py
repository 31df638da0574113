"""What a Chinese session shows, laid out in terminal columns (issue 23's leftovers).

A terminal gives 鼓, 半, 相符, 「用法：」 two columns a character: guji's tables
(``guji list``, ``guji claims``) and argparse's usage are padded by display
width (guji.cli.columns), so each column starts at the same terminal column
on every line, in every language. Claims' 半/全, collate's mismatches, the
reasons a count is not read and compare's header are in the user's language;
``CheckedClaim.describe()`` too. Each check runs ``python -m guji`` as a user
does, with only the language chosen.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

import runner

PATTERNS = Path(__file__).resolve().parents[1] / "patterns"


def width(text: str) -> int:
    """Terminal columns, counted here on their own (not guji's function): East
    Asian Wide and Fullwidth are 2, combining marks 0, the rest 1."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def column(line: str, text: str) -> int:
    """The terminal column where *text* starts in *line*."""
    assert text in line, (text, line)
    return width(line[:line.index(text)])


def lines_of(args: list[str], tmp_path: Path, lang: str, **env: str) -> list[str]:
    done = runner.guji(["--lang", lang, *args], tmp_path, env=runner.environment(**env))
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8").splitlines()


def starts(line: str) -> list[tuple[int, str]]:
    """(terminal column, word) of each word of *line*."""
    return [(width(line[:m.start()]), m.group()) for m in re.finditer(r"\S+", line)]


@pytest.mark.parametrize("lang, heads", [
    ("en", ("id", "score", "diagram", "edition", "whole", "鼙/鼓", "half", "鼙/鼓")),
    ("zh-Hant", ("圖號", "譜", "圖", "版本", "全圖", "鼙/鼓", "半", "鼙/鼓")),
])
def test_guji_list_columns_start_at_one_terminal_column(tmp_path, lang, heads):
    header, *rows = lines_of(["list"], tmp_path, lang)
    head = starts(header)
    assert tuple(word for _, word in head) == heads
    assert len(rows) == 12
    slashes, titles = set(), set()
    for row in rows:
        words = starts(row)      # id, 魯鼓, diagram, edition, n / n, n / n, title
        assert len(words) == 11, row
        # the 魯鼓/薛鼓 column (2 characters, 4 columns) does not pull the next ones left
        assert [c for c, _ in words[:4]] == [c for c, _ in head[:4]], (row, header)
        slashes.add((words[5][0], words[8][0]))
        titles.add(words[10][0])
    assert len(slashes) == 1 and len(titles) == 1, rows


def test_guji_claims_says_half_and_whole_as_the_commentaries_do_in_columns(tmp_path):
    en = lines_of(["claims", "lijing-benyi"], tmp_path, "en")
    zh = lines_of(["claims", "lijing-benyi"], tmp_path, "zh-Hant")
    rows = [line for line in zh if line.startswith("  魯鼓") or line.startswith("  薛鼓")]
    assert len(rows) == 16 == len([line for line in en if line.startswith(("  魯鼓", "  薛鼓"))])
    assert {row.split()[2] for row in rows} == {"半", "全"}
    assert not any("half" in row or "whole" in row for row in rows)
    # the verdict (相符 / 不符) and the place (1:244) start at one column on every row
    verdicts = {column(row, "相符" if "相符" in row else "不符") for row in rows}
    places = {column(row, " 1:") for row in rows}
    assert len(verdicts) == 1 and len(places) == 1, rows
    assert sum("不符" in row for row in rows) == 2
    # the doubted count's reason (patterns/counts.toml, English in the JSON) is read in Chinese
    doubted = zh[zh.index(next(r for r in rows if "不符" in r)) + 1]
    assert doubted.startswith("      原刻作「鼔声七」") and "as printed" not in "\n".join(zh)
    english = [line for line in en if line.startswith(("  魯鼓", "  薛鼓"))]
    assert {row.split()[2] for row in english} == {"half", "whole"}
    assert len({column(row, "agrees" if "agrees" in row else "DIFFERS") for row in english}) == 1


def test_counts_not_read_as_claims_are_warned_about_in_the_users_language(tmp_path):
    (tmp_path / "t.txt").write_text("魯鼓 ○□○○□□○□○○□半○□○□○○○□□○□○\n前圖鼙聲七鼓聲五。\n",
                                    encoding="utf-8")
    done = runner.guji(["claims", "t.txt"], tmp_path, env=runner.environment(LANG="zh_TW.UTF-8"))
    assert done.returncode == 0
    assert done.err_lines == [
        "guji：t.txt 第2行第3列：注意：數「鼙聲七」未讀作所言之數：句終而未有譜名",
        "guji：t.txt 第2行第6列：注意：數「鼓聲五」未讀作所言之數：句終而未有譜名"]
    english = runner.guji(["claims", "t.txt"], tmp_path).err_lines
    assert english[0] == ("guji: t.txt:2:3: warning: count 鼙聲七 not read as a claim: the "
                          "sentence ends before any score names the counts")


def test_collate_s_mismatches_and_claims_say_half_and_whole_in_chinese(tmp_path):
    zh = lines_of(["collate"], tmp_path, "zh-Hans", )
    mismatches = [line for line in zh if line.startswith("  不符 ")]
    assert mismatches and all(("：全 " in m or "：半 " in m) for m in mismatches), mismatches
    assert not any("whole" in line or "half" in line for line in zh)
    said = [line for line in zh if "所言之数（" in line]
    assert said and all("半 鼙" in line and "全 鼓" in line for line in said), said
    en = lines_of(["collate"], tmp_path, "en")
    assert any(line.startswith("  MISMATCH wuli-tongkao: whole 鼙 12, claimed 13") for line in en)


@pytest.mark.parametrize("lang, header", [
    ("en", "compare sequence: lu:1@liji-zhengyi, xue:1@liji-zhengyi"),
    ("zh-Hant", "比較（sequence）：lu:1@liji-zhengyi，xue:1@liji-zhengyi"),
    ("zh-Hans", "比较（sequence）：lu:1@liji-zhengyi，xue:1@liji-zhengyi"),
])
def test_compare_s_header_line_in_each_language(tmp_path, lang, header):
    lines = lines_of(["compare", "lu", "xue", "-o", "both.mid"], tmp_path, lang)
    assert lines[0] == header
    assert (tmp_path / "both.mid").stat().st_size > 0


@pytest.mark.parametrize("lang, prefix", [("en", "usage: "), ("zh-Hant", "用法："),
                                          ("zh-Hans", "用法：")])
@pytest.mark.parametrize("columns", ["60", "80"])
def test_usage_continues_under_the_command_and_fits_the_terminal(tmp_path, lang, prefix, columns):
    text = "\n".join(lines_of(["compare", "--help"], tmp_path, lang, COLUMNS=columns))
    usage = text.split("\n\n")[0].splitlines()
    lead = prefix + "guji compare "
    assert usage[0].startswith(lead) and len(usage) > 3
    for line in usage[1:]:
        # each continuation starts under the first option, counted in terminal columns
        assert line.startswith(" " * width(lead)) and line[width(lead)] != " ", (line, width(lead))
        # argparse leaves 2 columns; one option too long for a line is the only overflow
        assert width(line) <= int(columns) - 2 or line.strip().count(" [") == 0, line


def test_a_claim_described_in_the_users_language():
    from guji import i18n
    from guji.text.collation.corpus import shipped_text
    claim = next(c for c in shipped_text("lijing-benyi").claims if c.claim.part == "half")
    english = claim.describe()
    assert english.startswith("魯鼓 1 half 鼙 7 (鼙声七, lijing-benyi 1:")
    was = i18n.language()
    try:
        i18n.use("zh-Hant")
        assert claim.describe() == english.replace(" half ", " 半 ").replace(" (", "（") \
            .replace(", ", "，").replace(")", "）")
    finally:
        i18n.use(was)


def test_compare_s_bells_are_data_in_english_and_said_in_the_users_language(tmp_path):
    # a bell's label is a MIDI marker (data: the same bytes in every language); the marks
    # a person reads (the schedule printed before playing or writing) are in their language;
    # the live display shows strokes only (the bells ring, no line is drawn for them)
    import mido
    said, files = {}, set()
    for lang in ("en", "zh-Hant"):
        said[lang] = lines_of(["compare", "lu:1", "lu:1@wuli-tongkao", "--mode", "diff", "--rite",
                               "she", "-o", f"{lang}.mid"], tmp_path, lang)
        files.add((tmp_path / f"{lang}.mid").read_bytes())
    assert len(files) == 1
    markers = [m.text for track in mido.MidiFile(tmp_path / "en.mid", charset="utf-8").tracks
               for m in track if m.type == "marker"]
    mark = next(m for m in markers if "stroke 4" in m)
    assert mark.isascii() is False and "wuli-tongkao" in mark
    assert any(line.strip() == "1.80 s  " + mark for line in said["en"]), said["en"]
    zh = [line for line in said["zh-Hant"] if line.strip().startswith("1.80 秒")]
    assert zh and "第 4 擊" in zh[0] and "stroke" not in zh[0], said["zh-Hant"]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_every_help_fits_an_80_column_terminal_in_chinese(tmp_path, lang):
    # argparse wrapped Chinese help by characters: compare's description ran to 123 columns
    from guji.cli.main import COMMANDS
    closing = tuple("，。、；：）」")
    for command in ("", *COMMANDS):
        lines = lines_of([command, "--help"] if command else ["--help"], tmp_path, lang,
                         COLUMNS="80")
        # argparse's width is the terminal's less 2 columns
        wide = [line for line in lines if width(line) > 78]
        starts_badly = [line for line in lines if line.strip().startswith(closing)]
        assert (wide, starts_badly) == ([], []), command


def test_wrap_breaks_between_cjk_characters_never_inside_a_word_nor_before_a_closer():
    from guji.cli.columns import wrap
    text = "把一聲部置於 -1（左）至 1（右）之間，如 --pan 鼙=-0.5 --pan big=0.5（聲部：small／鼙、big／鼓、click、cue）；優先於鼓組的設定"
    lines = wrap(text, 54)
    assert all(width(line) <= 54 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert lines[-1].startswith("cue）；")            # the closers take their word along
    assert wrap("一二三四五六七", 6) == ["一二三", "四五六", "七"]
    assert wrap("guji --pan big=0.5 甲乙", 10) == ["guji --pan", "big=0.5 甲", "乙"]
    assert wrap("averyverylongword 甲", 5) == ["averyverylongword", "甲"]


def test_table_pads_by_display_width():
    from guji.cli.columns import table
    lines = table([("魯鼓", "1", "禮記正義"), ("xue", "12", "x")], right=(1,), indent="  ")
    assert lines == ["  魯鼓   1  禮記正義", "  xue   12  x"]
    # the last column starts at terminal column 12 on both lines (魯鼓 is 4 columns, xue 3)
    assert [width(line) - width(line.split()[-1]) for line in lines] == [12, 12]


def test_guji_glyphs_says_where_each_glyph_is_seen_in_chinese(tmp_path):
    zh = "\n".join(lines_of(["glyphs"], tmp_path, "zh-Hant"))
    assert "  〇  U+3007  〇 IDEOGRAPHIC NUMBER ZERO：guji 所據各版本及數位文本皆未見（出處不詳）" in zh.splitlines()
    assert not any(word in zh for word in ("digitised", "lookalike", "other digitisations"))
    en = lines_of(["glyphs"], tmp_path, "en")
    assert "  〇  U+3007  〇 IDEOGRAPHIC NUMBER ZERO: seen in no edition or digitisation guji holds (source unknown)" in en


def test_no_midi_system_is_advised_in_the_users_language(tmp_path):
    import os
    if os.path.exists("/dev/snd/seq"):
        pytest.skip("this machine has an ALSA sequencer")
    none = {"JACK_DEFAULT_SERVER": "guji-no-such-server", "JACK_NO_START_SERVER": "1"}
    for args in (["play", "lu", "--midi-out", "--no-audio"], ["ports"]):
        zh = runner.guji(args, tmp_path, env=runner.environment(LANG="zh_TW.UTF-8", **none))
        en = runner.guji(args, tmp_path, env=runner.environment(LANG="C", **none))
        assert zh.returncode == en.returncode == 2
        assert en.err_lines[0].startswith("guji: no MIDI system: no ALSA sequencer"), en.stderr
        assert zh.err_lines == ["guji：沒有 MIDI 系統：沒有 ALSA sequencer（缺 /dev/snd/seq：「sudo "
                                "modprobe snd-seq」），也沒有 JACK 伺服器（請啟動一個，如「jackd -d "
                                "dummy -r 48000」）；或以「guji midi」寫成 MIDI 檔"], zh.stderr

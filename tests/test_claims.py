"""Count claims read from commentators' prose (guji.text.collation.claims)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guji.cli.main import main
from guji.text.collation.checked import NEAR, text_claims
from guji.text.collation.claims import Claim, find_claims, read_claims
from guji.text.reading.scan import scan
from guji.text.reading.notation import Drum, Tradition
from guji.text.apparatus.numerals import numeral_value

#: 徐伯鲁 in the 礼经本义 (patterns/lijing-benyi.txt, the last 【…】 note), as printed.
XU_BOLU = ("【郝仲舆曰此与前图异亦一家之説附録于此徐伯鲁曰鲁薛之鼔既异谱而传之者又异故记者两存之然年代乆逺"
           "无以知其得失阙之可也今按前图鼙声七鼔声五此鲁鼓之半也其全则鼙声十三鼔声十鼙声五鼔声七此薛鼔之半也"
           "其全则鼙声十六鼔声十二后图鼙声九鼔声四此鲁鼔之半也其全则鼙声十四鼓声七鼙声七鼓声三此薛鼔之半也"
           "其全则鼙声二十一鼔声十然以诗序考之恐当以前图为正】")

XU_BOLU_CLAIMS = [
    ("魯", 1, "half", "鼙", 7), ("魯", 1, "half", "鼓", 5),
    ("魯", 1, "whole", "鼙", 13), ("魯", 1, "whole", "鼓", 10),
    ("薛", 1, "half", "鼙", 5), ("薛", 1, "half", "鼓", 7),
    ("薛", 1, "whole", "鼙", 16), ("薛", 1, "whole", "鼓", 12),
    ("魯", 2, "half", "鼙", 9), ("魯", 2, "half", "鼓", 4),
    ("魯", 2, "whole", "鼙", 14), ("魯", 2, "whole", "鼓", 7),
    ("薛", 2, "half", "鼙", 7), ("薛", 2, "half", "鼓", 3),
    ("薛", 2, "whole", "鼙", 21), ("薛", 2, "whole", "鼓", 10),
]


def tuples(claims):
    return [(c.tradition.value, c.diagram, c.part, c.drum.value, c.count) for c in claims]


def check_spans(text, claims):
    for c in claims:
        assert text[c.offset:c.offset + len(c.text)] == c.text


def test_xu_bolu_exactly_sixteen():
    claims, lost = read_claims(XU_BOLU)
    assert tuples(claims) == XU_BOLU_CLAIMS
    assert lost == []
    check_spans(XU_BOLU, claims)
    # the printed 七 of the 薛 half of diagram 1 (the pattern implies 3) stays 7
    printed = claims[5]
    assert printed.text == "鼔声七" and printed.count == 7 and printed.numeral == "七"
    assert claims[14].text == "鼙声二十一" and claims[14].numeral == "二十一"


SEEDS = Path(__file__).parent / "data" / "seeds"


def test_xu_bolu_in_the_whole_seed():
    text = (SEEDS / "000_a32c6902e9fda003.txt").read_text(encoding="utf-8")
    claims = find_claims(text)
    assert tuples(claims) == XU_BOLU_CLAIMS
    check_spans(text, claims)


def test_xu_bolu_traditional_and_punctuated():
    text = ("徐伯魯曰：魯、薛之鼓既異，譜而傳之者又異。今按：前圖鼙聲七，鼓聲五，此魯鼓之半也；"
            "其全則鼙聲十三，鼓聲十。鼙聲五，鼓聲七，此薛鼓之半也；其全則鼙聲十六，鼓聲十二。"
            "後圖鼙聲九，鼓聲四，此魯鼓之半也；其全則鼙聲十四，鼓聲七。鼙聲七，鼓聲三，此薛鼓之半也；"
            "其全則鼙聲二十一，鼓聲十。然以詩序考之，恐當以前圖為正。")
    claims, lost = read_claims(text)
    assert tuples(claims) == XU_BOLU_CLAIMS
    assert lost == []
    check_spans(text, claims)


def test_score_before_counts():
    text = "魯則圜十三方十薛則圜十六方十二"
    claims = find_claims(text)
    assert tuples(claims) == [("魯", None, "whole", "鼙", 13), ("魯", None, "whole", "鼓", 10),
                              ("薛", None, "whole", "鼙", 16), ("薛", None, "whole", "鼓", 12)]
    assert [(c.text, c.offset) for c in claims] == \
        [("圜十三", 2), ("方十", 5), ("圜十六", 9), ("方十二", 12)]


@pytest.mark.parametrize("text, expected", [
    # a weak diagram word before the score
    ("上魯則圜十三方十，薛則圜十六方十二",
     [("魯", 1, "whole", "鼙", 13), ("魯", 1, "whole", "鼓", 10),
      ("薛", 1, "whole", "鼙", 16), ("薛", 1, "whole", "鼓", 12)]),
    ("此魯則圓十四方七", [("魯", 2, "whole", "鼙", 14), ("魯", 2, "whole", "鼓", 7)]),
    # strong diagram words hold across sentences
    ("前圖：魯則圜十三，方十；薛則圜十六，方十二。後圖：魯則圜十四，方七；薛則圜廿一，方十。",
     [("魯", 1, "whole", "鼙", 13), ("魯", 1, "whole", "鼓", 10),
      ("薛", 1, "whole", "鼙", 16), ("薛", 1, "whole", "鼓", 12),
      ("魯", 2, "whole", "鼙", 14), ("魯", 2, "whole", "鼓", 7),
      ("薛", 2, "whole", "鼙", 21), ("薛", 2, "whole", "鼓", 10)]),
    # score + part first, then 其全
    ("后图鲁鼓之半，鼙九鼓四；其全，鼙十四鼓七。",
     [("魯", 2, "half", "鼙", 9), ("魯", 2, "half", "鼓", 4),
      ("魯", 2, "whole", "鼙", 14), ("魯", 2, "whole", "鼓", 7)]),
    ("薜鼓半：圜者七，方者三", [("薛", None, "half", "鼙", 7), ("薛", None, "half", "鼓", 3)]),
    # a part word before the counts, the score after them
    ("半，鼙聲七鼓聲五，魯鼓也", [("魯", None, "half", "鼙", 7), ("魯", None, "half", "鼓", 5)]),
    # digits, 兩, 卅
    ("魯鼓鼙聲13鼓聲１０", [("魯", None, "whole", "鼙", 13), ("魯", None, "whole", "鼓", 10)]),
    ("薛則鼙兩鼓卅", [("薛", None, "whole", "鼙", 2), ("薛", None, "whole", "鼓", 30)]),
    # 鞞 for 鼙, 鼔 for 鼓
    ("魯鼔鞞聲十三鼔十", [("魯", None, "whole", "鼙", 13), ("魯", None, "whole", "鼓", 10)]),
])
def test_constructed(text, expected):
    claims, lost = read_claims(text)
    assert tuples(claims) == expected
    assert lost == []
    check_spans(text, claims)


def test_its_whole_in_the_next_sentence():
    text = "今按：前圖鼙聲七、鼓聲五，此魯鼓之半也。其全，則鼙聲十三、鼓聲十。"
    assert tuples(find_claims(text)) == XU_BOLU_CLAIMS[:4]
    # prose between forgets the score: the counts are reported, not claimed
    claims, lost = read_claims("此魯鼓之半也。然其全則鼙聲十三")
    assert claims == [] and len(lost) == 1


def test_count_broken_over_a_line():
    text = "今按前圖鼙聲十\n三鼓聲\n十此魯鼓之全也"
    (a, b) = find_claims(text)
    assert (a.count, a.text, a.numeral) == (13, "鼙聲十\n三", "十三")
    assert (b.count, b.text) == (10, "鼓聲\n十")
    assert (a.part, a.diagram) == ("whole", 1)


@pytest.mark.parametrize("text", [
    "蕙田案大戴礼作堂下司正司射庭长及冠士立者今案郑注庭长即司正则出司正非也又此二句之下有云降揖其阼阶及乐事皆与射同节十三字",
    "【禮記正義 卷第五十八】",
    "然年代乆逺无以知其得失阙之可也",
    "鲁薛之鼔既异谱而传之者又异故记者两存之",
    "圜者擊鼙，方者擊鼓。古者舉事，鼓各有節。",
    "魯哀公十四年，鼓三通而止",
    "魯方十里",
    "魯鼓三，薛鼓五",
    "鼓：○□○○□□○□○○□半○□○□○○○□□○□○魯鼓○□○○○□□○□○○□□○□○○□□○半○□○○○□□○薛鼓",
    "取半以下為投壺禮，盡用之為射禮",
    "壺去席二矢半",
    "此鲁薛投壶击鼔之节",
])
def test_prose_gives_no_claim(text):
    claims, lost = read_claims(text)
    assert claims == [] and lost == []


def test_counts_no_score_names_are_reported_not_claimed():
    claims, lost = read_claims("前圖鼙聲七鼓聲五。此魯鼓之半也")
    assert claims == []
    assert [(u.drum.value, u.count, u.text) for u in lost] == [("鼙", 7, "鼙聲七"), ("鼓", 5, "鼓聲五")]
    assert "sentence ends" in lost[0].reason
    # counts followed by a score that names what follows
    claims, lost = read_claims("鼙聲七鼓聲五魯則圜十三方十")
    assert tuples(claims) == [("魯", None, "whole", "鼙", 13), ("魯", None, "whole", "鼓", 10)]
    assert len(lost) == 2
    # a weak drum word alone (no context) is prose, not even reported
    assert read_claims("擊鼓三而止") == ([], [])
    # a strong one is reported
    claims, lost = read_claims("聞鼓聲三而止")
    assert claims == [] and [(u.drum.value, u.count) for u in lost] == [("鼓", 3)]


def test_two_unnamed_groups():
    # the first group is never named: reported; the second is named
    claims, lost = read_claims("鼙聲七鼓聲五鼙聲五鼓聲三此薛鼓之半也")
    assert tuples(claims) == [("薛", None, "half", "鼙", 5), ("薛", None, "half", "鼓", 3)]
    assert [u.count for u in lost] == [7, 5]


def test_numerals():
    assert [numeral_value(n) for n in ("一", "十", "十一", "二十", "二十一", "兩", "两", "廿", "廿三",
                                       "卅", "13", "１３")] == \
        [1, 10, 11, 20, 21, 2, 2, 20, 23, 30, 13, 13]


def test_claim_is_frozen():
    c = Claim(Tradition.LU, 1, "half", Drum.SMALL, 7, "鼙声七", 0)
    with pytest.raises(AttributeError):
        c.count = 3  # type: ignore[misc]


CN = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"]


def chinese(n: int) -> str:
    if n < 10:
        return CN[n]
    tens, units = divmod(n, 10)
    return ("" if tens == 1 else CN[tens]) + "十" + CN[units]


@given(st.lists(st.tuples(st.sampled_from(["魯", "薛"]), st.sampled_from(["half", "whole"]),
                          st.integers(1, 99), st.integers(1, 99)), min_size=1, max_size=6),
       st.sampled_from([1, 2]), st.booleans())
def test_property_either_order(groups, diagram, postfix):
    """Generated commentaries, score after (徐伯鲁) or before (魯則…) the counts,
    read back exactly."""
    heading = "前圖" if diagram == 1 else "後圖"
    parts = [heading]
    for score, part, round_, square in groups:
        counts = f"鼙聲{chinese(round_)}鼓聲{chinese(square)}"
        word = "半" if part == "half" else "全"
        if postfix:
            parts.append(f"{counts}此{score}鼓之{word}也，")
        else:
            parts.append(f"{score}鼓之{word}，{counts}；")
    text = "".join(parts)
    claims, lost = read_claims(text)
    assert lost == []
    expected = []
    for score, part, round_, square in groups:
        expected += [(score, diagram, part, "鼙", round_), (score, diagram, part, "鼓", square)]
    assert tuples(claims) == expected
    check_spans(text, claims)


ALPHABET = list("魯鲁薛薜鼓鼔鼙鞞聲声圜圓方前後后上下此圖图半全之也其則"
                "一二三四五六七八九十兩廿卅0１字年通。，；\n 按曰")


@given(st.text(alphabet=ALPHABET, max_size=80))
def test_property_any_text_is_read_without_error(text):
    claims, lost = read_claims(text)
    check_spans(text, claims)
    for u in lost:
        assert text[u.offset:u.offset + len(u.text)] == u.text
    offsets = [c.offset for c in claims]
    assert offsets == sorted(offsets)


# ---------------------------------------------------------------------------
# guji claims: placed, counted against the text's own reading
# ---------------------------------------------------------------------------


def test_guji_claims_on_seed_000_finds_all_sixteen(capsys):
    assert main(["claims", str(SEEDS / "000_a32c6902e9fda003.txt"), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(c["score"], c["diagram"], c["part"], c["drum"], c["count"]) for c in found] == \
        XU_BOLU_CLAIMS
    assert sum(c["agrees"] for c in found) == 14
    differ = [(c["score"], c["diagram"], c["part"], c["drum"], c["count"], c["counted"])
              for c in found if not c["agrees"]]
    # the printed 七 (the pattern has 3) and 鼙 21 where this edition's 薛 2 has 22
    assert differ == [("薛", 1, "half", "鼓", 7, 3), ("薛", 2, "whole", "鼙", 21, 22)]
    printed = found[5]
    assert (printed["text"], printed["implied"], printed["line"]) == ("鼔声七", 3, 3)
    text = (SEEDS / "000_a32c6902e9fda003.txt").read_text(encoding="utf-8").splitlines()[2]
    assert text[printed["column"] - 1:].startswith("鼔声七")
    assert all(c["diagram_stated"] for c in found)


def test_guji_claims_text_output(capsys):
    assert main(["claims", "lijing-benyi"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("lijing-benyi: 16 count claims (14 agree with its reading, 2 do not)")
    assert out.count("DIFFERS") == 2


def test_a_claim_without_a_diagram_word_is_about_the_diagram_it_follows(tmp_path, capsys):
    text = ("鼓 ○□○○□□○□○○□半○□○□○○○□□○□○ 魯鼓\n【魯則圜十三方十】\n"
            "魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n【魯則圜十四方八】\n")
    claims, notices = text_claims(text, scan(text).patterns, "t")
    assert [(c.diagram, c.diagram_stated, c.counted, c.agrees) for c in claims] == \
        [(1, False, 13, True), (1, False, 10, True), (2, False, 14, True), (2, False, 7, False)]
    assert notices == ()
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["claims", str(path)]) == 0
    assert "  * the text names no diagram: the one the claim follows" in capsys.readouterr().out


def test_counts_no_score_names_and_far_claims_are_warned_about(tmp_path, capsys):
    pattern = "魯鼓 ○□○○□□○□○○□半○□○□○○○□□○□○\n"
    far = "魯則圜十三方十\n"
    text = pattern + "前圖鼙聲七鼓聲五。\n" + "文" * NEAR + "\n" + far
    claims, notices = text_claims(text, scan(text).patterns, "t", "t.txt")
    assert claims == ()
    messages = [n.message for n in notices]
    assert messages[0] == f"2 count claims more than {NEAR} characters from the diagrams: not read"
    assert messages[1:] == ["count 鼙聲七 not read as a claim: the sentence ends before any "
                            "score names the counts",
                            "count 鼓聲五 not read as a claim: the sentence ends before any "
                            "score names the counts"]
    assert str(notices[1]).startswith("t.txt:2:3: warning:")
    # a commentary without diagrams is read whole: its claims have nothing to count
    (a, b), _ = text_claims(far, (), "t")
    assert (a.diagram, a.counted, a.agrees) == (None, None, None)
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["claims", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{path}: 0 count claims")
    assert "warning: count 鼙聲七 not read as a claim" in captured.err

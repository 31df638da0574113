"""guji collate: docs/notation.md's variant readings and count mismatches; any texts, the
witnesses of their notes, agreement groups, and the claims the texts state."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guji.cli.main import main
from guji.text.collation.agreement import differences, groups
from guji.text.collation.collate import collate
from guji.text.collation.corpus import texts
from guji.text.reading.notation import Tradition
from guji.text.reading.parser import parse


def by_key(results):
    return {(c.tradition, c.diagram): c for c in results}


def test_exactly_two_variant_readings():
    results = by_key(collate())
    variants = {k: c.variants for k, c in results.items() if c.variants}
    assert set(variants) == {(Tradition.LU, 1), (Tradition.XUE, 2)}
    (lu1,) = variants[(Tradition.LU, 1)]
    # seed 003 opens ○□○□□□ where the others read ○□○○□□: stroke 4 (index 3).
    assert lu1.base_index == 3 and lu1.before_half
    assert lu1.readings == {"liji-zhengyi": "○", "lijing-benyi": "○", "wuli-tongkao": "□"}
    (xue2,) = variants[(Tradition.XUE, 2)]
    # seed 000 has one ○ more before 半.
    assert xue2.base_index is None and xue2.before_half
    assert xue2.readings == {"liji-zhengyi": "", "lijing-benyi": "○", "wuli-tongkao": ""}


def test_count_mismatches_are_exactly_those_domain_lists():
    found = {(c.tradition.value, c.diagram, m.edition, m.extent, m.drum, m.counted, m.claimed, m.implied)
             for c in collate() for m in c.mismatches}
    assert found == {
        # seed 003's diagram-1 魯鼓 gives 12 / 11 whole against 13 / 10
        ("魯", 1, "wuli-tongkao", "whole", "鼙", 12, 13, None),
        ("魯", 1, "wuli-tongkao", "whole", "鼓", 11, 10, None),
        # seed 000's diagram-2 薛鼓 gives 22 鼙 whole against 21
        ("薛", 2, "lijing-benyi", "whole", "鼙", 22, 21, None),
        # the printed 七: every edition has 3 鼓 in the diagram-1 薛鼓 half
        ("薛", 1, "liji-zhengyi", "half", "鼓", 3, 7, 3),
        ("薛", 1, "lijing-benyi", "half", "鼓", 3, 7, 3),
        ("薛", 1, "wuli-tongkao", "half", "鼓", 3, 7, 3),
    }


def test_aligned_rows_have_equal_length_and_gap_for_the_insertion():
    c = by_key(collate())[(Tradition.XUE, 2)]
    rows = list(c.columns.values())
    assert len({len(r) for r in rows}) == 1
    base = "".join(x for x in c.columns["liji-zhengyi"])
    assert base == "○□○○○○□○□○□○○○□○□○○□○半○□○□○○○○□○"
    assert c.columns["liji-zhengyi"][c.variants[0].column] == ""
    assert c.columns["lijing-benyi"][c.variants[0].column] == "○"


def test_collate_cli_text_and_json(capsys):
    assert main(["collate"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("2 variant readings, 6 count mismatches")
    assert out.count("MISMATCH") == 6
    assert main(["collate", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["score"], d["diagram"]) for d in data] == [("魯", 1), ("薛", 1), ("魯", 2), ("薛", 2)]
    assert sum(len(d["variants"]) for d in data) == 2
    xue1 = data[1]
    assert xue1["claim"]["counts"]["half"]["鼓"] == 7 and xue1["claim"]["implied"] == {"half": {"鼓": 3}}


# -- any texts, witnesses, agreement groups, claims from the texts -----------------------


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def two_files(tmp_path):
    """yishu: lu:1 as the 禮記正義 reads it, with a note of 一本; jishuo: the 五禮通考's reading."""
    yishu = write(tmp_path, "yishu.txt", "魯鼓 ○□○○□□○□○○□半○□○□(某/本)(少一/○一□)○○○□□○□○\n")
    jishuo = write(tmp_path, "jishuo.txt", "○□○□□□○□○○□半○□○□○○○□□○□○魯鼓\n")
    return yishu, jishuo


def test_collate_files_with_witnesses_and_groups(two_files):
    results = by_key(collate(texts(two_files)))
    lu1 = results[(Tradition.LU, 1)]
    assert list(lu1.readings) == ["liji-zhengyi", "lijing-benyi", "wuli-tongkao", "yishu",
                                  "yishu~某本", "jishuo"]
    assert [(g.editions, g.differences) for g in lu1.groups] == [
        (("liji-zhengyi", "lijing-benyi", "yishu"), ()),
        (("wuli-tongkao", "jishuo"), ("before 半: □ for ○ at stroke 4",)),
        # the note stands after the half's 4th stroke: 某本 lacks strokes 3–4, as it says
        (("yishu~某本",), ("after 半: one ○□ fewer at strokes 3–4",)),
    ]
    # the files have no lu:2: its collation holds the shipped editions only
    assert list(results[(Tradition.LU, 2)].readings) == ["liji-zhengyi", "lijing-benyi",
                                                         "wuli-tongkao"]
    # 徐伯鲁's claims (read from lijing-benyi) check the files' readings too
    whole = {(m.edition, m.drum, m.counted) for m in lu1.mismatches
             if m.extent == "whole" and m.edition != "yishu~某本"}
    assert whole == {("wuli-tongkao", "鼙", 12), ("wuli-tongkao", "鼓", 11),
                     ("jishuo", "鼙", 12), ("jishuo", "鼓", 11)}
    assert {(m.edition, m.extent, m.drum) for m in lu1.mismatches if m.edition == "yishu~某本"} \
        == {("yishu~某本", "half", "鼙"), ("yishu~某本", "half", "鼓"),
            ("yishu~某本", "whole", "鼙"), ("yishu~某本", "whole", "鼓")}


def test_collate_only_the_files_base_is_the_first(two_files):
    (lu1,) = collate(texts(two_files, only=True))
    assert lu1.base == "yishu" and list(lu1.readings) == ["yishu", "yishu~某本", "jishuo"]
    assert lu1.claims == () and lu1.mismatches == ()     # no text states a count
    assert [g.editions for g in lu1.groups] == [("yishu",), ("yishu~某本",), ("jishuo",)]


def test_claims_of_any_text_check_every_edition(tmp_path):
    commentary = write(tmp_path, "shuo.txt", "魯鼓 ○□○○□□○□○○□半○□○□○○○□□○□○\n"
                                             "【上魯則圜十二方十一】\n")
    lu1 = by_key(collate(texts([commentary])))[(Tradition.LU, 1)]
    said = {(m.edition, m.drum, m.claimed) for m in lu1.mismatches if m.claim.source == "shuo"}
    # 圜十二方十一 is the 五禮通考's count: every other reading is flagged against it
    assert said == {(ed, drum, n) for ed in ("liji-zhengyi", "lijing-benyi", "shuo")
                    for drum, n in (("鼙", 12), ("鼓", 11))}


def test_collate_cli_files_groups_and_json(two_files, capsys):
    assert main(["collate", *two_files]) == 0
    out = capsys.readouterr().out
    assert "  agreement:\n    1. liji-zhengyi, lijing-benyi, yishu (3)\n" in out
    assert "    3. yishu~某本 (1): after 半: one ○□ fewer at strokes 3–4\n" in out
    assert main(["collate", "--only", *two_files, "--json"]) == 0
    (lu1,) = json.loads(capsys.readouterr().out)
    assert lu1["groups"] == [
        {"before": "○□○○□□○□○○□", "after": "○□○□○○○□□○□○", "editions": ["yishu"],
         "differences": []},
        {"before": "○□○○□□○□○○□", "after": "○□○○○□□○□○", "editions": ["yishu~某本"],
         "differences": ["after 半: one ○□ fewer at strokes 3–4"]},
        {"before": "○□○□□□○□○○□", "after": "○□○□○○○□□○□○", "editions": ["jishuo"],
         "differences": ["before 半: □ for ○ at stroke 4", ]}]
    assert set(lu1) >= {"score", "diagram", "base", "readings", "variants", "claim",
                        "mismatches", "groups"}


def test_collate_cli_refuses_two_editions_of_one_name(tmp_path, capsys):
    a = write(tmp_path, "lijing-benyi.txt", "魯鼓 ○□半○□")
    assert main(["collate", a]) == 2
    assert "taken by the shipped edition lijing-benyi" in capsys.readouterr().err
    assert main(["collate", "--only"]) == 2
    assert "give at least one FILE" in capsys.readouterr().err


def test_the_claims_of_xu_bolu_come_from_the_text():
    lu1 = by_key(collate())[(Tradition.LU, 1)]
    assert {c.source for c in lu1.claims} == {"lijing-benyi"}
    assert [c.claim.text for c in lu1.claims] == ["鼙声七", "鼔声五", "鼙声十三", "鼔声十"]


# -- properties of the groups ------------------------------------------------------------

stroke_runs = st.text(alphabet="○□", min_size=1, max_size=6)


@settings(deadline=None)
@given(st.lists(st.tuples(stroke_runs, stroke_runs), min_size=1, max_size=8))
def test_property_groups_partition_the_readings(parts):
    readings = {f"ed{i}": parse(f"魯鼓 {a}半{b}") for i, (a, b) in enumerate(parts)}
    found = groups(readings)
    names = [name for g in found for name in g.editions]
    assert sorted(names) == sorted(readings)                          # a partition
    group_of = {name: k for k, g in enumerate(found) for name in g.editions}
    for x in readings:
        for y in readings:
            same = readings[x].notation() == readings[y].notation()
            assert (group_of[x] == group_of[y]) == same                # equal ⇔ one group
    sizes = [len(g.editions) for g in found]
    assert sizes == sorted(sizes, reverse=True)                        # largest first
    for g in found:
        assert readings[g.editions[0]].notation() == f"{g.before}半{g.after}"
        assert bool(g.differences) == (g is not found[0])             # words iff it differs


@settings(deadline=None)
@given(stroke_runs, stroke_runs, stroke_runs, stroke_runs)
def test_property_differences_in_words_are_empty_only_for_equal_readings(a, b, c, d):
    one, other = parse(f"魯鼓 {a}半{b}"), parse(f"魯鼓 {c}半{d}")
    words = differences(one, other)
    assert (words == []) == ((a, b) == (c, d))
    assert all(w.startswith(("before 半: ", "after 半: ")) for w in words)
    assert any(w.startswith("before") for w in words) == (a != c)


def test_a_claim_no_pattern_can_take_is_warned_about_not_checked(tmp_path, capsys):
    shuo = write(tmp_path, "shuo.txt", "魯則圜十三方十\n")
    assert main(["collate", shuo]) == 0
    captured = capsys.readouterr()
    from guji.text.reading.bibl import cited          # a file is named so in every output
    assert f"guji: {cited(shuo)}:1:3: warning: count claim 圜十三 names no diagram and follows no " \
           "pattern of its score: not checked" in captured.err
    assert "shuo" not in captured.out
    assert main(["claims", shuo]) == 0
    assert capsys.readouterr().out.startswith(
        f"{shuo}: 2 count claims (0 agree with its reading, 0 do not; 2 not counted: no "
        "pattern of theirs in the text)")

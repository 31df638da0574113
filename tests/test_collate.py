"""guji collate: exactly docs/notation.md's variant readings and count mismatches."""

from __future__ import annotations

import json

from guji.cli.main import main
from guji.text.collate import collate
from guji.text.notation import Tradition


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

"""Warnings of one kind are capped: the first few, then one line saying how
many more (a text of labels without strokes gave a warning for each group of
them: 17,625 lines from 2.6 MB)."""

from __future__ import annotations

import re

from guji.text.reading.scan import SAID_OF_A_KIND, scan

from runner import guji

#: Labels with no stroke beside them and short runs after a 半: warnings of two kinds.
UNIT = "魯鼓 半 文 薛鼓 ○□半 文 "


def test_a_scan_says_a_few_of_each_kind_then_how_many_more():
    for groups in (40, 400):
        lines = [str(n) for n in scan(UNIT * groups, filename="t.txt").notices]
        more = [line for line in lines if "more like th" in line]
        assert more and len(lines) <= 3 * (SAID_OF_A_KIND + 1)
        counted = sum(int(re.search(r"and ([\d,]+) more", line).group(1).replace(",", ""))
                      for line in more)
        assert counted + len(lines) - len(more) == len(scan(UNIT, filename="t.txt").notices) * groups


def test_the_command_line_says_as_few(tmp_path):
    text = tmp_path / "t.txt"
    text.write_text(UNIT * 2000, encoding="utf-8")
    r = guji(["scan", "t.txt"], tmp_path)
    assert r.returncode == 0
    assert len(r.err_lines) <= 3 * (SAID_OF_A_KIND + 1)
    assert any(line.startswith("guji: t.txt: warning: … and ") for line in r.err_lines)

"""A text of one long line is read in time linear in its patterns.

Each pattern keeps the source lines it spans (``Pattern.lines``); finding its
line's end from the line's start for every pattern of one line made a line of
*N* patterns cost *N* times the line: a 1 MB line did not finish in 100 s.
The work is counted here (the characters the line-break search goes through),
not timed.
"""

from __future__ import annotations

import pytest

from guji.text.reading import lexer, prefilter
from guji.text.reading.prefilter import prefiltered_scan
from guji.text.reading.scan import scan

PATTERN = "魯鼓 ○□○○□□○○半○□○○□○○○○□○□○ "


class Counting:
    """The line-break pattern, counting the characters its searches go through."""

    def __init__(self, pattern):
        self.pattern, self.searched = pattern, 0

    def search(self, text, pos=0, endpos=None):
        m = self.pattern.search(text, pos) if endpos is None else self.pattern.search(text, pos, endpos)
        self.searched += (m.end() if m else len(text)) - pos
        return m

    def finditer(self, text, pos=0, endpos=None):
        end = len(text) if endpos is None else endpos
        self.searched += end - pos
        return self.pattern.finditer(text, pos, end)


@pytest.mark.parametrize("n", [200, 800])
def test_one_line_of_many_patterns_is_searched_once(monkeypatch, n):
    text = PATTERN * n + "\n"
    counting = Counting(lexer._LINE_BREAK)
    monkeypatch.setattr(prefilter, "_LINE_BREAK", counting)
    result = prefiltered_scan(text, filename="t.txt")
    assert len(result.patterns) == n
    assert counting.searched <= 3 * len(text)
    line = result.patterns[0].lines[0][1]
    assert line == PATTERN * n
    assert all(p.lines == ((1, line),) and p.lines[0][1] is line for p in result.patterns)


def test_the_same_patterns_as_a_whole_scan():
    """The line kept is the line: a text of long lines and short ones reads as
    the scan without windows reads it."""
    text = (PATTERN * 30 + "\n" + "薛鼓 ○○□○○○□□○\n○半□○□○\n") * 3
    a, b = prefiltered_scan(text, filename="t.txt"), scan(text, filename="t.txt")
    assert [(p.to_json(), p.lines) for p in a.patterns] == [(p.to_json(), p.lines) for p in b.patterns]
    assert [str(n) for n in a.notices] == [str(n) for n in b.notices]

"""The suite's guard against pytest's diff of long unequal values (tests/unequal.py).

pytest diffs a failed ``assert a == b`` of two byte strings element by
element, in full under ``CI=true``: for two files a byte shifted apart that
ran for minutes. tests/conftest.py's ``pytest_assertrepr_compare`` answers
with a few lines, and pytest's own hook gives nothing for those values. The
first test goes through the suite's own hook chain (a real failing ``assert``
in a test module pytest rewrote): without the hook its message is pytest's
diff, over a megabyte, and the test fails; the second fails where pytest's own
hook still builds its diff beside the suite's answer.
"""

from __future__ import annotations

import random

import pytest

import unequal


def _shifted(size: int, at: int) -> tuple[bytes, bytes]:
    """Random bytes, and the same with a byte unlike the one there put in at *at*:
    every line of pytest's pretty-printed diff after *at* differs."""
    data = random.Random(size).randbytes(size)
    return data, data[:at] + bytes([data[at] ^ 0xFF]) + data[at:]


def test_a_failed_compare_of_two_big_files_says_where_in_a_few_lines(monkeypatch):
    monkeypatch.setenv("CI", "true")            # pytest's full, untruncated diff
    got = bytes(300_000)                        # one line repeated: pytest's own diff is quick
    want = got[:123_456] + b"\x01" + got[123_457:]
    with pytest.raises(AssertionError) as failed:
        assert got == want
    message = str(failed.value)
    assert len(message) < 1_000, message[:2_000]
    assert "first difference at byte 123,456" in message
    assert "<300,000 bytes> == <300,000 bytes>" in message
    assert "Full diff" not in message


def test_pytests_own_hook_does_not_diff_what_the_suites_answers(request):
    """Every plugin's hook is called: pytest's own must give nothing (not build
    its diff of a shifted megabyte, minutes of CPU under CI=true, to be dropped)."""
    got = bytes(300_000)                        # pytest's own diff of these is quick
    want = got[:1_000] + b"\x01" + got[1_001:]
    config = request.config
    answers = config.hook.pytest_assertrepr_compare(config=config, op="==", left=got, right=want)
    assert answers == [unequal.explain("==", got, want)]
    short = config.hook.pytest_assertrepr_compare(config=config, op="==", left=b"ab", right=b"ac")
    assert len(short) == 1 and "At index 1 diff" in "\n".join(short[0])  # pytest's, kept


def test_the_first_difference_of_a_shifted_megabyte_and_a_window_round_it():
    got, want = _shifted(1_000_000, 654_321)
    lines = unequal.explain("==", got, want)
    assert lines[0] == "<1,000,000 bytes> == <1,000,001 bytes>"
    assert lines[1] == "lengths 1,000,000 and 1,000,001; first difference at byte 654,321"
    assert lines[2] == f"left  [654,305:654,345]: {got[654_305:654_345]!r}"
    assert lines[3] == f"right [654,305:654,345]: {want[654_305:654_345]!r}"
    assert len(lines) == 5


@pytest.mark.parametrize("at", [0, 1, 4_095, 4_096, 99_999])
def test_the_first_difference_is_found_wherever_it_is(at):
    data = bytes(random.Random(at).randbytes(100_000))
    changed = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]
    assert unequal.first_difference(data, changed) == at
    assert unequal.first_difference(data, data[:at]) == at     # one begins the other


def test_text_is_placed_by_line_and_column():
    text = "○□○□半○○□\n" * 5_000
    other = text[:30_001] + "x" + text[30_002:]          # 9 characters a line: 3,333 lines + 4
    lines = unequal.explain("==", text, other)
    assert lines[1] == ("lengths 45,000 and 45,000; first difference at character 30,001 "
                        "(line 3,334, column 5)")
    assert lines[2] == "left  [29,985:30,025]: " + repr(text[29_985:30_025])


def test_a_long_text_not_in_another_is_found_not_diffed():
    text = "鼓" * 30_000 + "missing stroke" + "鼙" * 30_000
    lines = unequal.explain("not in", "missing", text)
    assert lines[1] == "found at character 30,000 (line 1, column 30,001)"
    assert "missing stroke" in lines[2]


@pytest.mark.parametrize("left, right", [
    (b"short", b"shorter"),                        # short values: pytest's own diff
    ("a" * 100, "b" * 100),
    ([0] * 10_000, [1] * 10_000),                  # not bytes or text
    (b"x" * 5_000, "x" * 5_000),                   # long bytes against text: said so
])
def test_short_values_and_other_types_keep_pytests_explanation(left, right):
    explained = unequal.explain("==", left, right)
    if isinstance(left, bytes) and isinstance(right, str):
        assert explained[1] == "text compared with bytes"
    else:
        assert explained is None

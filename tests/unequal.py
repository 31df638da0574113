"""A short account of two long unequal values, in place of pytest's diff.

pytest explains a failed ``assert a == b`` of two byte strings by diffing
their pretty-printed forms line by line (in full under ``CI=true``): for two
files of some hundred kilobytes that differ by a byte shifted, that diff ran
for many minutes (20 kB of random bytes: 5 s; 200 kB: over two minutes).
``tests/conftest.py`` hands every comparison to :func:`explain` (its
``pytest_assertrepr_compare`` hook); for bytes over :data:`LONG_BYTES` and
text over :data:`LONG_TEXT` it says the lengths, the first offset where they
differ and a short window of each around it. pytest calls every plugin's hook,
its own too, whatever an earlier one answered, so :func:`guard_pytests_diff`
also keeps pytest's own from diffing what :func:`explain` answers. Shorter
values keep pytest's explanation.
"""

from __future__ import annotations

#: Byte strings longer than this are not diffed (pytest's diff of 2 kB of random
#: bytes with one inserted already costs 0.7 s of CPU, 5 kB 1.8 s).
LONG_BYTES = 1024
#: Texts longer than this are not diffed (line by line, pytest's diff of text
#: stays quick much longer, and reads well while the text is a page or two).
LONG_TEXT = 20_000
#: How much of each side the account shows before and after the first difference.
BEFORE, AFTER = 16, 24
#: The account's last line: where it comes from.
WHY = "(too long for pytest's diff: tests/unequal.py)"


def _kind(value) -> str | None:
    if isinstance(value, (bytes, bytearray)):
        return "bytes"
    if isinstance(value, str):
        return "text"
    return None


def _long(value) -> bool:
    return len(value) > (LONG_TEXT if isinstance(value, str) else LONG_BYTES)


def first_difference(left, right) -> int:
    """The first offset where *left* and *right* differ (the shorter's length
    when one begins the other): a bisection of slice comparisons, so the
    work stays in C for a value of any size."""
    low, high = 0, min(len(left), len(right))
    if left[:high] == right[:high]:
        return high
    while high - low > 1:          # left[:low] == right[:low], left[:high] != right[:high]
        middle = (low + high) // 2
        if left[:middle] == right[:middle]:
            low = middle
        else:
            high = middle
    return low


def _where(value, at: int) -> str:
    """``byte 1,234`` or, in text, ``character 1,234 (line 5, column 17)``."""
    if isinstance(value, str):
        line = value.count("\n", 0, at) + 1
        column = at - (value.rfind("\n", 0, at) + 1) + 1
        return f"character {at:,} (line {line:,}, column {column:,})"
    return f"byte {at:,}"


def _window(name: str, value, at: int) -> str:
    start, end = max(0, at - BEFORE), min(len(value), at + AFTER)
    return f"{name} [{start:,}:{end:,}]: {value[start:end]!r}"


def explain(op: str, left, right) -> list[str] | None:
    """The lines pytest shows for ``left op right`` when it failed, or ``None``
    to leave the explanation to pytest (short values, other types, other
    operators)."""
    kinds = (_kind(left), _kind(right))
    if None in kinds or not (_long(left) or _long(right)):
        return None
    if op == "==":
        return _unequal(left, right, kinds)
    if op == "not in" and kinds == ("text", "text"):
        at = right.find(left)
        return [f"<{len(left):,} characters> not in <{len(right):,} characters>",
                f"found at {_where(right, at)}", _window("right", right, at), WHY]
    return None


def _unequal(left, right, kinds) -> list[str]:
    units = ["characters" if kind == "text" else "bytes" for kind in kinds]
    summary = f"<{len(left):,} {units[0]}> == <{len(right):,} {units[1]}>"
    if kinds[0] != kinds[1]:
        return [summary, "text compared with bytes", WHY]
    at = first_difference(left, right)
    return [summary,
            f"lengths {len(left):,} and {len(right):,}; first difference at {_where(left, at)}",
            _window("left ", left, at), _window("right", right, at), WHY]


def guard_pytests_diff() -> None:
    """Make pytest's own ``pytest_assertrepr_compare`` give nothing where :func:`explain`
    answers (it would build its diff anyway, only for it to be dropped). It calls
    ``_pytest.assertion.util.assertrepr_compare``: pytest 9 with keywords, 7 and 8 as
    ``(config, op, left, right)``; an empty list means "no explanation" to each."""
    from _pytest.assertion import util
    original = util.assertrepr_compare
    if getattr(original, "guarded", False):
        return

    def assertrepr_compare(*args, **kwargs):
        given = list(args[1:] if args and not isinstance(args[0], str) else args)
        op, left, right = (kwargs[name] if name in kwargs else given.pop(0)
                           for name in ("op", "left", "right"))
        if explain(op, left, right) is not None:
            return []
        return original(*args, **kwargs)

    assertrepr_compare.guarded = True
    util.assertrepr_compare = assertrepr_compare

"""A corpus of texts users actually type or paste, and what guji must read from them.

``tests/data/user-texts/`` holds short UTF-8 texts, each a realistic thing a
scholar or student would feed to ``guji scan``: Markdown notes (headings,
bullet and numbered lists, bold labels), e-mails with ``>`` quotes and
signatures, the text of the bug report (both diagrams with blank lines
between), Japanese and English prose around the diagrams, web copy with ASCII
punctuation, transcriptions with ``<pb:…>`` tags, U+3000 indents, variant
notes in ``（）``, ``( )`` and ``【】``, mixed and variant glyphs and labels, a
caption line, section marks, an ambiguous text, the ``labels=`` option, a
bracketed ``（半）``, and one typo per look-alike (o O 0 ° ● ◎ () [] ☐, a
letter, a digit, a stray hanzi, the heading glyph 鼓).

``expected.toml`` has one table per file (see its header): the patterns in
text order as ``[slug, diagram, notation]``, or the ``NotationError`` with its
line, column and words of its message. The expectations follow the reading
the scanner specifies, not any one implementation:

* white space, punctuation, markup, list markers and bracketed notes are
  ignorable; strokes inside notes are not strokes;
* each pattern takes one adjacent label; where only one assignment fits the
  whole text it is used; else a heading before the first pattern means
  labels after, an earlier diagram means labels before, and otherwise the
  patterns concerned are not read and a notice says "ambiguous";
* the n-th 魯 (薛) pattern of a text is 魯 (薛) diagram n;
* a foreign character between two strokes of one pattern is an error at that
  character, naming the look-alike stroke it probably is.

Each text is scanned through the API (:func:`guji.scan`) and every error text
and a few others through the installed ``guji`` command as well.
"""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import pytest

import runner

import guji

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CORPUS = Path(__file__).parent / "data" / "user-texts"
EXPECTED: dict[str, dict] = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))
SLUG = {"魯": "lu", "薛": "xue"}
#: ``guji ARGS…`` (tests/runner.py) as a user runs it: the installed console script,
#: its output as text
run_guji = partial(runner.guji, script=True, text=True)

ERROR_TEXTS = sorted(name for name, e in EXPECTED.items() if "error" in e)
PATTERN_TEXTS = sorted(name for name, e in EXPECTED.items() if "error" not in e)
# Texts whose lu:1 `guji show` must find: the four layouts of diagram 1
# (labels after, run together, tags inside, mixed glyphs), the bug report.
SHOW_TEXTS = ["01-bug-report.txt", "08-one-line-both-diagrams.txt",
              "21-page-break-tags.txt", "23-mixed-glyphs.txt", "31-section-marks.txt",
              "13-bullets-by-school.txt"]


def read(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def test_every_text_has_an_entry_and_every_entry_a_text():
    texts = {p.name for p in CORPUS.glob("*.txt")}
    assert texts == set(EXPECTED), (
        f"texts without an entry: {sorted(texts - set(EXPECTED))}; "
        f"entries without a text: {sorted(set(EXPECTED) - texts)}")
    assert len(texts) >= 30


def test_entries_are_well_formed():
    for name, e in EXPECTED.items():
        assert e.get("description"), name
        assert ("error" in e) != ("patterns" in e), f"{name}: patterns or error, not both"
        assert e.get("labels", "auto") in ("auto", "before", "after"), name
        for slug, diagram, notation in e.get("patterns", []):
            assert slug in ("lu", "xue") and diagram >= 1 and notation.count("半") == 1, name
        if "locations" in e:
            assert len(e["locations"]) == len(e["patterns"]), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_user_text(name):
    e = EXPECTED[name]
    text = read(name)
    labels = e.get("labels", "auto")
    if "error" in e:
        want = e["error"]
        with pytest.raises(guji.NotationError) as info:
            guji.scan(text, filename=name, labels=labels)
        err = info.value
        assert err.location is not None
        assert (err.location.line, err.location.column) == (want["line"], want["column"]), \
            f"{name}: error at {err.location.line}:{err.location.column}: {err.message}"
        for word in want.get("contains", []):
            assert word in err.message, f"{name}: {word!r} not in {err.message!r}"
        assert str(err).startswith(f"{name}:{want['line']}:{want['column']}: ")
        return

    result = guji.scan(text, filename=name, labels=labels)
    got = [(SLUG[p.tradition.value], p.diagram, p.notation()) for p in result.patterns]
    want = [tuple(p) for p in e["patterns"]]
    messages = [n.message for n in result.notices]
    assert got == want, f"{name}: notices {messages}"
    if "locations" in e:
        assert [[p.location.line, p.location.column] for p in result.patterns] == e["locations"]
    for word in e.get("notices", []):
        assert any(word in m for m in messages), f"{name}: no notice with {word!r} in {messages}"
    if "ambiguous" not in e.get("notices", []):
        assert not any("ambiguous" in m for m in messages), f"{name}: {messages}"
    for want_at in e.get("notice_at", []):
        at = [(n.location.line, n.location.column) for n in result.notices
              if want_at["contains"] in n.message and n.location is not None]
        assert (want_at["line"], want_at["column"]) in at, \
            f"{name}: no notice with {want_at['contains']!r} at " \
            f"{want_at['line']}:{want_at['column']} in {result.notices}"


@pytest.mark.parametrize("name", ERROR_TEXTS)
def test_cli_reports_typo_as_one_line(name, tmp_path):
    e = EXPECTED[name]
    shutil.copy(CORPUS / name, tmp_path / name)
    args = ["scan", name]
    if e.get("labels", "auto") != "auto":
        args += ["--labels", e["labels"]]
    proc = run_guji(args, tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"guji: {name}:{e['error']['line']}:{e['error']['column']}:"), first


@pytest.mark.parametrize("name", SHOW_TEXTS)
def test_cli_show_lu1(name, tmp_path):
    e = EXPECTED[name]
    lu1 = next(n for slug, d, n in e["patterns"] if (slug, d) == ("lu", 1))
    before, after = lu1.split("半")
    shutil.copy(CORPUS / name, tmp_path / name)
    proc = run_guji(["show", f"lu:1@{name}", "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert (data["score"], data["diagram"]) == ("魯", 1)
    assert (data["before"], data["after"]) == (before, after)


@pytest.mark.parametrize("name", ["01-bug-report.txt", "27-ambiguous.txt"])
def test_cli_scan_json(name, tmp_path):
    """`guji scan FILE --json`: exit 0, the same patterns as the API; warnings on stderr."""
    e = EXPECTED[name]
    shutil.copy(CORPUS / name, tmp_path / name)
    proc = run_guji(["scan", name, "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(SLUG[d["score"]], d["diagram"], f"{d['before']}半{d['after']}") for d in data] == \
        [tuple(p) for p in e["patterns"]]
    for word in e.get("notices", []):
        assert word in proc.stderr

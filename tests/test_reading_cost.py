"""Reading a text costs what its strokes and labels say, measured before it is read.

From issue 35: a 29.8 MB text of 400,000 patterns took 4.85 GB to scan (about
160 bytes a byte, the page said 20), ``claims`` of 10 MB of ○ 2.39 GB, the
library scan's workers 4.87 GB each, and ``guji check /dev/null 魯@FILE``
read the whole text before refusing the recording.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from guji import limits
from guji.limits import LimitError
from guji.text.reading.cost import check_reading, reading_cost

import runner
from test_limits import refused

#: Address space for a refusal: a dense text over the limit once took ~165 bytes a byte.
SMALL_MEMORY = 450 * 2 ** 20
#: What reading a text dense with patterns may take, in bytes a byte of UTF-8 (docs/bounded.md:
#: about 105; it was about 165).
DENSE_BYTES_A_BYTE = 130


def dense(path: Path, size: int, seed: int = 1) -> Path:
    """*size* bytes of lines ``魯鼓○□…半○□…`` (ten random strokes each side)."""
    rng = random.Random(seed)
    lines, done = [], 0
    while done < size:
        line = ("魯鼓" + "".join(rng.choice("○□") for _ in range(10)) + "半"
                + "".join(rng.choice("○□") for _ in range(10)) + "\n")
        lines.append(line)
        done += len(line.encode())
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def over(tmp_path_factory) -> Path:
    """A pattern-dense text under the 64 MiB text limit whose reading is over 1 GB."""
    return dense(tmp_path_factory.mktemp("dense") / "dense.txt", 10 * 10 ** 6)


@pytest.mark.parametrize("args", [
    ["scan", "{f}"], ["show", "lu:2@{f}"], ["claims", "{f}"], ["midi", "魯@{f}", "-o", "x.mid"],
    ["collate", "--only", "{f}"],
])
def test_a_text_too_dense_to_read_is_refused_before_it_is_read(tmp_path, over, args):
    r = runner.guji([a.format(f=over) for a in args], tmp_path, memory_bytes=SMALL_MEMORY)
    refused(r, "dense.txt", "reading it would take about 1.", "2,857,160 strokes",
            "over guji's limit of 1 GB for reading a text", "--force")
    assert not (tmp_path / "x.mid").exists()


def test_check_hears_the_recording_s_header_before_reading_the_text(tmp_path, over):
    r = runner.guji(["check", "/dev/null", f"魯@{over}"], tmp_path, memory_bytes=SMALL_MEMORY)
    refused(r, "/dev/null", "not a file")     # a device, not a recording: said before the text is read


def test_a_library_worker_refuses_a_dense_file_and_reads_the_rest(tmp_path, over):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "a-dense.txt").symlink_to(over)
    (folder / "b-chapter.txt").write_text("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", encoding="utf-8")
    r = runner.guji(["scan", str(folder), "--jobs", "2"], tmp_path, memory_bytes=SMALL_MEMORY)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    said = [line for line in r.err_lines if "a-dense.txt" in line]
    assert len(said) == 1 and "over guji's limit of 1 GB for reading a text" in said[0], r.stderr
    assert "b-chapter.txt: 1 pattern" in r.stdout.decode()


def _peak(args: list[str], cwd: Path) -> int:
    """The most memory (RSS, bytes) ``guji ARGS…`` took, in a process of its own."""
    code = ("import resource, subprocess, sys\n"
            f"subprocess.run([sys.executable, '-m', 'guji', *{args!r}], stdout=subprocess.DEVNULL,"
            " stderr=subprocess.DEVNULL, env={**__import__('os').environ, 'GUJI_LANG': 'en'})\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                         env=runner.environment(), timeout=600, check=True).stdout
    return int(out) * 1024


def _shapes(folder: Path) -> dict[str, Path]:
    """Texts of about 1.5 MB each, of the shapes that cost the most a byte."""
    rng = random.Random(2)
    n = 500_000
    strokes = "".join(rng.choice("○□") for _ in range(n))
    texts = {
        "one-line": "魯鼓" + strokes[:n // 2] + "半" + strokes[n // 2:] + "\n",
        "rounds": "○" * n + "\n",
        "labels": "魯鼓○□○○□半○□○○\n" + "".join(
            "".join(rng.choice(("魯鼓", "薛鼓")) for _ in range(10)) + "\n" for _ in range(25_000)),
    }
    out = {name: folder / f"{name}.txt" for name in texts}
    for name, text in texts.items():
        out[name].write_text(text, encoding="utf-8")
    out["dense"] = dense(folder / "dense.txt", 1_500_000)
    return out


def test_reading_takes_no_more_than_the_model_says(tmp_path):
    """The figure checked before the work errs high, never low, for every shape;
    a text dense with patterns takes under DENSE_BYTES_A_BYTE a byte."""
    empty = tmp_path / "empty.txt"
    empty.write_text("魯鼓 ○□半○□\n", encoding="utf-8")
    base = _peak(["scan", str(empty)], tmp_path)
    for name, path in _shapes(tmp_path).items():
        text = path.read_text(encoding="utf-8")
        model = reading_cost([(text, 0, len(text))]).memory
        taken = _peak(["scan", str(path)], tmp_path) - base
        assert taken <= model, (name, taken, model)
        if name == "dense":
            assert taken <= DENSE_BYTES_A_BYTE * path.stat().st_size, (taken, path.stat().st_size)


def test_the_check_counts_and_says_the_figures():
    small = "魯鼓○□半○□\n" * 1000
    assert check_reading([(small, 0, len(small))], "small.txt") is None     # not even counted
    text = "○" * 3_000_000
    with pytest.raises(LimitError) as e:
        check_reading([(text, 0, len(text))], "rounds.txt")
    assert "rounds.txt: reading it would take about 1.21 GB" in str(e.value)
    assert "3,000,000 strokes, 0 labels, 0 半" in str(e.value)
    told: list[str] = []
    with limits.lifted(told.append):
        cost = check_reading([(text, 0, len(text))], "rounds.txt")
    assert cost is not None and cost.strokes == 3_000_000
    assert len(told) == 1 and "past guji's limit of 1 GB (--force)" in told[0], told
    with limits.lifted():
        check_reading([(text, 1_000_000, 3_000_000)], "rounds.txt")       # no one told: silent


def test_a_pattern_not_there_names_twenty_of_the_text_s_not_all(tmp_path):
    text = dense(tmp_path / "many.txt", 100_000)
    r = runner.guji(["show", f"xue:1@{text}"], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    last = r.err_lines[-1]
    assert "(it has: lu:1, lu:2," in last and "lu:20 … (1,429 in all))" in last, last
    assert len(last) < 600, len(last)          # (it named all 1,429: 12 kB)


def test_the_speakers_of_many_claims_are_found_as_one_claim_s_are():
    """Claims: each claim's commentator once looked back to the text's start
    (a text of 20,000 patterns and 40,000 claims: 50 s of CPU, now 15)."""
    from guji.text.collation.speakers import NAMES, Speakers, speaker
    rng = random.Random(5)
    alphabet = list("鼙聲七，【】]）)曰徐伯鲁魯郝仲舆輿郑康成鄭陆德明陸。天地")
    for _ in range(2000):
        text = "".join(rng.choice(NAMES) + "曰" if rng.random() < 0.2 else rng.choice(alphabet)
                       for _ in range(rng.randint(0, 30)))
        found = Speakers(text)
        assert [found(k) for k in range(len(text) + 1)] == [
            speaker(text, k) for k in range(len(text) + 1)], text


def test_a_big_file_is_refused_on_its_first_pass_s_hits(tmp_path):
    """A file over 32 MiB is read a chunk at a time: its strokes, labels and 半
    are counted from the first pass's hits, before its windows are chosen."""
    from guji.text.reading.bigfile import scan_big
    path = dense(tmp_path / "big.txt", 300_000)
    text = path.read_text(encoding="utf-8")
    cost = reading_cost([(text, 0, len(text))])
    with limits.using(limits.Limits(reading=cost.memory // 2)):
        with pytest.raises(LimitError) as e:
            scan_big(str(path), "big.txt", chunk=65536)
    assert (f"({cost.strokes:,} strokes, {cost.labels:,} labels, {cost.halves:,} 半)"
            in str(e.value)), str(e.value)
    assert scan_big(str(path), "big.txt", chunk=65536).patterns       # under the limit: read


def test_force_says_the_figures_once(monkeypatch):
    """The whole text's count and its windows' are both checked; only one is said."""
    from guji.text.reading import cost
    from guji.text.reading.prefilter import prefiltered_scan
    monkeypatch.setattr(cost, "DEFAULT", limits.Limits(reading=1000))
    monkeypatch.setattr(cost, "MOST_PER_CHAR", 10 ** 9)          # count even a short text
    told: list[str] = []
    with limits.lifted(told.append):
        found = prefiltered_scan("魯鼓 ○□○○□□○○半○□○○□○○○○□○□○\n", "short.txt")
    assert len(found.patterns) == 1
    assert len(told) == 1 and told[0].startswith("short.txt: reading it takes about"), told

"""``guji scan PATH…`` and ``guji collate PATH…`` over folders: a library.

Each file of a folder gives exactly what ``guji scan FILE --json`` gives for
it alone; hidden and binary files are skipped and said; --include and
--exclude choose; a broken file is one clear line and exit 2 while the rest
is still read; one process or several, the same output; the collation of a
folder is the collation of its files holding patterns.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from guji.text.reading.library import Skipped, scan_files, walk
from runner import guji

SEEDS = sorted((Path(__file__).resolve().parent / "data" / "seeds").glob("*.txt"))
PROSE = "天地玄黃宇宙洪荒日月盈昃辰宿列張○疏曰寒來暑往秋收冬藏口半\n" * 50


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A small library: the three seeds in sub-folders among prose, a hidden
    file and folder, a binary file, an org file."""
    top = tmp_path / "lib"
    (top / "a" / "b").mkdir(parents=True)
    (top / "c").mkdir()
    (top / ".git").mkdir()
    shutil.copy(SEEDS[0], top / "a" / SEEDS[0].name)
    shutil.copy(SEEDS[1], top / "a" / "b" / SEEDS[1].name)
    shutil.copy(SEEDS[2], top / "c" / SEEDS[2].name)
    (top / "a" / "prose.txt").write_text(PROSE, encoding="utf-8")
    (top / "c" / "gb.txt").write_bytes(PROSE.encode("gb18030"))
    (top / "c" / "notes.org").write_text("魯鼓 ○□○○□半○□○\n", encoding="utf-8")
    (top / ".hidden.txt").write_text(SEEDS[0].read_text(encoding="utf-8"), encoding="utf-8")
    (top / ".git" / "seed.txt").write_text(SEEDS[0].read_text(encoding="utf-8"),
                                           encoding="utf-8")
    (top / "c" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(64))
    return top


def lines_of(run) -> list[dict]:
    return [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]


def test_every_file_as_alone(library, tmp_path):
    run = guji(["scan", str(library), "--json"], tmp_path)
    assert run.returncode == 0, run.stderr
    objects = lines_of(run)
    names = [Path(o["file"]).relative_to(library).as_posix() for o in objects]
    assert names == ["a/" + SEEDS[0].name, "a/b/" + SEEDS[1].name, "a/prose.txt",
                     "c/" + SEEDS[2].name, "c/gb.txt", "c/notes.org"]     # each folder sorted
    for obj in objects:
        alone = guji(["scan", obj["file"], "--json"], tmp_path)
        assert obj["patterns"] == json.loads(alone.stdout), obj["file"]
        assert obj["notices"] == [line.removeprefix("guji: ") for line in alone.err_lines]
    assert sum(len(o["patterns"]) for o in objects) == 13
    assert {o["encoding"] for o in objects if o["file"].endswith("gb.txt")} == {"gb18030"}
    assert "image.png: skipped: binary file" in run.stderr
    assert "skipped 2 hidden paths" in run.stderr


def test_text_output_lists_files_with_patterns(library, tmp_path):
    run = guji(["scan", str(library)], tmp_path)
    out = run.stdout.decode("utf-8")
    alone = guji(["scan", str(library / "c" / SEEDS[2].name)], tmp_path).stdout.decode("utf-8")
    assert alone in out
    assert "prose.txt" not in out
    assert out.splitlines()[-1].startswith("6 files, ")
    assert ": 13 patterns in 4 files" in out


def test_include_and_exclude(library, tmp_path):
    run = guji(["scan", str(library), "--json", "--include", "*.txt", "--exclude", "b"],
               tmp_path)
    names = {Path(o["file"]).name for o in lines_of(run)}
    assert names == {SEEDS[0].name, SEEDS[2].name, "prose.txt", "gb.txt"}
    assert "skipped 1 excluded path" in run.stderr
    assert "skipped 2 not included paths" in run.stderr


def test_a_broken_file_is_one_line_and_exit_2(library, tmp_path):
    (library / "a" / "typo.txt").write_text("魯鼓 ○□○o○半○□○\n", encoding="utf-8")
    (library / "a" / "bad.txt").write_bytes(b"\xff\xfe\xfd" * 10 + b"\x81")
    run = guji(["scan", str(library), "--json"], tmp_path)
    assert run.returncode == 2
    errors = [o for o in lines_of(run) if "error" in o]
    assert [Path(o["file"]).name for o in errors] == ["bad.txt", "typo.txt"]
    alone = guji(["scan", str(library / "a" / "typo.txt")], tmp_path)
    assert alone.err_lines[0] in run.err_lines      # the first line: file, line, column, what
    assert "Traceback" not in run.stderr
    assert sum(len(o["patterns"]) for o in lines_of(run)) == 13


def test_one_process_or_several(library, tmp_path):
    one = guji(["scan", str(library), "--json", "--jobs", "1"], tmp_path)
    two = guji(["scan", str(library), "--json", "--jobs", "3"], tmp_path)
    assert one.stdout == two.stdout and one.stdout


def test_files_and_folders_together(library, tmp_path):
    run = guji(["scan", str(SEEDS[0]), str(library / "c"), "--json"], tmp_path)
    assert [Path(o["file"]).name for o in lines_of(run)] == [
        SEEDS[0].name, SEEDS[2].name, "gb.txt", "notes.org"]
    mixed = guji(["scan", "-", str(library)], tmp_path)
    assert mixed.returncode == 2 and "standard input" in mixed.stderr


def test_walk_streams_sorted_and_says_what_it_skips(library):
    items = list(walk([str(library)], (), ("*.org",)))
    paths = [i for i in items if isinstance(i, str)]
    skipped = {Path(i.path).name: i.why for i in items if isinstance(i, Skipped)}
    assert paths == sorted(paths, key=lambda p: Path(p).relative_to(library).parts)
    assert skipped == {".git": "hidden", ".hidden.txt": "hidden", "notes.org": "excluded"}
    found = list(scan_files(paths, jobs=2))
    assert [f.path for f in found] == paths
    assert [f.skipped for f in found if f.skipped] == ["binary"]


def test_collate_a_folder(library, tmp_path):
    run = guji(["collate", "--only", str(library), "--json"], tmp_path)
    assert run.returncode == 0, run.stderr
    files = [str(library / "a" / SEEDS[0].name), str(library / "a" / "b" / SEEDS[1].name),
             str(library / "c" / SEEDS[2].name), str(library / "c" / "notes.org")]
    alone = guji(["collate", "--only", *files, "--json"], tmp_path)
    assert run.stdout == alone.stdout
    assert "collating 4 files" in run.stderr


def test_read_bracketed_in_a_library_as_alone(tmp_path):
    """``--read-bracketed`` reads a bracketed pattern in every file of a
    library, as it does for the file alone (it was dropped for folders)."""
    top = tmp_path / "lib"
    top.mkdir()
    (top / "quoted.txt").write_text("【注文\n魯鼓　○□○○□□○□○○□半○□○□○○○□□○□○\n後文】\n",
                                    encoding="utf-8")
    (top / "plain.txt").write_text(PROSE, encoding="utf-8")
    for jobs in ("1", "2"):
        run = guji(["scan", str(top), "--read-bracketed", "--json", "--jobs", jobs], tmp_path)
        assert run.returncode == 0, run.stderr
        objects = {Path(o["file"]).name: o for o in lines_of(run)}
        alone = guji(["scan", str(top / "quoted.txt"), "--read-bracketed", "--json"], tmp_path)
        assert objects["quoted.txt"]["patterns"] == json.loads(alone.stdout)
        assert [p["id"].split("@")[0] for p in objects["quoted.txt"]["patterns"]] == ["lu:1"]
    without = guji(["scan", str(top), "--json"], tmp_path)
    assert [o["patterns"] for o in lines_of(without)] == [[], []]


def test_links_in_a_loop_are_skipped_and_said(tmp_path):
    """A link to itself once raised ``OSError: [Errno 40]`` from the walk, and
    a link to a folder above was walked until the path was too long."""
    top = tmp_path / "lib"
    (top / "a").mkdir(parents=True)
    (top / "a" / "t.txt").write_text("魯鼓 ○□○○□半○□○\n", encoding="utf-8")
    (top / "self.txt").symlink_to("self.txt")
    (top / "a" / "up").symlink_to("..")
    items = list(walk([str(top)]))
    assert items == [str(top / "a" / "t.txt"),
                     Skipped(str(top / "a" / "up"), "a link to a folder it is in (a loop)"),
                     Skipped(str(top / "self.txt"),
                             "cannot read: too many levels of symbolic links")]
    r = guji(["scan", "lib", "--json"], tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert [json.loads(line)["file"] for line in r.stdout.decode().splitlines()] == ["lib/a/t.txt"]

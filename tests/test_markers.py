"""The fast loop holds: a test that needs an outside program is not in it.

``pytest -m fast`` is the two-minute loop of a contributor; plain ``pytest``
runs everything. A test's marks come from what it asks for
(tests/conftest.py: the fixtures ``chromium``, ``tool``, ``pulseaudio``,
``jackd``, ``null_alsa``; the helper modules ``fuzz`` and ``live``) and from
its own (``tools`` where a helper of its module runs the program; ``slow``,
measured, listed in tests/slow.txt). Checked here:

* the rule itself (:func:`conftest.marks_of`) and its guard (a fast test that
  starts a program fails, :func:`tools.outside_the_loop`);
* every test collected with this one is ``fast`` or carries a mark that keeps
  it out, never both, and a test asking for a marking fixture carries its mark;
* read from the sources (no test run): no test that starts an outside program
  — itself, through a function of its module or a fixture — is left ``fast``,
  and every test tests/slow.txt names is there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import conftest
import tools

TESTS = Path(__file__).parent
#: The calls that start an outside program or server (tests/tools.py, browsers.py, live/,
#: practice_sounds.py), whatever module they are called through.
STARTERS = {"require", "executable", "chromium", "mscore", "launched", "playwright",
            "PulseSink", "JackServer", "fluidsynth_mix", "recorded_kit"}
#: Programs a test may run from the fast loop: the shell, and root's mount of a small disk.
ANYWHERE = {"bash", "sh", "mount", "umount", "pgrep"}


# -- the rule -----------------------------------------------------------------------------------

def test_a_fixture_marks_the_tests_that_ask_for_it():
    assert conftest.marks_of(["tmp_path", "chromium"], {}, set()) == {"browser"}
    assert conftest.marks_of(["tool", "null_alsa"], {}, set()) == {"tools", "live"}
    assert conftest.marks_of(["tmp_path", "capsys"], {}, set()) == {"fast"}


def test_a_helper_module_marks_every_test_of_the_module_importing_it():
    import fuzz
    from live import pulse
    assert conftest.marks_of([], {"fuzz": fuzz}, set()) == {"fuzz"}
    assert conftest.marks_of([], {"pulse": pulse}, set()) == {"live"}
    assert conftest.marks_of([], {"PulseSink": pulse.PulseSink}, set()) == {"live"}
    assert conftest.marks_of([], {"tools": tools, "Path": Path}, set()) == {"fast"}


def test_a_tests_own_mark_keeps_it_out_of_the_loop():
    assert conftest.marks_of([], {}, {"slow", "parametrize"}) == {"slow"}
    assert conftest.marks_of([], {}, {"parametrize", "skipif"}) == {"fast"}


def test_a_fast_test_that_starts_a_program_fails_saying_which(monkeypatch):
    monkeypatch.setattr(tools, "RUNNING", {"fast"})
    with pytest.raises(pytest.fail.Exception, match="starts the program 'ls'.*tool"):
        tools.executable("ls", "apt-get install coreutils")
    assert tools.executable("bash", "apt-get install bash")       # the shell: anywhere
    monkeypatch.setattr(tools, "RUNNING", {"tools", "parametrize"})
    assert tools.executable("ls", "apt-get install coreutils")


def test_each_test_collected_is_fast_or_marked_out_not_both(request):
    """Over the tests of this run (all of them under plain ``pytest``)."""
    for item in request.session.items:
        marks = {m.name for m in item.iter_markers()}
        out = marks & set(conftest.MARKS)
        assert ("fast" in marks) != bool(out), (item.nodeid, marks)
        for fixture in set(item.fixturenames) & set(conftest.FIXTURE_MARKS):
            assert conftest.FIXTURE_MARKS[fixture] in marks, (item.nodeid, fixture)


# -- read from the sources ---------------------------------------------------------------------

def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _named(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _starts_a_program(call: ast.Call, original) -> bool:
    """A starter called (``require("lilypond")``, also imported under another
    name: *original* gives a name's own; not ``require("bash")``), or
    ``subprocess.run(["name", …])`` with a program named in letters."""
    first = call.args[0] if call.args else None
    if original(_called(call.func)) in STARTERS:
        return _named(first) not in ANYWHERE
    if not (isinstance(call.func, ast.Attribute) and _called(call.func.value) == "subprocess"):
        return False
    return isinstance(first, ast.List) and bool(first.elts) and _named(first.elts[0]) not in (
        None, *ANYWHERE)


class Module:
    """What one test module's functions call, ask for and are marked with."""

    def __init__(self, path: Path):
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.functions = {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}
        self.imported = {a.asname or a.name: (n.module, a.name) for n in self.tree.body
                         if isinstance(n, ast.ImportFrom) and n.module for a in n.names}
        helpers = {name.split(".")[0] for name in conftest.HELPER_MARKS}
        self.marked = any(  # pytestmark, or a helper module that marks every test
            isinstance(n, ast.Assign) and any(_called(t) == "pytestmark" for t in n.targets)
            or isinstance(n, ast.Import) and any(a.name.split(".")[0] in helpers for a in n.names)
            or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in helpers
            for n in self.tree.body)


def _marked_itself(function: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in conftest.MARKS
               and _called(n.value) == "mark"
               for d in function.decorator_list for n in ast.walk(d))


class Sources:
    """Every test module of tests/, read (never imported)."""

    def __init__(self):
        # (this module calls the starters on purpose, to see them refused)
        self.modules = {p.stem: Module(p) for p in sorted(TESTS.glob("test_*.py"))
                        if p.stem != "test_markers"}

    def find(self, module: str, name: str):
        """(module, function) of *name* as *module* sees it, or ``None``."""
        m = self.modules[module]
        if name in m.functions:
            return module, m.functions[name]
        source, original = m.imported.get(name, (None, None))
        if source in self.modules and original in self.modules[source].functions:
            return source, self.modules[source].functions[original]
        return None

    def original(self, module: str, name: str) -> str:
        """*name*'s own name, where *module* imported it under another (through test modules)."""
        source, own = self.modules[module].imported.get(name, (None, name))
        return self.original(source, own) if source in self.modules else own

    def starts(self, module: str, function: ast.FunctionDef, seen: set) -> bool:
        """Whether *function* starts an outside program: itself, or what it calls or asks for."""
        if (module, function.name) in seen:
            return False
        seen.add((module, function.name))
        calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)]
        if any(_starts_a_program(c, lambda name: self.original(module, name)) for c in calls):
            return True
        names = {_called(c.func) for c in calls} | {a.arg for a in function.args.args}
        return any(self.starts(*found, seen) for found in map(lambda n: self.find(module, n), names)
                   if found is not None)

    def marked(self, module: str, function: ast.FunctionDef, seen: set) -> bool:
        """Whether *function* (a test or a fixture) is kept out of the fast loop."""
        if (module, function.name) in seen:
            return False
        seen.add((module, function.name))
        if self.modules[module].marked or _marked_itself(function):
            return True
        for arg in (a.arg for a in function.args.args):
            found = self.find(module, arg)
            if arg in conftest.FIXTURE_MARKS or found and self.marked(*found, seen):
                return True
        return False


def test_no_test_that_starts_an_outside_program_is_fast():
    sources = Sources()
    fast = [f"{module}.py::{name}" for module, m in sources.modules.items()
            for name, function in m.functions.items() if name.startswith("test_")
            and sources.starts(module, function, set())
            and not sources.marked(module, function, set())]
    assert fast == [], ("these start an outside program, yet nothing keeps them out of "
                        "'pytest -m fast': ask for the fixture (tool, chromium, …) or mark them")


def test_the_reading_of_the_sources_sees_a_program_started_through_a_helper(tmp_path):
    """The check above can fail: a test that runs lilypond through a function of
    its module, unmarked, is caught; the same test asking for ``tool`` is not."""
    (tmp_path / "test_x.py").write_text(
        "import subprocess\n"
        "def engrave(p):\n    subprocess.run(['lilypond', p])\n"
        "def test_unmarked(tmp_path):\n    engrave(tmp_path)\n"
        "def test_asks(tmp_path, tool):\n    engrave(tmp_path)\n"
        "def test_pure():\n    assert 1\n")
    sources = Sources.__new__(Sources)
    sources.modules = {"test_x": Module(tmp_path / "test_x.py")}
    m = sources.modules["test_x"]
    starts = {n: sources.starts("test_x", f, set()) for n, f in m.functions.items()}
    marked = {n: sources.marked("test_x", f, set()) for n, f in m.functions.items()}
    assert starts == {"engrave": True, "test_unmarked": True, "test_asks": True, "test_pure": False}
    assert (marked["test_unmarked"], marked["test_asks"]) == (False, True)


def test_each_test_listed_slow_is_there():
    """tests/slow.txt names tests that exist: a renamed test is not left fast unnoticed."""
    sources = Sources()
    missing = []
    for node in sorted(conftest.slow_ids()):
        path, _, name = node.split("[")[0].partition("::")
        module = Path(path).stem
        if module not in sources.modules or name not in sources.modules[module].functions:
            missing.append(node)
    assert missing == []

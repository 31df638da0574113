"""The shape of the house: small rooms, data flowing one way.

Facts about ``guji/`` read from its source (no import of guji):

* no module over :data:`MAX_MODULE_LINES` lines, no function over
  :data:`MAX_FUNCTION_LINES` (docstrings included);
* no import cycle between modules (imports inside functions count too);
* nothing outside ``guji/cli/`` imports the command line;
* the stages import one way: text → timing → midi, sound, views, sheet → cli
  (:data:`LAYERS`).

Run as a script to print the figures::

    .venv/bin/python tests/test_house.py
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "guji"

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

#: Each folder of the package and the folders it may import from (besides
#: itself and the modules at the top: errors, files).
LAYERS = {
    "text": set(),
    "timing": {"text"},
    "midi": {"text", "timing"},
    "sound": {"text", "timing"},
    "views": {"text", "timing", "sound", "midi", "compare"},
    # sheet music: the General MIDI keys of guji.midi.gm are the instruments'
    "sheet": {"text", "timing", "midi"},
    # practice: a recording heard and checked against the score (guji check; its picture in views' SVG)
    "practice": {"text", "timing", "views"},
    # the critical edition (MEI): the staff of guji sheet, the keys of guji.midi.gm
    "edition": {"text", "timing", "midi", "sheet"},
    # the compare modes: a command's feature, laid out on the timing stage
    "compare": {"text", "timing"},
    # live playback, the transport: sound and MIDI out from one clock
    "live": {"text", "timing", "midi", "sound"},
    # the studio: a local web app on the readings, drawings and sound of the stages before it
    "studio": {"text", "timing", "midi", "sound", "views", "sheet", "compare"},
    "cli": {"text", "timing", "midi", "sound", "views", "sheet", "live", "compare", "edition", "studio", "practice"},
}


def modules() -> dict[str, Path]:
    """Dotted module name → file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def long_functions(path: Path) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function over the limit in *path*."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node, prefix=""):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    lines = child.end_lineno - child.lineno + 1
                    if lines > MAX_FUNCTION_LINES:
                        found.append((name, lines))
                visit(child, name + ".")

    visit(tree)
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that module *name* imports (anywhere in it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.add(full if full in known else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports(name, path, known) for name, path in mods.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), plus
    modules that import themselves through a package ``__init__``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return found


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else None


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, deps in graph.items():
        stage = _stage(mod)
        if stage not in LAYERS:
            continue
        for dep in deps:
            other = _stage(dep)
            if other in LAYERS and other != stage and other not in LAYERS[stage]:
                bad.append(f"{mod} imports {dep}")
    return sorted(bad)


# -- the tests ----------------------------------------------------------------------

def test_no_module_over_the_limit():
    big = {name: len(path.read_text(encoding="utf-8").splitlines())
           for name, path in modules().items()}
    assert {n: lines for n, lines in big.items() if lines > MAX_MODULE_LINES} == {}


def test_no_function_over_the_limit():
    long = {name: long_functions(path) for name, path in modules().items()}
    assert {n: fs for n, fs in long.items() if fs} == {}


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_nothing_under_the_library_imports_the_command_line():
    graph = import_graph()
    # guji/__main__.py (``python -m guji``) is the command line's entry point
    assert sorted(f"{m} imports {d}" for m, deps in graph.items()
                  if not m.startswith("guji.cli") and m != "guji.__main__"
                  for d in deps if d.startswith("guji.cli")) == []


def test_the_stages_import_one_way():
    assert layer_violations(import_graph()) == []


def test_the_graph_sees_the_imports():
    # the checker itself: the command line does import the text stage
    graph = import_graph()
    assert "guji.text.reading.parser" in graph["guji.text.reading.editions"]
    assert any(d.startswith("guji.text") for d in graph["guji.cli.commands.scan"])


if __name__ == "__main__":  # pragma: no cover
    mods = modules()
    graph = import_graph()
    sizes = sorted(((len(p.read_text(encoding="utf-8").splitlines()), n) for n, p in mods.items()),
                   reverse=True)
    print(f"{len(mods)} modules; largest: " + ", ".join(f"{n} {s}" for s, n in sizes[:5]))
    longest = sorted(((lines, f"{n}.{f}") for n, p in mods.items()
                      for f, lines in long_functions(p)), reverse=True)
    print(f"functions over {MAX_FUNCTION_LINES} lines: {len(longest)}"
          + ("".join(f"\n  {name} {lines}" for lines, name in longest)))
    print(f"modules over {MAX_MODULE_LINES} lines: "
          f"{sum(1 for s, _ in sizes if s > MAX_MODULE_LINES)}"
          + "".join(f"\n  {n} {s}" for s, n in sizes if s > MAX_MODULE_LINES))
    print(f"import cycles: {cycles(graph) or 'none'}")
    print("layer violations: " + ("none" if not layer_violations(graph)
                                  else "\n  " + "\n  ".join(layer_violations(graph))))

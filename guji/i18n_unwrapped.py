"""The messages guji shows that are not wrapped for translation yet (a
developer's tool: ``python -m guji.i18n_tools unwrapped``).

Found by reading the code (:mod:`ast`): a user error raised with a literal
message (any class deriving from :class:`~guji.errors.GujiError`), a literal
printed (``print("…")``, ``print(f"…")``), a literal given to ``notice``/``warn``
or as an option's ``help=``/``description=``/``epilog=``. Strings with no
letters (``"\\n"``, ``"{}"``) are not messages.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
_LETTERS = re.compile(r"[A-Za-z]{2,}")
_HELP = {"help", "description", "epilog"}
_SAYERS = {"notice", "warn", "say", "report", "advise"}


def user_errors(files: list[Path]) -> set[str]:
    """The names of the classes deriving from GujiError in *files* (transitively)."""
    bases: dict[str, set[str]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases)
    found = {"GujiError", "ArgumentTypeError"}
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in found and parents & found:
                found.add(name)
                grew = True
    return found


def _literal(node) -> bool:
    """A string written in the code (not already a call of _())."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_LETTERS.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and _LETTERS.search(v.value) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _literal(node.left) or _literal(node.right)
    return False


def _name(func) -> str:
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def unwrapped(files: list[Path]) -> list[str]:
    """``file:line: text`` for every message of *files* shown without translation."""
    errors = user_errors(files)
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            shown = _shown(node, errors)
            if shown is not None:
                where = _where(path)
                found.append(f"{where}:{shown.lineno}: {ast.unparse(shown)[:100]}")
    return found


def _where(path: Path) -> str:
    try:
        return str(path.relative_to(PACKAGE.parent))
    except ValueError:
        return str(path)


def _shown(node, errors: set[str]):
    """The literal message *node* shows untranslated, or None."""
    if not isinstance(node, ast.Call):
        return None
    name = _name(node.func)
    if (name in errors or name == "print" or name in _SAYERS) and node.args and _literal(node.args[0]):
        return node.args[0]
    for kw in node.keywords:
        if kw.arg in _HELP and _literal(kw.value):
            return kw.value
    return None





def shadowed(files: list[Path]) -> list[str]:
    """``file:line: function`` for every function that calls ``_()`` and also binds
    ``_`` itself (``name, _ = …``, ``for _ in …``): there ``_`` is the local and
    the call fails (UnboundLocalError or 'str' object is not callable)."""
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _binds_and_calls(node):
                found.append(f"{_where(path)}:{node.lineno}: {node.name}")
    return found


def _binds_and_calls(function) -> bool:
    binds = calls = False
    for node in _own_nodes(function):
        if isinstance(node, ast.Name) and node.id == "_":
            binds |= isinstance(node.ctx, ast.Store)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
            calls = True
    return binds and calls


def _own_nodes(function):
    """The nodes of *function*'s own scope (not of comprehensions or inner functions)."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                             ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))
__all__ = ["shadowed", "unwrapped", "user_errors"]

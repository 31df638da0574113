"""Names a package gives from its heavier modules, loaded when first asked for (PEP 562).

``guji``, ``guji.midi`` and ``guji.sheet`` list the names whose modules
import mido, XML or numpy; :func:`later` makes the package's module-level
``__getattr__`` that imports such a module on the first use of one of its
names (``guji --help`` then loads none of them) and keeps the name for the
next time.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def later(package: str, names: Mapping[str, str], namespace: dict) -> Callable[[str], Any]:
    """The ``__getattr__`` of *package*: *names* maps a name to the module (relative
    to *package*) that defines it; the value found is kept in *namespace*."""
    def __getattr__(name: str):
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value
    return __getattr__

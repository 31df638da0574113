"""The shipped editions: raw passages exactly as the sources have them.

See ``editions.toml`` for provenance and ``counts.toml`` for the
commentators' stroke counts. Read them through :mod:`guji.editions`.
"""

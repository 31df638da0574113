"""Test-wide settings.

The synthesised voices are kept in a cache folder (``guji.sound.oneshot``):
the tests use one of their own, made fresh for the session, so they never
read or write the user's ``~/.cache/guji`` and always exercise both the
synthesis and the cache.
"""

from __future__ import annotations

import os
import tempfile

_CACHE = tempfile.mkdtemp(prefix="guji-test-cache-")
os.environ["GUJI_CACHE"] = _CACHE

"""A test that needs a real tool fails under CI when the tool is missing.

Outside CI (a developer's machine without PulseAudio, say) such a test is
skipped, naming what to install; under CI (``CI=true``, as ``.ci/run``
sets), where every tool is installed, a missing one is a failure.
"""

from __future__ import annotations

import os

import pytest


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def need(problem: str | None) -> None:
    """Nothing if *problem* is ``None``; otherwise skip the test, or fail it under CI."""
    if problem is None:
        return
    if under_ci():
        pytest.fail(f"needed for this test, and missing under CI: {problem}")
    pytest.skip(problem)

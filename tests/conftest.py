"""Test-wide settings.

The synthesised voices are kept in a cache folder (``guji.sound.oneshot``):
the tests use one of their own, made fresh for the session, so they never
read or write the user's ``~/.cache/guji`` and always exercise both the
synthesis and the cache. They run in English (``GUJI_LANG=en``) whatever the
desktop's language. A failed ``==`` of two long byte strings or texts is
explained in a few lines (:mod:`unequal`), never by pytest's diff, which for
two big files can run for minutes.
"""

from __future__ import annotations

import os
import tempfile

_CACHE = tempfile.mkdtemp(prefix="guji-test-cache-")
os.environ["GUJI_CACHE"] = _CACHE
# guji speaks English in the tests, in process and in the processes they start,
# whatever the desktop's language (a test choosing a language says so:
# runner.environment(LANG=...), guji --lang)
os.environ["GUJI_LANG"] = "en"


# -- the live tests: marked, so they can be run on their own (-m live) or left out -----------

import inspect  # noqa: E402

import pytest  # noqa: E402

#: Modules whose every test plays in real time (PortAudio on a null device or a
#: private PulseAudio server, live MIDI on a private JACK server).
LIVE_MODULES = {"test_live", "test_play", "test_demo", "test_play_check", "test_play_check_passes"}
#: Words in a test's own source that say it plays in real time.
LIVE_WORDS = ("ALSA_CONFIG_PATH", "_compare_on", "pulse.", "jack.", "guji_env(")


def _is_live(item) -> bool:
    if item.module.__name__.rsplit(".", 1)[-1] in LIVE_MODULES:
        return True
    try:
        source = inspect.getsource(item.function)
    except (OSError, TypeError):
        return False
    return any(word in source for word in LIVE_WORDS)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if isinstance(item, pytest.Function) and _is_live(item):
            item.add_marker(pytest.mark.live)


# -- long unequal values: a short account, not pytest's diff (which can take minutes) --------

import unequal  # noqa: E402


def pytest_configure(config):
    unequal.guard_pytests_diff()


def pytest_assertrepr_compare(config, op, left, right):
    return unequal.explain(op, left, right)

"""Test-wide settings.

The synthesised voices are kept in a cache folder (``guji.sound.oneshot``):
the tests use one of their own, made fresh for the session, so they never
read or write the user's ``~/.cache/guji`` and always exercise both the
synthesis and the cache. They run in English (``GUJI_LANG=en``) whatever the
desktop's language. A failed ``==`` of two long byte strings or texts is
explained in a few lines (:mod:`unequal`), never by pytest's diff, which for
two big files can run for minutes.

Each test is marked at collection by what it needs (:func:`marks_of`): the
fixtures it asks for (``chromium``, ``tool``, ``pulseaudio``, ``jackd``,
``null_alsa``), the helper modules its module imports (``fuzz``, ``live``)
and its own marks (``tools`` where a helper runs the program; ``slow``,
measured, from tests/slow.txt). A test with none of them is ``fast``: ``pytest -m fast`` is the
two-minute loop, plain ``pytest`` runs everything. A fast test that starts
an outside program anyway fails, saying which (:func:`tools.outside_the_loop`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_CACHE = tempfile.mkdtemp(prefix="guji-test-cache-")
os.environ["GUJI_CACHE"] = _CACHE
# guji speaks English in the tests, in process and in the processes they start,
# whatever the desktop's language (a test choosing a language says so:
# runner.environment(LANG=...), guji --lang)
os.environ["GUJI_LANG"] = "en"


# -- the marks: what a test needs, known at collection ---------------------------------------

import pytest  # noqa: E402

import tools  # noqa: E402
import unequal  # noqa: E402

#: The marks that keep a test out of the fast loop (``pytest -m fast``), and what each says.
MARKS = {
    "live": "plays sound or MIDI in real time (null ALSA, a private PulseAudio or JACK server)",
    "browser": "drives a headless Chromium (Playwright, or guji's PNG export)",
    "tools": "runs an outside program (fluidsynth, lilypond, mscore3, jing, flac, groff …)",
    "fuzz": "runs hundreds of random command lines",
    "slow": "takes a second or more (measured; listed in tests/slow.txt)",
}
#: A fixture a test asks for (itself or through another fixture) → its mark.
FIXTURE_MARKS = {"chromium": "browser", "pulseaudio": "live", "jackd": "live",
                 "null_alsa": "live", "tool": "tools"}
#: A helper module of tests/ that a test module imports → the mark of all its tests.
HELPER_MARKS = {"fuzz": "fuzz", "live.pulse": "live", "live.jack": "live"}


#: The tests measured slow (tests/slow.txt): a node id, or a test's id without its parameters
#: for all of them.
SLOW = Path(__file__).with_name("slow.txt")


def slow_ids(path: Path = SLOW) -> set[str]:
    """The ids listed in *path*, one a line (``#`` starts a comment)."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return {line.split("#")[0].strip() for line in lines} - {""}


def marks_of(fixturenames, module_globals, own_marks) -> set[str]:
    """The marks a test gets: those of the fixtures it uses, of the helpers its
    module imports, and its own (decorators, ``pytestmark``); ``fast`` when
    none of them keeps it out of the fast loop."""
    marks = {FIXTURE_MARKS[f] for f in fixturenames if f in FIXTURE_MARKS}
    for value in module_globals.values():
        name = getattr(value, "__name__", None) if isinstance(value, type(pytest)) \
            else getattr(value, "__module__", None)
        if name in HELPER_MARKS:
            marks.add(HELPER_MARKS[name])
    marks |= set(own_marks) & set(MARKS)
    return marks or {"fast"}


def pytest_configure(config):
    for name, meaning in {**MARKS, "fast": "none of the others: the two-minute loop"}.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    unequal.guard_pytests_diff()


def pytest_collection_modifyitems(config, items):
    slow = slow_ids()
    for item in items:
        own = {m.name for m in item.iter_markers()}
        if item.nodeid in slow or item.nodeid.split("[")[0] in slow:
            own.add("slow")
            item.add_marker("slow")
        for mark in sorted(marks_of(item.fixturenames, vars(item.module), own) - own):
            item.add_marker(mark)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # the helpers that start an outside program ask whether the test may (tools.outside_the_loop)
    tools.RUNNING.clear()
    tools.RUNNING.update(m.name for m in item.iter_markers())


@pytest.fixture(scope="session")
def tool():
    """``tool("lilypond")``: the path of an outside program (:func:`tools.require`)."""
    return tools.require


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of Debian's Chromium (:func:`tools.chromium`)."""
    return tools.chromium()


@pytest.fixture(scope="session")
def pulseaudio():
    """The harness of a private PulseAudio server (:mod:`live.pulse`), its programs there."""
    from live import pulse
    tools.need(pulse.missing())
    return pulse


@pytest.fixture(scope="session")
def jackd():
    """The harness of a private JACK server (:mod:`live.jack`), its programs there."""
    from live import jack
    tools.need(jack.missing())
    return jack


#: ALSA's default output made its null device: audio taken with no clock, no card needed.
NULL_ALSA = "</usr/share/alsa/alsa.conf>\npcm.!default { type null }\n"


@pytest.fixture(scope="session")
def null_alsa(tmp_path_factory):
    """An ALSA configuration file (for ``ALSA_CONFIG_PATH``): its default output the null device."""
    tools.file("/usr/share/alsa/alsa.conf", "apt-get install libasound2 (libportaudio2 brings it)")
    path = tmp_path_factory.mktemp("alsa") / "null.conf"
    path.write_text(NULL_ALSA)
    return path


# -- long unequal values: a short account, not pytest's diff (which can take minutes) --------

def pytest_assertrepr_compare(config, op, left, right):
    return unequal.explain(op, left, right)

"""The real-tool rule itself: a missing tool skips outside CI and fails under CI, naming it.

Some runs once skipped five tests "for want of" FluidSynth or Chromium on a
machine that had both, and nothing said so loudly. ``tests/tools.py`` is the
one way the suite asks for a tool; this runs a small test file that asks
for one that does not exist, with and without ``CI=true``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ASKS = '''
import tools

def test_needs_a_tool():
    tools.executable("no-such-synth-2026", "apt-get install no-such-synth")
'''


@pytest.mark.parametrize("ci, outcome", [("true", "1 failed"), ("", "1 skipped")])
def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(tmp_path, ci, outcome):
    (tmp_path / "test_asks.py").write_text(ASKS)
    env = dict(os.environ, CI=ci, PYTHONPATH=str(Path(__file__).parent))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                        str(tmp_path / "test_asks.py")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert outcome in r.stdout, r.stdout
    assert "no-such-synth-2026" in r.stdout and "apt-get install no-such-synth" in r.stdout

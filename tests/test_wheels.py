"""The wheel check's own logic (.ci/wheels.py), offline: which packages it
asks about in which group, which markers apply, and that a core dependency
without a wheel fails it while an extra's gap is only reported. The check
itself asks PyPI and runs in .ci/run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "wheels.py"
spec = importlib.util.spec_from_file_location("ci_wheels", SCRIPT)
wheels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wheels)


def test_groups_each_package_once_live_midi_an_extra():
    groups = {g: [r.name.lower() for r in reqs] for g, reqs in wheels.groups().items()}
    assert "python-rtmidi" not in groups["core"] and groups["midi"] == ["python-rtmidi"]
    assert {"numpy", "mido", "soundfile", "sounddevice"} <= set(groups["core"])
    everything = [n for names in groups.values() for n in names]
    assert len(everything) == len(set(everything))          # test repeats none


def test_markers_by_python():
    tomli = next(r for r in wheels.groups()["core"] if r.name == "tomli")
    assert not wheels.applies(tomli, "3.11", "win_amd64")
    assert wheels.applies(tomli, "3.10", "musllinux x86_64")


def test_a_core_gap_fails_an_extra_gap_is_reported(capsys, monkeypatch):
    monkeypatch.setattr(wheels, "groups", lambda: {"core": [], "midi": []})
    results = {}
    for py in wheels.PYTHONS:
        for plat in wheels.PLATFORMS:
            core_numpy = "—" if (py, plat) == ("3.14", "musllinux x86_64") else "2.4.6"
            results[("core", py, plat)] = {"numpy": core_numpy}
            results[("midi", py, plat)] = {"python-rtmidi": "—" if py >= "3.13" else "1.5.8"}
    missing = wheels.print_table(results)
    assert missing == ["numpy on musllinux x86_64 for 3.14"]
    table = capsys.readouterr().out
    assert "| midi | python-rtmidi | 3.11, 3.12 (none: 3.13, 3.14): 1.5.8 |" in table

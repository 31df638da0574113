#!/usr/bin/env python3
"""Does every dependency of guji have a wheel on every platform and Python?

For each dependency of the core and of each extra (pyproject.toml), for
CPython 3.11-3.14 on Windows (x86-64), macOS (arm64, x86-64), manylinux
(x86-64, aarch64) and musllinux (x86-64), pip is asked which wheel it would
install (``pip install --dry-run --only-binary=:all: --no-deps --platform …
--python-version …``: the resolver of ``pip download``, reading only the
wheels' metadata, nothing downloaded). Prints the table (version and wheel
tag, or ``—`` for none); exits 1 if a core dependency has no wheel somewhere
(an extra without one is reported, not fatal), 3 if PyPI could not be asked
after retries.

Run: ``python .ci/wheels.py`` (about a minute: the questions go eight at a time).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import tomllib
except ImportError:                 # Python 3.10
    import tomli as tomllib

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
#: Platform → the tags pip may accept for it (the newest first).
PLATFORMS = {
    "win_amd64": ("win_amd64",),
    "macosx arm64": ("macosx_14_0_arm64", "macosx_11_0_arm64", "macosx_11_0_universal2",
                     "macosx_10_9_universal2"),
    "macosx x86_64": ("macosx_14_0_x86_64", "macosx_10_13_x86_64", "macosx_10_9_x86_64",
                      "macosx_10_9_universal2"),
    "manylinux x86_64": ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64",
                         "manylinux2014_x86_64", "manylinux_2_5_x86_64", "manylinux1_x86_64"),
    "manylinux aarch64": ("manylinux_2_28_aarch64", "manylinux_2_17_aarch64",
                          "manylinux2014_aarch64"),
    "musllinux x86_64": ("musllinux_1_2_x86_64", "musllinux_1_1_x86_64"),
}
NO_MATCH = re.compile(r"No matching distribution|Could not find a version|"
                      r"requires a different Python|ResolutionImpossible")
TRIES = 3
TIMEOUT = 120


def groups() -> dict[str, list[Requirement]]:
    """``core`` and each extra → its requirements, each package in the first
    group that names it only (``test`` repeats ``midi``'s and ``sheet``'s)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = {"core": [Requirement(r) for r in project["dependencies"]]}
    seen = {r.name.lower() for r in out["core"]}
    for extra, reqs in project.get("optional-dependencies", {}).items():
        out[extra] = [r for r in map(Requirement, reqs)
                      if r.name.lower() not in seen and r.name != "guji"]
        seen |= {r.name.lower() for r in out[extra]}
    return out


def applies(req: Requirement, python: str, platform: str) -> bool:
    """Whether *req*'s marker holds for that Python and platform."""
    if req.marker is None:
        return True
    system = ("win32" if platform.startswith("win") else
              "darwin" if platform.startswith("mac") else "linux")
    return req.marker.evaluate({"python_version": python, "python_full_version": python + ".0",
                                "sys_platform": system, "extra": ""})


def _environment() -> dict:
    """pip asking PyPI itself: no local indexes or wheel folders of this machine."""
    env = {k: v for k, v in os.environ.items() if k not in ("PIP_FIND_LINKS", "PIP_INDEX_URL",
                                                            "PIP_EXTRA_INDEX_URL")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


def ask(reqs: list[Requirement], python: str, platform: str) -> dict[str, str] | None:
    """Name → ``version tag`` pip would install for *reqs* there; ``None``
    when some has no wheel; raises RuntimeError when pip could not ask."""
    with tempfile.TemporaryDirectory(prefix="guji-wheels-") as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
               "--quiet", "--no-deps", "--only-binary=:all:", "--implementation", "cp",
               "--python-version", python, "--report", str(report), "--target", tmp]
        for tag in PLATFORMS[platform]:
            cmd += ["--platform", tag]
        cmd += [str(r).split(";")[0] for r in reqs]
        for attempt in range(TRIES):
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                                      env=_environment())
            except subprocess.TimeoutExpired:
                continue
            if proc.returncode == 0:
                found = json.loads(report.read_text(encoding="utf-8"))["install"]
                return {i["metadata"]["name"].lower(): _shown(i) for i in found}
            if NO_MATCH.search(proc.stderr):
                return None
            time.sleep(2 * (attempt + 1))
        raise RuntimeError(f"pip could not ask PyPI ({python}, {platform}): "
                           + (proc.stderr.strip().splitlines() or ["timed out"])[-1])


def _shown(item: dict) -> str:
    wheel = item["download_info"]["url"].rsplit("/", 1)[-1]
    tag = wheel[:-4].split("-")[-1] if wheel.endswith(".whl") else "?"
    return item["metadata"]["version"] + (" any" if tag == "any" else "")


def cell(reqs: list[Requirement], python: str, platform: str) -> dict[str, str]:
    """Name → what pip would install, or ``—`` for a package with no wheel."""
    reqs = [r for r in reqs if applies(r, python, platform)]
    if not reqs:
        return {}
    whole = ask(reqs, python, platform)
    if whole is not None:
        return whole
    out = {}
    for r in reqs:                           # one at a time, to name the one missing
        alone = ask([r], python, platform)
        out[r.name.lower()] = "—" if alone is None else alone[r.name.lower()]
    return out


def main() -> int:
    jobs = {(group, py, plat): reqs for group, reqs in groups().items()
            for py in PYTHONS for plat in PLATFORMS}
    results: dict = {}
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        futures = {pool.submit(cell, reqs, *key[1:]): key for key, reqs in jobs.items()}
        try:
            for future in concurrent.futures.as_completed(futures):
                results[futures[future]] = future.result()
        except RuntimeError as e:
            print(f"wheels: {e}", file=sys.stderr)
            return 3
    missing_core = print_table(results)
    if missing_core:
        print("wheels: no wheel for core dependencies: " + "; ".join(missing_core),
              file=sys.stderr)
        return 1
    return 0


def print_table(results: dict) -> list[str]:
    """A Markdown table a group and package a row, a platform a column
    (each cell: the Pythons with a wheel, and the versions); return the core's gaps."""
    missing = []
    print("| group | package | " + " | ".join(PLATFORMS) + " |")
    print("|---|---|" + "---|" * len(PLATFORMS))
    for group in groups():
        names = sorted({n for (g, _, _), found in results.items() if g == group for n in found})
        for name in names:
            cells = []
            for plat in PLATFORMS:
                have, lack, versions = [], [], set()
                for py in PYTHONS:
                    got = results[(group, py, plat)].get(name)
                    if got is None:
                        continue           # its marker excludes this Python
                    (lack if got == "—" else have).append(py)
                    if got != "—":
                        versions.add(got)
                if lack and group == "core":
                    missing.append(f"{name} on {plat} for {', '.join(lack)}")
                if not have:
                    text = "none" if lack else "n/a"
                else:
                    text = "all" if not lack else f"{', '.join(have)} (none: {', '.join(lack)})"
                cells.append(f"{text}: {'; '.join(sorted(versions))}" if versions else text)
            print(f"| {group} | {name} | " + " | ".join(cells) + " |")
    return missing


if __name__ == "__main__":
    sys.exit(main())

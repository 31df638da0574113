"""A headless Chromium and a running studio, set up once for the browser tests.

The page's tests (``test_page``), the studio's (``test_studio_browser``) and
the accessibility audit (``test_accessibility``) drive Debian's Chromium
through Playwright (no ``playwright install``), kept from any sound server
(:func:`tools.browser_environment`). :func:`launched` is that browser, or a
skip (outside CI) / a failure (under CI) where Playwright, Chromium or, for
the audit, axe-core (``npm install --prefix .ci/node axe-core``, as
``.ci/run`` does) is missing; :func:`serving` is a studio on 127.0.0.1,
shut down and joined after the block.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Iterator

import tools

ROOT = Path(__file__).resolve().parents[1]
BROWSER = shutil.which("chromium") or "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]
#: axe-core's script, for the accessibility audit.
AXE = Path(os.environ.get("GUJI_AXE", ROOT / ".ci/node/node_modules/axe-core/axe.min.js"))


def playwright():
    """``playwright.sync_api``, once Playwright and Chromium are known to be there."""
    tools.outside_the_loop("Chromium")
    sync_api = tools.module("playwright.sync_api", "pip install '.[test]'")
    tools.file(BROWSER, "apt-get install chromium")
    return sync_api


@contextmanager
def launched(args: list[str] = BROWSER_ARGS, *, axe: bool = False) -> Iterator:
    """A headless Chromium for the block (with *axe*: axe-core must be there too)."""
    sync_api = playwright()
    if axe:
        tools.file(AXE, "npm install --prefix .ci/node axe-core (as .ci/run does)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=BROWSER, args=args,
                                     env=tools.browser_environment())
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def serving(library=None, within=None) -> Iterator:
    """A studio of *library* (default: no texts) listening for the block;
    started under the limits *within* (:class:`guji.limits.Limits`), if given."""
    from guji import limits
    from guji.studio.documents import Library
    from guji.studio.server import start
    with limits.using(within) if within is not None else nullcontext():
        server, thread = start(Library() if library is None else library)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

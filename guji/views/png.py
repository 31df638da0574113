"""PNG of a drawing, through a headless browser.

:func:`svg_to_png` renders the SVG with a headless Chromium
(``chromium --headless --screenshot``): Chromium falls back through the font
list (:data:`guji.views.svg.FONT_FAMILY`) to whatever CJK font is installed,
as a reader's browser does, where libraries like cairosvg use only the first
family and draw empty boxes (tofu) when it is missing. No Python package is
needed; the browser is found as ``$GUJI_CHROMIUM``, or
``chromium``/``chromium-browser``/``google-chrome`` on the ``PATH``, or where
each system installs Chrome, Chromium or Edge (``C:\\Program Files\\…``,
``/Applications/Google Chrome.app``: :func:`guji.system.find_program`).
On Debian: ``apt-get install chromium fonts-noto-cjk``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .. import processes, system
from ..errors import UsageError
from ..files import cannot_write, check_target, writing
from ..page_words import _
from .svg import Drawing

#: Browser executables tried, in order, after ``$GUJI_CHROMIUM``.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Flags for a quiet, offline, one-shot headless run.
BROWSER_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--mute-audio")


def find_browser() -> str:
    """The Chromium executable to use, or :class:`UsageError` if there is none."""
    env = os.environ.get("GUJI_CHROMIUM")
    if env:
        found = shutil.which(env)
        if not found:
            raise UsageError(_("GUJI_CHROMIUM={value!r} is not an executable").format(value=env))
        return found
    found = system.find_program("chromium", BROWSERS[1:])
    if found:
        return found
    raise UsageError(_("PNG needs a Chromium browser ({hint}; or set GUJI_CHROMIUM); write .svg "
                       "instead").format(hint=system.install_hint("chromium")))


def svg_to_png(drawing_: Drawing, path: str | os.PathLike, *, scale: float = 2.0,
               browser: str | None = None, timeout: float = 120.0) -> Path:
    """Render *drawing_* to a PNG file with a headless Chromium screenshot.

    Parameters
    ----------
    drawing_:
        The picture; the PNG is ``width × scale`` by ``height × scale`` pixels.
    path:
        Where to write it, as :func:`guji.files.writing` decides (a file
        atomically; a device, a pipe or ``-`` directly); checked before
        the browser starts.
    scale:
        Device pixels per SVG pixel (2 gives crisp text).
    browser:
        The browser executable (default: :func:`find_browser`).
    timeout:
        Seconds to wait for the browser.
    """
    check_target(path)
    exe = browser or find_browser()
    w, h = int(round(drawing_.width)), int(round(drawing_.height))
    with tempfile.TemporaryDirectory(prefix="guji-png-", ignore_cleanup_errors=True) as tmpdir:
        svg_file = Path(tmpdir) / "drawing.svg"
        try:
            svg_file.write_text(drawing_.svg(xml_declaration=True), encoding="utf-8")
        except OSError as e:          # a full disk: named as the PNG, not guji's temporary file
            raise cannot_write(str(path), e) from None
        shot = Path(tmpdir) / "shot.png"
        cmd = [exe, *BROWSER_FLAGS, f"--user-data-dir={tmpdir}/profile",
               f"--force-device-scale-factor={scale:g}", f"--window-size={w},{h}",
               f"--screenshot={shot}", svg_file.as_uri()]
        returncode, stderr = _run_browser(cmd, exe, timeout, tmpdir)
        if returncode != 0 or not shot.exists() or shot.stat().st_size == 0:
            last = (stderr.strip().splitlines() or [_("no output")])[-1]
            raise UsageError(_("{browser} made no PNG (exit {status}): {last}").format(
                browser=exe, status=returncode, last=last))
        with writing(path) as out, open(shot, "rb") as png:
            shutil.copyfileobj(png, out.open())
    return Path(out.name)


def _run_browser(cmd: list[str], exe: str, timeout: float, tmpdir: str) -> tuple[int, str]:
    """Run the browser (its exit status and stderr) as :func:`guji.processes.run`
    does (the whole process group ended on a stop), its temporary files in
    *tmpdir* (guji's, removed after), kept from any sound server (a
    screenshot needs none, and a reachable PulseAudio server can stall
    headless Chromium)."""
    env = dict(os.environ, PULSE_SERVER="unix:/nonexistent", TMPDIR=tmpdir)
    try:
        proc = processes.run(cmd, timeout=timeout, env=env)
    except OSError as e:
        raise UsageError(_("could not run {browser} to make the PNG: {error}").format(
            browser=exe, error=e)) from None
    except subprocess.TimeoutExpired:
        raise UsageError(_("could not run {browser} to make the PNG: no picture after "
                           "{seconds} s").format(browser=exe, seconds=f"{timeout:g}")) from None
    return proc.returncode, proc.stderr

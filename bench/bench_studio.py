"""Benchmark the studio (not a test: it prints figures).

* start-up: ``guji studio --no-browser`` launched to its address printed, and
  to its first answer (``/api/state``), best and median of 5;
* the server: one keep-alive request (a 5 KB asset) and one ``/api/state``,
  median of 200 — the standard library's server is not the cost;
* keystroke → updated patterns, in headless Chromium, on the whole 投壺
  chapter with its commentary (the 禮記正義 seed, 72 KB, 4,775 lines): from
  the key's ``input`` event to the patterns, marks and list redrawn
  (the 40 ms debounce included), and the server's part (request, scan,
  JSON), median of 10 keystrokes;
* play → first stroke heard: from the click on Play to the first stroke's
  time on the audio clock plus the output latency, with the two readings'
  audio already fetched (as it is once they are chosen), median of 10.

Run from the repository root::

    .venv/bin/python bench/bench_studio.py
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from guji.studio.documents import Library
from guji.studio.server import start

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "tests" / "data" / "seeds" / "004_c01987349620dc35.txt"
GUJI = str(Path(sys.executable).with_name("guji"))
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
A, B = "edition:liji-zhengyi|lu:1|", "edition:wuli-tongkao|lu:1|"


def startup() -> None:
    printed, answered = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        proc = subprocess.Popen([GUJI, "studio", "--no-browser"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"))
        url = proc.stdout.readline().split(": ", 1)[1].strip()
        printed.append(time.perf_counter() - t0)
        port, token = int(url.split(":")[2].split("/")[0]), url.split("token=")[1]
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", "/api/state", headers={"X-Guji-Token": token})
        conn.getresponse().read()
        answered.append(time.perf_counter() - t0)
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    print(f"start-up: address printed in {min(printed) * 1000:.0f} ms best, "
          f"{statistics.median(printed) * 1000:.0f} ms median; first answer (the editions "
          f"listed) {min(answered) * 1000:.0f} / {statistics.median(answered) * 1000:.0f} ms")


def server(studio) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", studio.port)
    for path, label in (("/assets/studio.css", "an asset (keep-alive)"),
                        ("/api/state", "/api/state (3 editions' patterns as JSON)")):
        times = []
        for _ in range(200):
            t0 = time.perf_counter()
            conn.request("GET", path, headers={"X-Guji-Token": studio.token})
            conn.getresponse().read()
            times.append(time.perf_counter() - t0)
        print(f"server: {label}: median {statistics.median(times) * 1000:.2f} ms")
    conn.close()


def browser_figures(studio) -> None:
    from playwright.sync_api import sync_playwright
    chapter = SEED.read_text(encoding="utf-8")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS,
                               env={**os.environ, "PULSE_SERVER": "unix:/nonexistent"})
        try:
            page = b.new_context(bypass_csp=True).new_page()
            page.goto(studio.url)
            page.locator("#readings input").first.wait_for()
            # the chapter pasted in one go (Playwright's fill is slow on 72 KB)
            page.evaluate("t => { const e = document.getElementById('editor'); e.value = t; "
                          "e.dispatchEvent(new Event('input')); }", chapter)
            page.wait_for_function("window.gujiStudio.lastRead", timeout=60000)
            n = page.evaluate("document.querySelectorAll('#found > li').length")
            page.focus("#editor")
            page.keyboard.press("Control+End")
            keys, servers = [], []
            for i in range(10):
                page.evaluate("window.gujiStudio.lastRead = null")
                page.keyboard.type("注" if i % 2 == 0 else "。")
                page.wait_for_function("window.gujiStudio.lastRead")
                got = page.evaluate("window.gujiStudio.lastRead")
                keys.append(got["sinceKey"])
                servers.append(got["server"])
            print(f"keystroke → updated patterns ({len(chapter):,} characters, {n} patterns): "
                  f"median {statistics.median(keys):.0f} ms (best {min(keys):.0f}), of which "
                  f"the debounce 40 ms and the server's answer {statistics.median(servers):.0f} ms")
            play(page)
        finally:
            b.close()


def play(page) -> None:
    for ref in (A, B):
        page.check(f'#readings input[value="{ref}"]')
    page.wait_for_function("window.gujiStudio.player.buffers.length === 2 && "
                           "window.gujiStudio.player.buffers.every(b => b)")
    delays = []
    for _ in range(10):
        page.click("#play")
        page.wait_for_function("window.gujiStudio.player.playing && window.gujiStudio.playLatency")
        p = page.evaluate("window.gujiStudio.playLatency")
        heard = p["scheduledAt"] + (p["startAt"] - p["contextTime"] + p["outputLatency"]) * 1000
        delays.append(heard - p["pressed"])
        page.click("#stop")
        page.evaluate("window.gujiStudio.playLatency = null")
    print(f"play → first stroke heard: median {statistics.median(delays):.0f} ms "
          f"(best {min(delays):.0f}, worst {max(delays):.0f}; output latency "
          f"{p['outputLatency'] * 1000:.1f} ms as Chromium reports it here)")


def main() -> None:
    startup()
    studio, thread = start(Library())
    try:
        server(studio)
        browser_figures(studio)
    finally:
        studio.shutdown()
        studio.server_close()
    print(json.dumps({"python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()

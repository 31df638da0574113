"""The studio's server (guji.studio), over real HTTP on 127.0.0.1: what it refuses, what it reads.

Every refusal the issue names is made for real against a running studio: a
foreign Host (DNS rebinding), a foreign Origin and a cross-site fetch, a
missing or wrong token, a path outside what was opened (an asset path with
``..``, a reading of a text never opened, a file named in a reading), an
oversized paste and one that does not say its size — each a status and one
line of JSON the page shows. Then what it reads: a typo at the line and
column ``guji scan`` gives, with its message; the patterns of the fixed
text with their ids; an export with the command's bytes. The command itself
runs as a user runs it: it prints its address, a taken port is one line and
status 2, Ctrl-C stops it with 130 and nothing left listening.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from guji import limits

from browsers import serving

TYPO = "投壺 notes\n\n鼓：\n○□○○□□○□o○□半○□○□○○○□□○□○ 魯鼓\n○□○○□□○○半○□○○□○○○○□○□○ 薛鼓\n"
FIXED = TYPO.replace("□o○", "□○○")
GUJI = str(Path(sys.executable).with_name("guji"))


@pytest.fixture
def studio():
    with serving(within=limits.Limits(text_bytes=4096)) as server:
        yield server


def ask(studio, method, path, body=None, *, host=None, headers=None, token=True):
    """One request with exactly the headers given: (status, parsed JSON or bytes, headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", studio.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or f"127.0.0.1:{studio.port}")
        if token:
            conn.putheader("X-Guji-Token", studio.token)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        data = b""
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
            if "Content-Length" not in (headers or {}):
                conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data or None)
        r = conn.getresponse()
        raw = r.read()
        kind = r.getheader("Content-Type", "")
        return r.status, json.loads(raw) if kind.startswith("application/json") else raw, r
    finally:
        conn.close()


def test_listens_on_loopback_only(studio):
    assert studio.server_address[0] == "127.0.0.1"
    assert studio.url.startswith(f"http://127.0.0.1:{studio.port}/?token=")


def test_the_page_with_its_token(studio):
    status, page, r = ask(studio, "GET", f"/?token={studio.token}", token=False)
    assert status == 200 and studio.token.encode() in page
    assert "default-src 'none'" in r.getheader("Content-Security-Policy")
    assert r.getheader("Referrer-Policy") == "no-referrer"       # the token stays here
    for name in ("studio.js", "backend.js", "studio.css"):
        status, body, _ = ask(studio, "GET", f"/assets/{name}")
        assert status == 200 and len(body) > 1000


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "attacker.localhost:{port}",
                                  "127.0.0.1.nip.io:{port}"])
def test_refuses_a_foreign_host(studio, host):
    status, answer, _ = ask(studio, "GET", "/api/state", host=host.format(port=studio.port))
    assert status == 421
    assert answer["error"].startswith("refused: the request names the host")


def test_refuses_a_missing_host(studio):
    conn = http.client.HTTPConnection("127.0.0.1", studio.port, timeout=30)
    conn.putrequest("GET", "/api/state", skip_host=True)
    conn.putheader("X-Guji-Token", studio.token)
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 421 and "(none)" in json.loads(r.read())["error"]
    conn.close()


def test_localhost_is_its_own_name(studio):
    status, answer, _ = ask(studio, "GET", "/api/state", host=f"localhost:{studio.port}",
                            headers={"Origin": f"http://localhost:{studio.port}"})
    assert status == 200 and answer["editions"]


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"},
                                     {"Origin": "null"},
                                     {"Origin": "http://127.0.0.1:1"},
                                     {"Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"}])
def test_refuses_a_foreign_origin(studio, headers):
    status, answer, _ = ask(studio, "POST", "/api/paste", {"text": FIXED}, headers=headers)
    assert status == 403
    assert answer["error"].startswith("refused: a request from another site")
    assert studio.library.documents() == []          # nothing was read


@pytest.mark.parametrize("token", [None, "", "wrong"])
def test_refuses_a_missing_or_wrong_token(studio, token):
    path = "/api/state" if token is None else f"/api/state?token={token}"
    status, answer, _ = ask(studio, "GET", path, token=False)
    assert status == 403 and "session token" in answer["error"]
    status, answer, _ = ask(studio, "GET", "/" if token is None else f"/?token={token}",
                            token=False)
    assert status == 403


@pytest.mark.parametrize("path", ["/assets/../server.py", "/assets/%2e%2e/server.py",
                                  "/assets/index.html/../../../../etc/passwd", "/etc/passwd",
                                  "/assets/", "/assets/guard.py"])
def test_no_path_outside_the_assets(studio, path):
    status, answer, _ = ask(studio, "GET", path)
    assert status == 404 and answer["error"].startswith("nothing at")


def test_no_text_that_was_not_opened(studio, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text(FIXED, encoding="utf-8")
    for ref in (f"{secret}|lu:1|", f"file:{secret}|lu:1|", "file:7|lu:1|", "edition:nope|lu:1|",
                "edition:../../secret|lu:1|", f"edition:liji-zhengyi|lu:1@{secret}|"):
        status, answer, _ = ask(studio, "POST", "/api/view", {"readings": [ref]})
        assert status == 400, ref
        assert "\n" not in answer["error"]
    # an export naming a file is refused the same way: the refs are the only names
    status, answer, _ = ask(studio, "POST", "/api/export",
                            {"readings": [f"file:1|lu:1@{secret}|"], "kind": "json"})
    assert status == 400


def test_refuses_an_oversized_paste(studio):
    big = {"text": "○" * 5000}
    status, answer, _ = ask(studio, "POST", "/api/paste", big)
    assert status == 413
    sent = len(json.dumps(big).encode())              # ○ as \u25cb: 6 bytes each
    assert answer["error"] == (f"refused: the text is {sent / 1000:.3g} kB, over guji's limit "
                               "of 4.1 kB for one text")
    # a size claimed, not sent: refused before any byte is read
    status, answer, _ = ask(studio, "POST", "/api/paste", b"{}",
                            headers={"Content-Length": str(10 ** 12)})
    assert status == 413
    assert studio.library.documents() == []


def test_refuses_a_body_of_no_size(studio):
    conn = http.client.HTTPConnection("127.0.0.1", studio.port, timeout=30)
    conn.putrequest("POST", "/api/paste", skip_host=True)
    conn.putheader("Host", f"127.0.0.1:{studio.port}")
    conn.putheader("X-Guji-Token", studio.token)
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 411
    conn.close()


def test_bad_requests_are_one_line(studio):
    for path, body in (("/api/paste", b"not json"), ("/api/paste", b"[1]"),
                       ("/api/view", {"readings": []}),
                       ("/api/view", {"readings": ["edition:liji-zhengyi|lu:1|"],
                                      "timing": {"interval": "fast"}}),
                       ("/api/view", {"readings": ["edition:liji-zhengyi|lu:1|"],
                                      "timing": {"repeat": 10 ** 9}}),
                       ("/api/audio", {"readings": ["edition:liji-zhengyi|lu:1|"], "index": 3}),
                       ("/api/export", {"readings": ["edition:liji-zhengyi|lu:1|"],
                                        "kind": "exe"})):
        status, answer, _ = ask(studio, "POST", path, body)
        assert status == 400, (path, body)
        assert answer["error"] and "\n" not in answer["error"] and "Traceback" not in answer["error"]


def test_a_typo_then_the_fix(studio, tmp_path):
    status, doc, _ = ask(studio, "POST", "/api/paste", {"text": TYPO, "name": "notes.txt"})
    assert status == 200 and doc["patterns"] == []
    (tmp_path / "notes.txt").write_text(TYPO, encoding="utf-8")
    said = subprocess.run([GUJI, "scan", "notes.txt"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert said.returncode == 2
    assert f"guji: {doc['error']['headline']}" == said.stderr.splitlines()[0]
    assert (doc["error"]["line"], doc["error"]["column"]) == (4, 9)
    status, doc, _ = ask(studio, "POST", "/api/edit", {"key": doc["key"], "text": FIXED})
    assert status == 200 and doc["error"] is None
    assert [p["id"] for p in doc["patterns"]] == ["lu:1@notes.txt", "xue:1@notes.txt"]
    first = doc["patterns"][0]
    assert FIXED[first["strokes"][8][0]] == "○" and (first["line"], first["column"]) == (4, 1)


def test_an_export_has_the_commands_bytes(studio, tmp_path):
    refs = ["edition:liji-zhengyi|lu:1|", "edition:wuli-tongkao|lu:1|"]
    timing = {"rite": "she", "interval": 0.25, "repeat": 2, "count_in": 2}
    status, data, r = ask(studio, "POST", "/api/export",
                          {"readings": refs, "timing": timing, "kind": "midi", "mode": "ab"})
    assert status == 200 and r.getheader("Content-Type") == "audio/midi"
    subprocess.run([GUJI, "midi", "lu:1@liji-zhengyi", "lu:1@wuli-tongkao", "--rite", "she",
                    "--interval", "0.25", "--repeat", "2", "--count-in", "2", "-o", "x.mid"],
                   cwd=tmp_path, check=True, capture_output=True)
    assert data == (tmp_path / "x.mid").read_bytes()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_command_starts_and_stops_on_ctrl_c(tmp_path):
    (tmp_path / "notes.txt").write_text(FIXED, encoding="utf-8")
    proc = subprocess.Popen([GUJI, "studio", "notes.txt", "--no-browser"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        line = proc.stdout.readline()
        assert line.startswith("guji studio: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1].strip()
        port = int(url.split(":")[2].split("/")[0])
        token = url.split("token=")[1]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/state", headers={"X-Guji-Token": token})
        state = json.loads(conn.getresponse().read())
        conn.close()
        assert [d["name"] for d in state["documents"]] == ["notes.txt"]
        # the port taken: one line, status 2
        taken = subprocess.run([GUJI, "studio", "--no-browser", "--port", str(port)],
                               capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2
        assert taken.stderr.splitlines() == [f"guji: port {port} on 127.0.0.1 is in use: give "
                                             "another --port, or none for a free one"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130
        assert proc.stderr.read().splitlines()[-1].startswith("guji: ")
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_command_refuses_an_unreadable_file(tmp_path):
    done = subprocess.run([GUJI, "studio", "--no-browser", "missing.txt"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["guji: missing.txt: no such file"]


def test_the_assets_ship_in_the_wheel():
    import tomllib
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["package-data"]["guji"]
    assert "studio/assets/*" in data
    folder = Path(__file__).parents[1] / "guji" / "studio" / "assets"
    assert sorted(p.name for p in folder.iterdir()) == ["backend.js", "index.html", "studio.css",
                                                        "studio.js"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "http:" not in page and "https:" not in page       # nothing from the network


@pytest.mark.parametrize("mode", ["stereo", "diff"])
def test_a_compare_mode_sounds_as_the_command_writes_it(studio, tmp_path, mode):
    refs = ["edition:liji-zhengyi|lu:1|", "edition:wuli-tongkao|lu:1|"]
    timing = {"rite": "she", "interval": 0.2}
    status, data, r = ask(studio, "POST", "/api/mode-audio",
                          {"readings": refs, "timing": timing, "mode": mode})
    assert status == 200 and r.getheader("Content-Type") == "audio/wav"
    subprocess.run([GUJI, "compare", "lu:1@liji-zhengyi", "lu:1@wuli-tongkao", "--mode", mode,
                    "--rite", "she", "--interval", "0.2", "--no-midi", "-o", "x.wav"],
                   cwd=tmp_path, check=True, capture_output=True)
    assert data == (tmp_path / "x.wav").read_bytes()


def _undated(pdf: bytes) -> bytes:
    """A PDF with its creation and modification times and its /ID (made from the time)
    blanked: LilyPond's PDF of the same score differs in those alone, run to run."""
    import re
    pdf = re.sub(rb"(/CreationDate|/ModDate)\s*\(D:[^)]*\)", rb"\1()", pdf)
    pdf = re.sub(rb"<xmp:(CreateDate|ModifyDate|MetadataDate)>[^<]*<", rb"<xmp:\1><", pdf)
    pdf = re.sub(rb"uuid:[0-9a-f-]+", b"uuid:", pdf)
    string = rb"(?:<[0-9A-Fa-f]*>|\((?:\\.|[^\\)])*\))"
    return re.sub(rb"/ID\s*\[\s*" + string + rb"\s*" + string + rb"\s*\]", rb"/ID[]", pdf)


def test_a_pdf_export_is_the_commands(studio, tmp_path, tool):
    tool("lilypond")
    refs = ["edition:liji-zhengyi|lu:1|"]
    status, data, r = ask(studio, "POST", "/api/export",
                          {"readings": refs, "timing": {"rite": "she"}, "kind": "pdf"})
    assert status == 200 and r.getheader("Content-Type") == "application/pdf"
    subprocess.run([GUJI, "sheet", "lu:1@liji-zhengyi", "--rite", "she", "-o", "x.pdf"],
                   cwd=tmp_path, check=True, capture_output=True)
    want = (tmp_path / "x.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    assert _undated(data) == _undated(want)


def test_a_drum_left_out_sounds_as_the_command_writes_it(studio, tmp_path):
    refs = ["edition:liji-zhengyi|lu:1|"]
    status, data, _ = ask(studio, "POST", "/api/audio",
                          {"readings": refs, "timing": {"rite": "she", "interval": 0.2},
                           "solo": "big", "index": 0})
    assert status == 200
    subprocess.run([GUJI, "render", "lu:1", "--rite", "she", "--interval", "0.2", "--solo",
                    "big", "-o", "x.wav"], cwd=tmp_path, check=True, capture_output=True)
    assert data == (tmp_path / "x.wav").read_bytes()


def test_the_command_opens_the_browser(tmp_path):
    """Without --no-browser the address goes to the browser ($BROWSER here: a script
    that writes down what it was given), and the studio serves it."""
    seen = tmp_path / "seen.txt"
    opener = tmp_path / "opener"
    opener.write_text(f"#!/bin/sh\necho \"$1\" > {seen}\n")
    opener.chmod(0o755)
    proc = subprocess.Popen([GUJI, "studio"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, BROWSER=f"{opener} %s", PYTHONUNBUFFERED="1"))
    try:
        url = proc.stdout.readline().split(": ", 1)[1].strip()
        for _ in range(100):
            if seen.exists() and seen.read_text().strip():
                break
            time.sleep(0.1)       # the browser is another process: its file, polled
        assert seen.read_text().strip() == url
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_bounded_work(studio):
    """What the studio holds in memory is bounded: 15 minutes of music a reading (the
    commands go further, in blocks), 64 texts a session."""
    from guji.studio.documents import MOST_DOCUMENTS
    long = {"readings": ["edition:liji-zhengyi|lu:1|"], "timing": {"rite": "she", "repeat": 70}}
    for path in ("/api/view", "/api/audio", "/api/export"):
        status, answer, _ = ask(studio, "POST", path, {**long, "kind": "wav", "index": 0})
        assert status == 400, path
        assert answer["error"].startswith("that is 16.1 min of music: the studio plays up to "
                                          "15 min"), answer
    for n in range(MOST_DOCUMENTS):
        assert ask(studio, "POST", "/api/paste", {"text": "○", "name": f"../{n}.txt"})[0] == 200
    assert {d.name for d in studio.library.documents()} == {f"{n}.txt" for n in range(64)}
    status, answer, _ = ask(studio, "POST", "/api/paste", {"text": "○"})
    assert status == 400 and "64 texts already" in answer["error"]

"""The studio's HTTP server: the standard library's, on 127.0.0.1 only.

Why :class:`http.server.ThreadingHTTPServer` and not an ASGI/WSGI stack:
the studio has one user on one machine; its requests are a page, two small
files and JSON or WAV answers that take guji's own time (a scan, a render),
not the server's. The standard library's server answers a request in well
under a millisecond here (``bench/bench_studio.py``), starts in the time of
its import, needs nothing installed, and its whole behaviour — which
headers are read, which sizes accepted — is in the few lines below, where
the checks of :mod:`guji.studio.guard` run before any route.

Routes (every one needs the session's token, :mod:`guji.studio.guard`):

* ``GET /`` — the page; ``GET /assets/NAME`` — its style and script
  (a fixed list read from the package, never a path from the request);
* ``GET /api/state`` — the open texts and the shipped editions;
* ``POST /api/paste``, ``/api/open?name=N`` (the file's bytes), ``/api/edit``
  — a text read (:mod:`guji.studio.documents`);
* ``POST /api/view``, ``/api/audio``, ``/api/mode-audio`` — the readings
  chosen (:mod:`guji.studio.views`);
* ``POST /api/export`` — a file as the commands write it (:mod:`guji.studio.exports`).

Every error is one line of JSON (``{"error": …}``) that the page shows.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from .. import limits
from ..errors import GujiError
from ..page_words import _
from .documents import Library, editions_json, reading_json
from .exports import run_export
from . import words
from .guard import new_token, refusal
from .views import Request, mode_wav, reading_wav, view_json

#: The files of the page (name → MIME type), read from ``guji/studio/assets``.
ASSETS = {"studio.js": "text/javascript; charset=utf-8",
          "studio.css": "text/css; charset=utf-8"}
#: Renders and exports at once (the rest wait): the machine's cores are the user's too.
WORKERS = 2
#: What the page may load and run: only the studio's own files.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; "
       "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def asset(name: str) -> bytes:
    return resources.files("guji.studio").joinpath("assets", name).read_bytes()


class Studio(ThreadingHTTPServer):
    """A studio session: the server, its *library* of texts and its *token*.
    Renders and exports run :data:`WORKERS` at a time; other requests wait their turn."""

    daemon_threads = True

    def __init__(self, library: Library, port: int = 0, token: str | None = None):
        self.library = library
        self.token = token or new_token()
        super().__init__(("127.0.0.1", port), Handler)
        self.port = self.server_address[1]
        self.limits = limits.current()          # the limits in force when started
        self.work = threading.BoundedSemaphore(WORKERS)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"


class Handler(BaseHTTPRequestHandler):
    """One request: checked (:func:`guard.refusal`), then routed."""

    server: Studio
    protocol_version = "HTTP/1.1"
    timeout = 120                   # an idle or stalled connection is closed, not kept forever

    def log_message(self, format, *args) -> None:     # quiet: errors reach the page
        pass

    def setup(self) -> None:
        super().setup()
        # headers and body are two writes: without this, Nagle's algorithm holds the body
        # for the client's delayed ACK, 40 ms an answer on a kept-alive connection
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _handle(self, method: str) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        token = self.headers.get("X-Guji-Token") or (query.get("token") or [None])[0]
        refused = refusal(self.headers, token, self.server.port, self.server.token, method,
                          self.server.limits.text_bytes)
        if refused is not None:
            self.close_connection = True
            return self._json(refused.status, {"error": refused.message})
        route = ROUTES.get((method, url.path))
        if route is None:
            return self._json(404, {"error": _("nothing at {path} in this studio").format(
                path=url.path)})
        try:
            with limits.using(self.server.limits):
                route(self, query)
        except GujiError as e:
            self._json(400, {"error": str(e)})
        except Exception as e:          # a bug: one line for the page, the trace for the log
            print(f"guji studio: {method} {url.path}: {type(e).__name__}: {e}", file=sys.stderr)
            self._json(500, {"error": _("guji studio: internal error ({name}); please report "
                                        "it").format(name=type(e).__name__)})

    # -- reading the request and answering ------------------------------------
    def body(self) -> bytes:
        return self.rfile.read(int(self.headers["Content-Length"]))   # size checked by guard

    def data(self) -> dict:
        try:
            value = json.loads(self.body().decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise GujiError(_("the request is not JSON")) from None
        if not isinstance(value, dict):
            raise GujiError(_("the request is not a JSON object"))
        return value

    def send(self, status: int, body: bytes, mime: str, extra: dict | None = None) -> None:
        self.send_response(status)
        headers = {"Content-Type": mime, "Content-Length": str(len(body)),
                   "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                   "Referrer-Policy": "no-referrer", "Content-Security-Policy": CSP,
                   "Cross-Origin-Resource-Policy": "same-origin", **(extra or {})}
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, value) -> None:
        self.send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"),
                  "application/json; charset=utf-8")


def _page(h: Handler, query) -> None:
    page = words.page(asset("index.html").decode("utf-8"), h.server.token)
    h.send(200, page.encode("utf-8"), "text/html; charset=utf-8")


def _asset(name: str) -> Callable[[Handler, dict], None]:
    return lambda h, query: h.send(200, asset(name), ASSETS[name])


def _state(h: Handler, query) -> None:
    h._json(200, {"documents": [reading_json(d, text=True) for d in h.server.library.documents()],
                  "editions": editions_json()})


def _paste(h: Handler, query) -> None:
    data = h.data()
    text = data.get("text")
    if not isinstance(text, str):
        raise GujiError(_("nothing pasted"))
    name = str(data.get("name") or "pasted.txt")
    h._json(200, reading_json(h.server.library.add("paste", name, text)))


def _open(h: Handler, query) -> None:
    name = (query.get("name") or ["opened.txt"])[0]
    h._json(200, reading_json(h.server.library.add_bytes(name, h.body()), text=True))


def _edit(h: Handler, query) -> None:
    data = h.data()
    if not isinstance(data.get("text"), str):
        raise GujiError(_("no text to read"))
    h._json(200, reading_json(h.server.library.update(str(data.get("key")), data["text"])))


def _view(h: Handler, query) -> None:
    h._json(200, view_json(h.server.library, Request.from_json(h.data())))


def _audio(h: Handler, query) -> None:
    data = h.data()
    index = data.get("index", 0)
    if not isinstance(index, int):
        raise GujiError(_("the reading's index is a whole number"))
    with h.server.work:
        wav = reading_wav(h.server.library, Request.from_json(data), index)
    h.send(200, wav, "audio/wav")


def _mode_audio(h: Handler, query) -> None:
    data = h.data()
    with h.server.work:
        wav = mode_wav(h.server.library, Request.from_json(data), str(data.get("mode")))
    h.send(200, wav, "audio/wav")


def _export(h: Handler, query) -> None:
    data = h.data()
    with h.server.work:
        made = run_export(h.server.library, Request.from_json(data), str(data.get("kind")),
                          data.get("mode"))
    h.send(200, made.data, made.mime,
           {"Content-Disposition": f'attachment; filename="{made.name}"'})


ROUTES: dict[tuple[str, str], Callable[[Handler, dict], None]] = {
    ("GET", "/"): _page, ("GET", "/api/state"): _state,
    **{("GET", f"/assets/{name}"): _asset(name) for name in ASSETS},
    ("POST", "/api/paste"): _paste, ("POST", "/api/open"): _open, ("POST", "/api/edit"): _edit,
    ("POST", "/api/view"): _view, ("POST", "/api/audio"): _audio,
    ("POST", "/api/mode-audio"): _mode_audio, ("POST", "/api/export"): _export,
}


def start(library: Library, port: int = 0) -> tuple[Studio, threading.Thread]:
    """A studio serving in a thread of its own (tests, benches); stop it with
    ``studio.shutdown(); studio.server_close()``."""
    studio = Studio(library, port)
    thread = threading.Thread(target=studio.serve_forever, name="guji-studio", daemon=True)
    thread.start()
    return studio, thread

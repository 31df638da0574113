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

* ``GET /`` — the page; ``GET /assets/NAME`` — its style and scripts
  (a fixed list read from the package, never a path from the request);
* ``GET /api/state`` — the open texts (without their bodies) and the shipped editions;
  ``GET /api/text?key=K`` — one open text's body;
* ``POST /api/paste``, ``/api/open?name=N`` (the file's bytes), ``/api/edit``
  — a text read (:mod:`guji.studio.documents`);
* ``POST /api/view``, ``/api/audio``, ``/api/mode-audio`` — the readings
  chosen (:mod:`guji.studio.views`);
* ``POST /api/export`` — a file as the commands write it (:mod:`guji.studio.exports`).

Every error is one line of JSON (``{"error": …}``) that the page shows, with
the same security headers as every other answer — the standard library's own
error answers too (a malformed request line, a header over 64 KiB: 431, a
method the studio does not take: 405), through :meth:`Handler.send_error`.
A client that goes away before its answer is written is no error: the
connection is closed, quietly.
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
from .exports import content_disposition, run_export, shown_command
from . import words
from .guard import new_token, refusal
from .views import Request, mode_wav, reading_wav, view_json

#: The files of the page (name → MIME type), read from ``guji/studio/assets``.
ASSETS = {"studio.js": "text/javascript; charset=utf-8",
          "backend.js": "text/javascript; charset=utf-8",
          "studio.css": "text/css; charset=utf-8"}
#: Renders and exports at once (the rest wait): the machine's cores are the user's too.
WORKERS = 2
#: Connections served at once, each by a thread of its own; the next wait, accepted in turn.
MOST_CONNECTIONS = 64
#: Connections the kernel holds while they wait to be accepted (``listen()``'s backlog). The
#: standard library's 5 makes a burst of connections (a page's requests, a bench's 200) wait
#: for the client's SYN to be sent again: 1, 3, 7 … s.
BACKLOG = 1024
#: The methods the studio answers; any other is 405.
METHODS = ("GET", "POST")
#: A client gone before its answer was written: nothing to report.
GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)
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
    request_queue_size = BACKLOG

    def __init__(self, library: Library, port: int = 0, token: str | None = None):
        self.library = library
        self.token = token or new_token()
        self.connections = threading.BoundedSemaphore(MOST_CONNECTIONS)
        self.closing = False
        super().__init__(("127.0.0.1", port), Handler)
        self.port = self.server_address[1]
        self.limits = limits.current()          # the limits in force when started
        self.work = threading.BoundedSemaphore(WORKERS)

    def process_request(self, request, client_address) -> None:
        """A thread for the connection once one of :data:`MOST_CONNECTIONS` is free
        (the next connections wait in the backlog)."""
        while not self.connections.acquire(timeout=0.5):
            if self.closing:                    # shut down while every thread was busy
                self.shutdown_request(request)
                return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.connections.release()
            raise

    def shutdown(self) -> None:
        self.closing = True
        super().shutdown()

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release()

    def handle_error(self, request, client_address) -> None:
        """A client gone away is quiet; anything else is a bug, reported on stderr."""
        if not isinstance(sys.exc_info()[1], GONE):
            super().handle_error(request, client_address)

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

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_OPTIONS(self) -> None:
        self._handle("OPTIONS")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        """The standard library's own error answers (a malformed request, a header too
        long) as the studio's: one line of JSON with the security headers."""
        self.close_connection = True
        if self.request_version == "HTTP/0.9":   # (not understood): answered with headers all the same
            self.request_version = "HTTP/1.0"
        reason = self.responses.get(code, ("",))[0]
        body = {"error": _("refused: the request is malformed ({status} {reason})").format(
            status=code, reason=message or reason)}
        try:
            self._json(code, body, head=self.command == "HEAD")
        except GONE:
            pass

    def _handle(self, method: str) -> None:
        try:
            self._answer(method)
        except GONE:                    # the client went away: nothing to answer
            self.close_connection = True

    def _answer(self, method: str) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        token = self.headers.get("X-Guji-Token") or (query.get("token") or [None])[0]
        refused = refusal(self.headers, token, self.server.port, self.server.token, method,
                          self.server.limits.text_bytes)
        if refused is not None:
            self.close_connection = True
            return self._json(refused.status, {"error": refused.message})
        if method not in METHODS:
            self.close_connection = True
            return self._json(405, {"error": _("refused: the studio takes GET and POST, not "
                                               "{method}").format(method=method)},
                              extra={"Allow": ", ".join(METHODS)})
        route = ROUTES.get((method, url.path))
        if route is None:
            return self._json(404, {"error": _("nothing at {path} in this studio").format(
                path=url.path)})
        try:
            with limits.using(self.server.limits):
                route(self, query)
        except GujiError as e:
            self._json(400, {"error": str(e)})
        except GONE:
            raise
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
        except (UnicodeDecodeError, ValueError, RecursionError):    # nested past Python's stack
            raise GujiError(_("the request is not JSON")) from None
        if not isinstance(value, dict):
            raise GujiError(_("the request is not a JSON object"))
        return value

    def send(self, status: int, body: bytes, mime: str, extra: dict | None = None,
             head: bool = False) -> None:
        """An answer with the studio's security headers (*head*: without its body)."""
        self.send_response(status)
        headers = {"Content-Type": mime, "Content-Length": str(len(body)),
                   "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                   "Referrer-Policy": "no-referrer", "Content-Security-Policy": CSP,
                   "Cross-Origin-Resource-Policy": "same-origin", **(extra or {})}
        for key, value in headers.items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _json(self, status: int, value, extra: dict | None = None, head: bool = False) -> None:
        self.send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"),
                  "application/json; charset=utf-8", extra, head)


def _page(h: Handler, query) -> None:
    page = words.page(asset("index.html").decode("utf-8"), h.server.token)
    h.send(200, page.encode("utf-8"), "text/html; charset=utf-8")


def _asset(name: str) -> Callable[[Handler, dict], None]:
    return lambda h, query: h.send(200, asset(name), ASSETS[name])


def _state(h: Handler, query) -> None:
    """What is open, without the texts themselves (``/api/text`` gives one)."""
    h._json(200, {"documents": [reading_json(d) for d in h.server.library.documents()],
                  "editions": editions_json()})


def _text(h: Handler, query) -> None:
    doc = h.server.library.get((query.get("key") or [""])[0])
    h._json(200, {"key": doc.key, "name": doc.name, "text": doc.text})


def _paste(h: Handler, query) -> None:
    data = h.data()
    text = data.get("text")
    if not isinstance(text, str):
        raise GujiError(_("nothing pasted"))
    name = str(data["name"]) if data.get("name") else None     # None: pasted-N.txt
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
    request = Request.from_json(h.data())
    view = view_json(h.server.library, request)
    # the command under the exports: the WAV as each way of hearing them writes it
    view["commands"] = {mode: shown_command(h.server.library, request, "wav", mode)
                        for mode in ("ab", *view["modes"])}
    h._json(200, view)


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
           {"Content-Disposition": content_disposition(made.name)})


ROUTES: dict[tuple[str, str], Callable[[Handler, dict], None]] = {
    ("GET", "/"): _page, ("GET", "/api/state"): _state, ("GET", "/api/text"): _text,
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

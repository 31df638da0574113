"""Who may ask the studio for anything: checks made before any work.

A server on 127.0.0.1 is still reachable from every page the user has open
in the browser: a foreign site can send requests to it (cross-site requests)
and, by pointing a name of its own at 127.0.0.1 (DNS rebinding), even read
the answers. So every request must

* name the studio itself in its ``Host`` header (``127.0.0.1:PORT`` or
  ``localhost:PORT``): a rebound name is refused;
* come from the studio's own page when it says where it comes from
  (``Origin``, and the browser's ``Sec-Fetch-Site``): another site's
  page is refused;
* carry the session's token (a random secret in the URL the studio opens,
  :func:`new_token`), which no other page can know;
* declare its size (``Content-Length``) within :attr:`guji.limits.Limits.text_bytes`
  before its body is read.

:func:`refusal` says why a request is refused (a :class:`Refusal`: the HTTP
status and one line for the page), or ``None``.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Mapping

from .. import limits
from ..i18n import _
from ..limits import size_text


@dataclass(frozen=True)
class Refusal:
    """A refused request: the HTTP *status* and the *message* the page shows."""

    status: int
    message: str


def new_token() -> str:
    """A fresh per-session secret (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def own_hosts(port: int) -> frozenset[str]:
    """The ``Host`` values that name the studio on *port*."""
    return frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})


def refusal(headers: Mapping[str, str], token: str | None, port: int, expected: str,
            method: str = "GET", most: float | None = None) -> Refusal | None:
    """Why a request with *headers* and *token* (from its URL or its
    ``X-Guji-Token`` header) is refused by the studio on *port* whose token
    is *expected*; ``None`` when it may go on. *most*: the largest body
    (default: :attr:`guji.limits.Limits.text_bytes` in force)."""
    host = (headers.get("Host") or "").strip().lower()
    if host not in own_hosts(port):
        return Refusal(421, _("refused: the request names the host {host}, not this studio "
                              "(127.0.0.1:{port})").format(host=repr(host or "(none)"), port=port))
    origin = headers.get("Origin")
    if origin is not None and origin.lower() not in {f"http://{h}" for h in own_hosts(port)}:
        return Refusal(403, _("refused: a request from another site ({origin}) may not use "
                              "the studio").format(origin=origin))
    if (headers.get("Sec-Fetch-Site") or "same-origin").lower() not in ("same-origin", "none"):
        return Refusal(403, _("refused: a request from another site may not use the studio"))
    if not token or not hmac.compare_digest(token.encode(), expected.encode()):
        return Refusal(403, _("refused: this address lacks the studio's session token; open the "
                              "address guji studio printed"))
    return _size_refusal(headers, method, limits.current().text_bytes if most is None else most)


def _size_refusal(headers: Mapping[str, str], method: str, most: float) -> Refusal | None:
    """A request body over the text limit, or of no declared size, is refused unread."""
    if method != "POST":
        return None
    length = headers.get("Content-Length")
    if length is None or not length.strip().isdigit():
        return Refusal(411, _("refused: the request does not say how long it is"))
    if int(length) > most:
        return Refusal(413, _("refused: the text is {size}, over guji's limit of {most} for one "
                              "text").format(size=size_text(int(length)), most=size_text(most)))
    return None

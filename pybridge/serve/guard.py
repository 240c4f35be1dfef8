"""Who may talk to `crossword serve`, and how long a request may take to
arrive: the server's guards (docs/serve.md#safety-and-limits), as Jupyter's server
keeps them.

- Host: every request names one of the server's own host names (an
  allowlist, whatever the address it listens on): a page of another site
  that has its name resolve to this machine (DNS rebinding) is refused.
- Origin: a request that changes something (POST, PUT, PATCH, DELETE) and
  comes from a browser names where it was sent from; that must be this
  server's own page, else it is refused.
- Token: a server that other machines can reach asks for the token it
  printed at start with its address (`?token=...`), as a cookie (set when
  the page is opened with it), an `Authorization: token ...` header, an
  `X-Crossword-Token` header or the query; on loopback there is none.
- Every refusal is JSON ({"error": message}), as every answer of the API.
- The request's head (its line and headers) must arrive within
  HEAD_SECONDS (uvicorn has no such limit: a client trickling a header
  byte by byte held its connection for ever, and 1,500 such held 1,500).
- Every request is logged, one line on stderr (the access log).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import socket
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pybridge.serve.limits import CONNECTIONS, HEAD_SECONDS

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
TOKEN_COOKIE = "crossword_token"
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def host_names(bound: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The host names a server listening on `bound` answers to: the loopback
    names, the address itself, and for an address of every interface
    (0.0.0.0, ::) this machine's name and addresses; and `extra`."""
    names = {*LOOPBACK_NAMES, bound.strip("[]").lower(), *(name.lower() for name in extra)}
    if bound.strip("[]") in ("0.0.0.0", "::", ""):
        hostname = socket.gethostname()
        names.update({hostname.lower(), socket.getfqdn().lower()})
        with contextlib.suppress(OSError):
            names.update(socket.gethostbyname_ex(hostname)[2])
    return tuple(sorted(names - {""}))


def _host_name(value: str) -> str:
    """The host of a Host header's value (the port dropped; an IPv6
    address without its brackets), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


@dataclass(frozen=True)
class Guarding:
    """What the guard lets in: the host names, and the token (None: none)."""

    hosts: tuple[str, ...] = LOOPBACK_NAMES
    token: str | None = None


def _headers(scope: Scope) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]
    }


async def _refuse(
    send: Send, status: int, message: str, headers: Iterable[tuple[str, str]] = ()
) -> None:
    body = json.dumps({"error": f"crossword: error: {message}"}).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *((name.encode(), value.encode()) for name, value in headers),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The ASGI middleware that keeps the Host, Origin and token rules."""

    def __init__(self, app: ASGIApp, guarding: Guarding) -> None:
        self.app = app
        self.hosts = frozenset(guarding.hosts)
        self.token = guarding.token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = _host_name(headers.get("host", ""))
        if host not in self.hosts:
            names = ", ".join(self.hosts)
            message = (
                f"this server does not answer to the host name {host or '(none)'!r}; it answers "
                f"to {names} (a page of another site that points its name at this machine is "
                "refused)"
            )
            await _refuse(send, 400, message)
            return
        if scope["method"] in CHANGING and not self._same_origin(headers):
            await _refuse(send, 403, "a request from a page of another site is refused")
            return
        given = self._token_given(scope, headers)
        if self.token is not None and not self._public(scope["path"]) and not self._known(given):
            message = (
                "this server asks for its token: open the address it printed at start "
                "(…/?token=…), or send the header Authorization: token …"
            )
            await _refuse(send, 403, message)
            return
        if given is not None and self._known(given) and scope["path"] == "/":
            await self.app(scope, receive, self._setting_cookie(send, given))
            return
        await self.app(scope, receive, send)

    def _same_origin(self, headers: dict[str, str]) -> bool:
        """Whether a changing request may go on: no Origin (not a browser's,
        or an old one) and no cross-site fetch, or an Origin of this server
        (one of its names, and the port the request came to)."""
        if headers.get("sec-fetch-site", "") == "cross-site":
            return False
        origin = headers.get("origin")
        if origin is None:
            return True
        parts = urlsplit(origin.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False  # "null": a sandboxed page, a file, a redirect
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            return False
        return parts.hostname.lower() in self.hosts and port == _port(headers.get("host", ""))

    def _token_given(self, scope: Scope, headers: dict[str, str]) -> str | None:
        """The token the request gives (cookie, header or query), if any."""
        authorization = headers.get("authorization", "")
        if authorization.lower().startswith("token "):
            return authorization[6:].strip()
        if "x-crossword-token" in headers:
            return headers["x-crossword-token"].strip()
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if query.get("token"):
            return str(query["token"][0])
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header gives no token
            return None
        found = cookie.get(TOKEN_COOKIE)
        return None if found is None else str(found.value)

    def _known(self, given: str | None) -> bool:
        """Whether `given` is this server's token."""
        return (
            given is not None
            and self.token is not None
            and hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))
        )

    @staticmethod
    def _public(path: str) -> bool:
        """The page's assets: nothing in them is private."""
        return path.startswith("/static/")

    def _setting_cookie(self, send: Send, token: str) -> Send:
        """`send`, with the token's cookie set on the page's answer."""
        cookie = f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())],
                }
            await send(message)

        return sending


def _port(host_header: str) -> int:
    """The port a Host header's value names (80 when it names none)."""
    value = host_header.strip()
    tail = value.rsplit("]", 1)[-1] if value.startswith("[") else value
    if tail.count(":") == 1:
        digits = tail.rsplit(":", 1)[1]
        return int(digits) if digits.isdigit() else -1
    return 80


class AccessLog:
    """The access log: one line on stderr per request, when its answer has
    gone: the client, the method and path, the status and the seconds."""

    def __init__(self, app: ASGIApp, stream: Any = None) -> None:
        self.app = app
        self.stream = stream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client") or ("-", 0)
            line = (
                f"crossword serve: {client[0]} {scope['method']} {scope['path']} "
                f"{status or '-'} {time.perf_counter() - started:.3f} s"
            )
            print(line, file=self.stream or sys.stderr, flush=True)


def _raw_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP answer with a JSON error, for a connection refused
    before the application sees it (its body says what, as the API's do)."""
    body = json.dumps({"error": f"crossword: error: {message}"}).encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def guarded_protocol(
    base: type, seconds: float = HEAD_SECONDS, connections: int = CONNECTIONS
) -> type:
    """uvicorn's HTTP protocol class `base`, closing a connection whose
    request line and headers have not all arrived `seconds` after it opened
    or after its last answer (slowloris), refusing connections past
    `connections` at once with 503, and answering a request it cannot read
    with a JSON 400 (uvicorn's own are plain text)."""

    class Guarded(base):  # type: ignore[misc]
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.server_state.connections) > connections:
                message = f"the server holds {connections} connections already: try again soon"
                transport.write(_raw_answer(503, "Service Unavailable", message))
                transport.close()
                return
            self._arm_head_timer()

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_raw_answer(400, "Bad Request", f"not an HTTP request: {msg}"))
            self.transport.close()

        def _arm_head_timer(self) -> None:
            self._disarm_head_timer()
            self._head_timer = self.loop.call_later(seconds, self._head_late)

        def _disarm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self._waiting_for_head():
                self.transport.close()

        def _waiting_for_head(self) -> bool:
            """No request under way, and the next one's head not all here."""
            idle = self.cycle is None or self.cycle.response_complete
            return bool(idle and self.conn.their_state in (h11.IDLE, h11.DONE))

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm_head_timer()  # a head came whole: the app has the request

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head_timer()
            super().connection_lost(exc)

    return Guarded

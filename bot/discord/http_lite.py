"""A small HTTP/1.1 client for the interaction-token calls (issue 33): one request on a kept-alive
connection, the answer's status, headers and body.

aiohttp's client made a ``ClientRequest``, a ``ClientResponse``, a URL object, a timeout handle
and a task to write each body: per call more CPU than the call's own bytes, and a card makes two
or three of them. These calls need none of that: a JSON body out, a status and a small body back,
on connections to the one API host, kept open and used again. TLS is asyncio's own. A connection
the server closed while idle is noticed when the next request on it gets no byte back, and that
request goes once more on a new connection (the bytes never reached a server that answers).
Anything this does not read (an answer that is neither sized nor chunked, a malformed one)
closes the connection and raises ``ConnectionError``.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

TIMEOUT = 30.0
"""Seconds a request may take from sending to the whole answer."""
IDLE_KEPT = 64
"""Idle connections kept per pool; more are closed when they come back."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What came back: ``reason`` and ``headers`` (lowercase names) as discord.py's exceptions
    read them from an aiohttp response."""

    status: int
    reason: str
    headers: dict[str, str]
    body: bytes


class _Connection(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[Answer] | None = None
        self.open = True
        self.keep = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport instances, but are transports
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._answer()

    def eof_received(self) -> bool:
        self.open = False
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            got = "nothing" if not self.buffer else "part of an answer"
            waiter.set_exception(ConnectionResetError(f"connection closed with {got}"))

    def send(self, request: bytes) -> asyncio.Future[Answer]:
        assert self.transport is not None
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return self.waiter

    def close(self) -> None:
        self.open = False
        if self.transport is not None:
            self.transport.close()

    def _answer(self) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        try:
            parsed = _parse(self.buffer)
        except ValueError as exc:
            self.keep = False
            waiter.set_exception(ConnectionError(f"unreadable answer: {exc}"))
            self.close()
            return
        if parsed is None:
            return
        answer, used = parsed
        del self.buffer[:used]
        if answer.headers.get("connection", "").lower() == "close":
            self.keep = False
        waiter.set_result(answer)


def _parse(buffer: bytearray) -> tuple[Answer, int] | None:
    """One whole answer at the start of ``buffer`` and the bytes it took; ``None``: not yet."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(buffer[:end]).decode("latin-1").split("\r\n")
    version, _, rest = head[0].partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise ValueError(f"status line {head[0][:40]!r}")
    status = int(code)
    headers: dict[str, str] = {}
    for line in head[1:]:
        name, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"header line {line[:40]!r}")
        headers[name.strip().lower()] = value.strip()
    start = end + 4
    if status in (204, 304) or 100 <= status < 200:
        return Answer(status, reason, headers, b""), start
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return _chunked(buffer, start, status, reason, headers)
    length = headers.get("content-length")
    if length is None or not length.isdigit():
        raise ValueError("an answer neither sized nor chunked")
    size = int(length)
    if len(buffer) < start + size:
        return None
    return Answer(status, reason, headers, bytes(buffer[start : start + size])), start + size


def _chunked(
    buffer: bytearray, at: int, status: int, reason: str, headers: dict[str, str]
) -> tuple[Answer, int] | None:
    body = bytearray()
    while True:
        line_end = buffer.find(b"\r\n", at)
        if line_end < 0:
            return None
        size_text = bytes(buffer[at:line_end]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise ValueError(f"chunk size {size_text[:20]!r}") from None
        at = line_end + 2
        if size == 0:
            trailer_end = buffer.find(b"\r\n\r\n", at - 2)
            if trailer_end < 0:
                return None
            return Answer(status, reason, headers, bytes(body)), trailer_end + 4
        if len(buffer) < at + size + 2:
            return None
        body += buffer[at : at + size]
        at += size + 2


class Pool:
    """Kept-alive connections to one ``scheme://host[:port]``."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) address: {base!r}")
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.prefix = parts.path.rstrip("/")
        self.ssl = ssl.create_default_context() if parts.scheme == "https" else None
        default = (parts.scheme == "https" and self.port == 443) or self.port == 80
        self.host_header = self.host if default else f"{self.host}:{self.port}"
        self._idle: list[_Connection] = []
        self.opened = 0
        """Connections opened (a test's count)."""

    async def request(self, method: str, path: str, body: bytes | None = None) -> Answer:
        """``method`` on ``path`` (below the base address), a JSON ``body`` if any."""
        head = (
            f"{method} {self.prefix}{path} HTTP/1.1\r\nHost: {self.host_header}\r\n"
            "Accept-Encoding: identity\r\nUser-Agent: hokm-bot\r\n"
        )
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        request = head.encode("latin-1") + b"\r\n" + (body or b"")
        while True:
            conn, reused = await self._connection()
            try:
                async with asyncio.timeout(TIMEOUT):
                    answer = await conn.send(request)
            except ConnectionResetError:
                conn.close()
                if reused and not conn.buffer:
                    continue  # closed while idle: the request never reached an answer
                raise
            except BaseException:
                conn.close()
                raise
            if conn.keep and conn.open and not conn.buffer and len(self._idle) < IDLE_KEPT:
                self._idle.append(conn)
            else:
                conn.close()
            return answer

    async def _connection(self) -> tuple[_Connection, bool]:
        while self._idle:
            conn = self._idle.pop()
            if conn.open:
                return conn, True
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(
            _Connection,
            self.host,
            self.port,
            ssl=self.ssl,
            server_hostname=self.host if self.ssl else None,
        )
        self.opened += 1
        return conn, False

    def close(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()

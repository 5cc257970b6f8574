"""Issue 33: the token calls' HTTP/1.1 client reads what a server may answer (sized, chunked,
in pieces), keeps a connection for the next request, and sends a request again, once, on a new
connection when the server closed the kept one while it was idle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from bot.discord.http_lite import Pool

Reply = Callable[[bytes], list[bytes] | None]
"""What the server writes back for a request (``None``: it closes the connection)."""


class Server:
    """A raw HTTP server: each request read whole, then answered by the next ``Reply``."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[bytes] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                pieces = self.replies.pop(0)(request)
                if pieces is None:
                    break
                for piece in pieces:
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def close_idle(self) -> None:
        """Close every connection from the server's side, as a server does with idle ones."""
        for writer in self.writers:
            writer.close()
        await asyncio.sleep(0.05)


@pytest.fixture
async def served() -> AsyncIterator[tuple[Server, Pool]]:
    server = Server()
    port = await server.start()
    pool = Pool(f"http://127.0.0.1:{port}/api/v10")
    try:
        yield server, pool
    finally:
        pool.close()
        assert server.server is not None
        server.server.close()


def sized(body: bytes, status: str = "200 OK", extra: str = "") -> Reply:
    head = f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}"
    answer = (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    return lambda request: [answer[:7], answer[7:30], answer[30:]]  # in pieces


def chunked(*chunks: bytes) -> Reply:
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    for chunk in chunks:
        answer += f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    answer += b"0\r\n\r\n"
    return lambda request: [answer[i : i + 5] for i in range(0, len(answer), 5)]


async def test_answers_sized_chunked_and_in_pieces_on_one_kept_connection(
    served: tuple[Server, Pool],
) -> None:
    server, pool = served
    server.replies = [sized(b'{"id":"1"}'), chunked(b'{"id"', b':"2"}'), sized(b"", "204 No")]
    first = await pool.request("PATCH", "/webhooks/1/t/messages/@original", b'{"a":1}')
    assert (first.status, first.body) == (200, b'{"id":"1"}')
    assert first.headers["content-type"] == "application/json"
    second = await pool.request("POST", "/interactions/5/t/callback", b"{}")
    assert (second.status, second.body) == (200, b'{"id":"2"}')
    third = await pool.request("PATCH", "/x", b"{}")
    assert third.status == 204 and third.reason == "No"
    assert server.connections == 1 and pool.opened == 1
    request = server.requests[0].decode()
    assert request.startswith("PATCH /api/v10/webhooks/1/t/messages/@original HTTP/1.1\r\n")
    assert "Content-Length: 7\r\n" in request and request.endswith('\r\n\r\n{"a":1}')


async def test_a_connection_the_server_closed_while_idle_is_replaced_once(
    served: tuple[Server, Pool],
) -> None:
    server, pool = served
    server.replies = [sized(b"{}"), sized(b'{"again":1}')]
    await pool.request("PATCH", "/a", b"{}")
    await server.close_idle()
    answer = await pool.request("PATCH", "/b", b"{}")
    assert answer.body == b'{"again":1}' and pool.opened == 2


async def test_a_server_that_drops_a_new_connection_fails_the_request(
    served: tuple[Server, Pool],
) -> None:
    server, pool = served
    server.replies = [lambda request: None]
    with pytest.raises(ConnectionError):
        await pool.request("PATCH", "/a", b"{}")
    assert pool.opened == 1  # a new connection is not tried again


async def test_connection_close_and_unreadable_answers_are_not_kept(
    served: tuple[Server, Pool],
) -> None:
    server, pool = served
    unsized = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nno length"
    server.replies = [
        sized(b"{}", extra="Connection: close\r\n"),
        lambda request: [unsized],
        sized(b"{}"),
    ]
    await pool.request("PATCH", "/a", b"{}")
    with pytest.raises(ConnectionError):
        await pool.request("PATCH", "/b", b"{}")
    await pool.request("PATCH", "/c", b"{}")
    assert pool.opened == 3


def test_on_uvloop_too() -> None:
    """The bot's loop is uvloop (its transports are no ``asyncio.Transport``)."""
    uvloop = pytest.importorskip("uvloop")

    async def run() -> None:
        server = Server()
        port = await server.start()
        pool = Pool(f"http://127.0.0.1:{port}")
        server.replies = [sized(b'{"id":"1"}'), chunked(b"{}")]
        try:
            assert (await pool.request("PATCH", "/a", b"{}")).body == b'{"id":"1"}'
            assert (await pool.request("PATCH", "/b", b"{}")).body == b"{}"
            assert pool.opened == 1
        finally:
            pool.close()
            assert server.server is not None
            server.server.close()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(run())

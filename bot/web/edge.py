"""The web page's HTTP edge below its pages: aiohttp's low-level server, made to
answer every request, junk too, the page's way.

aiohttp answers a request it cannot parse (a request line or a header over its limits, a
character a URL may not hold, too many headers) itself, before any handler is called: a 400
whose body echoes the request line, the path with the page's secret in it, logged at ERROR
with a traceback that holds it again, so anyone could fill the log without knowing any
address. Here a connection's ``handle_error`` gives the page's plain answer instead and says
so in one short warning line naming the error's type only, at most once a minute.

Every answer, that one too, passes ``_Request._prepare_hook`` (where aiohttp's own
``Request`` runs ``on_response_prepare``) on its way out: ``HEADERS`` go on, aiohttp's
``Server`` header, naming the software and its version, comes off.

``TokenBucket`` bounds the requests a second the server answers, so the page can never take
the event loop from the tables.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.http_parser import RawRequestMessage
from aiohttp.streams import StreamReader

from ..present.web_html import CONTENT_SECURITY_POLICY

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Answer = Callable[[int], web.Response]
"""The page's plain answer for a status (400, 404, 503, 500)."""
Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]

HEADERS: Final[Mapping[str, str]] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex, nofollow",
}
"""On every answer, a 400, 404 or 503 too: the page's address is its key, so it is never
cached, framed, indexed or sent on as a referrer."""


class TokenBucket:
    """At most ``burst`` requests at once and ``rate`` a second over time: a request takes a
    token, ``rate`` tokens come back a second, and no more than ``burst`` are ever held."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        if not rate > 0 or burst < 1:
            raise ValueError(f"a token bucket needs rate > 0 and burst >= 1: {rate}, {burst}")
        self.rate, self.burst = rate, burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> bool:
        """Take a token if there is one (True), else leave the bucket as it is (False)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + max(0.0, now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class QuietLog:
    """One warning line at most every ``every`` seconds, counting the ones it did not say: a
    junk request costs its sender nothing, so each must not cost the log a line."""

    def __init__(self, message: str, *, every: float = 60.0, clock: Clock = time.monotonic):
        self._message, self._every, self._clock = message, every, clock
        self._next: float | None = None
        self._unsaid = 0

    def note(self, kind: str) -> None:
        """One more; ``kind`` (an exception's type name, never its text) goes in the line."""
        now = self._clock()
        if self._next is not None and now < self._next:
            self._unsaid += 1
            return
        more = f"; {self._unsaid} more since the last line" if self._unsaid else ""
        log.warning("web page: %s (%s)%s", self._message, kind, more)
        self._next, self._unsaid = now + self._every, 0


class _Request(web.BaseRequest):
    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        """Every answer's headers, once aiohttp has set its own and before they are sent."""
        response.headers.popall("Server", None)
        response.headers.update(HEADERS)


class _Connection(web.RequestHandler):
    """One client connection; its requests that aiohttp cannot parse get ``answer(400)``."""

    def __init__(
        self, manager: web.Server, *, answer: Answer, junk: QuietLog, **kwargs: Any
    ) -> None:
        super().__init__(manager, **kwargs)
        self._answer, self._junk = answer, junk

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """The page's plain answer, never aiohttp's, whose body echoes the request line; the
        path holds the page's secret, so neither it nor the exception's text is logged."""
        kind = type(exc).__name__ if exc is not None else "no exception"
        if status == 400:
            self._junk.note(kind)
        else:
            log.error("web page: answered %d (%s)", status, kind)
        if request.writer.output_size > 0:  # as aiohttp's: half an answer went out already
            raise ConnectionError("an answer was sent already")
        response = self._answer(400 if status == 400 else 500)
        response.force_close()
        return response


class PageServer(web.Server):
    """aiohttp's low-level server with the connections and requests above: ``handler``
    answers every request it can parse, ``answer`` the rest."""

    def __init__(self, handler: Handler, *, answer: Answer, junk: QuietLog, **kwargs: Any) -> None:
        self._page_loop = asyncio.get_running_loop()
        self._page_kwargs = {"answer": answer, "junk": junk, **kwargs}
        super().__init__(handler, request_factory=self._page_request, **kwargs)

    def __call__(self) -> web.RequestHandler:
        return _Connection(self, loop=self._page_loop, **self._page_kwargs)

    def _page_request(
        self,
        message: RawRequestMessage,
        payload: StreamReader,
        protocol: web.RequestHandler,
        writer: AbstractStreamWriter,
        task: asyncio.Task[None],
    ) -> web.BaseRequest:
        return _Request(message, payload, protocol, writer, task, self._page_loop)

"""A server's read-only web page (issue 16), served by aiohttp when the bot's ``web_port`` is
set: the leaderboard and the finished matches at ``/g/<server id>/<secret>/``, a match's
replay at ``…/m/<match id>?h=<hand>&t=<trick>``.

The page is off until a server admin turns it on (``/hokm settings web:true``), which stores
a random secret for the server (``Store.web_secret``); only that secret opens it, compared in
constant time. A wrong secret, a page that is off, a server id that is no number and any
other address all get the same 404, which says nothing of why. The access log is off: every
request's path holds a secret. Only finished matches are read (``MatchHistory``, as
``/hokm history``'s Replay), so a live table's cards never reach the page.

This module is HTTP only: the data comes from the store and the service, the HTML from the
presenter (``bot.present.web_pages``), which escapes everything.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Final

from aiohttp import web

from engine.rules import FORMATS, STANDARD

from ..present.i18n import t
from ..present.web_html import CONTENT_SECURITY_POLICY, not_found_page
from ..present.web_pages import BOARD_PER_PAGE, LANGS, Home, home_page, refusal_page, replay_page
from ..service.errors import ActionError
from ..service.match_history import MatchHistory
from ..store import Store

log = logging.getLogger(__name__)

GuildName = Callable[[int], str | None]
"""A server's name by its id, where the bot knows it (None: the page says "this server")."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_GUILD_ID: Final = 2**63 - 1
"""A server id is a snowflake, a signed 64-bit integer in the database."""
SMALL_NUMBER: Final = re.compile(r"[0-9]{1,6}")
HEADERS: Final[Mapping[str, str]] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex, nofollow",
}
"""On every answer, a 404 too: the page's address is its key, so it is never cached, framed,
indexed or sent on as a referrer."""


class NotFound(Exception):
    """Answer the one 404 (``not_found_page``), whatever was wrong."""


class WebServer:
    """The web page's HTTP server: ``await start()``, ``page_url(...)``, ``await close()``."""

    def __init__(
        self,
        store: Store,
        history: MatchHistory,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        base_url: str | None = None,
        guild_name: GuildName | None = None,
    ) -> None:
        self.store = store
        self.history = history
        self.host = host
        self.port = port
        self._base_url = base_url.rstrip("/") if base_url else None
        self._guild_name = guild_name or (lambda _: None)
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ lifecycle

    def app(self) -> web.Application:
        """The aiohttp application (``start`` serves it; tests may drive it directly)."""
        app = web.Application(middlewares=[self._guard])
        app.router.add_get(r"/g/{guild:[0-9]{1,20}}/{secret}/", self._home)
        app.router.add_get(r"/g/{guild:[0-9]{1,20}}/{secret}/m/{match}", self._replay)
        return app

    async def start(self) -> None:
        """Listen on ``host``:``port`` (0: a free port, then ``port`` says which).

        :raises OSError: the address cannot be bound (in use, not this machine's)
        """
        runner = web.AppRunner(self.app(), access_log=None)  # paths hold secrets
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("web page served on %s:%d", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    @property
    def base_url(self) -> str:
        """Where the pages are reached: the ``web_base_url`` given, or this host and port."""
        if self._base_url:
            return self._base_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def page_url(self, guild_id: int, secret: str) -> str:
        """The full address of a server's page, for its admins only."""
        return f"{self.base_url}/g/{guild_id}/{secret}/"

    # ------------------------------------------------------------------ every answer

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The security headers on every answer; the one 404 for anything not found (aiohttp's
        own 404 and 405 too); an unexpected error logged by its type (a message could name a
        card) and answered without a traceback."""
        try:
            response = await handler(request)
        except (NotFound, web.HTTPException):
            response = web.Response(
                status=404, text=not_found_page(), content_type="text/html", charset="utf-8"
            )
        except Exception as exc:
            # the route's pattern, never the path: the path holds the secret
            where = getattr(request.match_info.route.resource, "canonical", "?")
            log.error("web page %s failed: %s", where, type(exc).__name__)
            response = web.Response(status=500, text="500", content_type="text/plain")
        response.headers.update(HEADERS)
        return response

    async def _server(self, request: web.Request) -> tuple[int, str, str | None]:
        """The server whose page this is, the page's language and the server's name; a wrong
        secret or a page that is off raises ``NotFound``."""
        guild_id = int(request.match_info["guild"])
        if not 0 < guild_id <= MAX_GUILD_ID:
            raise NotFound
        stored = await self.store.web_secret(guild_id)
        given = request.match_info["secret"].encode("utf-8", "surrogateescape")
        if stored is None or not hmac.compare_digest(stored.encode(), given):
            raise NotFound
        settings = await self.store.get_guild_settings(guild_id)
        if not settings.web:  # the secret goes with the setting; this is belt and braces
            raise NotFound
        lang = request.query.get("lang", settings.language)
        if lang not in LANGS:
            raise NotFound
        return guild_id, lang, self._guild_name(guild_id)

    # ------------------------------------------------------------------ the pages

    async def _home(self, request: web.Request) -> web.Response:
        guild_id, lang, guild = await self._server(request)
        query = request.query
        home = Home(
            lang,
            board=_number(query, "board", 1),
            page=_number(query, "page", 1),
            game_format=query.get("format", STANDARD.name),
        )
        if home.game_format not in FORMATS or home.board < 1:
            raise NotFound
        board = await self.store.standings(
            guild_id, home.board, BOARD_PER_PAGE, game_format=home.game_format
        )
        if home.board > board.pages:
            return _refused(lang, guild, t(lang, "web.no_such_page"))
        try:
            matches = await self.history.page(guild_id, home.page)
        except ActionError:
            return _refused(lang, guild, t(lang, "web.no_such_page"))
        return _html(home_page(home, guild, board, matches))

    async def _replay(self, request: web.Request) -> web.Response:
        guild_id, lang, guild = await self._server(request)
        hand, trick = _number(request.query, "h", 0), _number(request.query, "t", 0)
        try:
            found = await self.history.replay(guild_id, request.match_info["match"])
            found.check(hand, trick)
        except ActionError as exc:
            known = exc.code != "error.bad_button"
            text = t(lang, exc.code, **exc.params) if known else t(lang, "web.no_such_page")
            return _refused(lang, guild, text)
        return _html(replay_page(lang, guild, found, hand, trick))


def _number(query: Mapping[str, str], key: str, default: int) -> int:
    """A small whole number from the query (its default when absent); anything else is no
    page of ours."""
    value = query.get(key)
    if value is None:
        return default
    if not SMALL_NUMBER.fullmatch(value):
        raise NotFound
    return int(value)


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(status=status, text=text, content_type="text/html", charset="utf-8")


def _refused(lang: str, guild: str | None, text: str) -> web.Response:
    """A page of this server that does not exist, said in its words (the secret was right)."""
    return _html(refusal_page(lang, guild, text), status=404)

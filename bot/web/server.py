"""A server's read-only web page, served by aiohttp when the bot's ``web_port`` is
set: the leaderboard and the finished matches at ``/g/<server id>/<secret>/``, a match's
replay at ``…/m/<match id>?h=<hand>&t=<trick>``.

The page is off until a server admin turns it on (``/hokm settings web:true``), which stores
a random secret for the server (``Store.web_secret``); only that secret opens it, compared in
constant time. A wrong secret, a page that is off, a server id that is no number and any
other address all get the same 404, which says nothing of why. The access log is off: every
request's path holds a secret. Only finished matches are read (``MatchHistory``, as
``/hokm history``'s Replay), so a live table's cards never reach the page.

The store is read only for an address of the page's shape (``ADDRESS``: a server id
without a leading zero, a secret and a match id as they are made) and a query whose every
value a page has; anything else is the one 404 before any read. The address without its final
slash redirects to it. A token bucket bounds the requests a second (``REQUESTS_PER_SECOND``,
``REQUEST_BURST``): past it, a 503 before anything else, so the page never takes the event
loop from the tables. Junk aiohttp cannot parse, and every answer's headers, are ``edge``'s.

A member's page at ``…/p/<member id>/?format=<format>`` (``web_player``), a finished
match's page at ``…/m/<match id>/`` (``web_match``) and its file at ``…/m/<match id>.json``
(``engine.export``, ``docs/match-format.md``), their shapes in ``ADDRESS`` too: a member id
without a leading zero, at most ``MAX_MEMBER_ID``. A member's page reads only this server's
matches and ratings; a match's, as the replay, only a match this server finished.

This module is HTTP only: the data comes from the store and the service, the HTML from the
presenter (``bot.present.web_pages``), which escapes everything.
"""

from __future__ import annotations

import hmac
import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import Final

from aiohttp import web

from engine.rules import STANDARD

from ..present.i18n import t
from ..present.web_html import status_page
from ..present.web_match import match_page, refusal_below
from ..present.web_pages import BOARD_PER_PAGE, LANGS, Home, home_page, refusal_page, replay_page
from ..present.web_player import member_page
from ..present.web_tournament import tournament_page
from ..service.errors import ActionError
from ..service.match_facts import MatchFiles, match_facts
from ..service.match_history import MatchHistory
from ..service.member_profile import member_profile
from ..service.puzzles import PuzzleBook
from ..service.tournament_state import TournamentState
from ..store import Store
from ..store.guild_settings import hosted_formats
from ..store.settings_ops import WEB_SECRET_BYTES
from ..store.tournament_ops import TournamentRecord
from ..tournament.errors import InvalidTournament
from .edge import PageServer, QuietLog, TokenBucket

log = logging.getLogger(__name__)

GuildName = Callable[[int], str | None]
"""A server's name by its id, where the bot knows it (None: the page says "this server")."""

MAX_GUILD_ID: Final = 2**63 - 1
"""A server id is a snowflake, a signed 64-bit integer in the database."""
SECRET_LENGTH: Final = -(-WEB_SECRET_BYTES * 4 // 3)
"""``secrets.token_urlsafe(WEB_SECRET_BYTES)``: unpadded base64url, 4 characters per 3 bytes."""
ADDRESS: Final = re.compile(
    rf"/g/(?P<guild>[1-9][0-9]{{0,18}})/(?P<secret>[A-Za-z0-9_-]{{{SECRET_LENGTH}}})"
    r"(?P<rest>/|/m/(?P<match>[0-9a-f]{12})(?P<tail>/|\.json)?"
    r"|/p/(?P<member>[1-9][0-9]{0,18})/"
    r"|/t/(?P<tournament>[0-9a-f]{12})/)?"
)
"""The page's addresses as sent (percent-escapes are not undone: one spelling per page); a
match id is a table's (``Table.new_id``, 12 hex digits). No ``rest``: the home page's
address without its final slash, redirected to it. ``tail``: a match's page (``/``) or file
(``.json``), none its replay; ``member``: a member's page; ``tournament``: a tournament's
(``TournamentState.new_id``, 12 hex digits)."""
HOME_TOURNAMENTS: Final = 10
"""The server's newest tournaments the home page lists."""
MAX_MEMBER_ID: Final = 2**63 - 1
"""A member id is a snowflake, a signed 64-bit integer in the database."""
SMALL_NUMBER: Final = re.compile(r"[0-9]{1,6}")
REQUESTS_PER_SECOND: Final = 20.0
REQUEST_BURST: Final = 40
"""The requests the page answers, a second over time and at once, in one process: far more
than people reading it ask for, few enough that rendering them stays a small share of the
event loop (a page takes a few milliseconds)."""


class NotFound(Exception):
    """Answer the one 404 (``status_page(404)``), whatever was wrong."""


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
        rate: float = REQUESTS_PER_SECOND,
        burst: int = REQUEST_BURST,
        puzzles: PuzzleBook | None = None,
    ) -> None:
        self.store = store
        self.history = history
        self.puzzles = puzzles or PuzzleBook(store)
        """The server's puzzle of the day, shown under its matches."""
        self.host = host
        self.port = port
        self._base_url = base_url.rstrip("/") if base_url else None
        self._guild_name = guild_name or (lambda _: None)
        self._runner: web.ServerRunner | None = None
        self._bucket = TokenBucket(rate, burst)
        self._busy = QuietLog("busy, answered 503")
        self._files = MatchFiles(history, store)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on ``host``:``port`` (0: a free port, then ``port`` says which).

        :raises OSError: the address cannot be bound (in use, not this machine's)
        """
        junk = QuietLog("a malformed request answered 400")
        # no access log: paths hold secrets
        server = PageServer(self._serve, answer=_plain, junk=junk, access_log=None)
        runner = web.ServerRunner(server)
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

    async def _serve(self, request: web.BaseRequest) -> web.StreamResponse:
        """Every request aiohttp could parse: past the bound a 503, then the one 404 for
        anything not a page of ours; an unexpected error logged by its type (a message could
        name a card) and answered without a traceback."""
        if not self._bucket.take():
            self._busy.note(f"over {self._bucket.rate:g} a second, {self._bucket.burst} at once")
            busy = _plain(503)
            busy.headers["Retry-After"] = "1"
            return busy
        address = ADDRESS.fullmatch(request.rel_url.raw_path)
        try:
            if request.method not in ("GET", "HEAD") or address is None:
                raise NotFound
            if int(address["guild"]) > MAX_GUILD_ID:
                raise NotFound
            if address["member"] is not None and int(address["member"]) > MAX_MEMBER_ID:
                raise NotFound
            if address["rest"] is None:  # relative: right under any address a proxy gives
                return web.Response(status=302, headers={"Location": address["secret"] + "/"})
            if address["member"] is not None:
                return await self._member(request, address)
            if address["tournament"] is not None:
                return await self._tournament(request, address)
            if address["match"] is None:
                return await self._home(request, address)
            if address["tail"] == "/":
                return await self._match(request, address)
            if address["tail"] == ".json":
                return await self._file(request, address)
            return await self._replay(request, address)
        except NotFound:
            return _plain(404)
        except Exception as exc:
            # the page's name, never the path: the path holds the secret
            where = _page_name(address)
            log.error("web page %s failed: %s", where, type(exc).__name__)
            return _plain(500)

    async def _server(
        self, address: re.Match[str], lang: str | None
    ) -> tuple[int, str, str | None]:
        """The server whose page this is, the page's language and the server's name; a wrong
        secret or a page that is off raises ``NotFound``."""
        guild_id = int(address["guild"])
        stored = await self.store.web_secret(guild_id)
        given = address["secret"].encode()
        if stored is None or not hmac.compare_digest(stored.encode(), given):
            raise NotFound
        settings = await self.store.get_guild_settings(guild_id)
        if not settings.web:  # the secret goes with the setting; this is belt and braces
            raise NotFound
        return guild_id, lang or settings.language, self._guild_name(guild_id)

    # ------------------------------------------------------------------ the pages

    async def _home(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        query = request.query
        board_page, page = _number(query, "board", 1), _number(query, "page", 1)
        game_format = query.get("format", STANDARD.name)
        if game_format not in hosted_formats() or board_page < 1:
            raise NotFound
        guild_id, lang, guild = await self._server(address, _lang(query))
        home = Home(lang, board=board_page, page=page, game_format=game_format)
        board = await self.store.standings(
            guild_id, home.board, BOARD_PER_PAGE, game_format=home.game_format
        )
        if home.board > board.pages:
            return _refused(lang, guild, t(lang, "web.no_such_page"))
        try:
            matches = await self.history.page(guild_id, home.page)
        except ActionError:
            return _refused(lang, guild, t(lang, "web.no_such_page"))
        found = await self.store.guild_tournaments(guild_id, HOME_TOURNAMENTS)
        shown = [s for s in map(_tournament_state, found) if s is not None]
        day = int(time.time()) // 86_400  # the puzzle of the day changes at midnight UTC
        puzzle = await self.puzzles.of_the_day(guild_id, day)
        return _html(home_page(home, guild, board, matches, shown, puzzle))

    async def _replay(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        hand, trick = _number(request.query, "h", 0), _number(request.query, "t", 0)
        guild_id, lang, guild = await self._server(address, _lang(request.query))
        try:
            found = await self.history.replay(guild_id, address["match"])
            found.check(hand, trick)
        except ActionError as exc:
            known = exc.code != "error.bad_button"
            text = t(lang, exc.code, **exc.params) if known else t(lang, "web.no_such_page")
            return _refused(lang, guild, text)
        return _html(replay_page(lang, guild, found, hand, trick))

    async def _member(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        """A member's page in one format: this server's data only."""
        game_format = request.query.get("format", STANDARD.name)
        if game_format not in hosted_formats():
            raise NotFound
        guild_id, lang, guild = await self._server(address, _lang(request.query))
        member = int(address["member"])
        profile = await member_profile(self.store, guild_id, member, game_format)
        if profile is None:
            return _html(refusal_below(lang, guild, t(lang, "web.no_such_page")), status=404)
        return _html(member_page(lang, guild, profile))

    async def _tournament(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        """A tournament's page: this server's tournaments only, as they stand."""
        guild_id, lang, guild = await self._server(address, _lang(request.query))
        record = await self.store.load_tournament(address["tournament"])
        state = _tournament_state(record) if record and record.guild_id == guild_id else None
        if state is None:
            return _html(refusal_below(lang, guild, t(lang, "web.no_such_page")), status=404)
        return _html(tournament_page(lang, guild, state))

    async def _match(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        """A finished match's page; refused as its replay is."""
        guild_id, lang, guild = await self._server(address, _lang(request.query))
        try:
            facts = await match_facts(self.history, self.store, guild_id, address["match"])
        except ActionError as exc:
            return _html(refusal_below(lang, guild, t(lang, exc.code, **exc.params)), status=404)
        return _html(match_page(lang, guild, facts))

    async def _file(self, request: web.BaseRequest, address: re.Match[str]) -> web.Response:
        """A finished match's file (``docs/match-format.md``), downloaded."""
        guild_id, lang, guild = await self._server(address, _lang(request.query))
        match_id = address["match"]
        try:
            body = await self._files.file(guild_id, match_id)
        except ActionError as exc:
            return _refused(lang, guild, t(lang, exc.code, **exc.params))
        disposition = f'attachment; filename="hokm-{match_id}.json"'
        return web.Response(
            body=body,
            content_type="application/json",
            charset="utf-8",
            headers={"Content-Disposition": disposition},
        )


def _tournament_state(record: TournamentRecord) -> TournamentState | None:
    """A stored tournament as the page shows it; None for one it cannot read (logged)."""
    try:
        return TournamentState.from_dict(record.state, record.version)
    except InvalidTournament:
        log.warning("tournament %s: unreadable, left off the web page", record.tournament_id)
        return None


def _page_name(address: re.Match[str] | None) -> str:
    """Which page failed, for the log (never its address: the address holds the secret)."""
    if address is None:
        return "home"
    if address["member"]:
        return "member"
    if address["tournament"]:
        return "tournament"
    if address["match"]:
        return {"/": "match", ".json": "match file"}.get(address["tail"] or "", "replay")
    return "home"


def _number(query: Mapping[str, str], key: str, default: int) -> int:
    """A small whole number from the query (its default when absent); anything else is no
    page of ours."""
    value = query.get(key)
    if value is None:
        return default
    if not SMALL_NUMBER.fullmatch(value):
        raise NotFound
    return int(value)


def _lang(query: Mapping[str, str]) -> str | None:
    """The language asked for (None: the server's); one the page does not have is no page."""
    lang = query.get("lang")
    if lang is not None and lang not in LANGS:
        raise NotFound
    return lang


def _plain(status: int) -> web.Response:
    """The page's plain answer (``status_page``): the one 404, a 400, a 503, a 500."""
    return _html(status_page(status), status=status)


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(status=status, text=text, content_type="text/html", charset="utf-8")


def _refused(lang: str, guild: str | None, text: str) -> web.Response:
    """A page of this server that does not exist, said in its words (the secret was right)."""
    return _html(refusal_page(lang, guild, text), status=404)

"""A server's web page served for real on 127.0.0.1 (a free port), over a SQLite
store holding a few finished matches, one of whose players has a hostile name."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest

from bot.service.match_history import MatchHistory
from bot.store import FinishedMatch, Store
from bot.store.guild_settings import GuildSettings
from bot.web.server import WebServer
from tests.matches import played

GUILD = 4242
OTHER_GUILD = 4343
HOSTILE = "<script>alert(1)</script>&amp;\"'"
"""A member's display name that would be markup if it reached the page unescaped (short
enough to be shown whole: names are cut to 32 characters)."""
GUILD_NAME = "Pars <b>Club</b>"


class CountingStore:
    """The store, counting every call the web page makes on it (``MatchHistory``'s too): an
    address of the wrong shape, or a request past the rate bound, must make none."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return attr(*args, **kwargs)

        return counted


@dataclass
class Served:
    store: Store
    web: WebServer
    http: aiohttp.ClientSession
    secret: str
    matches: list[FinishedMatch]
    counted: CountingStore

    @property
    def home(self) -> str:
        return self.web.page_url(GUILD, self.secret)

    async def get(self, url: str) -> tuple[int, str, Mapping[str, str]]:
        async with self.http.get(url, allow_redirects=False) as answer:
            return answer.status, await answer.text(), answer.headers

    async def set_settings(self, guild_id: int, **values: object) -> None:
        current = await self.store.get_guild_settings(guild_id)
        await self.store.set_guild_settings(guild_id, current.with_changes(**values))


@asynccontextmanager
async def serving(tmp_path: Path, **web_options: Any) -> AsyncIterator[Served]:
    """The page over a store of a few finished matches; ``web_options`` go to ``WebServer``
    (a small request bound, another ``guild_name``, say). The page reads the store through a
    ``CountingStore``."""
    store = await Store.open(f"sqlite:///{tmp_path / 'hokm.sqlite3'}")
    names = [HOSTILE, "bahar", "", "darya"]
    matches = [played(100 + n, (11, 12, None, 14), GUILD, n, names) for n in range(3)]
    matches.append(played(200, (11, 12, 13, 14), OTHER_GUILD, 5))
    for match in matches:
        assert await store.finish_match(match)
    await store.set_guild_settings(GUILD, GuildSettings(web=True))
    await store.set_guild_settings(OTHER_GUILD, GuildSettings(web=True))
    secret = await store.web_secret(GUILD)
    assert secret is not None
    counted = CountingStore(store)
    read = cast(Store, counted)
    options: dict[str, Any] = {
        "guild_name": lambda guild_id: GUILD_NAME if guild_id == GUILD else None,
        **web_options,
    }
    web = WebServer(read, MatchHistory(read), host="127.0.0.1", port=0, **options)
    await web.start()
    http = aiohttp.ClientSession()
    try:
        yield Served(store, web, http, secret, matches, counted)
    finally:
        await http.close()
        await web.close()
        await store.close()


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serving(tmp_path) as served:
        yield served

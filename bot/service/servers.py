"""A server's settings and its standings, read and changed through the service.

The Discord edge names what a member asked (a command's options, a page) and shows the answer;
who may change a setting, what a change may be, what is saved and what the bot then remembers
(the server's language, asked for by every answer) are decided here, below the edge, so a
command never writes the store itself.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from ..store import MemberRating, PlayerRecord, StandingsPage, Store
from ..store.guild_settings import GuildSettings
from ..store.puzzle_ops import PuzzleCounts
from .errors import ActionError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SettingsShown:
    """What ``/hokm settings`` shows after a change (or a look)."""

    settings: GuildSettings
    changed: tuple[str, ...]
    """The settings this request changed, by name (none: it only looked)."""
    web_secret: str | None
    """The secret of the server's web page address while its ``web`` setting is on."""


@dataclass(frozen=True, slots=True)
class MemberStanding:
    """One member's record in a format, with their rating, its trend and best partner, and
    the puzzles they solved of those they answered here (every format's)."""

    record: PlayerRecord | None
    rating: MemberRating | None
    trend: float | None
    partner: tuple[int, int, int] | None
    puzzles: PuzzleCounts | None = None


class Servers:
    """Every server's settings (its language remembered once read) and standings."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._languages: dict[int, str] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults until it changes one)."""
        return await self.store.get_guild_settings(guild_id)

    async def language(self, guild_id: int | None) -> str:
        """The server's language, remembered: it is needed for every answer. English outside
        a server; the default when the settings cannot be read (an answer still goes)."""
        if guild_id is None:
            return "en"
        cached = self._languages.get(guild_id)
        if cached is not None:
            return cached
        try:
            lang = (await self.get(guild_id)).language
        except Exception:
            log.exception("guild %s: settings unreadable", guild_id)
            return GuildSettings().language
        self._languages[guild_id] = lang
        return lang

    async def change(
        self,
        guild_id: int,
        changes: Mapping[str, object | None],
        *,
        is_admin: bool,
        web_available: bool,
    ) -> SettingsShown:
        """Apply the options given (``None``: not given) to the server's settings, and say
        what they are now.

        :raises ActionError: not a server manager (``error.not_admin``); the web page asked for
            where this bot serves none (``error.web_unavailable``). Nothing is saved then.
        :raises SettingError: a value out of its range, or a name that is no setting.
        """
        if not is_admin:  # checked here, not only by Discord's default permissions
            raise ActionError("error.not_admin")
        given = {key: value for key, value in changes.items() if value is not None}
        current = await self.get(guild_id)
        new = current.with_changes(**given)
        if given.get("web") and not web_available:
            raise ActionError("error.web_unavailable")  # before anything is saved
        if given:
            await self.store.set_guild_settings(guild_id, new)
            self._languages[guild_id] = new.language
            log.info("guild %s: settings changed %s", guild_id, sorted(given))
        secret = await self.store.web_secret(guild_id) if new.web else None
        return SettingsShown(new, tuple(sorted(given)), secret)

    async def standings(
        self, guild_id: int, page: int, per_page: int, game_format: str
    ) -> StandingsPage:
        """One page of the server's leaderboard in one format."""
        return await self.store.standings(guild_id, page, per_page, game_format=game_format)

    async def member(self, guild_id: int, user_id: int, game_format: str) -> MemberStanding:
        """One member's standing in one format (``/standings member``)."""
        store = self.store
        return MemberStanding(
            record=await store.member_record(guild_id, user_id, game_format),
            rating=(await store.ratings_of(guild_id, [user_id], game_format)).get(user_id),
            trend=await store.rating_trend(guild_id, user_id, game_format),
            partner=await store.best_partner(guild_id, user_id, game_format),
            puzzles=await store.puzzle_counts(guild_id, user_id),
        )

"""What the cogs use of the running bot.

The bot loads the cogs, so the cogs see it through this Protocol rather than importing
``HokmBot``: the dependency runs one way, and a cog can be driven by any object that has these.
"""

from __future__ import annotations

from typing import Protocol

from ...service.servers import Servers
from ...service.service import TableService
from ...service.tournaments import TournamentService
from ...web.server import WebServer
from ..outbox import Outbox
from ..publisher import DiscordPublisher


class CogBot(Protocol):
    @property
    def service(self) -> TableService: ...

    @property
    def servers(self) -> Servers:
        """A server's settings and standings: commands read and change them through it."""
        ...

    @property
    def tournaments(self) -> TournamentService:
        """Tournaments."""
        ...

    @property
    def publisher(self) -> DiscordPublisher: ...

    @property
    def outbox(self) -> Outbox: ...

    @property
    def web(self) -> WebServer | None:
        """The servers' web pages; None where ``web_port`` is not set."""
        ...

    async def language_of(self, guild_id: int | None) -> str:
        """The server's language (cached; English outside a server)."""
        ...

"""What the publisher and its parts need of the discord.py client: somewhere to send.

The client creates the publisher, so the publisher, its DM bookkeeping and its channel reports
know the client only through this protocol (a module of its own so that each of them can name
it without importing another).
"""

from __future__ import annotations

from typing import Protocol

import discord


class Channels(Protocol):
    """The two calls the publisher makes on the client to reach a channel or a member."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

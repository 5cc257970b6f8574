"""The store's SQL for guild settings: one JSON row per server, only what differs from the
defaults, and the secret of the server's web page beside it.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy import Connection

from . import ops_base
from .guild_settings import GuildSettings
from .ops_base import OpsBase
from .schema import guild_settings

WEB_SECRET_BYTES = 24
"""Random bytes of a web page's secret: 192 bits, 32 URL-safe characters in its address."""


def new_web_secret() -> str:
    """An unguessable secret for a server's web page address."""
    return secrets.token_urlsafe(WEB_SECRET_BYTES)


class SettingsOps(OpsBase):
    """Read and write a server's settings."""

    def _prepare_settings(self) -> None:
        if self.native_upsert:
            ins = self._insert(guild_settings)
            self._upsert_settings = ins.on_conflict_do_update(
                index_elements=[guild_settings.c.guild_id],
                set_={"settings": ins.excluded.settings, "updated_at": ins.excluded.updated_at},
            )

    def get_guild_settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        stmt = sa.select(guild_settings.c.settings).where(guild_settings.c.guild_id == guild_id)
        stored = conn.execute(stmt).scalar_one_or_none()
        return GuildSettings() if stored is None else GuildSettings.from_stored(stored)

    def set_guild_settings(self, conn: Connection, guild_id: int, settings: GuildSettings) -> None:
        """Save the settings; in the same transaction, give the web page a secret when it is
        on and has none (an address made once stays until the page is turned off), and drop
        it when the page is off (a later ``web:true`` makes a new address)."""
        row = {
            "guild_id": guild_id,
            "settings": settings.model_dump(mode="json", exclude_defaults=True),
            "updated_at": ops_base.utcnow(),
        }
        g = guild_settings.c
        if self.native_upsert:
            conn.execute(self._upsert_settings, row)
        else:
            done = conn.execute(
                sa.update(guild_settings)
                .where(g.guild_id == guild_id)
                .values(settings=row["settings"], updated_at=row["updated_at"])
            )
            if done.rowcount == 0:
                conn.execute(sa.insert(guild_settings), row)
        this = sa.update(guild_settings).where(g.guild_id == guild_id)
        if settings.web:
            conn.execute(this.where(g.web_secret.is_(None)).values(web_secret=new_web_secret()))
        else:
            conn.execute(this.where(g.web_secret.is_not(None)).values(web_secret=None))

    def web_secret(self, conn: Connection, guild_id: int) -> str | None:
        stmt = sa.select(guild_settings.c.web_secret).where(guild_settings.c.guild_id == guild_id)
        secret: str | None = conn.execute(stmt).scalar_one_or_none()
        return secret

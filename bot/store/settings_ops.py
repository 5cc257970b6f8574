"""The store's SQL for guild settings: one JSON row per server, only what differs from the
defaults.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Connection

from . import ops_base
from .guild_settings import GuildSettings
from .ops_base import OpsBase
from .schema import guild_settings


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
        row = {
            "guild_id": guild_id,
            "settings": settings.model_dump(mode="json", exclude_defaults=True),
            "updated_at": ops_base.utcnow(),
        }
        if self.native_upsert:
            conn.execute(self._upsert_settings, row)
            return
        g = guild_settings.c
        done = conn.execute(
            sa.update(guild_settings)
            .where(g.guild_id == guild_id)
            .values(settings=row["settings"], updated_at=row["updated_at"])
        )
        if done.rowcount == 0:
            conn.execute(sa.insert(guild_settings), row)

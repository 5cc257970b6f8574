"""Alembic environment for the store.

In-process (`Store.open`) a connection arrives in `config.attributes["connection"]`.
By hand (`alembic -c bot/store/migrations/alembic.ini upgrade head`) the URL comes from
`-x url=...`, else HOKM_DATABASE_URL, and the engine is built like the bot's own (same
SQLite pragmas; sync or async driver as the URL says).
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import NullPool

from bot.store.database import (
    create_private_sqlite_file,
    create_store_engine,
    normalize_url,
    sqlite_path,
)
from bot.store.schema import metadata

config = context.config


def _url() -> str:
    url = (
        context.get_x_argument(as_dictionary=True).get("url")
        or os.environ.get("HOKM_DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
    )
    if not url:
        raise SystemExit("no database URL: pass -x url=... or set HOKM_DATABASE_URL")
    return url


def _run(connection: Connection) -> None:
    # Batch mode lets future migrations ALTER tables on SQLite (copy-and-move).
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_offline() -> None:
    context.configure(
        url=normalize_url(_url()),
        target_metadata=metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(engine: AsyncEngine) -> None:
    try:
        async with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                await conn.exec_driver_sql("BEGIN IMMEDIATE")  # one transaction, like start-up
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


def _run_by_hand() -> None:
    url = normalize_url(_url())
    path = sqlite_path(url)
    if path is not None and path.parent.is_dir():
        create_private_sqlite_file(path)  # 0600, as the bot creates it
    engine = create_store_engine(url, poolclass=NullPool)
    if isinstance(engine, AsyncEngine):
        asyncio.run(_run_async(engine))
        return
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # one transaction, like start-up
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


_connection = config.attributes.get("connection")
if context.is_offline_mode():
    _run_offline()
elif _connection is not None:
    _run(_connection)
else:
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    _run_by_hand()

"""The budget in PostgreSQL: shared by every process on the same database.

Two unlogged tables in a schema of their own (``hokm_limits``, outside the store's schema and
its migrations; the state is worth nothing after a crash) and one PL/pgSQL function that takes
a token, or says how long to wait, in one statement: it locks the token's bucket row, so the
processes' calls are counted one at a time, and reads the time after the lock, on the server's
clock, which every process shares. One dedicated asyncpg connection per process, the statement
prepared once: about one round trip per call (``bench/limiter_bench.py``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy.engine import make_url

from .base import Limits, Verdict

log = logging.getLogger(__name__)

SCHEMA = "hokm_limits"
SETUP_LOCK = 0x686F6B6D4C494D  # "hokmLIM": one process creates the schema at a time
PRUNE_EVERY = 60.0
"""Seconds between deletions of channel rows whose window is over."""

SETUP = f"""
CREATE SCHEMA IF NOT EXISTS {SCHEMA};
CREATE UNLOGGED TABLE IF NOT EXISTS {SCHEMA}.bucket (
    ns text PRIMARY KEY,
    tokens double precision NOT NULL,
    at double precision NOT NULL
);
CREATE UNLOGGED TABLE IF NOT EXISTS {SCHEMA}.channel (
    ns text NOT NULL,
    channel bigint NOT NULL,
    sent double precision[] NOT NULL,
    last double precision NOT NULL,
    PRIMARY KEY (ns, channel)
);
CREATE OR REPLACE FUNCTION {SCHEMA}.acquire_v2(
    p_ns text, p_channel bigint, p_rate double precision, p_burst double precision,
    p_limit integer, p_window double precision, p_reserve double precision
) RETURNS double precision[] LANGUAGE plpgsql AS $fn$
DECLARE
    v_need double precision := 1 + greatest(0, least(p_reserve, p_burst - 1));
    v_now double precision;
    v_tokens double precision;
    v_at double precision;
    v_sent double precision[];
BEGIN
    INSERT INTO {SCHEMA}.bucket (ns, tokens, at)
        VALUES (p_ns, p_burst, extract(epoch FROM clock_timestamp()))
        ON CONFLICT (ns) DO NOTHING;
    SELECT b.tokens, b.at INTO v_tokens, v_at FROM {SCHEMA}.bucket b
        WHERE b.ns = p_ns FOR UPDATE;
    v_now := greatest(v_at, extract(epoch FROM clock_timestamp()));  -- after the lock
    v_tokens := least(p_burst, v_tokens + (v_now - v_at) * p_rate);
    IF v_tokens < v_need THEN
        RETURN ARRAY[(v_need - v_tokens) / p_rate, 0, v_tokens];
    END IF;
    IF p_channel IS NOT NULL THEN
        SELECT coalesce(array_agg(s ORDER BY s), '{{}}') INTO v_sent
            FROM {SCHEMA}.channel c, unnest(c.sent) s
            WHERE c.ns = p_ns AND c.channel = p_channel AND s > v_now - p_window;
        IF cardinality(v_sent) >= p_limit THEN
            RETURN ARRAY[
                v_sent[cardinality(v_sent) - p_limit + 1] + p_window - v_now, 1, v_tokens];
        END IF;
        INSERT INTO {SCHEMA}.channel AS c (ns, channel, sent, last)
            VALUES (p_ns, p_channel, v_sent || v_now, v_now)
            ON CONFLICT (ns, channel) DO UPDATE SET sent = excluded.sent, last = excluded.last;
    END IF;
    UPDATE {SCHEMA}.bucket SET tokens = v_tokens - 1, at = v_now WHERE ns = p_ns;
    RETURN ARRAY[0, 0, v_tokens - 1];
END
$fn$;
"""
ACQUIRE = f"SELECT {SCHEMA}.acquire_v2($1, $2, $3, $4, $5, $6, $7)"
PRUNE = (
    f"DELETE FROM {SCHEMA}.channel WHERE ns = $1 "
    "AND last < extract(epoch FROM clock_timestamp()) - $2"
)


def asyncpg_connect_args(database_url: str) -> dict[str, Any]:
    """asyncpg's keyword arguments for the store's URL, as SQLAlchemy's asyncpg dialect reads
    it (host, port, a Unix socket in ``?host=``, ``ssl`` …), so both reach the same server."""
    url = make_url(database_url).set(drivername="postgresql+asyncpg")
    _, kwargs = url.get_dialect()().create_connect_args(url)
    for key in ("prepared_statement_cache_size", "prepared_statement_name_func"):
        kwargs.pop(key, None)  # SQLAlchemy's own options, not asyncpg's
    return dict(kwargs)


class PostgresBackend:
    """``Backend`` on one asyncpg connection of its own."""

    name = "postgresql"

    def __init__(self, database_url: str, namespace: str, *, connect_timeout: float = 5.0) -> None:
        self._connect_args = asyncpg_connect_args(database_url)
        self.namespace = namespace
        self.connect_timeout = connect_timeout
        self._conn: Any = None
        self._statement: Any = None
        self._pruned = 0.0

    async def connect(self) -> None:
        import asyncpg  # type: ignore[import-untyped]

        if self._conn is not None:
            return
        conn = await asyncpg.connect(**self._connect_args, timeout=self.connect_timeout)
        try:
            async with conn.transaction():
                await conn.execute(f"SELECT pg_advisory_xact_lock({SETUP_LOCK})")
                await conn.execute(SETUP)
            self._statement = await conn.prepare(ACQUIRE)
        except BaseException:
            conn.terminate()
            raise
        self._conn = conn

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        if self._conn is None:
            raise ConnectionError("not connected")
        if time.monotonic() - self._pruned >= PRUNE_EVERY:
            self._pruned = time.monotonic()
            await self._conn.execute(PRUNE, self.namespace, limits.channel_window)
        wait, channel, tokens = await self._statement.fetchval(
            self.namespace,
            channel_id,
            limits.rate,
            limits.burst,
            limits.channel_limit,
            limits.channel_window,
            reserve,
        )
        return Verdict(wait=max(0.0, wait), channel=bool(channel), tokens=tokens)

    async def close(self) -> None:
        conn, self._conn, self._statement = self._conn, None, None
        if conn is not None:
            conn.terminate()  # no goodbye: it may be the connection that just hung

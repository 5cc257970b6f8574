"""The budget in PostgreSQL: shared by every process on the same database.

Two unlogged tables in a schema of their own (``hokm_limits``, outside the store's schema and
its migrations; the state is worth nothing after a crash) and one PL/pgSQL function that takes
a token for each call of a batch, or says how long each must wait, in one statement: it locks
the token's bucket row, so the processes' batches are counted one at a time, and reads the time
after the lock, on the server's clock, which every process shares. One dedicated asyncpg
connection per process, the statement prepared once: one round trip per batch, however many
calls it holds (``bench/limiter_bench.py``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import make_url

from .base import Call, Limits, Verdict

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
CREATE OR REPLACE FUNCTION {SCHEMA}.acquire_many_v3(
    p_ns text, p_channels bigint[], p_reserves double precision[], p_rate double precision,
    p_burst double precision, p_limit integer, p_window double precision
) RETURNS double precision[] LANGUAGE plpgsql AS $fn$
DECLARE
    v_need double precision;
    v_now double precision;
    v_tokens double precision;
    v_at double precision;
    v_sent double precision[];
    v_out double precision[] := '{{}}';
    v_granted integer := 0;
BEGIN
    INSERT INTO {SCHEMA}.bucket (ns, tokens, at)
        VALUES (p_ns, p_burst, extract(epoch FROM clock_timestamp()))
        ON CONFLICT (ns) DO NOTHING;
    SELECT b.tokens, b.at INTO v_tokens, v_at FROM {SCHEMA}.bucket b
        WHERE b.ns = p_ns FOR UPDATE;
    v_now := greatest(v_at, extract(epoch FROM clock_timestamp()));  -- after the lock
    v_tokens := least(p_burst, v_tokens + (v_now - v_at) * p_rate);
    FOR i IN 1 .. coalesce(cardinality(p_channels), 0) LOOP
        v_need := 1 + greatest(0, least(p_reserves[i], p_burst - 1));
        IF v_tokens < v_need THEN
            v_out := v_out || ARRAY[(v_need - v_tokens) / p_rate, 0, v_tokens];
            CONTINUE;
        END IF;
        IF p_channels[i] IS NOT NULL THEN
            SELECT coalesce(array_agg(s ORDER BY s), '{{}}') INTO v_sent
                FROM {SCHEMA}.channel c, unnest(c.sent) s
                WHERE c.ns = p_ns AND c.channel = p_channels[i] AND s > v_now - p_window;
            IF cardinality(v_sent) >= p_limit THEN
                v_out := v_out || ARRAY[
                    v_sent[cardinality(v_sent) - p_limit + 1] + p_window - v_now, 1, v_tokens];
                CONTINUE;
            END IF;
            INSERT INTO {SCHEMA}.channel AS c (ns, channel, sent, last)
                VALUES (p_ns, p_channels[i], v_sent || v_now, v_now)
                ON CONFLICT (ns, channel) DO UPDATE SET sent = excluded.sent, last = excluded.last;
        END IF;
        v_tokens := v_tokens - 1;
        v_granted := v_granted + 1;
        v_out := v_out || ARRAY[0, 0, v_tokens];
    END LOOP;
    IF v_granted > 0 THEN
        UPDATE {SCHEMA}.bucket SET tokens = v_tokens, at = v_now WHERE ns = p_ns;
    END IF;
    RETURN v_out;
END
$fn$;
CREATE OR REPLACE FUNCTION {SCHEMA}.prune_v3(p_ns text, p_window double precision)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
    -- the bucket's lock first, as acquire_many_v3 takes it: channel rows are only ever
    -- locked under it, so a batch holding several never deadlocks with the prune
    PERFORM 1 FROM {SCHEMA}.bucket b WHERE b.ns = p_ns FOR UPDATE;
    DELETE FROM {SCHEMA}.channel
        WHERE ns = p_ns AND last < extract(epoch FROM clock_timestamp()) - p_window;
END
$fn$;
"""
ACQUIRE = f"SELECT {SCHEMA}.acquire_many_v3($1, $2, $3, $4, $5, $6, $7)"
PRUNE = f"SELECT {SCHEMA}.prune_v3($1, $2)"


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
        return (await self.try_acquire_many([(channel_id, reserve)], limits))[0]

    async def try_acquire_many(self, calls: Sequence[Call], limits: Limits) -> list[Verdict]:
        if self._conn is None:
            raise ConnectionError("not connected")
        if time.monotonic() - self._pruned >= PRUNE_EVERY:
            self._pruned = time.monotonic()
            await self._conn.execute(PRUNE, self.namespace, limits.channel_window)
        flat = await self._statement.fetchval(
            self.namespace,
            [channel for channel, _ in calls],
            [reserve for _, reserve in calls],
            limits.rate,
            limits.burst,
            limits.channel_limit,
            limits.channel_window,
        )
        return [
            Verdict(wait=max(0.0, flat[i]), channel=bool(flat[i + 1]), tokens=flat[i + 2])
            for i in range(0, len(flat), 3)
        ]

    async def close(self) -> None:
        conn, self._conn, self._statement = self._conn, None, None
        if conn is not None:
            conn.terminate()  # no goodbye: it may be the connection that just hung

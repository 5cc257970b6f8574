"""Which backend keeps the budget, from the settings: ``redis_url`` set → Redis; a slice of the
shards on PostgreSQL (other processes hold the rest) → PostgreSQL; else this process alone."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.engine import make_url

from .base import Backend, Limits
from .front import Limiter
from .local import LocalBackend

Kind = Literal["local", "postgresql", "redis"]


def shard_share(shard_ids: list[int] | None, shard_count: int | None) -> float:
    """This process's share of the token's shards: its fair part of the budget when the shared
    limiter cannot be reached (processes holding disjoint slices never add up to more)."""
    if shard_ids is None or not shard_count:
        return 1.0
    return min(1.0, len(set(shard_ids)) / shard_count)


def backend_kind(
    redis_url: str | None,
    database_url: str,
    shard_ids: list[int] | None,
    shard_count: int | None,
) -> Kind:
    if redis_url:
        return "redis"
    on_postgres = make_url(database_url).get_backend_name() == "postgresql"
    if on_postgres and shard_share(shard_ids, shard_count) < 1.0:
        return "postgresql"
    return "local"


def build_limiter(
    *,
    rate: float,
    redis_url: str | None,
    database_url: str,
    shard_ids: list[int] | None,
    shard_count: int | None,
    namespace: str,
) -> Limiter:
    """The process's ``Limiter`` (not connected yet: ``Limiter.start``)."""
    kind = backend_kind(redis_url, database_url, shard_ids, shard_count)
    backend: Backend
    if kind == "redis":
        assert redis_url is not None
        from .redis_backend import RedisBackend

        backend = RedisBackend(redis_url, namespace)
    elif kind == "postgresql":
        from .postgres_backend import PostgresBackend

        backend = PostgresBackend(database_url, namespace)
    else:
        backend = LocalBackend()
    return Limiter(backend, Limits(rate=rate), share=shard_share(shard_ids, shard_count))

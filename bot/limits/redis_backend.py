"""The budget in Redis (``redis_url``): shared by every process that uses the same Redis.

One Lua script takes a token from the token's bucket and the channel's log for each call of a
batch, or says how long each must wait, atomically (Redis runs one script at a time) and in
one round trip, on the Redis server's clock (``TIME``).
The keys carry a hash tag, so both land on one node of a cluster, and expire on their own.
Needs Redis 5 or later (a script that writes after reading ``TIME``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..url_redaction import redact_url
from .base import Call, Limits, Verdict

SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local limit, window = tonumber(ARGV[3]), tonumber(ARGV[4])
local g = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(g[1]) or burst
local at = tonumber(g[2]) or now
if at > now then now = at end
tokens = math.min(burst, tokens + (now - at) * rate)
local out, granted = {}, 0
for i = 1, tonumber(ARGV[5]) do
  local need = 1 + math.max(0, math.min(tonumber(ARGV[4 + 2 * i]), burst - 1))
  local key = tonumber(ARGV[5 + 2 * i])
  local wait, channel = 0, 0
  if tokens < need then
    wait = math.ceil((need - tokens) / rate * 1000000)
  elseif key > 0 then
    local sent = redis.call('LRANGE', KEYS[key], 0, limit - 1)
    local recent = 0
    for j = 1, #sent do
      if tonumber(sent[j]) > now - window then recent = recent + 1 end
    end
    if recent >= limit then
      wait, channel = math.ceil((tonumber(sent[limit]) + window - now) * 1000000), 1
    else
      redis.call('LPUSH', KEYS[key], string.format('%.6f', now))
      redis.call('LTRIM', KEYS[key], 0, limit - 1)
      redis.call('PEXPIRE', KEYS[key], math.ceil(window * 1000) + 1000)
    end
  end
  if wait == 0 then
    tokens = tokens - 1
    granted = granted + 1
  end
  out[#out + 1] = wait
  out[#out + 1] = channel
  out[#out + 1] = math.floor(tokens * 1000)
end
if granted > 0 then
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens),
             'at', string.format('%.6f', now))
  redis.call('PEXPIRE', KEYS[1], 60000)
end
return out
"""
"""ARGV: rate, burst, channel limit, channel window, the number of calls, then each call's
reserve and the index in KEYS of its channel's log (0: no channel; KEYS[1] is the global
bucket). Answers three integers a call (Redis truncates a script's numbers): wait in µs,
channel flag, tokens in thousandths."""


def safe_redis_url(url: str) -> str:
    """The URL as it may appear in a log line: the userinfo's password and any secret query
    value (``?password=`` on a ``unix://`` socket, say) masked (`redact_url`)."""
    return redact_url(url)


class RedisBackend:
    """``Backend`` on a redis-py asyncio client (its own small connection pool)."""

    name = "redis"

    def __init__(self, url: str, namespace: str, *, timeout: float = 2.0) -> None:
        self.url = url
        self.where = safe_redis_url(url)
        """For log lines: the URL without its password."""
        self.namespace = namespace
        self.timeout = timeout
        self._client: Any = None
        self._script: Any = None
        self._global_key = f"{{hokm:{namespace}}}:global"

    async def connect(self) -> None:
        import redis.asyncio as aioredis

        if self._client is not None:
            return
        client = aioredis.Redis.from_url(
            self.url, socket_timeout=self.timeout, socket_connect_timeout=self.timeout
        )
        try:
            await client.ping()
            script = client.register_script(SCRIPT)
            await client.script_load(SCRIPT)  # a bad script fails here, not mid-play
        except BaseException:
            await client.aclose()
            raise
        self._client, self._script = client, script

    async def try_acquire(
        self, channel_id: int | None, limits: Limits, reserve: float = 0.0
    ) -> Verdict:
        return (await self.try_acquire_many([(channel_id, reserve)], limits))[0]

    async def try_acquire_many(self, calls: Sequence[Call], limits: Limits) -> list[Verdict]:
        if self._script is None:
            raise ConnectionError("not connected")
        keys = [self._global_key]
        index: dict[int, int] = {}
        args: list[float | int] = [
            limits.rate,
            limits.burst,
            limits.channel_limit,
            limits.channel_window,
            len(calls),
        ]
        for channel_id, reserve in calls:
            key = 0
            if channel_id is not None:
                if channel_id not in index:
                    keys.append(f"{{hokm:{self.namespace}}}:ch:{channel_id}")
                    index[channel_id] = len(keys)
                key = index[channel_id]
            args += [reserve, key]
        flat = await self._script(keys=keys, args=args)
        return [
            Verdict(
                wait=int(flat[i]) / 1e6, channel=bool(flat[i + 1]), tokens=int(flat[i + 2]) / 1000
            )
            for i in range(0, len(flat), 3)
        ]

    async def close(self) -> None:
        client, self._client, self._script = self._client, None, None
        if client is not None:
            await client.aclose()

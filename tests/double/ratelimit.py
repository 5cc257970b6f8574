"""Discord's rate limits, as far as they shape the bot's design.

Two limits are modelled: the global budget (50 requests per second for everything except
interaction callbacks and interaction-token webhooks) and the per-channel budget for message
creates and edits (about 5 per 5 s, shared). Both answer 429 the way Discord does, with a
``Via`` header (without it discord.py treats a 429 as a Cloudflare ban and raises) and a JSON
``retry_after``. Ordinary responses carry ``X-RateLimit-*`` headers so discord.py's own bucket
logic can avoid most 429s, as it does against Discord.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

MESSAGE_BUCKET_HASH = "d5d1f6a8c3e3b0a1c9d7e2f40b6a1c88"
# A client that sleeps exactly Reset-After may be a timer tick early; a window counts as over
# this much before its end, so obeying the headers never earns a 429.
GRACE = 0.005


@dataclass
class RateLimitConfig:
    """Switches and sizes; change them on a running double (they are read per request)."""

    enabled: bool = True
    global_per_second: int = 50
    channel_messages: int = 5
    channel_window: float = 5.0
    advertise_buckets: bool = True  # send X-RateLimit-* headers on ordinary responses
    unmodelled_limit: int = 50  # what headers claim for routes whose limits are not modelled


@dataclass
class Decision:
    """Either allowed (``status`` None) with headers to add, or a ready 429."""

    headers: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    body: dict[str, object] | None = None
    is_global: bool = False


@dataclass
class _Window:
    start: float
    count: int = 0


class RateLimiter:
    """Fixed windows: one global, one per channel for message creates and edits."""

    def __init__(self, config: RateLimitConfig) -> None:
        self.config = config
        self._global = _Window(start=-math.inf)
        self._channels: dict[int, _Window] = {}

    def reset(self) -> None:
        self._global = _Window(start=-math.inf)
        self._channels.clear()

    def check(self, template: str, *, exempt: bool, message_channel: int | None) -> Decision:
        """Decide one request. ``message_channel`` is set for message creates and edits."""
        cfg = self.config
        if not cfg.enabled:
            return Decision(headers=self._generic_headers(template))
        now = time.monotonic()
        if not exempt:
            window = self._global
            if now + GRACE >= window.start + 1.0:
                window.start, window.count = now, 0
            if window.count >= cfg.global_per_second:
                return _too_many(window.start + 1.0 - now, is_global=True, headers={})
            window.count += 1
        if message_channel is None:
            return Decision(headers=self._generic_headers(template))
        window = self._channels.setdefault(message_channel, _Window(start=-math.inf))
        if now + GRACE >= window.start + cfg.channel_window:
            window.start, window.count = now, 0
        reset_after = math.ceil((window.start + cfg.channel_window - now) * 1000) / 1000
        bucket = {
            "X-RateLimit-Limit": str(cfg.channel_messages),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": MESSAGE_BUCKET_HASH,
        }
        if window.count >= cfg.channel_messages:
            bucket["X-RateLimit-Remaining"] = "0"
            bucket["X-RateLimit-Scope"] = "user"
            return _too_many(reset_after, is_global=False, headers=bucket)
        window.count += 1
        bucket["X-RateLimit-Remaining"] = str(cfg.channel_messages - window.count)
        return Decision(headers=bucket if cfg.advertise_buckets else {})

    def _generic_headers(self, template: str) -> dict[str, str]:
        """Headers for a route whose limit is not modelled: always plenty left."""
        if not self.config.advertise_buckets:
            return {}
        limit = self.config.unmodelled_limit
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - 1),
            "X-RateLimit-Reset": f"{time.time() + 1.0:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": hashlib.md5(template.encode()).hexdigest(),
        }


def _too_many(retry_after: float, *, is_global: bool, headers: dict[str, str]) -> Decision:
    return Decision(
        status=429,
        body=rate_limited_body(retry_after, is_global=is_global),
        headers=rate_limited_headers(retry_after, is_global=is_global, extra=headers),
        is_global=is_global,
    )


def rate_limited_body(retry_after: float, *, is_global: bool) -> dict[str, object]:
    return {
        "message": "You are being rate limited.",
        "retry_after": math.ceil(max(retry_after, 0.001) * 1000) / 1000,
        "global": is_global,
    }


def rate_limited_headers(
    retry_after: float, *, is_global: bool, extra: dict[str, str] | None = None
) -> dict[str, str]:
    headers = dict(extra or {})
    headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    headers["Via"] = "1.1 google"
    if is_global:
        headers["X-RateLimit-Global"] = "true"
        headers["X-RateLimit-Scope"] = "global"
    else:
        headers.setdefault("X-RateLimit-Scope", "user")
    return headers

"""Request counters by kind.

The number of non-interaction REST calls per card played decides how many tables one bot token
can host, so the double counts every request it receives by what it costs on Discord.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

KINDS = (
    "interaction_response",  # POST /interactions/{id}/{token}/callback
    "followup",  # /webhooks/{app}/{token}... (followups, @original): outside the global limit
    "channel_message",  # POST /channels/{guild channel}/messages
    "dm",  # POST /users/@me/channels and POST /channels/{DM channel}/messages
    "edit",  # PATCH /channels/{id}/messages/{mid}
    "delete",  # DELETE /channels/{id}/messages/{mid}
    "other",  # everything else (login, command sync, fetches, unknown routes)
)


@dataclass
class Counters:
    """How many requests of each kind arrived (including those answered 429 or 5xx)."""

    interaction_response: int = 0
    followup: int = 0
    channel_message: int = 0
    dm: int = 0
    edit: int = 0
    delete: int = 0
    other: int = 0
    http_429: int = 0
    http_429_global: int = 0
    injected_5xx: int = 0
    unknown_routes: list[str] = field(default_factory=list)

    def count(self, kind: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)

    @property
    def total(self) -> int:
        return sum(getattr(self, k) for k in KINDS)

    @property
    def non_interaction(self) -> int:
        """Requests that spend the bot's global budget of 50 per second."""
        return self.total - self.interaction_response - self.followup

    def as_dict(self) -> dict[str, int | list[str]]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def reset(self) -> None:
        """Start counting afresh (e.g. after start-up, before the part a benchmark measures)."""
        for f in fields(self):
            setattr(self, f.name, [] if f.name == "unknown_routes" else 0)

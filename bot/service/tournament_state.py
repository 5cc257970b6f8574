"""A tournament as the service keeps it: the core's ``Tournament`` (pairings,
results, standings: ``bot.tournament``) and what the bot keeps beside it: where it lives, who
hosts it, its members' names, the game table and channel of each table of each round, the
teams waiting for a partner's confirmation, its messages.

Frozen, with a JSON round trip (``to_dict``/``from_dict``) the store keeps under a version, so
a restart resumes it exactly and two processes cannot both change one version of it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..tournament import Tournament
from ..tournament.errors import InvalidTournament

STATE_VERSION: Final = 1

Status = str
"""``registration``, ``running``, ``finished`` (the core's) or ``cancelled`` (the host's)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """The game table of one table of one round. ``channel_id`` None: claimed (a process is
    opening it since ``claimed_at``; 0 when released for another try), not open yet."""

    table_id: str
    channel_id: int | None = None
    claimed_at: float = 0.0
    opened_at: float | None = None
    asked: bool = False
    """A thread was asked for (saved with the claim, before the call): a later claim first
    looks for the thread a process may have made before it stopped (T13)."""

    @property
    def opened(self) -> bool:
        return self.channel_id is not None and self.opened_at is not None


@dataclass(frozen=True, slots=True)
class Invitation:
    """A fixed team asked for by its first member (``members[0]``): it enters the tournament
    when every member named has confirmed (the inviter has)."""

    members: tuple[int, ...]
    confirmed: tuple[int, ...]

    @property
    def complete(self) -> bool:
        return set(self.members) == set(self.confirmed)


@dataclass(frozen=True, slots=True)
class TournamentState:
    tournament_id: str
    guild_id: int
    channel_id: int
    host_id: int
    language: str
    created_at: float
    core: Tournament
    names: Mapping[int, str] = field(default_factory=dict)
    """The shown name of every member who registered or was invited (as Discord gave it)."""
    slots: Mapping[tuple[int, int], Slot] = field(default_factory=dict)
    """(round, table) -> its game table, for every table claimed in any round."""
    invitations: tuple[Invitation, ...] = ()
    drops: tuple[int, ...] = ()
    """Members the host dropped during a round: dropped when it ends, before the next."""
    threads: bool = True
    """Tables open in threads of the channel; False: one at a time in the channel itself."""
    missing: tuple[str, ...] = ()
    """The permissions the bot lacked for threads (``discord.Permissions`` names)."""
    message_id: int | None = None
    standings_message_id: int | None = None
    cancelled: bool = False
    cancel_reason: str = ""
    """``host`` (the host or a server manager), ``too_few`` (registration closed short)."""
    version: int = 0
    """The stored version this state was read at (0: never stored)."""

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(6)

    @property
    def status(self) -> Status:
        return "cancelled" if self.cancelled else self.core.status

    @property
    def is_live(self) -> bool:
        return self.status in ("registration", "running")

    def players(self) -> tuple[int, ...]:
        """Every member of every entry, in registration order."""
        return tuple(m for e in self.core.entrants for m in e.members)

    def invitation_of(self, member: int) -> Invitation | None:
        return next((i for i in self.invitations if member in i.members), None)

    def table_members(self, round_no: int, table_no: int) -> tuple[tuple[int, ...], ...]:
        """Each side's members at a table of a round: a fixed entry's team, or one member a
        place when members enter alone."""
        table = self.core.rounds[round_no - 1].tables[table_no]
        entrants = self.core.entrants
        return tuple(tuple(m for e in side for m in entrants[e].members) for side in table.sides)

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": STATE_VERSION,
            "tournament_id": self.tournament_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "language": self.language,
            "created_at": self.created_at,
            "core": self.core.to_dict(),
            "names": {str(k): v for k, v in self.names.items()},
            "slots": [
                {
                    "round": r,
                    "table": k,
                    "table_id": s.table_id,
                    "channel_id": s.channel_id,
                    "claimed_at": s.claimed_at,
                    "opened_at": s.opened_at,
                    "asked": s.asked,
                }
                for (r, k), s in sorted(self.slots.items())
            ],
            "invitations": [
                {"members": list(i.members), "confirmed": list(i.confirmed)}
                for i in self.invitations
            ],
            "drops": list(self.drops),
            "threads": self.threads,
            "missing": list(self.missing),
            "message_id": self.message_id,
            "standings_message_id": self.standings_message_id,
            "cancelled": self.cancelled,
            "cancel_reason": self.cancel_reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], version: int = 0) -> TournamentState:
        """:raises InvalidTournament: not a stored tournament of this version."""
        if data.get("v") != STATE_VERSION:
            raise InvalidTournament(f"unknown tournament state version {data.get('v')!r}")
        try:
            return cls(
                tournament_id=str(data["tournament_id"]),
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
                host_id=int(data["host_id"]),
                language=str(data["language"]),
                created_at=float(data["created_at"]),
                core=Tournament.from_dict(dict(data["core"])),
                names={int(k): str(v) for k, v in data["names"].items()},
                slots={
                    (int(s["round"]), int(s["table"])): Slot(
                        str(s["table_id"]),
                        None if s["channel_id"] is None else int(s["channel_id"]),
                        float(s["claimed_at"]),
                        None if s["opened_at"] is None else float(s["opened_at"]),
                        bool(s.get("asked", False)),
                    )
                    for s in data["slots"]
                },
                invitations=tuple(
                    Invitation(tuple(map(int, i["members"])), tuple(map(int, i["confirmed"])))
                    for i in data["invitations"]
                ),
                drops=tuple(map(int, data["drops"])),
                threads=bool(data["threads"]),
                missing=tuple(map(str, data["missing"])),
                message_id=data["message_id"],
                standings_message_id=data["standings_message_id"],
                cancelled=bool(data["cancelled"]),
                cancel_reason=str(data.get("cancel_reason", "")),
                version=version,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidTournament(f"not a stored tournament state: {error!r}") from error

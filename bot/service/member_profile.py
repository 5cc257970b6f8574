"""A member's page on the server's web page: their standing and rating in
one format, the rating over their last rated matches, their best partner and their latest
finished matches, all of one server.

Every read names the server, so a member's page never shows another server's matches or
ratings; a member who never finished a match here has no page (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store import HistoryPage, MemberRating, PlayerRecord, Store
from ..store.rating_ops import RatingPoint
from .match_history import PER_PAGE


@dataclass(frozen=True, slots=True)
class Partner:
    """The member they won most matches of the format with: id, name, wins and matches."""

    user_id: int
    name: str
    won: int
    played: int


@dataclass(frozen=True, slots=True)
class MemberProfile:
    """What a member's page shows of one format (``record`` None: no match of it here)."""

    user_id: int
    game_format: str
    name: str
    """Their name as their newest finished match here stored it."""
    record: PlayerRecord | None
    rating: MemberRating | None
    points: tuple[RatingPoint, ...]
    partner: Partner | None
    recent: HistoryPage
    """Their latest finished matches here, of every format, newest first."""


async def member_profile(
    store: Store, guild_id: int, user_id: int, game_format: str
) -> MemberProfile | None:
    """The member's page in ``game_format``; None if they never finished a match here."""
    recent = await store.history(guild_id, 1, PER_PAGE, user_id=user_id)
    newest = next((p for entry in recent.rows for p in entry.players if p.user_id == user_id), None)
    if newest is None:
        return None
    record = await store.member_record(guild_id, user_id, game_format)
    rating = (await store.ratings_of(guild_id, [user_id], game_format)).get(user_id)
    points = await store.rating_history(guild_id, user_id, game_format)
    partner = None
    best = await store.best_partner(guild_id, user_id, game_format)
    if best is not None:
        other, won, played = best
        theirs = await store.member_record(guild_id, other, game_format)
        name = theirs.display_name if theirs is not None else str(other)
        partner = Partner(other, name, won, played)
    return MemberProfile(
        user_id=user_id,
        game_format=game_format,
        name=newest.display_name,
        record=record,
        rating=rating,
        points=tuple(points),
        partner=partner,
        recent=recent,
    )

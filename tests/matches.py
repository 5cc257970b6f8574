"""Finished matches for the tests of history, replays and the web page (issue 16): a standard
match to 2 played by the engine with random legal moves, recorded as the bot records one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot.store import FinishedMatch, MatchPlayer
from engine import Match, Rules
from engine.story import record
from tests.engine.helpers import random_move

START = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


def played(
    seed: int,
    seats: tuple[int | None, ...],
    guild_id: int,
    n: int,
    names: Sequence[str] | None = None,
) -> FinishedMatch:
    """Match ``seed`` of ``guild_id``, finished ``n`` hours after ``START``; a seat of None is
    a computer ("Computer <seat>"), a member is "player<seat>" unless ``names`` names them."""
    match = Match(seed, Rules(target_score=2))
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    assert match.winner_team is not None
    players = tuple(
        MatchPlayer(
            i,
            i % 2,
            uid,
            uid is None,
            f"Computer {i}" if uid is None else names[i] if names else f"player{i}",
        )
        for i, uid in enumerate(seats)
    )
    finished = START + timedelta(hours=n)
    return FinishedMatch(
        match_id=f"{seed:012x}",
        guild_id=guild_id,
        channel_id=5,
        started_at=finished - timedelta(minutes=20),
        finished_at=finished,
        target_score=2,
        scores=tuple(match.scores),
        winner_team=match.winner_team,
        hands=[],
        players=players,
        replay=record(match),
    )

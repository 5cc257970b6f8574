"""Finished matches for the tests of history, replays and the web page: a standard
match to 2 played by the engine with random legal moves, recorded as the bot records one; and
a Shelem match (V6), recorded by the service's own ``finished_match``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot.service.history import finished_match
from bot.service.table import Seat, Table, TableSettings
from bot.store import FinishedMatch, MatchPlayer
from engine import Match, Rules
from engine.shelem import ShelemMatch
from engine.story import record
from tests.engine import shelem_helpers
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


def played_shelem(
    seed: int,
    seats: tuple[int | None, ...],
    guild_id: int,
    n: int,
    target: int = 300,
    names: Sequence[str] | None = None,
) -> tuple[FinishedMatch, ShelemMatch]:
    """Shelem match ``seed`` (to ``target``, random legal decisions) at a table of
    ``guild_id`` finished ``n`` hours after ``START``, as the service records it (its replay
    record included); a seat of None is a computer, a member "player<seat>" unless ``names``
    names them."""
    settings = TableSettings(game_format="shelem", shelem_target=target)
    finished = START + timedelta(hours=n)
    table = Table(f"{seed:012x}", guild_id, 5, 10, settings, finished.timestamp() - 1200)
    table.seats = [
        Seat(f"Computer {i}", difficulty="easy")
        if uid is None
        else Seat(names[i] if names else f"player{i}", uid)
        for i, uid in enumerate(seats)
    ]
    match = ShelemMatch(seed, settings.shelem_options())
    rng = random.Random(seed)
    while not match.is_over:
        shelem_helpers.random_move(match, rng)
    table.match, table.status = match, "finished"
    table.started_at, table.finished_at = table.created_at, finished.timestamp()
    return finished_match(table, finished.timestamp()), match

"""Finished matches of every format for the web page's layout tests: a Hokm match of
any of the engine's formats and a Shelem match with or without jokers, played to the end by
random legal moves and recorded as the bot records them, with the names given (hostile,
32 characters, right to left: whatever the test wants to see laid out)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta
from typing import Final

from bot.service.history import finished_match
from bot.service.table import Seat, Table, TableSettings
from bot.store import FinishedMatch, MatchPlayer
from engine import Match, Rules
from engine.rules import FORMATS
from engine.shelem import ShelemMatch
from engine.story import record
from tests.engine import shelem_helpers
from tests.engine.helpers import random_move
from tests.matches import START

LONG_NAMES: Final = (
    "<b>Ωmega</b>&amp;\"'WWWWWWWWWWWWW",
    "مهسا رضایی نژاد خراسانی اصفهانین",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "",
    "نیلوفر‌ سادات حسینی‌زاده کرمانشا",
    "<script>alert(1)</script>WWWWWWW",
)
"""Six 32-character names (a seat of "" is a computer): markup, Persian, the widest Latin
letters, so a page that fits them fits any name."""


def hokm_match(
    fmt_name: str,
    seed: int,
    guild_id: int,
    n: int,
    names: Sequence[str] = LONG_NAMES,
    target: int = 2,
) -> FinishedMatch:
    """Match ``seed`` of format ``fmt_name`` to ``target`` (the format's own target where it
    has one), finished ``n`` hours after ``START``; seat ``i`` is named ``names[i % len]``, a
    computer where that is empty."""
    fmt = FORMATS[fmt_name]
    match = Match(seed, Rules(target_score=target), fmt)
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    assert match.winner_team is not None
    players = []
    for seat in range(fmt.seats):
        name = names[seat % len(names)]
        computer = not name
        players.append(
            MatchPlayer(
                seat,
                fmt.team_of[seat],
                None if computer else 1000 + seat,
                computer,
                f"Computer {seat}" if computer else name,
            )
        )
    finished = START + timedelta(hours=n)
    return FinishedMatch(
        match_id=f"{seed:012x}",
        guild_id=guild_id,
        channel_id=5,
        started_at=finished - timedelta(minutes=20),
        finished_at=finished,
        target_score=target,
        scores=tuple(match.scores),
        winner_team=match.winner_team,
        hands=[],
        players=tuple(players),
        replay=record(match),
        game_format=fmt_name,
    )


def shelem_match(
    seed: int,
    guild_id: int,
    n: int,
    names: Sequence[str] = LONG_NAMES,
    *,
    joker: bool = False,
    target: int = 300,
) -> FinishedMatch:
    """Shelem match ``seed`` (V6; with two jokers if ``joker``) to ``target``, recorded as the
    service records it, finished ``n`` hours after ``START``."""
    settings = TableSettings(game_format="shelem", shelem_joker=joker, shelem_target=target)
    finished = START + timedelta(hours=n)
    table = Table(f"{seed:012x}", guild_id, 5, 10, settings, finished.timestamp() - 1200)
    table.seats = [
        Seat(f"Computer {i}", difficulty="easy")
        if not names[i % len(names)]
        else Seat(names[i % len(names)], 1000 + i)
        for i in range(4)
    ]
    match = ShelemMatch(seed, settings.shelem_options())
    rng = random.Random(seed)
    while not match.is_over:
        shelem_helpers.random_move(match, rng)
    table.match, table.status = match, "finished"
    table.started_at, table.finished_at = table.created_at, finished.timestamp()
    return finished_match(table, finished.timestamp())

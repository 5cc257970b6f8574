"""Tournaments stored for the web page's tests: an individual Swiss of eight played through
its rounds by the core (results at random, one table forfeited, a bye-free field), named
with whatever names a test gives, saved as the service saves one."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.service.tournament_state import Slot, TournamentState
from bot.store import Store
from bot.store.tournament_ops import TournamentRecord
from bot.tournament import Tournament, TournamentConfig, advance, record_result, register, start
from bot.tournament.steps import forfeit

FIRST_MEMBER = 1000


def sample_tournament(
    guild: int,
    names: Sequence[str],
    *,
    tournament_id: str = "7a" * 6,
    name: str = "Spring <b>cup</b>",
    rounds_played: int = 3,
    players: int = 8,
    seed: int = 1,
) -> TournamentState:
    """Members ``FIRST_MEMBER``… named ``names`` in turn; ``rounds_played`` of 3 rounds played
    (3: finished). Round 1's first table is a forfeit of its first side."""
    config = TournamentConfig(
        name=name,
        format="standard",
        system="swiss",
        partners="individual",
        registration_closes=1_000,
        rounds=3,
    )
    t = Tournament(config)
    for i in range(players):
        t = register(t, (FIRST_MEMBER + i,), now=0, rating=float(players - i))
    t = start(t, now=1_000)
    rng = random.Random(seed)
    slots: dict[tuple[int, int], Slot] = {}
    for _ in range(rounds_played):
        r = t.rounds[-1]
        for k, table in enumerate(r.tables):
            slots[(r.number, k)] = Slot(f"{r.number:02x}{k:02x}" + "c" * 8, 1, 1.0, 2.0)
            if r.number == 1 and k == 0:  # the first side's first member did not come
                t = forfeit(t, r.number, k, [t.entrants[table.sides[0][0]].members[0]])
                continue
            winner = rng.randrange(len(table.sides))
            scores = [rng.randrange(7) for _ in table.sides]
            scores[winner] = 7
            t = record_result(t, r.number, k, scores, winner)
        t = advance(t, t.current_round)
    members = {FIRST_MEMBER + i: names[i % len(names)] for i in range(players)}
    return TournamentState(
        tournament_id=tournament_id,
        guild_id=guild,
        channel_id=77,
        host_id=FIRST_MEMBER,
        language="en",
        created_at=1_000.0,
        core=t,
        names=members,
        slots=slots,
    )


async def store_tournament(store: Store, state: TournamentState) -> None:
    record = TournamentRecord(
        tournament_id=state.tournament_id,
        guild_id=state.guild_id,
        channel_id=state.channel_id + int(state.tournament_id[:4], 16),
        status=state.status,  # type: ignore[arg-type]
        version=1,
        state=state.to_dict(),
    )
    await store.save_tournament(record)

"""What a committed change's snapshot costs (``Table.snapshot``: the match by ``Match.copy`` or
``ShelemMatch.copy``) beside the way there was before it, ``Table.from_dict(to_dict())``, on
mid-match tables of Hokm's standard game and of Shelem (random legal moves, a few hands in,
a trick in progress), on one core. Best of ``--repeat`` rounds of ``--number`` calls each.

The last line is machine-readable: ``<game>_copy_us=… <game>_snapshot_us=…
<game>_from_dict_ms=…`` for both games.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the tests' random movers

from bot.service.table import Seat, Table, TableSettings  # noqa: E402
from engine import Match, Rules  # noqa: E402
from engine.shelem import ShelemMatch  # noqa: E402
from tests.engine import helpers, shelem_helpers  # noqa: E402


def mid_match(shelem: bool, seed: int) -> Table:
    """A table three hands into its match, five cards into the fourth hand's play."""
    rng = random.Random(seed)
    match: Match | ShelemMatch
    if shelem:
        match = ShelemMatch(seed)
        settings = TableSettings(game_format="shelem")
    else:
        match = Match(seed, Rules(target_score=13))
        settings = TableSettings(target_score=13)
    while match.hand_number < 4 or len(match.tricks) < 1 or len(match.trick) != 1:
        if isinstance(match, ShelemMatch):
            shelem_helpers.random_move(match, rng)
        else:
            helpers.random_move(match, rng)
    seats: list[Seat | None] = [Seat(f"member {i}", user_id=1000 + i) for i in range(4)]
    return Table(
        table_id="bench",
        guild_id=1,
        channel_id=2,
        host_id=1000,
        settings=settings,
        created_at=0.0,
        seats=seats,
        status="playing",
        match=match,
        match_seed=seed,
    )


def _through_dict(table: Table) -> Table:
    return Table.from_dict(table.to_dict())


def best(call: Callable[[], object], number: int, repeat: int) -> float:
    """Seconds per call, the best round."""
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    fields = []
    for game, shelem in (("hokm", False), ("shelem", True)):
        table = mid_match(shelem, seed=7)
        match = table.match
        assert match is not None
        data = table.to_dict()
        assert table.snapshot().to_dict() == data
        copy_s = best(match.copy, args.number, args.repeat)
        snapshot_s = best(table.snapshot, args.number, args.repeat)
        from_dict_s = best(partial(_through_dict, table), args.number // 20, args.repeat)
        print(
            f"{game}: match copy {copy_s * 1e6:.1f} µs, table snapshot {snapshot_s * 1e6:.1f} µs,"
            f" from_dict(to_dict()) {from_dict_s * 1e3:.2f} ms"
            f" ({from_dict_s / snapshot_s:.0f}x the snapshot)"
        )
        fields += [
            f"{game}_copy_us={copy_s * 1e6:.1f}",
            f"{game}_snapshot_us={snapshot_s * 1e6:.1f}",
            f"{game}_from_dict_ms={from_dict_s * 1e3:.3f}",
        ]
    print(" ".join(fields))


if __name__ == "__main__":
    main()

"""What ``/hokm history``'s Replay costs, Hokm's and Shelem's side by side:
the size of a finished match's stored record (compact JSON, as the store keeps it), the time to
replay it into its story (``engine.story`` / ``engine.shelem.story``: once per match, then
cached by ``MatchHistory``), and the time to draw one frame (``history.replay_message``, once
per ◀ ▶ click), on one core.

Matches are played with random legal moves: Hokm's standard game to 7, Shelem to its seed's
1165. The last line is machine-readable: ``<game>_record_bytes=… <game>_story_ms=…
<game>_frame_ms=…`` for both games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the tests' random movers, as bot_load.py uses the double

from bot.present.history import replay_message  # noqa: E402
from bot.service.match_history import MatchReplay  # noqa: E402
from bot.store import HistoryEntry, MatchPlayer  # noqa: E402
from engine import Match, Rules  # noqa: E402
from engine.shelem import ShelemMatch, ShelemOptions  # noqa: E402
from engine.shelem.story import record as shelem_record  # noqa: E402
from engine.shelem.story import story as shelem_story  # noqa: E402
from engine.story import record, story  # noqa: E402
from tests.engine import shelem_helpers  # noqa: E402
from tests.engine.helpers import random_move  # noqa: E402


def hokm_match(seed: int) -> Match:
    match = Match(seed, Rules(target_score=7))
    rng = random.Random(seed)
    while not match.is_over:
        random_move(match, rng)
    return match


def shelem_match(seed: int) -> ShelemMatch:
    match = ShelemMatch(seed, ShelemOptions())
    rng = random.Random(seed)
    while not match.is_over:
        shelem_helpers.random_move(match, rng)
    return match


def measure(
    name: str,
    records: list[dict[str, Any]],
    tell: Callable[[object], Any],
    game_format: str,
) -> dict[str, float]:
    sizes = [len(json.dumps(r, separators=(",", ":"))) for r in records]
    replays, frames = [], []
    for data in records:
        start = time.perf_counter()
        told = tell(json.loads(json.dumps(data)))
        replays.append(time.perf_counter() - start)
        players = tuple(MatchPlayer(i, i % 2, 100 + i, False, f"player{i}") for i in range(4))
        entry = HistoryEntry(
            "abcdef012345",
            5,
            datetime(2026, 1, 1, tzinfo=UTC),
            game_format,
            7,
            told.scores,
            told.winner_team,
            False,
            players,
        )
        replay = MatchReplay(entry, told)
        start = time.perf_counter()
        count = 0
        for h, hand in enumerate(told.hands):
            for trick in range(len(hand.tricks) + 1):
                replay_message("en", replay, 1, h, trick)
                count += 1
        frames.append((time.perf_counter() - start) / count)
    hands = statistics.mean(len(tell(r).hands) for r in records[:5])
    figures = {
        "record_bytes": statistics.median(sizes),
        "story_ms": 1000 * statistics.median(replays),
        "frame_ms": 1000 * statistics.median(frames),
    }
    print(
        f"{name}: {len(records)} matches (~{hands:.0f} hands each), record "
        f"{figures['record_bytes']:.0f} B median (max {max(sizes)}), story "
        f"{figures['story_ms']:.2f} ms median (max {1000 * max(replays):.2f}), one frame "
        f"{figures['frame_ms']:.3f} ms median"
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="matches of each game")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.matches)
    hokm = measure("hokm", [record(hokm_match(s)) for s in seeds], story, "standard")
    shelem = measure(
        "shelem",
        [shelem_record(shelem_match(s)) for s in seeds],
        shelem_story,
        "shelem",
    )
    print(
        " ".join(
            f"{game}_{key}={value:.3f}"
            for game, figures in (("hokm", hokm), ("shelem", shelem))
            for key, value in figures.items()
        )
    )


if __name__ == "__main__":
    main()

"""Simulated tournaments through the tournament core (``bot/tournament/``).

Players have hidden strengths; every match is decided by a strength model (``--model
strength``: each hand goes to a side with probability proportional to exp(its players' mean
strength), first to 7 hands wins) or by the engine's computer players (``--model engine``,
the standard game only: a player of strength p makes each decision as the greedy player with
probability p, else as the random one). Each entrant is registered with a rating, its
strength plus noise, which seeds round 1 and a knockout's bracket. Printed, one ``key=value``
line each::

    pairing_ms_p95=<ms> pairing_ms_max=<ms> pairing_players=<n> pairings=<k>
    rematches=<n> rematches_avoidable=<n>
    byes_per_player_max=<n> byes_per_player_mean=<x>
    kendall_tau=<x> kendall_tau_random_pairing=<x> tournaments=<n> players=<n> ...

``pairing_ms`` is the time of ``start`` and every ``advance`` (standings, then the pairing)
in ``--timing-tournaments`` tournaments of ``--timing-players`` players (256; a round
robin's 8 at most), the same system and partners. ``rematches`` counts, over the
``--tournaments`` runs of ``--players``, every repeated meeting: two entries meeting again
(fixed partners), or a repeated partner and every repeated pair of opponents (individual).
``rematches_avoidable`` counts those of a round in which a matching without any existed: a
perfect matching of the active entries (with a bye node for those with no bye yet) over the
pairs that never met; with individual partners, of the players over those never partnered,
and of that round's sides over those with no earlier opponents between them. Where tables
or sides are formed in threes or more (no matching decides it), a round's repeats count as
avoidable when a search finds the same players (entries) seated without any: 200 random
seatings, each improved by player swaps until none helps; not finding one proves nothing,
so there the figure is a lower bound. ``kendall_tau`` is Kendall's tau-a between the
final standings and the true strengths (mean over the runs), and
``kendall_tau_random_pairing`` the same with every round paired at random (a knockout:
seeded at random; a round robin has no pairing to change).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import replace
from typing import Any

import networkx as nx  # type: ignore[import-untyped]

from bot.tournament import (
    Round,
    Table,
    Tournament,
    TournamentConfig,
    advance,
    record_result,
    register,
    standings,
    start,
)
from bot.tournament.history import History, history, pair
from bot.tournament.repair import repair, repeats
from engine import PLAY, TRUMP, GreedyPlayer, Match, RandomPlayer, Rules, seat_view
from engine.rules import STANDARD

SEARCH_RESTARTS = 200
"""Random seatings the search for a round without repeats tries (tables of three or more
sides, or sides of three)."""
HANDS_TO_WIN = 7
"""The strength model's match: first side to this many hands."""


def kendall_tau(order: list[int], strength: dict[int, float]) -> float:
    """Tau-a between a ranking (best first) and the strengths (higher is better)."""
    n = len(order)
    if n < 2:
        return 0.0
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            gap = strength[order[i]] - strength[order[j]]
            score += 1 if gap > 0 else -1 if gap < 0 else 0
    return score / (n * (n - 1) / 2)


def strength_match(sides: list[float], rng: random.Random) -> tuple[list[int], int]:
    """Hands won by each side until one has ``HANDS_TO_WIN``; the scores and the winner."""
    weights = [math.exp(s) for s in sides]
    scores = [0] * len(sides)
    while max(scores) < HANDS_TO_WIN:
        scores[rng.choices(range(len(sides)), weights)[0]] += 1
    return scores, scores.index(HANDS_TO_WIN)


class Mixed:
    """The greedy player's decision with probability ``skill``, else the random player's."""

    def __init__(self, skill: float, seed: int) -> None:
        self.skill, self.rng = skill, random.Random(seed)
        self.greedy, self.random = GreedyPlayer(), RandomPlayer(seed)

    def pick(self) -> Any:
        return self.greedy if self.rng.random() < self.skill else self.random


def engine_match(skills: list[list[float]], rng: random.Random) -> tuple[list[int], int]:
    """A standard match (to 7) of two sides of two; ``skills[side]`` its players'."""
    match = Match(rng.randrange(2**31), Rules(), STANDARD)
    players = [Mixed(skills[STANDARD.team_of[s]][s // 2], rng.randrange(2**31)) for s in range(4)]
    while not match.is_over:
        seat = match.to_act
        view = seat_view(match, seat)
        player = players[seat].pick()
        if match.phase == TRUMP:
            match.choose_trump(seat, player.choose_trump(view))
        elif match.phase == PLAY:
            match.play(seat, player.choose_card(view))
        else:
            raise SystemExit(f"--model engine plays the standard game only ({match.phase})")
    assert match.winner_team is not None
    return list(match.scores), match.winner_team


def play_round(
    t: Tournament, strength: dict[int, float], model: str, rng: random.Random
) -> Tournament:
    """Every open table of the current round decided by the model."""
    r = t.rounds[-1]
    for index, table in enumerate(r.tables):
        if table.result is not None:
            continue
        players = [[p for e in side for p in t.entrants[e].members] for side in table.sides]
        if model == "engine":
            scores, winner = engine_match([[strength[p] for p in side] for side in players], rng)
        else:
            means = [statistics.fmean(strength[p] for p in side) for side in players]
            scores, winner = strength_match(means, rng)
        t = record_result(t, r.number, index, scores, winner)
    return t


def random_round(t: Tournament, number: int, rng: random.Random) -> Round:
    """The baseline's round: the active entries shuffled into sides and tables."""
    shape, active = t.config.shape, [e.number for e in t.active()]
    rng.shuffle(active)
    side_len = shape.side_size if t.config.individual else 1
    per_table = shape.sides * side_len
    seated = len(active) - len(active) % per_table
    tables = []
    for first in range(0, seated, per_table):
        chunk = active[first : first + per_table]
        sides = tuple(tuple(chunk[k : k + side_len]) for k in range(0, per_table, side_len))
        tables.append(Table(sides))
    return Round(number, tuple(tables), tuple(active[seated:]))


def entered(
    cfg: TournamentConfig, players: int, rng: random.Random, skill: str
) -> tuple[Tournament, dict[int, float]]:
    """``players`` members with hidden strengths (N(0,1), or a greedy probability in
    [0, 1] for the engine), entered alone or in fixed teams in registration order."""
    strength = {m: (rng.random() if skill == "engine" else rng.gauss(0, 1)) for m in range(players)}
    t = Tournament(cfg)
    size = cfg.entry_size
    for first in range(0, players - players % size, size):
        members = tuple(range(first, first + size))
        rating = statistics.fmean(strength[m] for m in members) + rng.gauss(0, 0.5)
        t = register(t, members, now=0, rating=rating)
    return t, strength


def run(
    cfg: TournamentConfig, players: int, model: str, seed: int, baseline: bool
) -> dict[str, Any]:
    """One tournament: its pairing times, rematches, byes and final tau."""
    rng = random.Random(seed)
    t, strength = entered(cfg, players, rng, model)
    if baseline and cfg.system == "knockout":
        shuffled = [e.rating for e in t.entrants]
        rng.shuffle(shuffled)
        t = replace(
            t,
            entrants=tuple(replace(e, rating=r) for e, r in zip(t.entrants, shuffled, strict=True)),
        )
    times: list[float] = []
    rematches: int = 0
    avoidable: int | None = 0
    clock = time.perf_counter()
    t = start(t, now=cfg.registration_closes)
    times.append(time.perf_counter() - clock)
    if baseline and cfg.system == "swiss":
        t = replace(t, rounds=(random_round(t, 1, rng),))
    while t.status == "running":
        found, could = meetings(t)
        rematches += found
        avoidable = None if could is None or avoidable is None else avoidable + could
        t = play_round(t, strength, model, rng)
        number = t.current_round
        if baseline and cfg.system == "swiss":
            if number >= t.total_rounds:
                t = replace(t, status="finished")
            else:
                t = replace(t, rounds=(*t.rounds, random_round(t, number + 1, rng)))
            continue
        clock = time.perf_counter()
        t = advance(t, number)
        if t.status == "running":  # the last advance only finishes: no pairing to time
            times.append(time.perf_counter() - clock)
    rows = standings(t)
    entrant_strength = {s.entrant: statistics.fmean(strength[m] for m in s.members) for s in rows}
    byes = history(t.rounds).byes
    return {
        "times": times,
        "rematches": rematches,
        "avoidable": avoidable,
        "byes_max": max((byes[e.number] for e in t.entrants), default=0),
        "byes_mean": statistics.fmean(byes[e.number] for e in t.entrants),
        "tau": kendall_tau([s.entrant for s in rows], entrant_strength),
        "rounds": len(t.rounds),
    }


def _perfect(nodes: list[Any], edges: list[tuple[Any, Any]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def meetings(t: Tournament) -> tuple[int, int | None]:
    """The current round's repeated meetings, and how many of them a matching avoided."""
    r, past = t.rounds[-1], history(t.rounds[:-1])
    shape = t.config.shape
    if t.config.individual:
        sides = [side for table in r.tables for side in table.sides]
        partners = sum(past.partners(side[:1], side[1:]) for side in sides if len(side) == 2)
        opponents = sum(
            past.met(a, b)
            for table in r.tables
            for i, a in enumerate(table.sides)
            for b in table.sides[i + 1 :]
        )
        if shape.sides != 2 or shape.side_size != 2:
            found = partners + opponents
            return found, found if found and _clean_round_exists(r, past) else 0
        playing = [e for side in sides for e in side]
        could = 0
        if partners and _perfect(playing, _fresh(playing, lambda a, b: past.partnered[pair(a, b)])):
            could += partners
        if opponents and _perfect(sides, _fresh(sides, past.met)):
            could += opponents
        return partners + opponents, could
    found = sum(
        past.met(a, b)
        for table in r.tables
        for i, a in enumerate(table.sides)
        for b in table.sides[i + 1 :]
    )
    if shape.sides != 2:
        return found, found if found and _clean_round_exists(r, past) else 0
    if not found:
        return 0, 0
    return found, found if _fixed_avoidable(t, past) else 0


def _clean_round_exists(r: Round, past: History, restarts: int = SEARCH_RESTARTS) -> bool:
    """Whether a search finds the round's players (or entries) seated at tables of the same
    shape with no repeated partner or opponent: random seatings, each improved by the core's
    player swaps (``repair``) until none helps. Found: the round's repeats were avoidable; not
    found proves nothing, so the count is a lower bound."""
    shape = [len(side) for side in r.tables[0].sides]
    seated = [e for table in r.tables for side in table.sides for e in side]
    rng = random.Random(len(past.opposed) * 7919 + r.number)
    zero = {e: 0 for e in seated}
    for _ in range(restarts):
        rng.shuffle(seated)
        units = iter(seated)
        tables = [[[next(units) for _ in range(n)] for n in shape] for _ in r.tables]
        if not any(repeats(t, past) for t in repair(tables, past, zero, zero)):
            return True
    return False


def _fresh(units: list[Any], clash: Any) -> list[tuple[Any, Any]]:
    return [(a, b) for i, a in enumerate(units) for b in units[i + 1 :] if not clash(a, b)]


def _fixed_avoidable(t: Tournament, past: History) -> bool:
    active: list[Any] = [e.number for e in t.entrants if e.dropped is None]
    edges = _fresh(active, lambda a, b: past.opposed[pair(a, b)])
    if len(active) % 2:
        edges += [(e, "bye") for e in active if not past.byes[e]]
        active.append("bye")
    return _perfect(active, edges)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def config(args: argparse.Namespace, rounds: int) -> TournamentConfig:
    return TournamentConfig(
        name="bench",
        format=args.format,
        system=args.system,
        partners=args.partners,
        registration_closes=1,
        rounds=rounds if args.system == "swiss" else 0,
    )


def main(argv: list[str] | None = None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--system", choices=("swiss", "knockout", "round_robin"), default="swiss")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--partners", choices=("fixed", "individual"), default="individual")
    parser.add_argument("--format", default="standard")
    parser.add_argument("--model", choices=("strength", "engine"), default="strength")
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--timing-players", type=int, default=256)
    parser.add_argument("--timing-tournaments", type=int, default=3)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args(argv)
    cfg = config(args, args.rounds)
    size = cfg.entry_size
    timing_players = min(args.timing_players, cfg.max_entries * size)
    times: list[float] = []
    for k in range(args.timing_tournaments):
        times += run(cfg, timing_players, "strength", args.seed + 1000 + k, False)["times"]
    runs = [
        run(cfg, args.players, args.model, args.seed + k, False) for k in range(args.tournaments)
    ]
    base = [
        run(cfg, args.players, args.model, args.seed + k, True) for k in range(args.tournaments)
    ]
    ms = [x * 1000 for x in times]
    unknown = any(r["avoidable"] is None for r in runs)
    lines = [
        f"pairing_ms_p95={percentile(ms, 0.95):.1f} pairing_ms_max={max(ms):.1f} "
        f"pairing_players={timing_players} pairings={len(ms)}",
        f"rematches={sum(r['rematches'] for r in runs)} rematches_avoidable="
        + ("na" if unknown else str(sum(r["avoidable"] for r in runs))),
        f"byes_per_player_max={max(r['byes_max'] for r in runs)} "
        f"byes_per_player_mean={statistics.fmean(r['byes_mean'] for r in runs):.3f}",
        f"kendall_tau={statistics.fmean(r['tau'] for r in runs):.3f} "
        f"kendall_tau_random_pairing={statistics.fmean(r['tau'] for r in base):.3f} "
        f"tournaments={args.tournaments} players={args.players} system={args.system} "
        f"rounds={max(r['rounds'] for r in runs)} "
        f"partners={args.partners} format={args.format} model={args.model}",
    ]
    for line in lines:
        print(line, flush=True)
    return lines


if __name__ == "__main__":
    main()

"""Standings after any round: match points, then the tie-breaks of docs/rules.md T5.

Match points are counted side against side: at a table, a side gets 2 for every other side
it beat, 1 for every side it tied with and 0 for a side that beat it (two sides: 2 for a win).
A side that forfeited loses to every side present; sides present at a match not played (the
others forfeited) tie with one another. A bye scores as the tournament says
(``TournamentConfig.bye_points``).

- Buchholz: the sum, over every match the entrant was paired in (forfeits included, byes
  not), of the current match points of each opponent it faced.
- Sonneborn-Berger: the same sum, each opponent's match points weighted by what the entrant
  scored against that opponent's side (2, 1 or 0).
- Hand points difference: over played matches, the side's score minus the best score of the
  other sides (the margin of a win, or how far it was from the winner).

Then the seed (the higher rating, then the earlier registration) makes the order total.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .knockout import champion
from .state import Result, Round, Tournament

Kind = Literal["win", "loss", "forfeit", "walkover", "bye"]


@dataclass(frozen=True, slots=True)
class Game:
    """One round of one entrant: its table (``None`` for a bye), partners and opponents."""

    round: int
    kind: Kind
    table: int | None
    partners: tuple[int, ...]
    opponents: tuple[int, ...]
    points: int
    hand_diff: int
    against: tuple[int, ...] = ()
    """What it scored against each opponent (2, 1 or 0), in ``opponents``' order."""


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: int
    members: tuple[int, ...]
    match_points: int
    buchholz: int
    sonneborn_berger: int
    hand_diff: int
    games: tuple[Game, ...]
    dropped: bool
    reached: int = 0
    """Knockout: the last round the entrant was in (one past the final for the winner)."""


def _kind(result: Result, side: int) -> Kind:
    if side in result.forfeits:
        return "forfeit"
    if result.winner is None:
        return "walkover"
    return "win" if result.winner == side else "loss"


def _hand_diff(result: Result, side: int) -> int:
    if not result.played:
        return 0
    best = max(s for i, s in enumerate(result.scores) if i != side)
    return result.scores[side] - best


def games_of(t: Tournament) -> dict[int, list[Game]]:
    """Every entrant's games so far (results recorded; a pending table is not a game yet)."""
    out: dict[int, list[Game]] = {e.number: [] for e in t.entrants}
    bye = t.config.bye_points()
    for r in t.rounds:
        _round_games(r, bye, out)
    return out


def _round_games(r: Round, bye: int, out: dict[int, list[Game]]) -> None:
    for e in r.byes:
        out[e].append(Game(r.number, "bye", None, (), (), bye, 0))
    for index, table in enumerate(r.tables):
        res = table.result
        if res is None:
            continue
        for s, side in enumerate(table.sides):
            others = [(o, e) for o, other in enumerate(table.sides) if o != s for e in other]
            against = tuple(res.against(s, o) for o, _ in others)
            points = sum(res.against(s, o) for o in range(len(table.sides)) if o != s)
            for e in side:
                partners = tuple(p for p in side if p != e)
                game = Game(
                    r.number,
                    _kind(res, s),
                    index,
                    partners,
                    tuple(x for _, x in others),
                    points,
                    _hand_diff(res, s),
                    against,
                )
                out[e].append(game)


def reached(t: Tournament) -> dict[int, int]:
    """Knockout: the last round each entrant was in the bracket; the champion one more."""
    out = {e.number: 0 for e in t.entrants}
    for r in t.rounds:
        for slot in r.slots:
            if slot is not None:
                out[slot] = r.number
    if t.status == "finished" and t.config.system == "knockout":
        winner = champion(t)
        if winner is not None:
            out[winner] = len(t.rounds) + 1
    return out


def standings(t: Tournament) -> list[Standing]:
    """Every entrant ranked (dropped ones too, marked), first place first."""
    games = games_of(t)
    points = {e: sum(g.points for g in gs) for e, gs in games.items()}
    seed = {e: i for i, e in enumerate(t.seed_order())}
    depth = reached(t) if t.config.system == "knockout" else {}
    rows = []
    for entrant in t.entrants:
        gs = games[entrant.number]
        buchholz = sum(points[o] for g in gs for o in g.opponents)
        sb = sum(points[o] * w for g in gs for o, w in zip(g.opponents, g.against, strict=True))
        rows.append(
            Standing(
                0,
                entrant.number,
                entrant.members,
                points[entrant.number],
                buchholz,
                sb,
                sum(g.hand_diff for g in gs),
                tuple(gs),
                entrant.dropped is not None,
                depth.get(entrant.number, 0),
            )
        )
    rows.sort(
        key=lambda s: (
            -s.reached,
            -s.match_points,
            -s.buchholz,
            -s.sonneborn_berger,
            -s.hand_diff,
            seed[s.entrant],
        )
    )
    return [replace(s, rank=i + 1) for i, s in enumerate(rows)]


def winners(t: Tournament) -> tuple[int, ...]:
    """The members of the first-placed entry once the tournament is finished, else ()."""
    if t.status != "finished":
        return ()
    table = standings(t)
    return table[0].members if table else ()

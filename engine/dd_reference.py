"""The plain minimax the double-dummy solver is checked against.

No pruning, no table, no move ordering, no equivalent cards: every legal card at every turn,
the hand played to its end by ``engine.dd_rules`` and valued by ``engine.dd_value.final``,
each side taking the outcome best for it (``Outcome.score``). Exponential, so only for
positions of a few cards a hand (the tests and ``bench/dd_check.py``).
"""

from __future__ import annotations

from .dd_position import BLACK, Position, first_there
from .dd_rules import black_gone_before, legal_cards, trick_winner
from .dd_value import Outcome, final


def minimax(p: Position) -> Outcome:
    """The exact value of ``p`` by exhaustive search."""
    fmt = p.fmt
    team_of = fmt.team_of
    hakem_team = team_of[p.hakem]
    seats = fmt.seats
    trump = p.trump
    hands = list(p.hands)

    def go(
        leader: int, trick: tuple[int, ...], t0: int, t1: int, first: int, gone: bool
    ) -> Outcome:
        seat = (leader + len(trick)) % seats
        side = team_of[seat]
        best: Outcome | None = None
        for card in legal_cards(hands[seat], trick, trump):
            hands[seat] ^= 1 << card
            played = (*trick, card)
            if len(played) < seats:
                out = go(leader, played, t0, t1, first, gone)
            else:
                winner = trick_winner(trump, leader, played, seats, gone)
                team = team_of[winner]
                n0, n1 = (t0 + 1, t1) if team == 0 else (t0, t1 + 1)
                lead = team if (n0 if team == 0 else n1) > max(t0, t1) else first
                end = final(fmt, hakem_team, p.bid, n0, n1, lead)
                if end is None:
                    end = go(winner, (), n0, n1, lead, gone or BLACK in played)
                out = end
            hands[seat] ^= 1 << card
            if best is None or (out.score > best.score if side == 0 else out.score < best.score):
                best = out
        assert best is not None, "a seat to play without a card"
        return best

    t0, t1 = p.tricks
    return go(p.leader, p.trick, t0, t1, first_there(p), black_gone_before(p.hands, p.trick))

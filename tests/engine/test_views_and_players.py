"""Views hold only what a seat may know; computer players decide from views alone."""

from __future__ import annotations

import pytest

from engine import (
    PLAY,
    TRUMP,
    GreedyPlayer,
    InvalidState,
    Match,
    RandomPlayer,
    Suit,
    parse_cards,
    seat_view,
)

from .helpers import rigged_match, spade_lead_hands


def test_view_holds_own_hand_only() -> None:
    m = Match(21)
    m.choose_trump(m.hakem, Suit.HEARTS)
    for seat in range(4):
        v = seat_view(m, seat)
        assert set(v.hand) == set(m.hand_of(seat))
        assert v.cards_left == (13, 13, 13, 13)
        others = {c for s in range(4) if s != seat for c in m.hand_of(s)}
        assert not others & set(v.hand)
        # nothing in the view's public fields is another seat's unplayed card
        public = {c for _, c in v.trick} | {c for t in v.tricks for c in t.cards}
        assert not public & others


def test_legal_cards_only_on_own_turn() -> None:
    m = Match(22)
    assert all(seat_view(m, s).legal == () for s in range(4))
    assert seat_view(m, m.hakem).can_choose_trump
    assert not seat_view(m, (m.hakem + 1) % 4).can_choose_trump
    m.choose_trump(m.hakem, Suit.CLUBS)
    for s in range(4):
        v = seat_view(m, s)
        assert bool(v.legal) == (s == m.turn) == v.my_turn


def test_view_rejects_unknown_seat() -> None:
    with pytest.raises(ValueError):
        seat_view(Match(1), 4)


@pytest.mark.parametrize("seed", range(30))
def test_players_only_choose_legal_cards(seed: int) -> None:
    m = Match(seed)
    players = [GreedyPlayer(), RandomPlayer(seed), GreedyPlayer(), RandomPlayer(seed + 1)]
    while not m.is_over:
        if m.phase == TRUMP:
            v = seat_view(m, m.hakem)
            m.choose_trump(m.hakem, players[m.hakem].choose_trump(v))
        else:
            v = seat_view(m, m.turn)
            card = players[m.turn].choose_card(v)
            assert card in v.legal
            m.play(m.turn, card)


def test_greedy_beats_random_over_many_matches() -> None:
    wins = [0, 0]
    for seed in range(60):
        m = Match(seed)
        players = [GreedyPlayer(), RandomPlayer(seed), GreedyPlayer(), RandomPlayer(~seed)]
        while not m.is_over:
            if m.phase == TRUMP:
                m.choose_trump(m.hakem, players[m.hakem].choose_trump(seat_view(m, m.hakem)))
            else:
                m.play(m.turn, players[m.turn].choose_card(seat_view(m, m.turn)))
        assert m.winner_team is not None
        wins[m.winner_team] += 1
    assert wins[0] > 50, wins


def _greedy_card(m: Match) -> str:
    return GreedyPlayer().choose_card(seat_view(m, m.turn)).code


def test_greedy_does_not_overtake_winning_partner() -> None:
    hands = spade_lead_hands()
    m = rigged_match(0, hands, trump=Suit.CLUBS)
    m.play(0, parse_cards("AS")[0])
    m.play(1, parse_cards("3S")[0])
    assert _greedy_card(m) == "QS"  # partner's ace wins: throw the lowest spade


def test_greedy_wins_cheaply_and_trumps_in_when_void() -> None:
    hands = [
        "10S 2S 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "3S 4S 5S 6S 7S 8S 9S JS QS 2D 3D 4D 5D",
        "KS AS 6D 7D 8D 9D 10D JD QD KD AD 2C 3C",
        "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2H AH",
    ]
    m = rigged_match(0, hands, trump=Suit.CLUBS)
    m.play(0, parse_cards("10S")[0])
    assert _greedy_card(m) == "JS"  # cheapest spade that beats the 10
    m.play(1, parse_cards("JS")[0])
    assert _greedy_card(m) == "KS"  # an opponent's jack wins: beat it with the cheaper card
    m.play(2, parse_cards("KS")[0])
    assert _greedy_card(m) == "4C"  # void in spades: the lowest trump wins


def test_greedy_leads_a_master_card() -> None:
    hands = spade_lead_hands()
    m = rigged_match(0, hands, trump=Suit.CLUBS)
    assert _greedy_card(m) == "AS"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(version=99),
        lambda d: d.update(phase="bidding"),
        lambda d: d["hands"][0].append(d["hands"][1][0]),  # a card held twice
        lambda d: d.update(hands="nonsense"),
        lambda d: d.pop("seed"),
        lambda d: d["rules"].update(target_score=40),
    ],
)
def test_from_dict_rejects_broken_data(mutate) -> None:  # type: ignore[no-untyped-def]
    m = Match(5)
    m.choose_trump(m.hakem, Suit.SPADES)
    m.play(m.turn, m.legal_cards(m.turn)[0])
    data = m.to_dict()
    mutate(data)
    with pytest.raises((InvalidState, ValueError)):
        Match.from_dict(data)


def test_random_player_is_seeded() -> None:
    m = Match(3)
    m.choose_trump(m.hakem, Suit.SPADES)
    v = seat_view(m, m.turn)
    assert RandomPlayer(1).choose_card(v) == RandomPlayer(1).choose_card(v)
    assert {RandomPlayer(i).choose_card(v) for i in range(50)} == set(v.legal)
    assert m.phase == PLAY

"""R8–R11 restated plainly on engine card numbers, for the double-dummy reference.

The fast solver (``engine.dd_search``) plays on its own encoding; this module is the slow,
obvious statement of the same rules that the plain minimax (``engine.dd_reference``) and
the solver's card values use (``step``), and the tests hold it to ``Match``/``JokerMatch``
on random hands.
A joker (V5 joker six) is played as a trump: the black above the ace, the red above the black
once the black has been played (earlier, or earlier in the same trick), else burnt, below the 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ANY_CARDS, RANKS_PER_SUIT, SUITS, cards_in
from .dd_position import BLACK, RED, Position, first_there, suit_of
from .dd_value import Outcome, final
from .errors import CardNotInHand, IllegalMove, MustFollowSuit


def legal_cards(hand: int, trick: Sequence[int], trump: int) -> list[int]:
    """R8: the cards of ``hand`` that may follow ``trick`` (a joker counts as trump)."""
    cards = cards_in(hand)
    if not trick:
        return cards
    led = suit_of(trick[0], trump)
    follow = [c for c in cards if suit_of(c, trump) == led]
    return follow or cards


def _worth(card: int, trump: int, black_gone: bool) -> tuple[int, int]:
    """(suit, rank) a card wins with: a joker a trump of rank 13 (black) or 14 (red), a red
    joker played while the black is still out -1 (burnt, below the 2)."""
    if card == BLACK:
        return trump, 13
    if card == RED:
        return trump, 14 if black_gone else -1
    return card // RANKS_PER_SUIT, card % RANKS_PER_SUIT


def trick_winner(
    trump: int, leader: int, trick: Sequence[int], seats: int, black_gone: bool
) -> int:
    """R9: the seat winning ``trick`` so far; ``black_gone``: the black joker was played in
    an earlier trick of the hand."""
    win_seat = leader
    win_suit, win_rank = -1, -2
    for k, card in enumerate(trick):
        suit, rank = _worth(card, trump, black_gone)
        if card == BLACK:
            black_gone = True
        if k == 0 or (suit == win_suit and rank > win_rank) or (suit == trump != win_suit):
            win_seat, win_suit, win_rank = (leader + k) % seats, suit, rank
    return win_seat


def black_gone_before(hands: Sequence[int], trick: Sequence[int]) -> bool:
    """Whether the black joker went in an earlier trick: held by nobody, not in this trick.
    Meaningful only in the joker six, where every card is dealt."""
    return not any(h >> BLACK & 1 for h in hands) and BLACK not in trick


def step(p: Position, card: int) -> Position | Outcome:
    """Play ``card`` for the seat to play: the next position, or the hand's outcome."""
    seat = p.to_play
    hand = p.hands[seat]
    if not isinstance(card, int) or not 0 <= card < len(ANY_CARDS):
        raise IllegalMove(f"not a card: {card!r}")
    if not hand >> card & 1:
        raise CardNotInHand(seat, ANY_CARDS[card])
    if card not in legal_cards(hand, p.trick, p.trump):
        raise MustFollowSuit(seat, ANY_CARDS[card], SUITS[suit_of(p.trick[0], p.trump)])
    fmt = p.fmt
    hands = list(p.hands)
    hands[seat] = hand ^ 1 << card
    trick = (*p.trick, card)
    if len(trick) < fmt.seats:
        return Position(
            fmt, p.trump, tuple(hands), p.leader, p.tricks, p.hakem, trick, p.bid, p.first
        )
    gone = black_gone_before(p.hands, p.trick)
    winner = trick_winner(p.trump, p.leader, trick, fmt.seats, gone)
    team = fmt.team_of[winner]
    counts = list(p.tricks)
    most = max(counts)
    counts[team] += 1
    first = first_there(p)
    if counts[team] > most:
        first = team
    t0, t1 = counts
    out = final(fmt, fmt.team_of[p.hakem], p.bid, t0, t1, first)
    if out is not None:
        return out
    return Position(fmt, p.trump, tuple(hands), winner, (t0, t1), p.hakem, (), p.bid, first)

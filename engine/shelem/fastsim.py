"""The greedy Shelem play policy on bitmasks, and whole hands played out with it (V6).

One policy serves two callers: ``GreedyShelemPlayer`` (``players``) plays a card with it from
a seat's view, and the searching player (``search``) finishes sampled deals with it for all
four seats. Cards are the engine's numbers (0–51, the jokers 52 and 53), a hand an ``int``
bitmask; the policy only reads the masks it is given, so from a view it knows what the seat
knows and in a rollout it may be handed the sampled deal.

The policy, as a careful player who counts points would play (V6.9: a trick is worth 5 and its
5s, 10s, aces and jokers):

- lead a master (no unseen card of its suit above it), the one with most points; the hakem's
  side draws trumps with a master trump first; else the cheapest card, points kept back;
- on a trick the partner wins for sure (it is the last card, or the partner's card is a master
  that cannot be cut), give it the most points (10s and 5s before aces, which may win later);
- when the other side is winning, take the trick with the cheapest card that wins it if it is
  the last card or the winning card is a master; else throw the cheapest card.
"""

from __future__ import annotations

from typing import Final

from ..cards import CARDS, SUIT_MASKS, cards_in
from .match import POWER, trick_winner
from .options import CARD_POINTS, MODES, TRICK_POINTS

PLAIN: Final = len(CARDS)
"""52: card numbers from here on are the jokers."""
JOKERS: Final = 3 << PLAIN
RED: Final = 1 << (PLAIN + 1)
BLACK: Final = 1 << PLAIN
_SUIT_OF: Final = tuple(c // 13 if c < PLAIN else -1 for c in range(PLAIN + 2))
_BIT: Final = tuple(1 << c for c in range(PLAIN + 2))


def _above(mode: str) -> tuple[int, ...]:
    """For each plain card, the cards of its suit that beat it in ``mode``."""
    power = POWER[mode]
    out = []
    for card in range(PLAIN):
        suit = card // 13
        mask = 0
        for other in range(suit * 13, suit * 13 + 13):
            if power[other] > power[card]:
                mask |= 1 << other
        out.append(mask)
    return tuple(out)


#: ``ABOVE[mode][card]``: the cards of its suit above it (jokers aside: they are trumps).
ABOVE: Final[dict[str, tuple[int, ...]]] = {mode: _above(mode) for mode in MODES}


def suit_mask(suit: int, trump: int) -> int:
    """The cards that follow ``suit``: a joker follows trump (V6.13)."""
    return SUIT_MASKS[suit] | (JOKERS if suit == trump else 0)


def legal_mask(hand: int, trick: list[int], trump: int, names_trump: bool) -> int:
    """V6.8.2, V6.13: the cards of ``hand`` that may go on ``trick`` now."""
    if not trick:
        return hand & ~JOKERS if names_trump else hand
    first = trick[0]
    led = trump if first >= PLAIN else first // 13
    follow = hand & suit_mask(led, trump)
    return follow or hand


def is_master(card: int, out: int, mode: str, trump: int) -> bool:
    """No card in ``out`` (the cards the others may hold) beats ``card`` within its suit."""
    if card >= PLAIN:
        return card == PLAIN + 1 or not out & RED
    above = ABOVE[mode][card]
    if card // 13 == trump:
        above |= JOKERS
    return not above & out


def choose_card(
    hand: int,
    out: int,
    trick: list[int],
    leader: int,
    seat: int,
    mode: str,
    trump: int,
    plan: int = -1,
    hakem_side: bool = False,
) -> int:
    """The greedy card for ``seat`` holding ``hand``; ``out``: the cards it does not know
    where they are (the others' hands, and whatever it has not seen). In ``hokm`` before trump
    is named the card is the hakem's first, which names it (V6.8.1): ``plan`` is the suit he
    means to name (-1: his best, ``best_suit``)."""
    names_trump = mode == "hokm" and trump < 0
    legal = legal_mask(hand, trick, trump, names_trump)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    power = POWER[mode]
    cards = cards_in(legal)
    if names_trump:
        return _first_lead(cards, plan if plan >= 0 else best_suit(hand), out, mode)
    if not trick:
        return _lead(cards, out, mode, trump, hakem_side)
    return _follow(cards, out, trick, leader, seat, mode, trump, power)


def best_suit(hand: int) -> int:
    """The suit the greedy hakem names: most cards, then the highest ranks (R14's rule)."""
    return max(
        range(4),
        key=lambda s: (
            (hand & SUIT_MASKS[s]).bit_count(),
            sorted((c % 13 for c in cards_in(hand & SUIT_MASKS[s])), reverse=True),
            -s,
        ),
    )


def _first_lead(cards: list[int], plan: int, out: int, mode: str) -> int:
    """The hakem names ``plan`` trump: its master if he has it, else its lowest card."""
    mine = [c for c in cards if c // 13 == plan] or cards
    top = max(mine, key=lambda c: POWER[mode][c])
    if is_master(top, out, mode, plan):
        return top
    return min(mine, key=lambda c: (CARD_POINTS[c], POWER[mode][c]))


def _is_trump(card: int, trump: int) -> bool:
    return card >= PLAIN or card // 13 == trump


def _lead(cards: list[int], out: int, mode: str, trump: int, hakem_side: bool) -> int:
    """A master, the hakem's side drawing trumps first; else the cheapest card."""
    power = POWER[mode]
    masters = [c for c in cards if is_master(c, out, mode, trump)]
    trump_masters = [c for c in masters if _is_trump(c, trump)]
    plain_masters = [c for c in masters if not _is_trump(c, trump)]
    trumps_out = trump >= 0 and bool(out & suit_mask(trump, trump))
    if hakem_side and trump_masters and trumps_out:
        return max(trump_masters, key=lambda c: (CARD_POINTS[c], power[c]))
    if plain_masters:
        return max(plain_masters, key=lambda c: (CARD_POINTS[c], power[c]))
    if trump_masters and trumps_out:
        return max(trump_masters, key=lambda c: (CARD_POINTS[c], power[c]))
    return min(cards, key=lambda c: (_is_trump(c, trump), CARD_POINTS[c], power[c]))


def _smear_value(card: int) -> int:
    """Points to give a partner's sure trick: 10s and 5s first; an ace less (it may win a
    trick of its own later)."""
    return CARD_POINTS[card] - (6 if card < PLAIN and card % 13 == 12 else 0)


def _follow(
    cards: list[int],
    out: int,
    trick: list[int],
    leader: int,
    seat: int,
    mode: str,
    trump: int,
    power: tuple[int, ...],
) -> int:
    winner = trick_winner(leader, trick, mode, trump)
    win_card = trick[(winner - leader) % 4]
    last = len(trick) == 3
    first = trick[0]
    led = trump if first >= PLAIN else first // 13
    if (winner - seat) % 2 == 0:  # the partner is winning
        safe = last or (
            is_master(win_card, out, mode, trump)
            and (
                trump < 0
                or _SUIT_OF[win_card] == trump
                or win_card >= PLAIN
                or not _may_cut(out, led, trump)
            )
        )
        if safe:
            return max(cards, key=lambda c: (_smear_value(c), -_is_trump(c, trump), -power[c]))
        return _cheapest(cards, trump, power)
    beating = [c for c in cards if _beats(c, win_card, led, trump, power)]
    if beating:
        at_stake = TRICK_POINTS + sum(CARD_POINTS[c] for c in trick)
        if last:
            return max(beating, key=lambda c: (CARD_POINTS[c], -power[c]))
        sure = [c for c in beating if is_master(c, out, mode, trump)]
        if sure and (
            trump < 0
            or _SUIT_OF[sure[0]] == trump
            or sure[0] >= PLAIN
            or not _may_cut(out, led, trump)
        ):
            return min(sure, key=lambda c: (power[c], -CARD_POINTS[c]))
        if at_stake >= 15 or any(c >= PLAIN or _SUIT_OF[c] == trump for c in beating):
            return min(beating, key=lambda c: (CARD_POINTS[c], power[c]))
    return _cheapest(cards, trump, power)


def _may_cut(out: int, led: int, trump: int) -> bool:
    """Someone may still cut a ``led`` trick (some trump is out; crude: voids unknown)."""
    return trump >= 0 and led != trump and bool(out & suit_mask(trump, trump))


def _cheapest(cards: list[int], trump: int, power: tuple[int, ...]) -> int:
    return min(cards, key=lambda c: (CARD_POINTS[c], c >= PLAIN or c // 13 == trump, power[c]))


def _beats(card: int, win: int, led: int, trump: int, power: tuple[int, ...]) -> bool:
    suit = trump if card >= PLAIN else card // 13
    win_suit = trump if win >= PLAIN else win // 13
    if suit == win_suit:
        return power[card] > power[win]
    return suit == trump and trump >= 0


def play_out(
    hands: list[int],
    leader: int,
    trick: list[int],
    mode: str,
    trump: int,
    points: list[int],
    tricks: list[int],
    plan: int = -1,
    hakem: int = -1,
) -> tuple[int, int, int, int]:
    """Finish the hand from here with the greedy policy for all four seats (``hands`` is
    changed); returns the points and tricks per team from here on added to ``points`` and
    ``tricks``: ``(points0, points1, tricks0, tricks1)``. ``plan``: the suit the hakem names
    if his first card is still to come (``hokm``)."""
    p0, p1 = points
    t0, t1 = tricks
    trick = list(trick)
    seat = (leader + len(trick)) % 4
    unplayed = hands[0] | hands[1] | hands[2] | hands[3]
    hakem_team = hakem % 2
    while hands[seat]:
        hand = hands[seat]
        card = choose_card(
            hand,
            unplayed & ~hand,
            trick,
            leader,
            seat,
            mode,
            trump,
            plan,
            seat % 2 == hakem_team,
        )
        if trump < 0 and mode == "hokm":
            trump = card // 13  # the hakem's first card names trump (V6.8.1)
        bit = _BIT[card]
        hands[seat] = hand ^ bit
        unplayed ^= bit
        trick.append(card)
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        winner = trick_winner(leader, trick, mode, trump)
        won = TRICK_POINTS + CARD_POINTS[trick[0]] + CARD_POINTS[trick[1]]
        won += CARD_POINTS[trick[2]] + CARD_POINTS[trick[3]]
        if winner % 2:
            p1 += won
            t1 += 1
        else:
            p0 += won
            t0 += 1
        trick = []
        leader = seat = winner
    return p0, p1, t0, t1

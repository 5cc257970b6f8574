"""The server's decisions for a seat whose time ran out in the variants' own phases (R14).

Like ``auto_trump`` for the trump choice, each reads only the seat's ``SeatView``:

- ``auto_bam`` (V1): stop. The seed makes a bam something a side insists on ("اصرار به ادامه
  بازی داشت"), so a seat that says nothing takes its kot.
- ``auto_discard`` (V2): the lowest card outside trump (the seed: "the cards worth least given
  the trump"), the lowest trump if there is nothing else.
- ``auto_draw`` (V2): keep the top card if it is a trump or a J, Q, K or A, else take the next.
- ``auto_bid`` (V5 joker six): pass. A bid is a promise that costs at least twice itself when
  it fails; the seed's word for passing, "معاف" (excused), is what a seat that says nothing is.
"""

from __future__ import annotations

from .cards import Card
from .view import SeatView

_COURT_RANK = 9  # the jack


def auto_bam(view: SeatView) -> bool:
    """V1: the default answer to a bam offer: ``False``, stop and score the kot."""
    return False


def auto_discard(view: SeatView) -> Card:
    """V2: the card to lay face down: the lowest outside trump, else the lowest trump."""
    if not view.hand:
        raise ValueError("no card to discard")
    return min(view.hand, key=lambda c: (c.suit == view.trump, c.rank, c.suit))


def auto_draw(view: SeatView) -> bool:
    """V2: keep the stock's top card (``True``) if it is trump or a court card or ace."""
    card = view.drawn
    if card is None:
        raise ValueError("this seat is not drawing")
    return card.suit == view.trump or card.rank >= _COURT_RANK


def auto_bid(view: SeatView) -> int:
    """V5 joker six: the default answer when a seat's time to bid runs out: 0, pass."""
    if not view.can_bid:
        raise ValueError("this seat is not bidding")
    return 0

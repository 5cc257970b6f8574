"""A player's hand message in the variants' own phases: V1's bam or stop, V2's
discards and draws. Only ever rendered for the seat's own message: the stock's top card
(``view.drawn``) and the cards the seat laid face down are shown to that seat alone.
"""

from __future__ import annotations

from engine import BAM, BID, DISCARD, DRAW, Match, SeatView, seat_view

from ..names import seat_name
from ..service.table import Table
from . import custom_ids, hand_status
from .i18n import LIST_SEPARATOR, ltr, named, number, t


def decision_lines(table: Table, view: SeatView, lang: str, when: str) -> list[str]:
    """What the seat is asked, when it is its turn to decide; its laid-down cards (V2)."""
    lines = []
    if view.can_bid:
        high = max(view.bids, default=0)
        shown = number(lang, high) if high > 0 else "—"
        lines.append(t(lang, "hand.bid", high=shown, when=when))
    elif view.can_bam:
        lines.append(t(lang, "hand.bam_choice", when=when))
    elif view.can_discard:
        left = view.fmt.first_deal - view.fmt.discards
        count = len(view.hand) - left
        lines.append(t(lang, "hand.discard", count=number(lang, count), when=when))
    elif view.can_draw and view.drawn is not None:
        lines.append(t(lang, "hand.draw", card=view.drawn.label, when=when))
    if view.discards:
        cards = ltr(lang, " ".join(c.label for c in view.discards))
        lines.append(t(lang, "hand.face_down", cards=cards))
    return lines


def decision_buttons(table: Table, view: SeatView, lang: str) -> tuple[tuple[str, str, str], ...]:
    """``(custom_id, label, style)`` of the seat's yes and no (bam/stop, keep/take next), or
    its bids (every one above the highest so far, and Pass)."""
    tid, hand = table.table_id, view.hand_number
    if view.phase == BID and view.can_bid:
        high = max(view.bids, default=0)
        bids = [n for n in view.fmt.bids if n > high]
        return (
            *((custom_ids.bid_id(tid, hand, n), number(lang, n), "primary") for n in bids),
            (custom_ids.bid_id(tid, hand, 0), t(lang, "button.pass"), "secondary"),
        )
    if view.phase == BAM and view.can_bam:
        return (
            (custom_ids.decide_id(tid, hand, "bam", True), t(lang, "button.bam"), "danger"),
            (custom_ids.decide_id(tid, hand, "bam", False), t(lang, "button.stop"), "primary"),
        )
    if view.phase == DRAW and view.can_draw and view.drawn is not None:
        keep = t(lang, "button.keep", card=view.drawn.label)
        return (
            (custom_ids.decide_id(tid, hand, "draw", True), keep, "success"),
            (
                custom_ids.decide_id(tid, hand, "draw", False),
                t(lang, "button.take_next"),
                "primary",
            ),
        )
    return ()


def bidding_line(table: Table, lang: str) -> str | None:
    """V5 joker six, on the table message: who bid what so far (from the seat after the
    dealer) and the highest bid with its bidder, while the hakem is bid for."""
    match = table.match
    if not isinstance(match, Match) or match.phase != BID:
        return None
    n = len(table.seats)
    public = seat_view(match, 0)  # the bids and the dealer are public; no hand is read
    spoken = []
    for k in range(1, n + 1):
        seat = (public.dealer + k) % n
        bid = public.bids[seat]
        if bid >= 0:
            said = number(lang, bid) if bid else t(lang, "button.pass")
            spoken.append(named(lang, seat_name(table, seat), said))  # name first
    high = max(public.bids, default=0)
    seat = public.bids.index(high) if high > 0 else -1
    highest = hand_status.highest_bid(table, lang, number(lang, high), seat)
    if not spoken:
        return t(lang, "table.bidding", bids=highest)
    return t(lang, "table.bidding", bids=spoken) + LIST_SEPARATOR + highest


def stock_line(table: Table, lang: str) -> str | None:
    """V2, on the table message: the hands are being built, so many cards left to draw."""
    match = table.match
    if not isinstance(match, Match) or match.phase not in (DISCARD, DRAW):
        return None
    return t(lang, "table.stock", count=number(lang, match.stock_left))

"""One seat's hand message at a Shelem table (V6), and what makes it worth editing.

Rendered from ``seat_view`` alone, so the kitty and the cards the hakem laid down (V6.6.4)
appear in his message and nowhere else; his choice of cards before he confirms it lives only
on his own buttons (``custom_ids.kitty_id``). While the hand is bid for, and while the hakem
lays down and announces, no card can be played: the hand is shown as text, the room on
Discord's rows going to the bids (17 and Pass at the most) or to his sixteen (eighteen) cards.
"""

from __future__ import annotations

from engine import Card
from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PASS,
    SAR_SHELEM,
    SHELEM,
    ShelemMatch,
    ShelemView,
    seat_view,
)

from ..names import seat_name
from ..service.table import Table
from . import custom_ids, hand_status
from .formats import MAX_ROWS, PER_ROW, pack_rows
from .hand_cards import by_suit, card_rows, cards_text, hand_text
from .hand_over import ended_lines, final_lines
from .i18n import ltr, number, suit_label, t, word
from .shelem import (
    auction_line,
    bid_label,
    contract_line,
    final_deal_line,
    mode_label,
    shelem_match,
    trump_line,
)
from .specs import ButtonSpec, MessageSpec, Signatures, when
from .teams import team_counts


def hand_message(
    table: Table,
    seat: int,
    *,
    ephemeral: bool = False,
    live: bool = True,
    chosen: tuple[Card, ...] = (),
) -> MessageSpec:
    """One player's private hand (DM or ephemeral): the auction and its bid buttons, the
    kitty and the cards to lay down (``chosen`` so far, the hakem's own clicks), the mode, or
    the play with its card buttons."""
    match = shelem_match(table)
    lang = table.settings.language
    view = seat_view(match, seat)
    channel, n = f"<#{table.channel_id}>", number(lang, view.hand_number)
    header = t(lang, "shelem.hand_header", channel=channel, n=n)
    lines = [f"**{header}**", *ended_lines(table, lang)]  # the last hand's end
    rows: list[tuple[ButtonSpec, ...]] = []
    due = when(table.deadline)
    tid, deal = table.table_id, match.deal_number
    if table.status != "playing":
        lines.extend(final_lines(table, lang) or [t(lang, "hand.over")])
    elif view.phase == BID:
        lines.append(auction_line(table, lang, match))
        notice = final_deal_line(table, lang, match)
        lines += [notice] if notice and not view.must_open else []
        if view.can_bid:
            lines.append(_ask_bid(table, lang, view, due))
            rows.extend(_rows(_bid_buttons(lang, tid, deal, view)))
        else:
            lines.append(_waiting(table, lang, view, live))
        lines.append(t(lang, "shelem.your_cards", cards=ltr(lang, hand_text(view.hand))))
    elif view.phase == DISCARD and view.can_discard:
        bid = bid_label(lang, view.bid)
        lines.append(t(lang, "shelem.kitty", bid=bid, cards=ltr(lang, cards_text(view.kitty))))
        shown = ltr(lang, cards_text(chosen)) if chosen else word(lang, "shelem.none")
        count = number(lang, view.kitty_size)
        lines.append(t(lang, "shelem.choose_discards", n=count, chosen=shown, when=due))
        rows.extend(_kitty_rows(lang, tid, deal, view, chosen))
    elif view.phase in (DISCARD, MODE) and not view.my_turn:
        if view.phase == DISCARD:
            count = number(lang, view.kitty_size)
            bid = bid_label(lang, view.bid)
            hakem = seat_name(table, view.hakem)
            lines.append(t(lang, "shelem.waiting_discard", name=hakem, bid=bid, n=count))
        else:
            lines.append(t(lang, "shelem.waiting_mode", name=seat_name(table, view.hakem)))
        lines.append(t(lang, "shelem.your_cards", cards=ltr(lang, hand_text(view.hand))))
    elif view.phase == MODE:
        lines.extend(_own_set(lang, view))
        lines.append(t(lang, "shelem.choose_mode", when=due))
        rows.append(
            tuple(
                ButtonSpec(custom_ids.mode_id(tid, deal, m), mode_label(lang, m), "primary")
                for m in view.modes
            )
        )
        lines.append(t(lang, "shelem.your_cards", cards=ltr(lang, hand_text(view.hand))))
    else:
        lines.extend(_play_lines(table, lang, match, view, live=live))
        if view.hand:
            legal = frozenset(view.legal)
            rows.extend(card_rows(tid, view.hand_number, view.hand, legal, MAX_ROWS))
    if ephemeral:
        lines.append(f"-# {t(lang, 'hand.ephemeral_note')}")
    return MessageSpec(content="\n".join(lines), rows=tuple(rows))


def _ask_bid(table: Table, lang: str, view: ShelemView, due: str) -> str:
    if view.high == SHELEM:  # V6.5.2: the shelem bidder's opponents, sar-shelem or pass
        return t(lang, "shelem.hand_sar_shelem", name=seat_name(table, view.high_seat), when=due)
    low = bid_label(lang, next((b for b in view.legal_bids if b != PASS), view.options.min_bid))
    if view.must_open:  # V6.4.1: why there is no Pass
        n = number(lang, view.passed_deals)
        return t(lang, "shelem.hand_must_open", n=n, low=low, when=due)
    return t(lang, "shelem.hand_bid", low=low, when=due)


def _bid_buttons(lang: str, tid: str, deal: int, view: ShelemView) -> list[ButtonSpec]:
    """Every bid the seat may make (higher than the highest), Shelem, then Pass unless the
    dealer must open (V6.4.1)."""
    out = []
    for value in view.legal_bids:
        if value == PASS:
            continue
        style = "danger" if value in (SHELEM, SAR_SHELEM) else "primary"
        cid = custom_ids.shelem_bid_id(tid, deal, value)
        out.append(ButtonSpec(cid, bid_label(lang, value), style))
    if PASS in view.legal_bids:
        out.append(ButtonSpec(custom_ids.shelem_bid_id(tid, deal, PASS), bid_label(lang, PASS)))
    return out


def _rows(buttons: list[ButtonSpec]) -> list[tuple[ButtonSpec, ...]]:
    return [tuple(buttons[i : i + PER_ROW]) for i in range(0, len(buttons), PER_ROW)]


def _kitty_rows(
    lang: str, tid: str, deal: int, view: ShelemView, chosen: tuple[Card, ...]
) -> list[tuple[ButtonSpec, ...]]:
    """V6.6.1: the hakem's sixteen (eighteen) cards, each a toggle (red: to lay down), in four
    rows; then **Lay down**, enabled once exactly the kitty's number is chosen."""
    picked = frozenset(chosen)
    rows = [
        tuple(
            ButtonSpec(
                custom_ids.kitty_id(tid, deal, card, chosen),
                card.label,
                "danger" if card in picked else "secondary",
            )
            for card in row
        )
        for row in pack_rows(by_suit(view.hand), MAX_ROWS - 1)
    ]
    label = t(
        lang,
        "shelem.button_lay_down",
        k=number(lang, len(chosen)),
        n=number(lang, view.kitty_size),
    )
    confirm = ButtonSpec(
        custom_ids.lay_down_id(tid, deal, chosen),
        label,
        "primary",
        disabled=len(chosen) != view.kitty_size,
    )
    return [*rows, (confirm,)]


def _own_set(lang: str, view: ShelemView) -> list[str]:
    """The hakem's own laid-down set and its points (V6.6.2), or after a sar-shelem the kitty
    laid aside (V6.6.3): his eyes only."""
    if not view.discards:
        return []
    cards, points = ltr(lang, cards_text(view.discards)), number(lang, view.own_set_points)
    if view.discards == view.kitty:
        return [t(lang, "shelem.kitty_seen", cards=cards)]
    return [t(lang, "shelem.laid_down_own", cards=cards, points=points)]


def _play_lines(
    table: Table, lang: str, match: ShelemMatch, view: ShelemView, *, live: bool
) -> list[str]:
    """V6.8: the bid, trump (or who names it), the hakem's own set, the points and score,
    the last trick and the one on the table, and whose turn it is."""
    lines = [contract_line(table, lang, match)]
    if view.trump is not None:
        lines.append(t(lang, "shelem.trump_line", suit=suit_label(lang, view.trump)))
    elif not view.names_trump:
        trump = trump_line(table, lang, match)
        lines += [trump] if trump else []
    lines.extend(_own_set(lang, view))
    points = team_counts(table, lang, view.trick_points, "dm.team_count")
    lines.append(t(lang, "shelem.points", teams=points, total=number(lang, view.hand_total)))
    lines.append(hand_status.score_line(table, lang))
    if view.tricks:
        last = view.tricks[-1]
        lines.append(
            t(
                lang,
                "dm.last_trick",
                n=number(lang, last.number),
                cards=hand_status.played_cards(table, lang, last.plays(4)),
                name=seat_name(table, last.winner),
            )
        )
    if live or view.my_turn:
        if view.trick:
            lines.append(
                t(lang, "dm.on_table", cards=hand_status.played_cards(table, lang, view.trick))
            )
        elif not view.names_trump:
            lines.append(t(lang, "dm.leads", name=seat_name(table, view.to_act)))
    if view.names_trump:
        lines.append(t(lang, "shelem.first_card_names_trump", when=when(table.deadline)))
    elif view.my_turn:
        lines.append(t(lang, "hand.your_turn", when=when(table.deadline)))
    else:
        lines.append(_waiting(table, lang, view, live))
    return lines


def _waiting(table: Table, lang: str, view: ShelemView, live: bool) -> str:
    """Whose turn it is on a message kept current; else where to look (never a stale name).
    Who is to bid, always: the auction's messages are edited on every bid."""
    if view.phase == BID:
        return t(lang, "bid.waiting", name=seat_name(table, view.to_act))
    if not live:
        return t(lang, "dm.see_table", channel=f"<#{table.channel_id}>")
    return t(lang, "hand.waiting_for", name=seat_name(table, view.to_act))


def hand_signatures(table: Table, seat: int) -> Signatures:
    """What makes the seat's messages worth editing (``render.hand_signatures``): the DM on a
    change of its cards, its turn or the deal's stage (its sixth item is the seat's turn, as
    the publisher reads it), and on every bid while it shows the auction (who is to
    bid, the highest bid); a message kept current also on every card and point."""
    match = table.match
    if not isinstance(match, ShelemMatch) or table.status != "playing":
        return None, None
    view = seat_view(match, seat)
    base: tuple[object, ...] = (view.hand_number, view.phase, view.hand, view.legal, view.trump)
    base += (view.my_turn, match.deal_number, view.hakem, view.mode, view.discards)
    base += (view.auction if view.phase == BID else (),)
    kept_live = (*base, view.auction, view.trick, len(view.tricks), view.trick_points)
    kept_live += (view.scores, view.to_act)
    return base, kept_live

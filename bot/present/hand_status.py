"""The table as one player's hand message shows it (the DM is the table).

A player should not have to switch to the channel to follow the hand: the hand message says
the current trick (each card with its player), the last trick and who took it, the tricks per
team, the score and whose turn it is. Everything here is public (played cards, counts), so it
may be shown to any seat; the seat's own cards stay in ``render.hand_message``.

Only a message the bot keeps current on every move (``live``: edited through the player's own
fresh interaction token) may name the player the table waits for. A message that is not kept
current between the player's turns would soon name a player who has already played, so it
says "see the table" instead, and leaves out the trick in progress.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from engine import BID, PLAY, Card, SeatView

from ..names import seat_name
from ..service.table import Table
from .i18n import LIST_SEPARATOR, number, play, t, word
from .teams import team_counts


def played_cards(table: Table, lang: str, cards: Iterable[tuple[int, Card]]) -> list[str]:
    """``amir 6♠``, ``bahar K♠``, ...: each card with the player who played it (``play``)."""
    name = partial(seat_name, table)
    return [play(lang, name(seat), card.label) for seat, card in cards]


def score_line(table: Table, lang: str) -> str:
    """``Score: amir & cyrus 1 · bahar & dara 4 (to 7)``."""
    match = table.match
    assert match is not None
    target = number(lang, match.target_score)
    return t(
        lang,
        "dm.score",
        teams=team_counts(table, lang, match.scores, "dm.team_count"),
        target=target,
    )


SHARED_LINES = 512
"""Status lines kept (``status_lines``): a card's renders of one table come together (the
player's answer, the next player's turn, every member's trick end), so a few hundred are plenty
even at hundreds of tables."""
_shared: dict[tuple[object, ...], tuple[str, ...]] = {}


def status_lines(table: Table, view: SeatView, lang: str, *, live: bool) -> list[str]:
    """Tricks and score, then (in play) the last trick and the one on the table.

    The trick in progress is shown only when it cannot go stale: on a ``live`` message, or
    when it is this seat's turn (nobody else moves until they do).

    Nothing here is the seat's own (the lines are public): every hand rendered of one state of
    the table says the same, so they are made once per state and kept (``SHARED_LINES``),
    keyed by everything they are made from. A card was about three renders of them, the
    heaviest part of a hand message.
    """
    match = table.match
    assert match is not None
    key = (
        table.table_id,
        lang,
        live or view.my_turn,
        view.phase,
        view.team_tricks,
        tuple(match.scores),
        match.target_score,
        view.tricks[-1] if view.tricks else None,
        view.trick,
        view.to_act,
        view.fmt.name,  # a format is its name (hashing the whole format is its deck)
        tuple(None if s is None else (s.name, s.is_computer) for s in table.seats),
    )
    found = _shared.get(key)
    if found is None:
        found = _shared[key] = tuple(_status_lines(table, view, lang, live=live))
        if len(_shared) > SHARED_LINES:
            del _shared[next(iter(_shared))]  # the oldest
    return list(found)


def _status_lines(table: Table, view: SeatView, lang: str, *, live: bool) -> list[str]:
    lines = [
        t(lang, "dm.tricks", teams=team_counts(table, lang, view.team_tricks, "dm.team_count")),
        score_line(table, lang),
    ]
    if view.phase != PLAY:
        return lines
    if view.tricks:
        last = view.tricks[-1]
        cards = last.plays(view.fmt.seats)
        lines.append(
            t(
                lang,
                "dm.last_trick",
                n=number(lang, last.number),
                cards=played_cards(table, lang, cards),
                name=seat_name(table, last.winner),
            )
        )
    if live or view.my_turn:
        if view.trick:
            lines.append(t(lang, "dm.on_table", cards=played_cards(table, lang, view.trick)))
        else:
            lines.append(t(lang, "dm.leads", name=seat_name(table, view.to_act)))
    return lines


def waiting_line(table: Table, view: SeatView, lang: str, *, live: bool) -> str:
    """Whose turn it is, on a message kept current; else where to look (never a stale name).
    While the hakem is bid for (V5), who is to bid and the highest bid so far, always: the
    message is edited on every bid (its signature holds the bids, ``render.hand_signatures``)."""
    if view.phase == BID:
        high = max(view.bids, default=0)
        seat = view.bids.index(high) if high > 0 else -1
        highest = highest_bid(table, lang, number(lang, high), seat)
        return t(lang, "bid.waiting", name=seat_name(table, view.to_act)) + LIST_SEPARATOR + highest
    if live:
        return t(lang, "hand.waiting_for", name=seat_name(table, view.to_act))
    return t(lang, "dm.see_table", channel=f"<#{table.channel_id}>")


def highest_bid(table: Table, lang: str, bid: str, seat: int) -> str:
    """``Highest bid: **7** by amir``, or that nobody has bid yet (``seat`` -1): bids are
    announced, so any seat and the table may be told."""
    if seat < 0:
        return word(lang, "bid.none")
    return t(lang, "shelem.auction_high", bid=bid, name=seat_name(table, seat))


def live_signature(table: Table, view: SeatView) -> tuple[object, ...]:
    """What a message kept current shows beyond the hand itself: any change is worth an edit
    (through the player's token, outside the global rate limit)."""
    return (view.trick, len(view.tricks), view.team_tricks, view.scores, view.to_act)

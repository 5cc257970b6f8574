"""Moves at a Shelem table (V6): the engine's ``ShelemMatch`` answer turned into
table state and typed events, as ``moves`` does for the Hokm family.

Plain functions of a ``Table`` and an ``Update`` with no I/O; each checks before it changes
(the engine refuses first, and a refusal leaves the table as it was). A bid, the laid-down
cards and the mode are ``ShelemDecision``s, a card to play a ``Card``; a member's click, a
computer player and R14's time-out (V6.15: a bid not made in time is a pass, or the lowest bid
for a dealer who must open, V6.4.1; the rest the greedy player's) all come through
``apply_choice``.
"""

from __future__ import annotations

import logging

from engine import (
    BidOutOfRange,
    BidTooLow,
    Card,
    DiscardCount,
    IllegalMove,
    JokerCannotNameTrump,
    MatchCompleted,
    ModeNotAllowed,
    NotYourTurn,
    SarShelemNotAllowed,
    Trick,
    WrongPhase,
)
from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PASS,
    SHELEM,
    DealerMustOpen,
    GreedyShelemPlayer,
    HakemChosen,
    KittyDiscarded,
    ModeChosen,
    ShelemBid,
    ShelemDealt,
    ShelemEvent,
    ShelemHandResult,
    ShelemMatch,
    ShelemPlayer,
    ShelemRedealt,
    ShelemView,
    auto_bid,
    seat_view,
)
from engine.shelem import TrumpNamed as TrumpByCard

from ..names import seat_name
from .errors import ActionError
from .events import (
    CardPlayed,
    HandDealt,
    MatchOver,
    Replaced,
    Started,
    TimedOut,
    TimedOutDecision,
    TrickTaken,
    TrumpNamed,
)
from .moves import back_in_play, finish, schedule_turn
from .moves import refusal as hokm_refusal
from .ports import Pace, Update
from .shelem_events import (
    AllPassed,
    BidMade,
    BidWon,
    KittyLaidDown,
    ModeAnnounced,
    ShelemHandEnded,
)
from .table import Table
from .variants import ShelemDecision

log = logging.getLogger(__name__)


ShelemChoice = Card | ShelemDecision
"""A Shelem move: a card to play (the hakem's first names trump, V6.8.1), or a decision."""


def shelem_match(table: Table) -> ShelemMatch:
    match = table.match
    assert isinstance(match, ShelemMatch), "not a Shelem table"
    return match


def start_match(table: Table, update: Update, seed: int, pace: Pace) -> None:
    """V6.2: the first dealer is drawn from the seed and the cards dealt; the bidding opens
    with the seat after him (V6.3.1)."""
    table.match_seed = seed
    match = table.match = ShelemMatch(seed, table.settings.shelem_options())
    table.status = "playing"
    table.started_at = pace.clock()
    table.deadline = None
    update.add(Started(-1))  # no hakem yet: he is bid for
    update.add(HandDealt(-1, match.hand_number))
    schedule_turn(table, pace)
    log.info("table %s: Shelem match started", table.table_id)  # never the seed


def decision_seat(table: Table, user_id: int, deal: int) -> int:
    """The clicker's seat, for a bid, the laid-down cards or the mode of this deal (a redeal,
    V6.4, makes the last deal's buttons stale, though the hand number stays).

    :raises ActionError: ``error.stale`` (no Shelem match, another deal),
        ``error.not_a_player``.
    """
    match = table.match
    if table.status != "playing" or not isinstance(match, ShelemMatch):
        raise ActionError("error.stale")
    seat = table.seat_of(user_id)
    if seat is None:
        raise ActionError("error.not_a_player")
    if deal != match.deal_number:
        raise ActionError("error.stale")
    return seat


def kitty_selection(table: Table, seat: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The hakem's choice so far of the cards to lay down, checked (it changes nothing): his
    turn to lay down, cards he holds, at most the kitty's number.

    :raises ActionError: ``error.not_laying_down``, ``error.card_not_in_hand``,
        ``error.discard_too_many``.
    """
    match = shelem_match(table)
    view = seat_view(match, seat)
    if not view.can_discard:
        raise ActionError("error.not_laying_down")
    for card in cards:
        if card not in view.hand:
            raise ActionError("error.card_not_in_hand", card=card.label)
    if len(cards) > view.kitty_size:
        raise ActionError("error.discard_too_many", count=view.kitty_size)
    return tuple(sorted(cards))


def apply_decision(
    table: Table, update: Update, seat: int, choice: ShelemDecision, pace: Pace
) -> None:
    """A bid, the laid-down cards or the mode, through the engine.

    :raises ActionError: the engine's refusal, in the member's words (``refusal``).
    """
    match = shelem_match(table)
    hand = match.hand_number
    try:
        if choice.kind == "bid":
            events = match.bid(seat, choice.value)
        elif choice.kind == "discard":
            events = match.discard(seat, choice.cards)
        else:
            events = match.choose_mode(seat, choice.mode)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    record(table, update, events, hand, pace)


def apply_card(table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
    """V6.8: one card; the trick, the hand's score and the match it may close come back as
    events.

    :raises ActionError: the engine's refusal, in the member's words (``refusal``).
    """
    match = shelem_match(table)
    hand = match.hand_number
    try:
        events = match.play(seat, card)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    update.add(CardPlayed(seat, card, hand))
    record(table, update, events, hand, pace)


def apply_choice(table: Table, update: Update, seat: int, choice: ShelemChoice, pace: Pace) -> None:
    if isinstance(choice, ShelemDecision):
        apply_decision(table, update, seat, choice, pace)
    else:
        apply_card(table, update, seat, choice, pace)


def record(
    table: Table, update: Update, events: tuple[ShelemEvent, ...], hand: int, pace: Pace
) -> None:
    """The engine's events after a move as typed events; the next deadline."""
    for event in events:
        if isinstance(event, ShelemBid):
            update.add(BidMade(event.seat, event.value, hand))
        elif isinstance(event, ShelemRedealt):
            update.add(AllPassed(event.dealer, hand))
        elif isinstance(event, HakemChosen):
            update.add(BidWon(event.hakem, event.bid, hand))
        elif isinstance(event, KittyDiscarded):
            update.add(KittyLaidDown(event.hakem, event.cards, hand))
        elif isinstance(event, ModeChosen):
            update.add(ModeAnnounced(event.hakem, event.mode, hand))
        elif isinstance(event, TrumpByCard):
            update.add(TrumpNamed(event.hakem, event.trump, hand))
        elif isinstance(event, Trick):
            update.add(TrickTaken(event, hand))
        elif isinstance(event, ShelemHandResult):
            update.add(ShelemHandEnded(event))
        elif isinstance(event, MatchCompleted):
            finish(table, "finished", pace.clock())
            update.add(MatchOver(event.winner_team, tuple(event.scores)))
        elif isinstance(event, ShelemDealt):
            update.add(HandDealt(-1, event.number))  # the next hakem is bid for
    if table.status == "playing":
        schedule_turn(table, pace)


def time_out(table: Table, update: Update, seat: int, pace: Pace) -> None:
    """R14, V6.15: a member's time ran out: a bid is a pass (a dealer who must open bids the
    lowest, V6.4.1), the laid-down cards, the mode and a card are the greedy player's; after
    two misses in a row the computer keeps the seat."""
    view = seat_view(shelem_match(table), seat)
    s = table.seat(seat)
    choice = default_move(view)
    s.missed_turns += 1
    if isinstance(choice, Card):
        update.add(TimedOut(seat, choice))
    else:  # never the cards laid down: only the hakem may know them (V6.6.4)
        update.add(TimedOutDecision(seat, word(choice)))
    if s.missed_turns >= 2 and s.user_id is not None:
        s.autoplay = True
        update.add(Replaced(seat))
    apply_choice(table, update, seat, choice, pace)


def default_move(view: ShelemView) -> ShelemChoice:
    """V6.15: pass a bid, or open at the lowest when the dealer must (V6.4.1; ``auto_bid``);
    else what the greedy player would do."""
    if view.phase == BID:
        return ShelemDecision("bid", auto_bid(view))
    return decide(GreedyShelemPlayer(), view)


def decide(player: ShelemPlayer, view: ShelemView) -> ShelemChoice:
    """``player``'s move for the decision ``view``'s seat is asked for."""
    if view.phase == BID:
        return ShelemDecision("bid", int(player.choose_bid(view)))
    if view.phase == DISCARD:
        return ShelemDecision("discard", cards=tuple(player.choose_discard(view)))
    if view.phase == MODE:
        return ShelemDecision("mode", mode=player.choose_mode(view))
    return player.choose_card(view)


def word(choice: ShelemDecision) -> str:
    """A decision's public name (``pass``, ``bid105``, ``bid1000``, ``discard``,
    ``mode_nars``): never the cards laid down."""
    if choice.kind == "bid":
        return "pass" if choice.value == PASS else f"bid{choice.value}"
    if choice.kind == "discard":
        return "discard"
    return f"mode_{choice.mode}"


def refusal(table: Table, exc: IllegalMove) -> ActionError:
    """A Shelem refusal as a catalog key with what the member needs to know; what Shelem
    shares with Hokm (not your turn, follow suit, a card not held) is said as Hokm says it."""
    match = shelem_match(table)
    if isinstance(exc, BidTooLow) and exc.highest >= SHELEM:
        return ActionError("error.after_shelem")  # V6.5.2: sar-shelem or pass
    if isinstance(exc, BidTooLow):
        return ActionError("error.shelem_bid_too_low", bid=exc.value, high=exc.highest)
    if isinstance(exc, BidOutOfRange):
        return ActionError("error.shelem_bid_range", low=exc.minimum, high=exc.maximum)
    if isinstance(exc, SarShelemNotAllowed):
        return ActionError("error.sar_shelem_not_allowed")
    if isinstance(exc, DealerMustOpen):  # V6.4.1
        return ActionError("error.dealer_must_open", low=exc.minimum, n=exc.passed_deals)
    if isinstance(exc, DiscardCount):
        return ActionError("error.discard_count", needed=exc.needed, given=exc.given)
    if isinstance(exc, ModeNotAllowed):
        return ActionError("error.mode_not_allowed")
    if isinstance(exc, JokerCannotNameTrump):
        return ActionError("error.joker_names_no_trump")
    if isinstance(exc, NotYourTurn) and match.phase == BID:
        return ActionError("error.not_your_bid", name=seat_name(table, match.to_act))
    if isinstance(exc, NotYourTurn) and match.phase in (DISCARD, MODE):
        return ActionError("error.hakem_decides", name=seat_name(table, match.to_act))
    if isinstance(exc, WrongPhase) and exc.action == "announce the mode":
        return ActionError("error.mode_over")
    if isinstance(exc, WrongPhase) and exc.action == "bid":
        return ActionError("error.bidding_over")
    if isinstance(exc, WrongPhase) and exc.action == "lay down cards":
        return ActionError("error.not_laying_down")
    if isinstance(exc, WrongPhase) and match.phase in (BID, DISCARD, MODE):
        return ActionError("error.not_playing_yet")  # a card before the play begins
    return hokm_refusal(table, exc)

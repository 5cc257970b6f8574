"""Moves on a table: the engine's answer turned into table state and typed events.

Plain functions of a ``Table`` and an ``Update`` with no I/O and no awaits: the service calls
them under the table's lock, saves, then publishes. Each checks before it changes: an illegal
move raises ``ActionError`` and leaves the table as it was (the engine refuses first).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engine import (
    DISCARD,
    MATCH_OVER,
    PLAY,
    TRUMP,
    BamOffered,
    BidNotAllowed,
    Card,
    CardNotInHand,
    Event,
    GreedyPlayer,
    HandResult,
    IllegalMove,
    Match,
    MatchCompleted,
    MustFollowSuit,
    NotHakem,
    NotYourTurn,
    PassedOut,
    Player,
    RedealNotAllowed,
    SeatView,
    Suit,
    Trick,
    WrongPhase,
    seat_view,
)

from ..names import seat_name
from .errors import ActionError
from .events import (
    Back,
    BamOffer,
    CardPlayed,
    Decided,
    HandDealt,
    HandEnded,
    MatchOver,
    NobodyBid,
    Redealt,
    Replaced,
    Started,
    TimedOut,
    TimedOutDecision,
    TimedOutTrump,
    TrickTaken,
    TrumpNamed,
)
from .ports import Pace, Update
from .table import Table, TableStatus
from .variants import PHASES, Decision, bid_of, default_move, engine_move, player_move, word

log = logging.getLogger(__name__)

Choice = Card | Suit | Decision
"""A computer's or a timer's move: a card to play (or, in V2's discard phase, to lay face
down), the trump to name, or a yes or no of V1's bam or V2's draw (``variants``)."""


def start_match(table: Table, update: Update, seed: int, pace: Pace) -> None:
    """R3/R4: the first hakem is found and dealt five cards; the match is on."""
    table.match_seed = seed
    table.match = Match(seed, table.rules(), table.fmt)
    table.status = "playing"
    table.started_at = pace.clock()
    table.deadline = None
    update.add(Started(table.match.hakem, table.match.first_hakem_deal))
    update.add(HandDealt(table.match.hakem, table.match.hand_number))
    schedule_turn(table, pace)
    # Never the seed: from it anyone rebuilds every hand of the match.
    log.info("table %s: match started", table.table_id)


def hokm_match(table: Table) -> Match:
    """The Hokm family's match of a table playing one (a Shelem table's is ``shelem_moves``').

    :raises ActionError: ``error.stale``: a Hokm button (trump, redeal, a decision) forged
        for a Shelem table, as ``decision_seat`` answers a Shelem one at a Hokm table.
    """
    match = table.match
    if not isinstance(match, Match):
        raise ActionError("error.stale")
    return match


def finish(table: Table, status: TableStatus, now: float) -> None:
    table.status = status
    table.finished_at = now
    table.deadline = table.computer_due = None


def player_seat(table: Table, user_id: int, hand: int) -> int:
    """The clicker's seat, for a click on this match's current hand.

    :raises ActionError: ``error.stale`` (no match, an earlier hand), ``error.not_a_player``.
    """
    if table.status != "playing" or table.match is None:
        raise ActionError("error.stale")
    seat = table.seat_of(user_id)
    if seat is None:
        raise ActionError("error.not_a_player")
    if hand != table.match.hand_number:
        raise ActionError("error.stale")
    return seat


def apply_trump(table: Table, update: Update, seat: int, suit: Suit, pace: Pace) -> None:
    """R5: the hakem names trump; the rest of the deal follows in the engine.

    :raises ActionError: the engine's refusal, in the member's words (``refusal``).
    """
    match = hokm_match(table)
    try:
        match.choose_trump(seat, suit)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    update.add(TrumpNamed(seat, suit, match.hand_number))
    schedule_turn(table, pace)


def apply_redeal(table: Table, update: Update, seat: int, pace: Pace) -> None:
    """R6: the hakem's five held no court card; new five cards, the hakem chooses again (a
    fresh trump deadline).

    :raises ActionError: the engine's refusal (``error.redeal_not_allowed``, …).
    """
    match = hokm_match(table)
    try:
        match.redeal(seat)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    update.add(Redealt(seat, match.hand_number))
    schedule_turn(table, pace)


def apply_card(table: Table, update: Update, seat: int, card: Card, pace: Pace) -> None:
    """R7–R13: one card; the trick, hand and match it may close come back as events.

    :raises ActionError: the engine's refusal, in the member's words (``refusal``).
    """
    match = hokm_match(table)
    if match.phase == DISCARD:  # V2: a card clicked in the discard phase is laid face down
        apply_decision(table, update, seat, card, pace)
        return
    hand_before = match.hand_number
    try:
        events = match.play(seat, card)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    update.add(CardPlayed(seat, card, hand_before))
    record(table, update, events, hand_before, pace)


def apply_decision(
    table: Table, update: Update, seat: int, choice: Card | Decision, pace: Pace
) -> None:
    """V1's bam or stop, V2's discard or draw (``variants``); a stop may end the hand.

    :raises ActionError: the engine's refusal, in the member's words (``refusal``).
    """
    match = hokm_match(table)
    hand_before = match.hand_number
    try:
        events = engine_move(match, seat, choice)
    except IllegalMove as exc:
        raise refusal(table, exc) from None
    back_in_play(table, update, seat)
    update.add(Decided(seat, word(choice), hand_before, bid_of(choice)))
    record(table, update, events, hand_before, pace)


def record(
    table: Table, update: Update, events: tuple[Event, ...], hand_before: int, pace: Pace
) -> None:
    """The engine's events after a move as typed events; the next deadline."""
    match = hokm_match(table)
    for event in events:
        if isinstance(event, Trick):
            update.add(TrickTaken(event, hand_before))
        elif isinstance(event, BamOffered):
            update.add(BamOffer(event.seat, hand_before))
        elif isinstance(event, PassedOut):
            update.add(NobodyBid(event.dealer, tuple(event.scores)))
        elif isinstance(event, HandResult):
            update.add(HandEnded(event))
        elif isinstance(event, MatchCompleted):
            finish(table, "finished", pace.clock())
            update.add(MatchOver(event.winner_team, tuple(event.scores)))
    if match.hand_number != hand_before and match.phase != MATCH_OVER:
        update.add(HandDealt(match.hakem, match.hand_number))  # -1 while the joker six bids
    if table.status == "playing":
        schedule_turn(table, pace)


def apply_choice(table: Table, update: Update, seat: int, choice: Choice, pace: Pace) -> None:
    if isinstance(choice, Suit):
        apply_trump(table, update, seat, choice, pace)
    elif isinstance(choice, Decision):
        apply_decision(table, update, seat, choice, pace)
    else:
        apply_card(table, update, seat, choice, pace)


@contextmanager
def reclaimed(table: Table, update: Update, seat: int, pace: Pace) -> Iterator[None]:
    """Around a member's click: a member the computer was playing for gets the seat back.

    If the click itself is not a legal move now (say, not their turn), they are still back
    at the table; the refusal is kept on the update for the answer to show.
    """
    s = table.seat(seat)
    if not s.autoplay:
        yield
        return
    s.autoplay = False
    s.missed_turns = 0
    update.add(Back(seat))
    schedule_turn(table, pace)
    try:
        yield
    except ActionError as exc:
        update.refusal = exc


def reclaim_then(
    table: Table, update: Update, seat: int, move: Callable[[], None], pace: Pace
) -> None:
    """``move()`` of a member's click, ``reclaimed``."""
    with reclaimed(table, update, seat, pace):
        move()


def back_in_play(table: Table, update: Update, seat: int) -> None:
    """A member who clicks takes their seat back from the computer (missed turns reset)."""
    s = table.seat(seat)
    if s.autoplay and update.actor_seat == seat:
        s.autoplay = False
        update.add(Back(seat))
    if update.actor_seat == seat:
        s.missed_turns = 0


def schedule_turn(table: Table, pace: Pace) -> None:
    """R14 deadlines for people; a short pause before a computer moves."""
    match = table.match
    table.deadline = table.computer_due = None
    if match is None or match.phase == MATCH_OVER:
        return
    seat = match.to_act
    now = pace.clock()
    if table.seat(seat).computer_plays:
        table.computer_due = now + pace.computer_delay
        return
    # R14: the hakem's decision has its own limit: trump (R5), or at a Shelem table the cards
    # laid down and the mode (V6.6, V6.7, V6.15)
    settings = table.settings
    hakem = match.hakem_decides
    table.deadline = now + (settings.trump_seconds if hakem else settings.turn_seconds)


def time_out(table: Table, update: Update, seat: int, pace: Pace) -> None:
    """R14: a member's time ran out; the server plays for them, and after two misses in a
    row the computer keeps their seat until they click again."""
    match = hokm_match(table)
    s = table.seat(seat)
    view = seat_view(match, seat)
    choice = default_move(view) if view.phase in PHASES else decide(GreedyPlayer(), view)
    s.missed_turns += 1
    if isinstance(choice, Suit):
        update.add(TimedOutTrump(seat, choice))
    elif view.phase in PHASES:  # never the card laid face down: the others may not know it
        update.add(TimedOutDecision(seat, word(choice)))
    else:
        assert isinstance(choice, Card)
        update.add(TimedOut(seat, choice))
    if s.missed_turns >= 2 and s.user_id is not None:
        s.autoplay = True
        update.add(Replaced(seat))
    apply_choice(table, update, seat, choice, pace)


def decide(player: Player, view: SeatView) -> Choice:
    if view.phase == TRUMP:
        return Suit(player.choose_trump(view))
    if view.phase in PHASES:
        return player_move(player, view)
    return player.choose_card(view)


def refusal(table: Table, exc: IllegalMove) -> ActionError:
    """Translate an engine refusal into a catalog key with what the user needs to know."""
    match = table.match
    if isinstance(exc, NotYourTurn) and match is not None:
        # A second click after one's own card: say so, rather than name the
        # player to act as if the clicker had skipped their turn.
        mine = [card for seat, card in match.current_trick() if seat == exc.seat]
        if match.phase == PLAY and mine:
            return ActionError("error.already_played", card=mine[0].label)
        return ActionError("error.not_your_turn", name=seat_name(table, match.to_act))
    if isinstance(exc, BidNotAllowed):
        return ActionError("error.bid_not_allowed", low=exc.minimum, high=exc.maximum)
    if isinstance(exc, RedealNotAllowed):
        return ActionError("error.redeal_not_allowed")
    if isinstance(exc, MustFollowSuit):
        return ActionError("error.must_follow_suit", suit=int(exc.led))
    if isinstance(exc, CardNotInHand):
        return ActionError("error.card_not_in_hand", card=exc.card.label)
    if isinstance(exc, NotHakem) and match is not None:
        return ActionError("error.not_hakem", name=seat_name(table, match.hakem))
    if isinstance(exc, WrongPhase) and match is not None and match.phase == PLAY:
        return ActionError("error.not_your_turn", name=seat_name(table, match.to_act))
    return ActionError("error.wrong_phase")

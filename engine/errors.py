"""Precise exceptions: every refused action says exactly why, and changes nothing.

Each class carries a stable ``code`` so the bot can translate the reason without parsing
English text.
"""

from __future__ import annotations

from .cards import Card, Suit


class HokmError(ValueError):
    """Base of everything the engine refuses."""

    code = "error"


class InvalidSetting(HokmError):
    """A rule setting outside its allowed range."""

    code = "invalid_setting"

    def __init__(self, key: str, value: object, allowed: str) -> None:
        super().__init__(f"{key}={value!r} is not allowed ({allowed})")
        self.key = key
        self.value = value
        self.allowed = allowed


class InvalidState(HokmError):
    """Serialized data that does not describe a possible match."""

    code = "invalid_state"


class IllegalMove(HokmError):
    """An action the rules do not allow now; the match is left untouched."""

    code = "illegal_move"


class WrongPhase(IllegalMove):
    code = "wrong_phase"

    def __init__(self, action: str, phase: str) -> None:
        super().__init__(f"cannot {action} during phase {phase!r}")
        self.action = action
        self.phase = phase


class NotYourTurn(IllegalMove):
    code = "not_your_turn"

    def __init__(self, seat: int, turn: int) -> None:
        super().__init__(f"seat {seat} cannot act: it is seat {turn}'s turn")
        self.seat = seat
        self.turn = turn


class NotHakem(IllegalMove):
    code = "not_hakem"

    def __init__(self, seat: int, hakem: int) -> None:
        super().__init__(f"seat {seat} is not the hakem (seat {hakem} is)")
        self.seat = seat
        self.hakem = hakem


class CardNotInHand(IllegalMove):
    code = "card_not_in_hand"

    def __init__(self, seat: int, card: Card) -> None:
        super().__init__(f"seat {seat} does not hold {card.code}")
        self.seat = seat
        self.card = card


class MustFollowSuit(IllegalMove):
    """R8: a player holding the led suit must play it."""

    code = "must_follow_suit"

    def __init__(self, seat: int, card: Card, led: Suit) -> None:
        super().__init__(f"seat {seat} must follow {led.name.lower()}, not play {card.code}")
        self.seat = seat
        self.card = card
        self.led = led


class RedealNotAllowed(IllegalMove):
    """R6: a redeal only when the house rule is on and the five hold no court card."""

    code = "redeal_not_allowed"


class UnknownSeat(IllegalMove):
    code = "unknown_seat"

    def __init__(self, seat: object) -> None:
        super().__init__(f"no seat {seat!r} at this table")
        self.seat = seat


class BidNotAllowed(IllegalMove):
    """V5 joker six: a bid must be one of the format's (5–9) and above the highest so far."""

    code = "bid_not_allowed"

    def __init__(self, seat: int, tricks: object, minimum: int, maximum: int) -> None:
        super().__init__(
            f"seat {seat} cannot bid {tricks!r}: bid {minimum}–{maximum} tricks, or 0 to pass"
        )
        self.seat = seat
        self.tricks = tricks
        self.minimum = minimum
        self.maximum = maximum


class BidOutOfRange(IllegalMove):
    """V6.3.2 Shelem: a bid is 0 (pass), a multiple of 5 within the table's range, or one of
    the shelem bids; anything else is not a bid of the table."""

    code = "bid_out_of_range"

    def __init__(self, seat: int, value: object, minimum: int, maximum: int, step: int) -> None:
        super().__init__(
            f"seat {seat} cannot bid {value!r}: bid {minimum}–{maximum} in steps of {step}, "
            "shelem, or 0 to pass"
        )
        self.seat = seat
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.step = step


class BidTooLow(IllegalMove):
    """V6.3.2 Shelem: a bid must be above every bid so far."""

    code = "bid_too_low"

    def __init__(self, seat: int, value: int, highest: int) -> None:
        super().__init__(f"seat {seat} cannot bid {value}: the highest bid is already {highest}")
        self.seat = seat
        self.value = value
        self.highest = highest


class SarShelemNotAllowed(IllegalMove):
    """V6.5.2 Shelem: sar-shelem only over a shelem, by an opponent of its bidder still in."""

    code = "sar_shelem_not_allowed"

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat} cannot call sar-shelem: {reason}")
        self.seat = seat
        self.reason = reason


class DiscardCount(IllegalMove):
    """V6.6.1 Shelem: the hakem lays down exactly the kitty's number of distinct cards."""

    code = "discard_count"

    def __init__(self, seat: int, given: int, needed: int) -> None:
        super().__init__(f"seat {seat} must lay down {needed} different cards, not {given}")
        self.seat = seat
        self.given = given
        self.needed = needed


class ModeNotAllowed(IllegalMove):
    """V6.7 Shelem: the hakem announces hokm or a mode the table allows."""

    code = "mode_not_allowed"

    def __init__(self, seat: int, mode: object, allowed: tuple[str, ...]) -> None:
        super().__init__(f"seat {seat} cannot announce {mode!r}: one of {', '.join(allowed)}")
        self.seat = seat
        self.mode = mode
        self.allowed = allowed


class JokerCannotNameTrump(IllegalMove):
    """V6.13 Shelem: the hakem's first card names trump, so it cannot be a joker."""

    code = "joker_cannot_name_trump"

    def __init__(self, seat: int, card: Card) -> None:
        super().__init__(f"seat {seat} cannot lead {card.code}: the first card names trump")
        self.seat = seat
        self.card = card

"""The rules of Hokm, pure: no I/O, no asyncio, stdlib only."""

from .cards import CARDS, RANK_CODES, SUITS, Card, Suit, cards_of, mask_of, parse_cards
from .errors import (
    CardNotInHand,
    HokmError,
    IllegalMove,
    InvalidSetting,
    InvalidState,
    MustFollowSuit,
    NotHakem,
    NotYourTurn,
    RedealNotAllowed,
    UnknownSeat,
    WrongPhase,
)
from .events import (
    Event,
    HandResult,
    HandStarted,
    MatchCompleted,
    Redealt,
    Trick,
    TrumpChosen,
)
from .match import MATCH_OVER, PLAY, TRUMP, Match, replay
from .players import GreedyPlayer, Player, RandomPlayer, auto_trump
from .rules import STANDARD, GameFormat, Rules
from .search import DIFFICULTIES, Difficulty, SearchPlayer, make_player, parse_difficulty
from .view import SeatView, seat_view

__all__ = [
    "CARDS",
    "DIFFICULTIES",
    "MATCH_OVER",
    "PLAY",
    "RANK_CODES",
    "STANDARD",
    "SUITS",
    "TRUMP",
    "Card",
    "CardNotInHand",
    "Difficulty",
    "Event",
    "GameFormat",
    "GreedyPlayer",
    "HandResult",
    "HandStarted",
    "HokmError",
    "IllegalMove",
    "InvalidSetting",
    "InvalidState",
    "Match",
    "MatchCompleted",
    "MustFollowSuit",
    "NotHakem",
    "NotYourTurn",
    "Player",
    "RandomPlayer",
    "RedealNotAllowed",
    "Redealt",
    "Rules",
    "SearchPlayer",
    "SeatView",
    "Suit",
    "Trick",
    "TrumpChosen",
    "UnknownSeat",
    "WrongPhase",
    "auto_trump",
    "cards_of",
    "make_player",
    "mask_of",
    "parse_cards",
    "parse_difficulty",
    "replay",
    "seat_view",
]

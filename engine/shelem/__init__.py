"""V6 Shelem, Hokm's bidding sister (docs/rules.md V6): pure, stdlib only, as the rest of
``engine``. ``ShelemMatch`` is the state machine, ``seat_view`` what one seat may see,
``replay`` rebuilds a match from its seed and actions; ``make_shelem_player`` the computer
players (``easy`` greedy, ``normal`` and ``hard`` searching)."""

from .events import (
    HakemChosen,
    KittyDiscarded,
    ModeChosen,
    ShelemBid,
    ShelemDealt,
    ShelemEvent,
    ShelemHandResult,
    ShelemKind,
    ShelemRedealt,
    TrumpNamed,
)
from .match import (
    BID,
    DISCARD,
    FORMAT_NAME,
    MATCH_OVER,
    MODE,
    PLAY,
    ShelemMatch,
    match_winner,
    replay,
    score_hand,
    trick_winner,
)
from .options import MODES, PASS, SAR_SHELEM, SHELEM, Mode, ShelemOptions, card_points
from .players import GreedyShelemPlayer, RandomShelemPlayer, ShelemPlayer, act, auto_bid
from .search import ShelemSearchPlayer, make_shelem_player
from .view import ShelemView, seat_view

__all__ = [
    "BID",
    "DISCARD",
    "FORMAT_NAME",
    "MATCH_OVER",
    "MODE",
    "MODES",
    "PASS",
    "PLAY",
    "SAR_SHELEM",
    "SHELEM",
    "GreedyShelemPlayer",
    "HakemChosen",
    "KittyDiscarded",
    "Mode",
    "ModeChosen",
    "RandomShelemPlayer",
    "ShelemBid",
    "ShelemDealt",
    "ShelemEvent",
    "ShelemHandResult",
    "ShelemKind",
    "ShelemMatch",
    "ShelemOptions",
    "ShelemPlayer",
    "ShelemRedealt",
    "ShelemSearchPlayer",
    "ShelemView",
    "TrumpNamed",
    "act",
    "auto_bid",
    "card_points",
    "make_shelem_player",
    "match_winner",
    "replay",
    "score_hand",
    "seat_view",
    "trick_winner",
]

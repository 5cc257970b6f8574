"""V6 Shelem, Hokm's bidding sister (docs/rules.md V6): pure, stdlib only, as the rest of
``engine``. ``ShelemMatch`` is the state machine, ``seat_view`` what one seat may see,
``replay`` rebuilds a match from its seed and actions."""

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
    "HakemChosen",
    "KittyDiscarded",
    "Mode",
    "ModeChosen",
    "ShelemBid",
    "ShelemDealt",
    "ShelemEvent",
    "ShelemHandResult",
    "ShelemKind",
    "ShelemMatch",
    "ShelemOptions",
    "ShelemRedealt",
    "ShelemView",
    "TrumpNamed",
    "card_points",
    "match_winner",
    "replay",
    "score_hand",
    "seat_view",
    "trick_winner",
]

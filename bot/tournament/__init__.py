"""Tournaments: the pure core, with no I/O, no Discord and no database.

``TournamentConfig`` (what the host chose), ``Tournament`` (frozen; ``to_dict``/``from_dict``
with a version, for the store), the steps of ``steps`` (register, withdraw, start,
record_result, forfeit, drop, advance: each checks, then returns a new tournament, or raises a
``TournamentError`` with a ``code`` and changes nothing) and ``standings``. The rules it
follows are docs/rules.md T1–T9. It sits below the service and imports only the engine's
formats and networkx.
"""

from .config import Shape, TournamentConfig, shape_of
from .errors import TournamentError
from .standings import Game, Standing, standings, winners
from .state import Entrant, Result, Round, Table, Tournament
from .steps import advance, drop, forfeit, record_result, register, start, withdraw

__all__ = [
    "Entrant",
    "Game",
    "Result",
    "Round",
    "Shape",
    "Standing",
    "Table",
    "Tournament",
    "TournamentConfig",
    "TournamentError",
    "advance",
    "drop",
    "forfeit",
    "record_result",
    "register",
    "shape_of",
    "standings",
    "start",
    "winners",
    "withdraw",
]

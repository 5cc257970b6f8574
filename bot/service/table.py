"""A table in a channel: who sits where, its settings, deadlines and the match being played.

Plain data with a JSON form, so the service can persist it after every action and rebuild it
after a restart. It knows nothing of Discord (ids are ints); of the store it takes only the
names of a table's statuses (``TableStatus``) and a server's settings, the one home of each.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final, TypeVar

from engine import STANDARD, GameFormat, Match, Rules
from engine.games import is_known, load_match, table_format
from engine.rules import HakemSelection
from engine.shelem import ShelemMatch, ShelemOptions

from ..store.records import TableStatus as TableStatus

if TYPE_CHECKING:
    from ..store.guild_settings import GuildSettings

SEATS: Final = STANDARD.seats
"""The standard table's seats; a table's own are ``len(table.seats)`` (its format's)."""
STATE_VERSION: Final = 1
MAX_LOG: Final = 6


@dataclass(frozen=True)
class LogLine:
    """A public line under the table message, kept as a catalog key and its parameters so the
    presenter says it in the table's language when it renders (a ``suit`` parameter is a suit
    number, localized then too). Recorded by the service in the save of the move behind it."""

    key: str
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, key: str, **params: str | int) -> LogLine:
        return cls(key, tuple(params.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_data(cls, data: str | dict[str, Any]) -> LogLine | str:
        """A stored entry: a line of a table saved before lines were keys is a localized
        string, shown as it is."""
        if isinstance(data, str):
            return data
        return cls.of(str(data["key"]), **dict(data.get("params") or {}))


def _plain(obj: Seat | TableSettings) -> dict[str, Any]:
    """``dataclasses.asdict`` of a seat or the settings, whose fields are all plain values
    (str, int, float, bool, None), without its deep copy of each: a table is saved on every
    move, and ``asdict`` was most of ``to_dict``."""
    return {name: getattr(obj, name) for name in _field_names(type(obj))}


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass
class Seat:
    """One seat: a member, or a computer player (``user_id`` None)."""

    name: str
    user_id: int | None = None
    difficulty: str = "easy"
    missed_turns: int = 0
    autoplay: bool = False
    """Two time-outs in a row: the computer plays this seat until the member clicks again."""

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        return self.user_id is None or self.autoplay


TABLE_ONLY: Final = frozenset({"rated"})
"""``TableSettings`` fields no server setting has: what a tournament sets on its tables."""


@dataclass
class TableSettings:
    """What this table was opened with (copied from the server's settings at ``/hokm new``)."""

    target_score: int = 7
    turn_seconds: int = 20
    trump_seconds: int = 30
    lobby_timeout_minutes: int = 15
    hakem_selection: HakemSelection = "first_ace"
    allow_computer_players: bool = True
    language: str = "en"
    computer_difficulty: str = "normal"
    hints: bool = False
    """The Hint button; a table saved before it had none, and reads as off."""
    redeal_without_court: bool = False
    """R6: the hakem may ask for a redeal without a court card (a table saved before reads off)."""
    bam: bool = False
    """V1: a side at seven tricks to none may play on for every trick (a table saved before
    reads off)."""
    rate_computer_matches: bool = False
    """A match with a computer player rates its members (a table saved before reads
    off); recorded with the finished match so a rebuild of the ratings rates it the same."""
    game_format: str = STANDARD.name
    """The format, an ``engine.rules.FORMATS`` name (V6 Shelem's among them); a table saved
    before formats were offered is the standard game."""
    shelem_joker: bool = False
    """V6.13 (a Shelem table only; a table saved before Shelem reads off)."""
    shelem_modes: str = "hokm"
    """V6.7: the modes besides hokm, ``+``-joined (``GuildSettings.shelem_modes``)."""
    shelem_target: int = 0
    """V6.14: 0 for the seed's target."""
    rated: bool = True
    """T12: False at a table of a tournament whose results leave ratings alone (not a server
    setting: ``TABLE_ONLY``); recorded with the finished match, so a rebuild agrees. A table
    saved before it reads on."""

    @classmethod
    def from_guild(cls, settings: GuildSettings) -> TableSettings:
        """The one copy from server settings: every field here is a server setting of that name,
        so a new table setting cannot be forgotten at ``/hokm new``."""
        return cls(
            **{f.name: getattr(settings, f.name) for f in fields(cls) if f.name not in TABLE_ONLY}
        )

    @property
    def fmt(self) -> GameFormat:
        """The shape of a table of these settings before its match exists: a Hokm format as it
        is, a Shelem table's from its options (V6.2, V6.13, V6.14)."""
        return table_format(self.game_format, self.shelem_options)

    @property
    def match_target(self) -> int:
        """The score a match of these settings plays to: the format's own (the joker six's
        124, V5; Shelem's by its options, V6.14), else the server's ``target_score`` (R12)."""
        return self.fmt.target_score or self.target_score

    def shelem_options(self) -> ShelemOptions:
        """V6: the Shelem match's options from this table's settings.

        :raises InvalidSetting: jokers with a mode (the server's settings refuse it first)."""
        modes = self.shelem_modes.split("+")
        return ShelemOptions(
            joker=self.shelem_joker,
            nars="nars" in modes,
            ace_nars="ace_nars" in modes,
            sars="sars" in modes,
            target_score=self.shelem_target,
        )


@dataclass
class Table:
    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    settings: TableSettings
    created_at: float
    seats: list[Seat | None] = field(default_factory=list)
    """One per seat of the table's format (filled in with empty seats when not given)."""
    status: TableStatus = "lobby"
    match: Match | ShelemMatch | None = None
    """The match: Hokm's ``Match`` of ``fmt``, or at a Shelem table a ``ShelemMatch`` (V6)."""
    match_seed: int | None = None
    started_at: float | None = None
    finished_at: float | None = None
    deadline: float | None = None
    """When the seat to act runs out of time (R14), or when an unfilled lobby closes."""
    computer_due: float | None = None
    """When the next computer move is due (a short pause so people can follow)."""
    log: list[LogLine | str] = field(default_factory=list)
    """Recent public lines shown under the table message (a ``str`` only from old saves)."""
    win_chances: list[float] = field(default_factory=list)
    """Each team's predicted chance to win from its members' ratings when the
    match started (openskill's ``predict_win``); empty for a match that is not rated."""
    rating_changes: dict[int, float] = field(default_factory=dict)
    """Each rated member's change of conservative rating in the finished match, by
    user id, read back after the match was recorded, for its summary (not saved)."""
    version: int = 0
    rematch_of: str | None = None
    """The finished table this lobby is the rematch of (its summary's Rematch button)."""
    reserved: dict[int, Seat] = field(default_factory=dict)
    """A rematch lobby's seats kept for members of the last match who have not pressed
    Rematch yet: not free, and they sit nobody (the member may play elsewhere meanwhile)."""

    def __post_init__(self) -> None:
        if not is_known(self.settings.game_format):  # a restore closes it
            raise ValueError(f"unknown game format {self.settings.game_format!r}")
        if not self.seats:
            self.seats = [None] * self.fmt.seats

    # ------------------------------------------------------------------ seats

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(6)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return i
        return None

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None and i not in self.reserved]

    def humans(self) -> list[tuple[int, Seat]]:
        return [(i, s) for i, s in enumerate(self.seats) if s is not None and s.user_id]

    def seat(self, index: int) -> Seat:
        seat = self.seats[index]
        if seat is None:
            raise LookupError(f"seat {index} is empty")
        return seat

    @property
    def is_live(self) -> bool:
        return self.status in ("lobby", "playing")

    def add_log(self, line: LogLine) -> None:
        self.log.append(line)
        del self.log[:-MAX_LOG]

    @property
    def fmt(self) -> GameFormat:
        """The match's own format, or the table's chosen one while the lobby fills: the one
        place the bot learns seats and teams (R1, R2; a Shelem table's shape, V6.1)."""
        if self.match is not None:
            return self.match.fmt
        return self.settings.fmt

    def team_of(self, seat: int) -> int:
        return self.fmt.team_of[seat]

    def rules(self) -> Rules:
        return Rules(
            target_score=self.settings.target_score,
            hakem_selection=self.settings.hakem_selection,
            redeal_without_court=self.settings.redeal_without_court,
            bam=self.settings.bam,
        )

    def snapshot(self) -> Table:
        """The table as it is now, apart from it: what the Discord side renders a committed
        change from, outside the table's lock, while the live table moves on. Nobody changes
        a snapshot. Its seats, settings and lists are copied, the match by ``copy`` (tens of
        microseconds, where ``from_dict(to_dict())`` of a mid-match table costs milliseconds);
        the log's lines and the cards are frozen, and shared."""
        twin = _copied(self)
        twin.settings = _copied(self.settings)
        twin.seats = [None if s is None else _copied(s) for s in self.seats]
        twin.match = None if self.match is None else self.match.copy()
        twin.log = list(self.log)
        twin.win_chances = list(self.win_chances)
        twin.rating_changes = dict(self.rating_changes)
        twin.reserved = {i: _copied(s) for i, s in self.reserved.items()}
        return twin

    # ---------------------------------------------------------- serialization

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": STATE_VERSION,
            "table_id": self.table_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "settings": _plain(self.settings),
            "created_at": self.created_at,
            "seats": [None if s is None else _plain(s) for s in self.seats],
            "status": self.status,
            "match": None if self.match is None else self.match.to_dict(),
            "match_seed": self.match_seed,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "deadline": self.deadline,
            "computer_due": self.computer_due,
            "log": [line if isinstance(line, str) else line.to_dict() for line in self.log],
            "win_chances": list(self.win_chances),
            "version": self.version,
            "rematch_of": self.rematch_of,
            "reserved": {str(i): _plain(s) for i, s in self.reserved.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        if data.get("v") != STATE_VERSION:
            raise ValueError(f"unsupported table state version {data.get('v')!r}")
        return cls(
            table_id=data["table_id"],
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            host_id=int(data["host_id"]),
            settings=TableSettings(**data["settings"]),
            created_at=float(data["created_at"]),
            seats=[None if s is None else _seat(s) for s in data["seats"]],
            status=data["status"],
            match=None if data["match"] is None else load_match(data["match"]),
            match_seed=data["match_seed"],
            started_at=data["started_at"],
            finished_at=data["finished_at"],
            deadline=data["deadline"],
            computer_due=data["computer_due"],
            log=[LogLine.from_data(line) for line in data["log"]],
            win_chances=list(data.get("win_chances") or []),
            version=int(data["version"]),
            rematch_of=data.get("rematch_of"),
            reserved={int(i): _seat(s) for i, s in (data.get("reserved") or {}).items()},
        )


DELIVERY_KEYS: Final = ("hand_channel_id", "hand_message_id", "hand_message_for", "dm_closed")
"""Where a seat's DM was, in a state saved before it had rows of its own (``Deliveries``)."""


def _seat(data: dict[str, Any]) -> Seat:
    if "dm_closed" in data:
        data = {k: v for k, v in data.items() if k not in DELIVERY_KEYS}
    return Seat(**data)


_T = TypeVar("_T", Table, Seat, TableSettings)


def _copied(obj: _T) -> _T:
    """A shallow copy of a table, seat or settings, without ``__init__``'s checks (the
    original passed them) or ``copy.copy``'s generic path."""
    twin = object.__new__(type(obj))
    twin.__dict__.update(obj.__dict__)
    return twin

"""Per-guild settings: one validated, immutable model shared by the store and the UI.

The ranges live in the field definitions only; `LIMITS` is derived from them so the
settings command can show exactly what validation enforces.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from engine.rules import FORMATS, STANDARD
from engine.shelem.options import TARGET_RANGE as SHELEM_TARGETS

__all__ = [
    "LIMITS",
    "SHELEM_MODE_SETS",
    "GuildSettings",
    "Range",
    "SettingError",
    "ShelemModes",
    "hosted_formats",
]

log = logging.getLogger(__name__)


def hosted_formats() -> tuple[str, ...]:
    """The engine's formats (``engine.rules.FORMATS``) a table can be opened with: every one,
    the joker six (V5) included. Each phase a format adds has its buttons, and the engine's
    computer players play every decision of it: empty seats (R15) and a member's late turn
    (R14) bid (``greedy_bid`` / ``auto_bid``, a pass), name trump and play jokers; and V6
    Shelem, a game of its own (``engine.shelem``) with its own bids, kitty and modes."""
    return tuple(FORMATS)


ShelemModes = Literal[
    "hokm",
    "nars",
    "ace_nars",
    "sars",
    "nars+ace_nars",
    "nars+sars",
    "ace_nars+sars",
    "nars+ace_nars+sars",
]
"""V6.7: the modes a Shelem hakem may announce besides hokm, as one choice (``hokm``: none)."""
SHELEM_MODE_SETS: tuple[str, ...] = get_args(ShelemModes)


class Range(NamedTuple):
    """Inclusive integer bounds; a tuple `(min, max)` that the UI can tell from a choice list."""

    min: int
    max: int


class SettingError(ValueError):
    """A rejected setting change, worded for the user who asked for it."""

    def __init__(self, key: str, value: object, allowed: Range | tuple[object, ...] | None):
        self.key = key
        self.value = value
        self.allowed = allowed
        super().__init__(_describe(key, value, allowed))


def _describe(key: str, value: object, allowed: Range | tuple[object, ...] | None) -> str:
    if allowed is None:
        known = ", ".join(GuildSettings.model_fields)
        return f"unknown setting {key!r} (known settings: {known})"
    if key == "shelem_target":
        low, high = SHELEM_TARGETS
        return (
            f"{key} must be 0 (the seed's) or a multiple of 5 from {low} to {high} (got {value!r})"
        )
    if key == "shelem_modes" and value in allowed:
        return f"{key} {value!r}: nars, ace-nars and sars are played without jokers (V6.13)"
    if isinstance(allowed, Range):
        return f"{key} must be a whole number from {allowed.min} to {allowed.max} (got {value!r})"
    if allowed == (False, True):
        return f"{key} must be true or false (got {value!r})"
    choices = ", ".join(repr(v) for v in allowed)
    return f"{key} must be one of {choices} (got {value!r})"


class GuildSettings(BaseModel):
    """How tables in one guild are run; defaults apply to guilds that never changed anything."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn_seconds: int = Field(default=20, ge=10, le=60)
    trump_seconds: int = Field(default=30, ge=10, le=120)
    lobby_timeout_minutes: int = Field(default=15, ge=1, le=120)
    target_score: int = Field(default=7, ge=1, le=13)
    hakem_selection: Literal["first_ace", "random"] = "first_ace"
    allow_computer_players: bool = True
    language: Literal["en", "fa"] = "en"
    computer_difficulty: Literal["easy", "normal", "hard"] = "normal"
    max_open_tables: int = Field(default=25, ge=1, le=100)
    """Live tables (lobby or playing) this server may have at once: one server's tables share
    the computer players' workers and Discord's rate limits with every other server."""
    hints: bool = False
    """A Hint button on each player's turn: for servers that teach the game. Off by
    default: a hinted match is marked as such, and ratings leave it out. Stored settings from
    before it have no ``hints`` key and read as off, so no migration is needed."""
    redeal_without_court: bool = False
    """R6, the house rule: a hakem whose five cards hold no J, Q, K or A may ask for a redeal
    instead of naming trump. Off by default (docs/rules.md); older stored settings read off."""
    bam: bool = False
    """V1, the house rule: a side with seven tricks to none may play on (bam); all the tricks
    of the hand win the match, any lost one scores the kot it had. Off by default."""
    game_format: str = STANDARD.name
    """The format new tables are opened with: a name of ``engine.rules.FORMATS``
    (the engine's formats are data, so the choices are whatever the engine has)."""
    rate_computer_matches: bool = False
    """Whether a match with a computer player changes its members' ratings. Off by
    default: a computer's strength is a guess, so such a match says little about the members.
    A match with hints is never rated, whatever this says. Older stored settings read off."""
    web: bool = False
    """The server's read-only web page: its leaderboard and match replays, at an
    address with a secret in it (``Store.web_secret``) that only the admins are shown. Off by
    default; the bot serves it only where its operator set ``web_port``."""

    tournament_role: int = Field(default=0, ge=0, le=2**63 - 1)
    """The role (its id) whose members may open tournaments as well as those with Manage
    Server; 0: none. Older stored settings read 0."""

    shelem_joker: bool = False
    """V6.13: Shelem tables with two jokers (a kitty of 6, bids 120–200, to 1400)."""
    shelem_modes: ShelemModes = "hokm"
    """V6.7: what a Shelem hakem may announce besides hokm; none with jokers (V6.13)."""
    shelem_target: int = Field(default=0, ge=0, le=SHELEM_TARGETS[1], multiple_of=5)
    """V6.14: a Shelem match's target: 0 for the seed's (1165, or 1400 with jokers), else a
    multiple of 5 in ``engine.shelem.options.TARGET_RANGE``, for shorter matches."""

    @field_validator("shelem_target")
    @classmethod
    def _shelem_target(cls, value: int) -> int:
        if value and value < SHELEM_TARGETS[0]:
            raise ValueError(f"shelem_target {value} below {SHELEM_TARGETS[0]}")
        return value

    @field_validator("shelem_modes")
    @classmethod
    def _no_modes_with_jokers(cls, value: str, info: ValidationInfo) -> str:
        if value != "hokm" and info.data.get("shelem_joker"):
            raise ValueError("nars, ace-nars and sars are played without jokers (V6.13)")
        return value

    @field_validator("game_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value not in hosted_formats():
            raise ValueError(f"unknown format {value!r}")
        return value

    def with_changes(self, **changes: Any) -> GuildSettings:
        """Return a copy with `changes` applied, or raise `SettingError` for the first bad one."""
        for key in changes:
            if key not in LIMITS:
                raise SettingError(key, changes[key], None)
        try:
            return GuildSettings.model_validate({**self.model_dump(), **changes})
        except ValidationError as exc:
            error = exc.errors()[0]
            key = str(error["loc"][0])
            raise SettingError(key, changes.get(key, error["input"]), LIMITS[key]) from None

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> GuildSettings:
        """Load stored settings leniently: unknown keys and now-invalid values fall back.

        Stored JSON may predate a range change or a removed setting; a guild must never
        be locked out of playing because of that.
        """
        good: dict[str, Any] = {}
        for key, value in data.items():
            if key not in LIMITS:
                log.warning("ignoring unknown stored guild setting %r", key)
                continue
            try:
                cls.model_validate({key: value})
            except ValidationError:
                log.warning("ignoring invalid stored guild setting %s=%r", key, value)
                continue
            good[key] = value
        while True:  # two settings that may not go together (V6.13: jokers, modes)
            try:
                return cls.model_validate(good)
            except ValidationError as exc:
                key = str(exc.errors()[0]["loc"][0])
                log.warning("ignoring stored guild setting %s=%r", key, good.pop(key, None))


def _limits() -> dict[str, Range | tuple[object, ...]]:
    """Derive the UI limits from the model so they can never drift from validation."""
    out: dict[str, Range | tuple[object, ...]] = {}
    for name, field in GuildSettings.model_fields.items():
        if name == "game_format":
            out[name] = hosted_formats()
        elif field.annotation is bool:
            out[name] = (False, True)
        elif field.annotation is int:
            lo = next(m.ge for m in field.metadata if hasattr(m, "ge"))
            hi = next(m.le for m in field.metadata if hasattr(m, "le"))
            out[name] = Range(lo, hi)
        else:
            out[name] = tuple(get_args(field.annotation))
    return out


LIMITS: Mapping[str, Range | tuple[object, ...]] = _limits()
"""Setting name -> `Range(min, max)` for numbers, or the tuple of allowed values."""

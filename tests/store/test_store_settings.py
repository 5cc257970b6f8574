"""Guild settings: defaults, validation for the UI, and the store round trip."""

from __future__ import annotations

import pydantic
import pytest

from bot.store import Store
from bot.store.guild_settings import (
    LIMITS,
    SHELEM_MODE_SETS,
    GuildSettings,
    Range,
    SettingError,
    hosted_formats,
)
from tests.store.conftest import RawSQL


def test_defaults() -> None:
    s = GuildSettings()
    assert s.turn_seconds == 20
    assert s.trump_seconds == 30
    assert s.lobby_timeout_minutes == 15
    assert s.target_score == 7
    assert s.hakem_selection == "first_ace"
    assert s.allow_computer_players is True
    assert s.language == "en"
    assert s.computer_difficulty == "normal"


def test_limits_match_validation() -> None:
    assert {
        "turn_seconds": Range(10, 60),
        "trump_seconds": Range(10, 120),
        "lobby_timeout_minutes": Range(1, 120),
        "target_score": Range(1, 13),
        "hakem_selection": ("first_ace", "random"),
        "allow_computer_players": (False, True),
        "language": ("en", "fa"),
        "computer_difficulty": ("easy", "normal", "hard"),
        "max_open_tables": Range(1, 100),
        "hints": (False, True),
        "redeal_without_court": (False, True),
        "bam": (False, True),
        "game_format": hosted_formats(),  # the engine's formats the bot hosts
        "rate_computer_matches": (False, True),
        "web": (False, True),  # the server's web page
        "shelem_joker": (False, True),  # V6.13
        "shelem_modes": SHELEM_MODE_SETS,  # V6.7: the modes besides hokm
        "shelem_target": Range(0, 5000),  # V6.14: 0 the seed's, else 200–5000 by 5
        "tournament_role": Range(0, 2**63 - 1),  # a role id (T10), 0: none
    } == LIMITS
    for key, allowed in LIMITS.items():
        if isinstance(allowed, Range):
            GuildSettings().with_changes(**{key: allowed.min})
            GuildSettings().with_changes(**{key: allowed.max})
            for bad in (allowed.min - 1, allowed.max + 1):
                with pytest.raises(SettingError):
                    GuildSettings().with_changes(**{key: bad})
        else:
            for value in allowed:
                assert getattr(GuildSettings().with_changes(**{key: value}), key) == value


def test_with_changes_returns_new_frozen_copy() -> None:
    base = GuildSettings()
    changed = base.with_changes(turn_seconds=45, language="fa", allow_computer_players=False)
    assert (changed.turn_seconds, changed.language, changed.allow_computer_players) == (
        45,
        "fa",
        False,
    )
    assert base == GuildSettings()
    with pytest.raises(pydantic.ValidationError):
        changed.turn_seconds = 30  # type: ignore[misc]


@pytest.mark.parametrize(
    ("changes", "key", "fragment"),
    [
        ({"turn_seconds": 5}, "turn_seconds", "from 10 to 60 (got 5)"),
        ({"trump_seconds": 121}, "trump_seconds", "from 10 to 120 (got 121)"),
        ({"target_score": 0}, "target_score", "from 1 to 13"),
        ({"lobby_timeout_minutes": 7.5}, "lobby_timeout_minutes", "whole number"),
        ({"language": "de"}, "language", "one of 'en', 'fa' (got 'de')"),
        ({"hakem_selection": "dealer"}, "hakem_selection", "'first_ace', 'random'"),
        ({"computer_difficulty": "insane"}, "computer_difficulty", "'easy', 'normal', 'hard'"),
        ({"allow_computer_players": "maybe"}, "allow_computer_players", "true or false"),
        ({"turn_seconds": 30, "language": "xx"}, "language", "got 'xx'"),
        ({"shelem_target": 195}, "shelem_target", "multiple of 5 from 200 to 5000 (got 195)"),
        ({"shelem_target": 1003}, "shelem_target", "multiple of 5 from 200 to 5000"),
        ({"shelem_joker": True, "shelem_modes": "nars"}, "shelem_modes", "without jokers"),
        ({"shelem_modes": "nars", "shelem_joker": True}, "shelem_modes", "without jokers"),
    ],
)
def test_with_changes_rejects_with_a_readable_message(
    changes: dict[str, object], key: str, fragment: str
) -> None:
    with pytest.raises(SettingError) as info:
        GuildSettings().with_changes(**changes)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.key == key
    assert err.value == changes[key]
    assert err.allowed == LIMITS[key]
    assert key in str(err)
    assert fragment in str(err)


def test_unknown_setting() -> None:
    with pytest.raises(SettingError, match="unknown setting 'colour'") as info:
        GuildSettings().with_changes(colour="red")
    assert info.value.allowed is None


async def test_store_defaults_and_round_trip(store: Store) -> None:
    assert await store.get_guild_settings(1) == GuildSettings()
    custom = GuildSettings().with_changes(turn_seconds=40, target_score=13, language="fa")
    await store.set_guild_settings(1, custom)
    assert await store.get_guild_settings(1) == custom
    again = custom.with_changes(turn_seconds=10, computer_difficulty="hard")
    await store.set_guild_settings(1, again)
    assert await store.get_guild_settings(1) == again
    assert await store.get_guild_settings(2) == GuildSettings()  # other guilds untouched


async def test_settings_survive_reopen(db_url: str) -> None:
    custom = GuildSettings().with_changes(allow_computer_players=False)
    async with await Store.open(db_url) as s:
        await s.set_guild_settings(7, custom)
    async with await Store.open(db_url) as s:
        assert await s.get_guild_settings(7) == custom


async def test_stored_settings_load_leniently(store: Store, raw_sql: RawSQL) -> None:
    """A value stored under older, wider limits must not lock the guild out."""
    await store.set_guild_settings(3, GuildSettings().with_changes(language="fa"))
    await raw_sql.execute(
        "UPDATE guild_settings SET settings = :s WHERE guild_id = 3",
        s='{"language":"fa","turn_seconds":500,"retired_option":1}',
    )
    loaded = await store.get_guild_settings(3)
    assert loaded == GuildSettings(language="fa")


async def test_web_secret_comes_with_the_setting_and_a_new_one_after_off(
    store: Store, raw_sql: RawSQL
) -> None:
    """The web page: ``web`` on gives the server a secret for its page's address (kept
    while the page stays on, whatever else changes), off drops it, and on again makes a new
    one, so an address once shared can be taken back. Servers never share one."""
    assert await store.web_secret(7) is None  # a server that never changed anything
    await store.set_guild_settings(7, GuildSettings(turn_seconds=30))
    assert await store.web_secret(7) is None  # off by default
    await store.set_guild_settings(7, GuildSettings(web=True))
    first = await store.web_secret(7)
    assert first is not None and len(first) >= 32
    assert first.replace("-", "").replace("_", "").isalnum()  # URL-safe as it is
    await store.set_guild_settings(7, GuildSettings(web=True, language="fa"))
    assert await store.web_secret(7) == first  # another change keeps the address
    await store.set_guild_settings(8, GuildSettings(web=True))
    other = await store.web_secret(8)
    assert other is not None and other != first
    await store.set_guild_settings(7, GuildSettings(web=False, language="fa"))
    assert await store.web_secret(7) is None
    assert (await store.get_guild_settings(7)).language == "fa"
    rows = await raw_sql.execute("SELECT web_secret FROM guild_settings WHERE guild_id = 7")
    assert rows == [(None,)]  # gone from the database, not only hidden
    await store.set_guild_settings(7, GuildSettings(web=True))
    again = await store.web_secret(7)
    assert again is not None and again not in (first, other)
    assert "web_secret" not in (await store.get_guild_settings(7)).model_dump()


def test_v6_7_the_shelem_mode_sets_are_every_set_of_the_engines_modes() -> None:
    """Every choice of modes besides hokm the engine allows (``ShelemOptions``), once each, in
    the engine's order; with jokers only hokm (V6.13)."""
    from itertools import combinations

    from engine.shelem import MODES

    others = MODES[1:]
    expected = {"+".join(c) for n in range(1, 4) for c in combinations(others, n)} | {"hokm"}
    assert set(SHELEM_MODE_SETS) == expected and len(SHELEM_MODE_SETS) == len(expected)


def test_v6_stored_jokers_and_modes_together_drop_the_modes() -> None:
    """Settings stored before a rule refused them together still load (a server is never
    locked out): the modes give way."""
    loaded = GuildSettings.from_stored({"shelem_joker": True, "shelem_modes": "nars"})
    assert loaded.shelem_joker and loaded.shelem_modes == "hokm"

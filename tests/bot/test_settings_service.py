"""``/hokm settings`` goes through the service (``Servers.change``): the command passes every
option on by its setting's name, and the service decides who may change what and saves it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.discord.cogs.hokm import HokmCog
from bot.service.errors import ActionError
from bot.service.servers import Servers, SettingsShown
from bot.store.guild_settings import LIMITS, GuildSettings, SettingError

GUILD = 7


class _Store:
    """The store's settings calls, in memory, counting the writes."""

    def __init__(self) -> None:
        self.saved: dict[int, GuildSettings] = {}
        self.writes = 0
        self.reads = 0

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        self.reads += 1
        return self.saved.get(guild_id, GuildSettings())

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        self.writes += 1
        self.saved[guild_id] = settings

    async def web_secret(self, guild_id: int) -> str | None:
        return "s3cret" if self.saved.get(guild_id, GuildSettings()).web else None


def _servers() -> tuple[Servers, _Store]:
    store = _Store()
    return Servers(store), store  # type: ignore[arg-type]


async def test_a_change_is_saved_and_its_language_remembered() -> None:
    servers, store = _servers()
    shown = await servers.change(
        GUILD,
        {"language": "fa", "turn_seconds": 30, "bam": None},
        is_admin=True,
        web_available=False,
    )
    assert shown.changed == ("language", "turn_seconds") and shown.web_secret is None
    assert store.writes == 1 and store.saved[GUILD].turn_seconds == 30
    reads = store.reads
    assert await servers.language(GUILD) == "fa" and store.reads == reads  # not read again


async def test_no_option_given_only_shows_the_settings() -> None:
    servers, store = _servers()
    shown = await servers.change(GUILD, {"bam": None}, is_admin=True, web_available=False)
    assert shown.changed == () and shown.settings == GuildSettings() and store.writes == 0


@pytest.mark.parametrize(
    ("changes", "admin", "web", "refusal"),
    [
        ({"turn_seconds": 30}, False, True, "error.not_admin"),
        ({"web": True, "turn_seconds": 30}, True, False, "error.web_unavailable"),
    ],
)
async def test_a_refused_change_saves_nothing(
    changes: dict[str, object], admin: bool, web: bool, refusal: str
) -> None:
    servers, store = _servers()
    with pytest.raises(ActionError) as caught:
        await servers.change(GUILD, changes, is_admin=admin, web_available=web)
    assert caught.value.code == refusal and store.writes == 0


async def test_a_value_out_of_range_saves_nothing() -> None:
    servers, store = _servers()
    with pytest.raises(SettingError):
        await servers.change(GUILD, {"turn_seconds": 1}, is_admin=True, web_available=False)
    assert store.writes == 0


async def test_the_web_page_address_is_shown_while_it_is_on() -> None:
    servers, _ = _servers()
    shown = await servers.change(GUILD, {"web": True}, is_admin=True, web_available=True)
    assert shown.web_secret == "s3cret"


class _Response:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_message(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)


@pytest.mark.parametrize("setting", sorted(LIMITS))
async def test_the_command_passes_each_option_to_the_service_by_its_setting(
    setting: str,
) -> None:
    """A parameter left out of what the command hands on would be dropped silently."""
    command = HokmCog.hokm.get_command("settings")
    assert isinstance(command, app_commands.Command)
    given: list[tuple[int, dict[str, object], bool, bool]] = []

    async def change(
        guild_id: int, changes: dict[str, object], *, is_admin: bool, web_available: bool
    ) -> SettingsShown:
        given.append((guild_id, changes, is_admin, web_available))
        return SettingsShown(GuildSettings(), (setting,), None)

    bot = SimpleNamespace(servers=SimpleNamespace(change=change), web=None)
    cog = HokmCog(bot)  # type: ignore[arg-type]
    response = _Response()
    interaction = SimpleNamespace(
        guild_id=GUILD, permissions=SimpleNamespace(manage_guild=True), response=response
    )
    marker: object = object()
    expected = marker
    if setting == "tournament_role":  # a role is chosen: its id is the setting
        marker, expected = SimpleNamespace(id=55, is_default=lambda: False), 55
    await command.callback(cog, interaction, **{setting: marker})  # type: ignore[arg-type]
    [(guild_id, changes, is_admin, web_available)] = given
    assert (guild_id, is_admin, web_available) == (GUILD, True, False)
    assert {k: v for k, v in changes.items() if v is not None} == {setting: expected}
    assert set(changes) == set(LIMITS)
    assert response.sent and response.sent[0]["ephemeral"] is True

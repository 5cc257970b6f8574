"""Through the double: the role an admin names in ``/hokm settings tournament_role`` may open
tournaments besides Manage Server (docs/rules.md T10); a member without either is refused
and nothing is made; ``@everyone`` clears the role."""

from __future__ import annotations

from bot.present.i18n import t
from tests.double.mentions import mention_problems
from tests.double.server import DiscordDouble

from .conftest import BotFactory
from .tournament_flow import channel_of

OPTIONS = {
    "name": "Club night",
    "format": "standard",
    "system": "swiss",
    "partners": "individual",
    "closes_in": 30,
}


async def test_t10_the_named_role_may_open_a_tournament(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    double = discord_double
    assert double.guild is not None
    role = double.add_role(double.guild, "Tournament director", 0)
    director = double.add_member(double.guild, "kaveh", roles=[role])
    bot = await make_bot()
    channel = channel_of(double)

    refused = await double.slash(director, channel, "tournament new", OPTIONS)
    assert refused.ephemeral and refused.message is not None
    assert refused.message.text == t("en", "error.t_not_organiser")
    assert await bot.store.tournament_in_channel(channel.id) is None  # nothing was made

    answer = await double.slash(
        double.members[1], channel, "hokm settings", {"tournament_role": role}
    )
    assert answer.message is not None
    assert t("en", "error.not_admin") in answer.message.text  # only a manager names it
    answer = await double.slash(double.manager, channel, "hokm settings", {"tournament_role": role})
    assert answer.ephemeral and answer.message is not None
    assert f"<@&{role.id}>" in answer.message.text
    assert (await bot.store.get_guild_settings(double.guild.id)).tournament_role == role.id

    refused = await double.slash(double.members[1], channel, "tournament new", OPTIONS)
    assert refused.message is not None
    assert refused.message.text == t("en", "error.t_not_organiser")  # no role, no Manage Server
    opened = await double.slash(director, channel, "tournament new", OPTIONS)
    assert opened.ephemeral and opened.message is not None
    state = await bot.tournaments.in_channel(channel.id)
    assert state.host_id == director.id and state.core.config.name == "Club night"

    everyone = double.guild.roles[double.guild.id]
    await double.slash(double.manager, channel, "hokm settings", {"tournament_role": everyone})
    assert (await bot.store.get_guild_settings(double.guild.id)).tournament_role == 0
    assert mention_problems(double.requests, lambda _: set()) == []  # the role notified nobody

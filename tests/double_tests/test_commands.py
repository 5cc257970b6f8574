"""Command sync and slash commands: responses, ephemerals, deferrals, followups, modals."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.double import ClientRunner, DiscordDouble, InteractionTimeout

from .bots import make_bot


def hokm_bot(double: DiscordDouble) -> discord.Client:
    """A bot with ``/hokm new``, ``/hokm admin reset``, ``/hokm hand`` and ``/hokm slow``."""
    bot = make_bot()
    hokm = app_commands.Group(name="hokm", description="Play Hokm")
    admin = app_commands.Group(name="admin", description="Server settings", parent=hokm)

    @hokm.command(name="new", description="Open a table")
    @app_commands.describe(target="Points to win", rival="Who to invite")
    async def new(
        interaction: discord.Interaction,
        target: int,
        rival: discord.Member,
        name: str = "table",
        fast: bool = False,
    ) -> None:
        manager = interaction.permissions.manage_guild
        await interaction.response.send_message(
            f"{name}: to {target} vs {rival.name} fast={fast} manager={manager}"
        )

    @admin.command(name="reset", description="Reset settings")
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset done", ephemeral=True)

    @hokm.command(name="hand", description="Show my hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("your hand: A♠ K♠")
        await interaction.followup.send("a public note")
        await interaction.edit_original_response(content="your hand: A♠ K♠ Q♠")

    @hokm.command(name="silent", description="Never answers")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    @hokm.command(name="rename", description="Rename via a modal")
    async def rename(interaction: discord.Interaction) -> None:
        class Rename(discord.ui.Modal, title="Rename the table"):
            new_name = discord.ui.TextInput(label="New name", custom_id="new_name")

            async def on_submit(self, submit: discord.Interaction) -> None:
                await submit.response.send_message(f"renamed to {self.new_name.value}")

        await interaction.response.send_modal(Rename())

    bot.tree.add_command(hokm)
    return bot


async def test_command_sync_global_and_guild(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = hokm_bot(discord_double)
    guild = discord.Object(id=discord_double.guild.id)

    @app_commands.command(name="settings", description="Guild settings")
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    bot.tree.add_command(settings, guild=guild)
    await run_client(bot)

    synced = await bot.tree.sync()
    synced_guild = await bot.tree.sync(guild=guild)

    assert [c.name for c in discord_double.commands()] == ["hokm"]
    assert [c.name for c in discord_double.commands(discord_double.guild)] == ["settings"]
    fetched = await bot.tree.fetch_commands()
    assert [c.id for c in fetched] == [c.id for c in synced]
    assert synced_guild[0].guild_id == discord_double.guild.id
    options = {o.name for o in fetched[0].options}
    assert options == {"new", "admin", "hand", "silent", "rename"}
    # A second sync keeps the ids, as Discord does for unchanged names.
    again = await bot.tree.sync()
    assert [c.id for c in again] == [c.id for c in synced]


async def test_slash_round_trip_in_guild_channel(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(hokm_bot(discord_double))
    await bot.tree.sync()
    arash, bahar = discord_double.members[0], discord_double.members[1]

    record = await discord_double.slash(
        arash, discord_double.channel, "hokm new", {"target": 7, "rival": bahar, "fast": True}
    )

    assert record.response_type == 4
    assert record.response_time is not None and record.response_time >= 0
    assert record.message is not None
    assert record.message.content == "table: to 7 vs bahar fast=True manager=True"
    assert not record.ephemeral
    assert record.message.type == 20
    assert discord_double.messages_in(discord_double.channel) == [record.message]
    for member in discord_double.members:
        assert discord_double.visible_to(member, discord_double.channel) == [record.message]

    options = record.payload["data"]["options"]
    assert options[0]["type"] == 1 and options[0]["name"] == "new"
    types = {o["name"]: o["type"] for o in options[0]["options"]}
    assert types == {"target": 4, "rival": 6, "fast": 5}
    assert record.payload["member"]["permissions"] != "0"

    second = await discord_double.slash(
        bahar, discord_double.channel, "hokm new", {"target": 3, "rival": arash, "name": "second"}
    )
    assert second.message.content == "second: to 3 vs arash fast=False manager=False"
    assert discord_double.counters.interaction_response == 2


async def test_subcommand_group_and_ephemeral_visibility(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(hokm_bot(discord_double))
    await bot.tree.sync()
    arash, bahar = discord_double.members[0], discord_double.members[1]

    record = await discord_double.slash(arash, discord_double.channel, "/hokm admin reset")

    group = record.payload["data"]["options"][0]
    assert (group["type"], group["name"]) == (2, "admin")
    assert (group["options"][0]["type"], group["options"][0]["name"]) == (1, "reset")
    assert record.ephemeral
    assert record.message.content == "reset done"
    assert discord_double.messages_in(discord_double.channel) == []
    assert discord_double.visible_to(arash, discord_double.channel) == [record.message]
    assert discord_double.visible_to(bahar, discord_double.channel) == []
    assert discord_double.ephemerals(arash) == [record.message]
    assert discord_double.ephemerals(bahar) == []


async def test_defer_followups_and_original_edit(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(hokm_bot(discord_double))
    await bot.tree.sync()
    cyrus = discord_double.members[2]

    record = await discord_double.slash(cyrus, discord_double.channel, "hokm hand")
    assert record.response_type == 5
    followups = await record.wait_followups(2)
    await discord_double.wait_until(lambda: record.original.edit_count >= 1, what="the edit")

    # The first followup fills in the deferred message and keeps its ephemeral flag.
    assert followups[0] is record.original
    assert followups[0].ephemeral and followups[0].ephemeral_to == cyrus.id
    assert followups[0].content == "your hand: A♠ K♠ Q♠"
    assert followups[0].history[-1]["content"] == "your hand: A♠ K♠"
    assert not followups[1].ephemeral
    assert discord_double.messages_in(discord_double.channel) == [followups[1]]
    assert discord_double.counters.followup == 3  # two followups and one @original edit
    assert discord_double.counters.interaction_response == 1


async def test_unanswered_interaction_fails_clearly(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(hokm_bot(discord_double))
    await bot.tree.sync()

    with pytest.raises(InteractionTimeout, match=r"did not answer interaction \d+ \(/hokm silent"):
        await discord_double.slash(
            discord_double.members[0], discord_double.channel, "hokm silent", timeout=0.2
        )


async def test_slash_arguments_are_checked_against_the_registered_command(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(hokm_bot(discord_double))
    arash = discord_double.members[0]

    with pytest.raises(LookupError, match="not a registered command"):
        await discord_double.slash(arash, discord_double.channel, "hokm new", {"target": 1})
    await bot.tree.sync()
    with pytest.raises(LookupError, match="no option 'colour'"):
        await discord_double.slash(arash, discord_double.channel, "hokm new", {"colour": 1})
    with pytest.raises(ValueError, match="required option"):
        await discord_double.slash(arash, discord_double.channel, "hokm new", {"target": 1})
    with pytest.raises(TypeError, match="integer option"):
        await discord_double.slash(
            arash, discord_double.channel, "hokm new", {"target": "7", "rival": arash}
        )
    with pytest.raises(LookupError, match="not a subcommand"):
        await discord_double.slash(arash, discord_double.channel, "hokm old")


async def test_modal_round_trip(discord_double: DiscordDouble, run_client: ClientRunner) -> None:
    bot = await run_client(hokm_bot(discord_double))
    await bot.tree.sync()
    darya = discord_double.members[3]

    opened = await discord_double.slash(darya, discord_double.channel, "hokm rename")
    assert opened.response_type == 9
    assert opened.modal["title"] == "Rename the table"
    submitted = await discord_double.submit_modal(darya, opened, {"new_name": "Shiraz"})

    assert submitted.response_type == 4
    assert submitted.message.content == "renamed to Shiraz"

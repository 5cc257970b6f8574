"""Button clicks in DMs, in channels and on ephemeral messages, with views and dynamic items."""

from __future__ import annotations

import re

import discord
import pytest

from tests.double import ClientRunner, DiscordDouble

from .bots import make_bot


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"card:(?P<table>\d+):(?P<card>\w+)"
):
    """A persistent button whose custom_id carries the table and the card."""

    def __init__(self, table: int, card: str) -> None:
        super().__init__(discord.ui.Button(label=card, custom_id=f"card:{table}:{card}"))
        self.table = table
        self.card = card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> CardButton:
        return cls(int(match["table"]), match["card"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"table {self.table}: played {self.card}")


class Counter(discord.ui.View):
    """A classic (non-persistent) view: works only for the message it was sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0
        self.add_item(discord.ui.Button(label="Link", url="https://example.invalid/rules"))

    @discord.ui.button(label="Add", custom_id="add", style=discord.ButtonStyle.primary)
    async def add(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        if self.count == 2:
            button.disabled = True
        await interaction.response.edit_message(content=f"count {self.count}", view=self)


async def test_button_click_in_dm_updates_the_message(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = await run_client(make_bot())
    bahar = discord_double.members[1]

    user = await bot.fetch_user(bahar.id)
    sent = await user.send("count 0", view=Counter())

    dm = discord_double.dms(bahar)
    assert [m.id for m in dm] == [sent.id]
    assert [(b.label, b.custom_id) for b in dm[0].buttons()] == [
        ("Add", "add"),
        ("Link", None),
    ]
    record = await discord_double.click(bahar, dm[0], label="Add")

    assert record.response_type == 7
    assert record.message is dm[0]
    assert dm[0].content == "count 1"
    assert dm[0].history[0]["content"] == "count 0"
    await discord_double.click(bahar, dm[0], custom_id="add")
    assert dm[0].content == "count 2"
    assert dm[0].button(label="Add").disabled
    with pytest.raises(ValueError, match="disabled"):
        await discord_double.click(bahar, dm[0], label="Add")
    # A client that still shows the button enabled can click it, and discord.py runs the
    # callback of the disabled item anyway: bots must validate clicks against their own state.
    stale = await discord_double.click(bahar, dm[0], custom_id="add", stale=True)
    assert stale.payload["data"] == {"custom_id": "add", "component_type": 2}
    assert dm[0].content == "count 3"
    with pytest.raises(ValueError, match="link"):
        await discord_double.click(bahar, dm[0], label="Link")
    with pytest.raises(ValueError, match="another user's DMs"):
        await discord_double.click(discord_double.members[2], dm[0], label="Add")
    assert discord_double.counters.dm == 2  # open the DM channel, send the message
    assert discord_double.counters.edit == 0  # the updates went through interaction responses
    assert discord_double.counters.interaction_response == 3


async def test_dynamic_item_click_in_channel(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()
    bot.add_dynamic_items(CardButton)
    await run_client(bot)
    channel = bot.get_channel(discord_double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(CardButton(17, "AS"))
    view.add_item(CardButton(17, "KH"))
    await channel.send("your turn", view=view)

    message = discord_double.last_message(discord_double.channel)
    record = await discord_double.click(discord_double.members[0], message, custom_id="card:17:KH")

    assert record.response_type == 7
    assert message.content == "table 17: played KH"
    assert discord_double.counters.channel_message == 1


async def test_click_on_ephemeral_message(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()

    @bot.tree.command(name="hand", description="Show my hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=Counter(), ephemeral=True)

    await run_client(bot)
    await bot.tree.sync()
    cyrus, darya = discord_double.members[2], discord_double.members[3]

    shown = await discord_double.slash(cyrus, discord_double.channel, "hand")
    assert shown.ephemeral
    clicked = await discord_double.click(cyrus, shown.message, label="Add")

    assert clicked.response_type == 7
    assert shown.message.content == "count 1"
    assert clicked.payload["message"]["flags"] & 64
    with pytest.raises(ValueError, match="ephemeral for someone else"):
        await discord_double.click(darya, shown.message, label="Add")


async def test_deferred_update_then_original_edit_and_followup_delete(
    discord_double: DiscordDouble, run_client: ClientRunner
) -> None:
    bot = make_bot()

    class Slow(discord.ui.View):
        @discord.ui.button(label="Deal", custom_id="deal")
        async def deal(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
            await interaction.response.defer()
            await interaction.edit_original_response(content="dealt")
            original = await interaction.original_response()
            assert original.content == "dealt"
            note = await interaction.followup.send("only you see this", ephemeral=True, wait=True)
            await note.delete()

    await run_client(bot)
    channel = bot.get_channel(discord_double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("ready", view=Slow())
    message = discord_double.last_message(discord_double.channel)
    arash = discord_double.members[0]

    record = await discord_double.click(arash, message, label="Deal")
    await discord_double.wait_until(
        lambda: len(record.followups) == 1 and record.followups[0].deleted, what="the delete"
    )

    assert record.response_type == 6
    assert message.content == "dealt"
    assert record.followups[0].ephemeral_to == arash.id
    assert discord_double.ephemerals(arash) == []
    assert discord_double.ephemerals(arash, include_deleted=True) == record.followups

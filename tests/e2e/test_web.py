"""The web page from Discord: a server admin turns it on with ``/hokm settings
web:true`` and alone is shown its address, privately (never in a channel message); the page
answers at that address, and at no other; ``web:false`` closes it; a member without Manage
Server cannot; a bot without ``web_port`` refuses to turn it on, changing nothing. While a
match is being played the page shows none of its hidden hands. English on SQLite, Persian on
PostgreSQL. ``test_web_browser.py`` opens the page in Chromium."""

from __future__ import annotations

import logging
import re

import aiohttp
import pytest

from bot.discord.client import HokmBot
from bot.present.i18n import t
from bot.present.render import error_text
from tests.double.server import DiscordDouble
from tests.matches import played

from .conftest import BotFactory, each_language_once
from .helpers import open_table, table_message

URL = re.compile(r"http://127\.0\.0\.1:\d+/g/(\d+)/([A-Za-z0-9_-]{32,})/")
CARD = re.compile(r'data-card="')


async def fetch(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return answer.status, await answer.text()


@each_language_once()
async def test_web_true_shows_the_address_privately_and_it_opens_the_page_until_web_false(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str, caplog: pytest.LogCaptureFixture
) -> None:
    """...and no log line, discord.py's at DEBUG included, holds the address's secret."""
    caplog.set_level(logging.DEBUG)
    double = discord_double
    guild, channel, admin = double.guild, double.channel, double.manager
    assert guild is not None and channel is not None and admin is not None
    bot: HokmBot = await make_bot(web_port=0)
    assert bot.web is not None
    member = double.members[1]
    for n in range(2):
        assert await bot.store.finish_match(
            played(300 + n, (admin.id, member.id, None, 9), guild.id, n)
        )
    if lang == "fa":
        await double.slash(admin, channel, "hokm settings", {"language": "fa"})

    # a member without Manage Server cannot turn it on
    rec = await double.slash(member, channel, "hokm settings", {"web": True})
    assert rec.ephemeral and rec.message is not None
    assert rec.message.text == error_text(lang, "error.not_admin", {})
    assert await bot.store.web_secret(guild.id) is None

    rec = await double.slash(admin, channel, "hokm settings", {"web": True})
    assert rec.ephemeral and rec.message is not None and rec.message.ephemeral_to == admin.id
    shown = URL.search(rec.message.text)
    assert shown is not None, rec.message.text
    secret = await bot.store.web_secret(guild.id)
    assert shown.groups() == (str(guild.id), secret)
    url = shown.group(0)
    assert url == bot.web.page_url(guild.id, secret)
    assert t(lang, "settings.web_url") in rec.message.text
    # the address is in the admin's private answer and nowhere else
    holding = [m for m in double.world.messages.values() if secret in m.text]
    assert [m.ephemeral_to for m in holding] == [admin.id]

    status, page = await fetch(url)
    assert status == 200 and f'lang="{lang}"' in page
    assert "player1" in page  # the leaderboard and the matches
    assert len(re.findall(r'class="replay" href="m/', page)) == 2
    # asked again, the admin sees the same address; the page stays where it was
    rec = await double.slash(admin, channel, "hokm settings")
    assert rec.message is not None and url in rec.message.text and rec.ephemeral

    rec = await double.slash(admin, channel, "hokm settings", {"web": False})
    assert rec.message is not None and "/g/" not in rec.message.text
    assert await bot.store.web_secret(guild.id) is None
    status, closed = await fetch(url)
    assert status == 404
    status, never = await fetch(bot.web.base_url + "/g/1/x/")
    assert (status, never) == (404, closed)  # off is no different from never there
    assert caplog.records and not [r for r in caplog.records if secret in r.getMessage()]


async def test_without_web_port_web_true_is_refused_and_nothing_changes(
    discord_double: DiscordDouble, hokm_bot: HokmBot
) -> None:
    double = discord_double
    guild, channel, admin = double.guild, double.channel, double.manager
    assert guild is not None and channel is not None and admin is not None
    assert hokm_bot.web is None
    rec = await double.slash(admin, channel, "hokm settings", {"web": True, "turn_seconds": 30})
    assert rec.ephemeral and rec.message is not None
    assert rec.message.text == error_text("en", "error.web_unavailable", {})
    settings = await hokm_bot.store.get_guild_settings(guild.id)
    assert (settings.web, settings.turn_seconds) == (False, 20)  # neither change was made
    assert await hokm_bot.store.web_secret(guild.id) is None


async def test_the_web_page_never_shows_a_live_matchs_hidden_hands(
    discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    """Hidden hands on the new surface: while a match is dealt and played, its id opens no
    replay (said in words, with no card drawn) and the page lists and draws nothing of it."""
    double = discord_double
    guild, channel, admin = double.guild, double.channel, double.manager
    assert guild is not None and channel is not None and admin is not None
    bot: HokmBot = await make_bot(web_port=0)
    assert bot.web is not None
    rec = await double.slash(admin, channel, "hokm settings", {"web": True})
    assert rec.message is not None
    found = URL.search(rec.message.text)
    assert found is not None
    url = found.group(0)
    table = await open_table(double, bot, admin)
    for user in double.members[1:]:
        await double.click(user, table_message(double, table), label="Join")
    await double.wait_until(lambda: table.match is not None, what="the match to start")
    match = table.match
    assert match is not None and any(match.hand_of(s) for s in range(4))
    status, page = await fetch(url)
    assert status == 200 and table.table_id not in page and not CARD.search(page)
    status, page = await fetch(url + f"m/{table.table_id}")
    assert status == 404 and not CARD.search(page)
    assert t("en", "error.replay_live") in page
    for step in ("?h=0&t=0", "?h=0&t=1"):
        status, page = await fetch(url + f"m/{table.table_id}{step}")
        assert status == 404 and not CARD.search(page)

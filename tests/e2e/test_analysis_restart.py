"""A summary gains its analysis lines even when the process that posted it is gone: the bot
restarts between the match's end and its analysis (made at start-up, from the matches stored
without one), or another process stores the analysis (``--analyse-missing``), and the
summary is edited once, by whichever process has the analysis."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from bot.discord.client import HokmBot
from bot.present.i18n import t
from bot.service.analysis import Analyses
from bot.store import Store
from tests.double.client import ClientRunner
from tests.double.server import DiscordDouble

from .conftest import BotFactory, each_language_once
from .test_analysis import SEED
from .test_rematch import two_humans_finish


async def _summary_stored(bot: HokmBot, match_id: str) -> None:
    """The summary's message is stored (written once the message was posted)."""
    for _ in range(200):
        if await bot.store.summary_message(match_id) is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the summary's message was never stored")


def _edits(double: DiscordDouble, message_id: int) -> int:
    return sum(
        1 for r in double.requests if r.method == "PATCH" and r.path.endswith(f"/{message_id}")
    )


@each_language_once()
async def test_a_restart_before_the_analysis_still_edits_the_summary(
    discord_double: DiscordDouble, make_bot: BotFactory, run_client: ClientRunner, lang: str
) -> None:
    double = discord_double
    channel, guild = double.channel, double.guild
    assert channel is not None and guild is not None
    bot = await make_bot(match_seed_base=SEED, analysis_workers=0)
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    table, summary = await two_humans_finish(double, bot)
    await _summary_stored(bot, table.table_id)
    heading = t(lang, "analysis.heading")
    assert heading not in double.message(summary.id).text
    assert await bot.store.match_analysis(guild.id, table.table_id) is None
    await run_client.close_all()  # the process that posted the summary ends

    again = await make_bot(match_seed_base=SEED, analysis_workers=1)
    # start-up grades the stored matches without an analysis, and the summary is edited
    await double.wait_until(
        lambda: heading in double.message(summary.id).text, timeout=60, what="the summary's edit"
    )
    assert again.analyses.caught_up == 1
    assert await again.store.match_analysis(guild.id, table.table_id) is not None
    for _, s in table.humans():
        assert s.name in double.message(summary.id).text
    await again.outbox.drain(within=5.0)
    found = await again.store.summary_message(table.table_id)
    assert found is not None and found[1]  # shown: never edited again
    assert await again.publisher.summaries.sweep() == 0
    assert _edits(double, summary.id) == 1
    assert double.internal_errors == []


async def test_an_analysis_stored_by_another_process_edits_the_summary_once(
    discord_double: DiscordDouble, make_bot: BotFactory, bot_db_url: str
) -> None:
    double = discord_double
    bot = await make_bot(match_seed_base=SEED, analysis_workers=0)
    table, summary = await two_humans_finish(double, bot)
    await _summary_stored(bot, table.table_id)
    assert await bot.publisher.summaries.sweep() == 0  # no analysis yet: nothing to edit

    # ``python -m bot --analyse-missing``: another process, the same database
    other = await Store.open(bot_db_url)
    try:
        elsewhere = Analyses(other, 1, executor=ThreadPoolExecutor(1))
        assert await elsewhere.analyse_missing() == 1
        await elsewhere.close()
    finally:
        await other.close()

    assert await bot.publisher.summaries.sweep() == 1  # this process's look finds it
    heading = t("en", "analysis.heading")
    await double.wait_until(
        lambda: heading in double.message(summary.id).text, timeout=15, what="the summary's edit"
    )
    await bot.outbox.drain(within=5.0)
    assert await bot.publisher.summaries.sweep() == 0  # claimed and shown: once
    assert _edits(double, summary.id) == 1
    assert double.internal_errors == []

"""A finished match is graded with every hand known in the analysis worker: its summary gains a
line per player by an edit, and its Replay shows each hand's best outcome beside what was
played and marks each card that cost points with the best card beside it, in English and
Persian. Only a finished match is ever analysed, and no hidden card shows before the end."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.client import HokmBot
from bot.present.i18n import number, t
from engine.dd_analysis import MatchAnalysis
from tests.double.mentions import mention_problems
from tests.double.server import DiscordDouble
from tests.reliability.leaks import HandWatcher, leaks

from .conftest import BotFactory
from .test_history import press
from .test_rematch import two_humans_finish

SEED = 0
"""Every match dealt from this seed: its one hand is graded in well under a second by the
plain-Python solver (the tests never depend on the optional compiled one)."""


@pytest.mark.parametrize(
    ("bot_db_url", "lang"), [("sqlite", "en"), ("postgresql", "fa")], indirect=["bot_db_url"]
)
async def test_a_finished_match_gets_its_analysis_lines_and_replay_marks(
    discord_double: DiscordDouble, make_bot: BotFactory, lang: str
) -> None:
    double = discord_double
    bot: HokmBot = await make_bot(match_seed_base=SEED, analysis_workers=1)
    guild, channel = double.guild, double.channel
    assert guild is not None and channel is not None
    if lang == "fa":
        await double.slash(double.manager, channel, "hokm settings", {"language": "fa"})
    watcher = HandWatcher.install(bot)
    asked: list[tuple[str, Any]] = []
    submit = bot.analyses.submit

    def spy(match_id: str, *rest: Any) -> bool:
        table = bot.service.registry.tables.get(match_id)
        asked.append((match_id, None if table is None else table.status))
        return submit(match_id, *rest)

    bot.analyses.submit = spy  # type: ignore[method-assign]
    table, summary = await two_humans_finish(double, bot)
    assert asked == [(table.table_id, "finished")]  # once, and only once the match is over

    await bot.analyses.idle()
    stored = await bot.store.match_analysis(guild.id, table.table_id)
    assert stored is not None
    analysis = MatchAnalysis.from_dict(stored)
    assert analysis.skipped == "" and len(analysis.hands) >= 1
    heading = t(lang, "analysis.heading")
    await double.wait_until(
        lambda: heading in double.message(summary.id).text, timeout=15, what="the summary's edit"
    )
    text = double.message(summary.id).text
    for seat, s in table.humans():
        grade = analysis.seat_grade(seat)
        rate = number(lang, round(100 * grade.accuracy))
        line = next(x for x in text.splitlines() if s.name in x and rate in x)
        assert number(lang, grade.decisions) in line, line

    # the Replay: the hand's best outcome beside what was played, the costly cards marked
    rec = await double.slash(double.members[0], channel, "hokm history")
    listing = rec.message
    assert listing is not None
    rec = await double.click(double.members[0], listing, custom_id=listing.buttons()[0].custom_id)
    view = rec.message
    assert view is not None and rec.ephemeral
    hand = analysis.hands[0]
    first = double.message(view.id).text
    assert t(lang, "analysis.hand", best="@", played="@").split("@")[0] in first
    marks = 0
    for trick in range(1, len(hand.decisions) // 4 + 1):
        rec = await double.click(double.members[0], view, custom_id=press(view, "▶"))
        frame = double.message(view.id).text
        costly = [d for d in hand.decisions[(trick - 1) * 4 : trick * 4] if d.costly]
        assert frame.count("⚠️") == len(costly), frame
        marks += len(costly)
    assert marks == sum(d.costly for d in hand.decisions)
    assert leaks(double, watcher) == []
    seated = {u.id for u in double.members[:2]}  # the match's start pings its players, no more
    assert mention_problems(double.requests, lambda content: seated) == []

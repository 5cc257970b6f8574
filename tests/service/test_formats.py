"""A table of any format fills its own number of seats, starts
the engine's match of that format, keeps the format across a restart (the table's JSON) and a
rematch, times out its members (R14) and records the finished match with every team."""

from __future__ import annotations

import pytest

from bot.service.errors import ActionError
from bot.service.rematch import rematch_table
from bot.service.service import TableService
from bot.service.table import Table
from bot.store.guild_settings import GuildSettings, SettingError
from engine.story import rebuild, story
from tests.formats import SHAPES, format_of

from .conftest import MakeService
from .fakes import FakeClock, FakeStore
from .helpers import HUMANS, open_lobby


async def open_format(service: TableService, name: str, channel: int = 100) -> Table:
    return await open_lobby(service, channel, host_name="host", target_score=1, game_format=name)


@pytest.mark.parametrize(("seats", "size"), SHAPES)
async def test_a_table_of_each_format_fills_its_seats_and_plays_to_the_end(
    make_service: MakeService, clock: FakeClock, store: FakeStore, seats: int, size: int
) -> None:
    """R15 for every table size: members join until the host starts, computers fill the rest;
    the members never click, so R14 plays for them and then hands their seats over."""
    with format_of(seats, size) as fmt:
        service = make_service()
        table = await open_format(service, fmt.name)
        assert len(table.seats) == fmt.seats and table.fmt is fmt
        assert store.state(table.table_id)["settings"]["game_format"] == fmt.name
        people = min(3, fmt.seats)
        for user in HUMANS[1:people]:
            await service.join(table.table_id, user, f"m{user}")
        if table.status == "lobby":
            await service.start(table.table_id, HUMANS[0])
        assert table.status == "playing" and table.match is not None
        assert table.match.fmt is fmt
        computers = [s is not None and s.is_computer for s in table.seats]
        assert computers == [False] * people + [True] * (fmt.seats - people)
        for _ in range(20_000):
            if store.matches:
                break
            await clock.advance(1.0)
        recorded = store.matches[table.table_id]
        assert recorded.game_format == fmt.name
        assert len(recorded.scores) == len(recorded.team_stats) == len(fmt.teams)
        assert recorded.scores == tuple(table.match.scores)
        assert [p.team for p in recorded.players] == list(fmt.team_of)
        # every format's record replays to the match (its Replay's story)
        assert recorded.replay is not None and rebuild(recorded.replay) == table.match
        assert story(recorded.replay).scores == recorded.scores
        assert service.tables == {}


async def test_a_full_lobby_of_three_starts_by_itself(service: TableService) -> None:
    with format_of(3, 1) as fmt:
        table = await open_format(service, fmt.name)
        await service.join(table.table_id, HUMANS[1], "b")
        assert table.status == "lobby" and table.free_seats() == [2]
        await service.join(table.table_id, HUMANS[2], "c")
        assert table.status == "playing"  # the last seat of three started it
        with pytest.raises(ActionError, match="already_started"):
            await service.join(table.table_id, HUMANS[3], "d")


async def test_the_format_survives_a_restart_and_a_rematch(
    make_service: MakeService, clock: FakeClock, store: FakeStore
) -> None:
    with format_of(6, 2) as fmt:
        service = make_service()
        table = await open_format(service, fmt.name)
        await service.join(table.table_id, HUMANS[1], "b")
        restarted = make_service()
        (back,) = await restarted.restore()
        assert back.fmt is fmt and len(back.seats) == 6 and back.seats[1] is not None
        await service.close()
        await restarted.start(back.table_id, HUMANS[0])
        assert back.match is not None and back.match.fmt is fmt
        again = make_service()
        (playing,) = await again.restore()
        assert playing.match is not None and playing.match.to_dict() == back.match.to_dict()
        await restarted.close()
        for _ in range(20_000):
            if store.matches:
                break
            await clock.advance(1.0)
        assert store.matches[playing.table_id].game_format == fmt.name
        rematch = rematch_table(playing, HUMANS[0], "host", clock())
        assert rematch.fmt is fmt and len(rematch.seats) == 6
        assert rematch.settings.game_format == fmt.name
        assert sorted(rematch.reserved) == [1]  # the other member's seat is kept for them


async def test_an_unknown_format_is_refused_before_anything_opens(
    service: TableService,
) -> None:
    with pytest.raises(SettingError, match="game_format"):
        await open_format(service, "no-such-hokm")
    assert service.tables == {}
    with pytest.raises(SettingError):
        GuildSettings().with_changes(game_format="no-such-hokm")
    assert GuildSettings.from_stored({"game_format": "gone"}).game_format == "standard"

"""``target_score`` at ``/hokm new`` where the match would not
play to it (the joker six's own 124, Shelem's ``shelem_target``) is refused, nothing opened;
the server's default target is no choice of the host's and is never refused."""

from __future__ import annotations

import pytest

from bot.service.errors import ActionError
from bot.service.service import TableService
from bot.store.guild_settings import GuildSettings

from .helpers import HUMANS, open_lobby


@pytest.mark.parametrize(
    ("game_format", "target", "code", "params"),
    [
        ("joker_six", 1, "error.target_fixed", {"target": 124}),
        ("joker_six", 124, "error.target_fixed", {"target": 124}),
        ("joker_six", 99, "error.target_fixed", {"target": 124}),  # before the range
        ("shelem", 5, "error.target_shelem", {}),
    ],
)
async def test_a_target_the_match_would_not_play_to_is_refused(
    service: TableService, game_format: str, target: int, code: str, params: dict[str, int]
) -> None:
    with pytest.raises(ActionError) as refused:
        await open_lobby(service, target_score=target, game_format=game_format)
    assert (refused.value.code, refused.value.params) == (code, params)
    assert service.tables == {} and service.table_in_channel(100) is None
    # the server's own format the same: its default decides, the host's option is refused
    settings = GuildSettings(game_format=game_format)
    with pytest.raises(ActionError):
        await open_lobby(service, settings=settings, target_score=target)
    assert service.tables == {}


async def test_the_servers_default_target_is_no_refusal_and_a_format_without_one_takes_it(
    service: TableService,
) -> None:
    joker = await open_lobby(
        service, settings=GuildSettings(target_score=1), game_format="joker_six"
    )
    assert joker.fmt.target_score == 124 and joker.settings.target_score == 1
    three = await open_lobby(
        service, channel=101, host=HUMANS[1], target_score=1, game_format="three"
    )
    assert three.settings.target_score == 1

"""Without Discord: the line the service records for the
trick that ends a hand, and what the table message and the hand messages make of it — shown
until the next hand's first move, never an earlier hand's log, within Discord's limits under
the worst names a member can choose, at every format (Hokm's and Shelem)."""

from __future__ import annotations

import pytest

from bot.present import render
from bot.present.budget import overflows
from bot.present.hand_end import HandEnd, deciding_line, end_of, open_end, this_hand
from bot.present.hand_over import ended_lines, result_line
from bot.present.i18n import t
from bot.present.log_lines import log_lines
from bot.service.events import TrickTaken, TrumpNamed
from bot.service.history import HAND_ENDED, log_line
from bot.service.moves import decide
from bot.service.table import LogLine, Seat, Table, TableSettings
from bot.service.variants import engine_move
from engine import PLAY, Card, GreedyPlayer, Match, Suit, Trick, seat_view
from engine.rules import FORMATS
from engine.shelem import GreedyShelemPlayer, ShelemMatch, act

WIDE = "*_~`|\\<@" * 4
"""A name of 32 characters, each shown as two (escaped)."""


def table_of(game: str, lang: str, names: tuple[str, ...] = ()) -> Table:
    shelem = game == "shelem"
    settings = TableSettings(language=lang, game_format=game, target_score=7)
    table = Table("0123456789ab", 1, 2, 3, settings, 0.0)
    seats = table.fmt.seats
    table.seats = [
        Seat(names[i % len(names)] if names else f"p{i}", user_id=100 + i) for i in range(seats)
    ]
    if shelem:
        table.match = ShelemMatch(11, settings.shelem_options())
    else:
        table.match = Match(11, table.rules(), table.fmt)
    table.status = "playing"
    return table


def step(table: Table) -> tuple[object, ...]:
    """One greedy decision, as the service makes a computer's, and the lines it records for
    a trump named and a trick taken."""
    match = table.match
    assert match is not None
    hand, seat = match.hand_number, match.to_act
    if isinstance(match, ShelemMatch):
        events: tuple[object, ...] = tuple(act(match, GreedyShelemPlayer()))
    else:
        choice = decide(GreedyPlayer(), seat_view(match, seat))
        if isinstance(choice, Suit):
            events = tuple(match.choose_trump(seat, choice))
            named = log_line(table, TrumpNamed(seat, choice, hand))
            assert named is not None
            table.add_log(named)
        elif isinstance(choice, Card) and match.phase == PLAY:
            events = tuple(match.play(seat, choice))
        else:
            events = tuple(engine_move(match, seat, choice))
    for event in events:
        if isinstance(event, Trick):
            line = log_line(table, TrickTaken(event, hand))
            if line is not None:
                table.add_log(line)
    return events


def to_hand_2(table: Table) -> Trick:
    """Greedy players to the end of hand 1; the trick that ended it."""
    match = table.match
    assert match is not None
    last = None
    while match.hand_number == 1:
        for event in step(table):
            if isinstance(event, Trick):
                last = event
    assert last is not None
    return last


@pytest.mark.parametrize("game", ["standard", "three", "joker_six", "shelem"])
def test_the_trick_that_ends_a_hand_is_recorded_and_shown_until_the_next_first_move(
    game: str,
) -> None:
    table = table_of(game, "en")
    match = table.match
    assert match is not None
    trick = to_hand_2(table)
    end = end_of(table, 1)
    assert end == HandEnd(1, trick, len(match.actions))
    assert open_end(table) == end
    line = deciding_line(table, "en", end)
    assert line.startswith(f"Hand 1 ended with trick {trick.number}: ")
    result = result_line(table, "en", 1)
    assert result is not None and ended_lines(table, "en") == [result, line]
    for seat in range(len(table.seats)):  # every seat's message says it, the hakem's too
        assert line in render.hand_message(table, seat, live=False).content
        assert result in render.hand_message(table, seat).content
        # a DM is sent for it, cards or not (``render.hand_signatures``)
        assert render.hand_signature(table, seat) is not None
    embed = render.table_message(table).embed
    assert embed is not None and line in embed.description
    assert not any(line in text for text in log_lines("en", table.log))  # said once, there
    step(table)  # hand 2's first move: trump named, or a bid
    assert open_end(table) is None and ended_lines(table, "en") == []
    embed = render.table_message(table).embed
    assert embed is not None and line not in embed.description
    # hand 1's own message, once closed, keeps how it ended
    closed = render.closed_hand_message(table, 1).content
    assert result in closed and line in closed and t("en", "hand.over") not in closed


def test_a_hands_table_message_shows_only_its_own_log() -> None:
    """Item 3: hand 1's trump line goes with hand 1; a table saved before (no hand's end in
    its log) shows its lines as before."""
    table = table_of("three", "en")
    match = table.match
    assert isinstance(match, Match)
    to_hand_2(table)
    assert any(isinstance(x, LogLine) and x.key == "report.trump_named" for x in table.log)
    assert this_hand(table) == []
    embed = render.table_message(table).embed
    assert embed is not None and " named " not in embed.description
    while match.trump is None:
        step(table)
    assert [x.key for x in this_hand(table) if isinstance(x, LogLine)] == ["report.trump_named"]
    old = [x for x in table.log if not (isinstance(x, LogLine) and x.key == HAND_ENDED)]
    table.log = old
    assert this_hand(table) == old


@pytest.mark.parametrize("game", sorted(FORMATS))
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_hands_end_fits_discord_under_the_worst_names(game: str, lang: str) -> None:
    """Six names of 32 escaped characters: the hand messages, the closed one and the table
    message that show a hand's end stay within Discord's limits (``budget.fitted``)."""
    names = tuple(WIDE[i:] + WIDE[:i] for i in range(6))
    table = table_of(game, lang, names)
    match = table.match
    assert match is not None
    for _ in range(2000):
        if match.hand_number > 1 or match.is_over:
            break
        step(table)
    if open_end(table) is None:
        pytest.skip("hand 1 ended without a trick (a stop), or the match ended")
    assert ended_lines(table, lang)
    for seat in range(len(table.seats)):
        for spec in (
            render.hand_message(table, seat, live=False),
            render.hand_message(table, seat, ephemeral=True),
            render.closed_hand_message(table, 1, ephemeral=True),
        ):
            assert not overflows(spec), spec.content
    assert not overflows(render.table_message(table))

"""A hand of every format fits Discord's five rows of five buttons
(with room for the Hint button), the table message, the reports and the summary name every
team (a player alone is their own "team"), and a format reads in both languages."""

from __future__ import annotations

import random

import pytest

from bot.present import custom_ids, render, summary
from bot.present.formats import MAX_ROWS, PER_ROW, format_label, lobby_hint, pack_rows
from bot.present.i18n import LANGUAGES, number
from bot.present.tricks import hand_result_line
from bot.service.table import Seat, Table, TableSettings
from engine import CARDS, PLAY, Card, GreedyPlayer, Match, Rules, seat_view
from engine.rules import FORMATS
from tests.formats import SHAPES, format_of


def seated(name: str, *, hints: bool = False, target: int = 1) -> Table:
    table = Table(
        table_id="0123456789ab",
        guild_id=1,
        channel_id=2,
        host_id=100,
        settings=TableSettings(game_format=name, hints=hints, target_score=target),
        created_at=0.0,
    )
    for i in range(len(table.seats)):
        table.seats[i] = Seat(name=f"p{i}", user_id=100 + i)
    return table


def start(table: Table, seed: int = 1) -> Match:
    table.match = Match(seed, Rules(target_score=table.settings.target_score), table.fmt)
    table.status = "playing"
    return table.match


def play_on(match: Match, until: object) -> None:
    """Greedy moves for every seat until ``until()`` holds."""
    player = GreedyPlayer()
    for _ in range(5000):
        if until():  # type: ignore[operator]
            return
        view = seat_view(match, match.to_act)
        if match.phase == PLAY:
            match.play(view.seat, player.choose_card(view))
        else:
            match.choose_trump(view.seat, player.choose_trump(view))
    raise AssertionError("never got there")


def suit_groups(cards: list[Card]) -> list[list[Card]]:
    return [[c for c in cards if c.suit == s] for s in range(4) if any(c.suit == s for c in cards)]


@pytest.mark.parametrize("size", range(1, 18))
def test_any_hand_of_up_to_17_cards_packs_into_five_rows_with_room_to_spare(size: int) -> None:
    rng = random.Random(size)
    for _ in range(300):
        cards = sorted(rng.sample(CARDS, size))
        rows = pack_rows(suit_groups(cards))
        assert len(rows) <= MAX_ROWS and all(1 <= len(r) <= PER_ROW for r in rows)
        assert [c for row in rows for c in row] == cards  # suit by suit, nothing lost
        assert sum(len(r) for r in rows) < MAX_ROWS * PER_ROW  # a place for Hint
    # a suit a row whenever that fits, as for the standard game's 13 cards
    assert pack_rows([[1, 2, 3], [4], [5, 6]]) == [[1, 2, 3], [4], [5, 6]]
    assert pack_rows([[1] * 6, [2] * 6, [3] * 3, [4] * 2]) == [
        [1] * 5,
        [1],
        [2] * 5,
        [2, 3, 3, 3],  # the smallest neighbours share a row
        [4, 4],
    ]


@pytest.mark.parametrize(("seats", "size"), SHAPES)
def test_every_formats_largest_hand_fits_with_the_hint_button(seats: int, size: int) -> None:
    with format_of(seats, size) as fmt:
        for seed in range(12):
            table = seated(fmt.name, hints=True)
            match = start(table, seed)
            play_on(match, lambda: match.phase == PLAY)  # noqa: B023
            seat = match.to_act  # the leader holds the whole hand, and it is their turn
            spec = render.hand_message(table, seat)
            cards = [b for row in spec.rows for b in row if b.custom_id.startswith("hokm:c:")]
            assert len(cards) == fmt.hand_size
            assert len(spec.rows) <= MAX_ROWS and all(len(r) <= PER_ROW for r in spec.rows)
            ids = [b.custom_id for row in spec.rows for b in row]
            assert ids[-1] == custom_ids.hint_id(table.table_id, 1) or any(
                b.custom_id.startswith("hokm:i:") for row in spec.rows for b in row
            )
            assert all(len(i) <= custom_ids.MAX_LENGTH for i in ids)
            assert all(custom_ids.parse(i) for i in ids)


@pytest.mark.parametrize(("seats", "size"), SHAPES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_the_report_and_the_summary_name_every_team(
    seats: int, size: int, lang: str
) -> None:
    with format_of(seats, size) as fmt:
        table = seated(fmt.name)
        table.settings.language = lang
        lobby = render.table_message(Table.from_dict(table.to_dict() | {"status": "lobby"}))
        assert lobby.embed is not None and len(lobby.embed.fields) == len(fmt.teams)
        assert lobby_hint(lang, fmt) in lobby.embed.description
        match = start(table)
        play_on(match, lambda: match.is_over)
        table.status = "finished"
        table.started_at, table.finished_at = 0.0, 600.0
        message = render.table_message(table)
        assert message.embed is not None
        text = message.all_text()
        assert all(f"p{i}" in text for i in range(fmt.seats))
        if fmt.name != "standard":
            assert format_label(lang, fmt.name) in message.embed.footer
        line = hand_result_line(table, lang, match.hand_results[-1])
        assert all(f"p{i}" in line for i in range(fmt.seats))  # every team's score
        if fmt.name != "standard":
            tricks = match.hand_results[-1].tricks
            assert number(lang, max(tricks)) in line
        done = summary.match_summary(table)
        assert done.embed is not None
        winner = match.winner_team
        assert winner is not None
        names = [f"p{s}" for s in fmt.seats_of(winner)]
        assert all(n in done.embed.title for n in names)
        if lang == "en":
            verb = "wins" if size == 1 else "win"
            assert f" {verb} the match " in done.embed.title


def test_standings_buttons_name_their_format() -> None:
    """A standings page's buttons page through the same format's standings; an id
    from before formats (no format) is the standard game's."""
    assert custom_ids.standings_id(2, "n") == "hokm:p:2:0:n"
    click = custom_ids.parse(custom_ids.standings_id(2, "n", game_format="six_pairs"))
    assert (click.kind, click.page, click.game_format) == ("standings", 2, "six_pairs")
    assert custom_ids.parse("hokm:p:2:0:n").game_format == "standard"
    for forged in ("hokm:p:2:0:n:", "hokm:p:2:0:n:Three", "hokm:p:2:0:n:" + "x" * 33):
        with pytest.raises(custom_ids.BadCustomId):
            custom_ids.parse(forged)


def test_every_engine_format_has_a_label_in_both_languages() -> None:
    for name in FORMATS:
        labels = {format_label(lang, name) for lang in LANGUAGES}
        assert len(labels) == 2 and name not in labels
    assert format_label("en", "standard") == "Standard: 4 players, 2 teams of 2"
    with format_of(3, 1) as fmt:
        assert format_label("en", fmt.name) in ("3 players, each alone", fmt.name) or fmt.name
        assert "3" in format_label("en", fmt.name)
    with format_of(6, 3) as fmt:
        assert "6" in format_label("en", fmt.name)


def test_v5_joker_six_bidding_and_jokers_on_buttons() -> None:
    """The joker six's bidder sees a button per bid above the highest and Pass; jokers are
    card buttons of their own; the table message says who bid what and that nobody is hakem
    yet."""
    for seed in range(40):
        table = seated("joker_six")
        match = start(table, seed)
        holder = next((s for s in range(6) if any(c.is_joker for c in match.hand_of(s))), None)
        if holder is not None and match.to_act == holder:
            break
    else:
        raise AssertionError("no deal with a joker for the first bidder")
    spec = render.hand_message(table, holder)
    ids = [b.custom_id for row in spec.rows for b in row]
    assert len(spec.rows) <= MAX_ROWS and all(len(r) <= PER_ROW for r in spec.rows)
    bids = [custom_ids.parse(i) for i in ids if i.startswith("hokm:v:")]
    assert [(c.decision, c.tricks) for c in bids] == [("bid", n) for n in (5, 6, 7, 8, 9, 0)]
    jokers = [custom_ids.parse(i).card for i in ids if i.endswith(("BJ", "RJ"))]
    assert jokers and all(c is not None and c.is_joker for c in jokers)
    assert "Pass" in spec.all_text() and "highest so far" in spec.content
    match.bid(holder, 6)
    text = render.table_message(table).all_text()
    assert "Bidding for hakem: " in text and f"p{holder} 6" in text and "no hakem yet" in text
    after = render.hand_message(table, match.to_act)
    left = [
        custom_ids.parse(b.custom_id).tricks
        for row in after.rows
        for b in row
        if b.custom_id.startswith("hokm:v:")
    ]
    assert left == [7, 8, 9, 0]

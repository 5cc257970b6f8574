"""Without a browser: the Shelem leaderboard is reached from the page, the
two jokers are drawn apart and named, left-to-right text in a Persian page sits in isolates,
a team's score is set apart from its names, and a replay lays the seats around a table with
the hand's tricks listed below it. ``tests/e2e/test_web_browser.py`` measures the same pages
in Chromium (phone and desktop, no horizontal scroll, the accessibility check)."""

from __future__ import annotations

import html
import re

import pytest

from bot.present.history_parts import in_suit_order
from bot.present.web_parts import web_name
from bot.present.web_replay import PLACES
from bot.present.web_style import CSS, SCRIPT
from engine.rules import FORMATS
from engine.story import story

from .conftest import GUILD, GUILD_NAME, Served
from .sample import hokm_match, shelem_match


async def test_the_shelem_leaderboard_is_linked_from_the_page_and_opens(served: Served) -> None:
    """``/standings`` offers Shelem's leaderboard; the page's format links did not, and
    ``?format=shelem`` was the one 404."""
    kept = shelem_match(7, GUILD, 9, names=("sara", "bahar", "", "darya"))
    assert await served.store.finish_match(kept)
    status, page, _ = await served.get(served.home)
    assert status == 200
    formats = re.search(r'<nav class="formats"[^>]*>(.*?)</nav>', page, re.DOTALL)
    assert formats is not None
    assert 'href="?lang=en&amp;format=shelem"' in formats.group(1)
    status, page, _ = await served.get(served.home + "?format=shelem")
    assert status == 200
    board = page[page.index('id="leaderboard"') : page.index('id="matches"')]
    assert "sara" in board and "darya" in board and "Computer" not in board
    status, page, _ = await served.get(served.home + "?format=shelem&lang=fa")
    assert status == 200 and "شلم" in page


async def test_the_two_jokers_are_drawn_apart_and_named_in_the_pages_language(
    served: Served,
) -> None:
    """Both jokers were one colour emoji; now a red star on a white card and a white star on a
    black one, each named for screen readers, in the cards of a seat and in the trick list."""
    kept = hokm_match("joker_six", 31, GUILD, 9)
    assert await served.store.finish_match(kept)
    for lang, red, black in (("en", "Red joker", "Black joker"), ("fa", "جوکر قرمز", "جوکر سیاه")):
        status, page, _ = await served.get(served.home + f"m/{kept.match_id}?lang={lang}")
        assert status == 200
        faces = {
            code: cls
            for cls, code in re.findall(r'<span class="([^"]*)" data-card="([RB]J)"', page)
        }
        assert faces == {"RJ": "card joker red", "BJ": "card joker black"}
        assert f'data-card="RJ" role="img" aria-label="{red}"' in page
        assert f'data-card="BJ" role="img" aria-label="{black}"' in page
        assert "🃏" not in page.split("<main>", 1)[1]  # no emoji stands for a card


async def test_a_command_in_a_persian_page_sits_in_a_left_to_right_isolate(served: Served) -> None:
    """The footer's command read backwards in Persian (``hokm settings web:false/``): it is
    now an element of its own, ``dir="ltr"``, with no bidi control characters round it; the
    server's name in the title is in ``<bdi>``."""
    for lang in ("en", "fa"):
        status, page, _ = await served.get(served.home + f"?lang={lang}")
        assert status == 200
        footer = page[page.index("<footer>") :]
        assert '<code dir="ltr">/hokm settings web:false</code>' in footer
        assert "\u2068" not in footer and "\u2069" not in footer
        h1 = page[page.index("<h1>") : page.index("</h1>")]
        assert f"<bdi>{html.escape(GUILD_NAME)}</bdi>" in h1 and "\u2068" not in h1


TEAM = re.compile(
    r'<li class="team t(\d)( win)?"><span class="swatch" aria-hidden="true"></span>'
    r'<span class="names">(.*?)</span>(?:<span class="sr">[^<]*</span>)?'
    r'<span class="score"><span class="sr">[^<]*</span>'
    r"([0-9۰-۹−-]+)</span></li>"
)


async def test_a_teams_score_is_set_apart_from_its_names(served: Served) -> None:
    """ "🤖 Computer 1 & 🤖 Computer 3 7": the score ran into the names. Now each team is an
    item of its own, its names in one element and its score in another (drawn as a ring in
    the team's colour), in the listing and on the replay."""
    status, page, _ = await served.get(served.home)
    assert status == 200
    listed = page[page.index('id="matches"') :]
    teams = TEAM.findall(listed)
    mine = [m for m in reversed(served.matches) if m.guild_id == GUILD]
    assert len(teams) == 2 * len(mine)
    for match, pair in zip(mine, zip(teams[::2], teams[1::2], strict=True), strict=True):
        for team, (colour, won, names, score) in enumerate(pair):
            assert int(colour) == team and int(score) == match.scores[team]
            assert bool(won) == (team == match.winner_team)
            shown = [web_name(p.display_name, computer=p.is_computer) for p in match.players]
            team_names = " & ".join(shown[seat] for seat in (team, team + 2))
            assert html.unescape(re.sub("<[^>]+>", "", names)) == team_names  # names alone
    status, page, _ = await served.get(served.home + f"m/{mine[0].match_id}")
    assert status == 200 and len(TEAM.findall(page)) == 2


SEATS = re.compile(
    r'<div class="seat s(\d) t(\d)[^"]*" data-seat="(\d)" data-place="([a-z]+)" dir="(ltr|rtl)">'
    r"\n<h3>(.*?)</h3>\n<div class=\"hand\" dir=\"ltr\">(.*?)</div>\n</div>"
)
PLAYS = re.compile(r'<div class="play( took)? p-([a-z]+)" data-seat="(\d)">.*?data-card="(\w+)"')
TRICK_LINKS = re.compile(
    r'<li><a href="\?lang=(\w+)&amp;h=(\d+)&amp;t=(\d+)"( aria-current="step")?>'
)


@pytest.mark.parametrize("fmt_name", ["two", "three", "standard", "five", "six_teams", "six_pairs"])
async def test_a_replay_lays_the_seats_round_a_table_with_the_trick_in_the_middle(
    served: Served, fmt_name: str
) -> None:
    """Every table size (2 to 6 seats): each seat in its place round the felt (seat 0 at the
    bottom, play going on to the right), in its team's colour, the hakem marked, its cards left;
    the trick in the middle, each card on its player's side, the winner's ringed; below, the
    hand's tricks as links, the deal first, the frame shown marked."""
    kept = hokm_match(fmt_name, 41, GUILD, 9)
    assert await served.store.finish_match(kept)
    fmt = FORMATS[fmt_name]
    told = story(kept.replay).hands[0]
    for lang, trick in (("en", 0), ("en", 1), ("fa", 2), ("en", len(told.tricks))):
        url = served.home + f"m/{kept.match_id}?lang={lang}&h=0&t={trick}"
        status, page, _ = await served.get(url)
        assert status == 200
        assert f'<div class="felt n{fmt.seats}" dir="ltr"' in page  # the same table in fa
        seats = SEATS.findall(page)
        assert [int(s[2]) for s in seats] == list(range(fmt.seats))
        held = told.held(trick)
        for seat, team, _, place, way, name, cards in seats:
            seat_n = int(seat)
            assert place == PLACES[fmt.seats][seat_n] and int(team) == fmt.team_of[seat_n]
            assert way == ("rtl" if lang == "fa" else "ltr")  # a seat reads in the page's way
            assert ('class="hakem"' in name) == (seat_n == told.hakem)
            assert re.findall(r'data-card="(\w+)"', cards) == [
                c.code for c in in_suit_order(held[seat_n])
            ]
        places = PLACES[fmt.seats]
        assert len(set(places)) == fmt.seats and places[0] == "b" and places[1] in ("r", "t", "tr")
        plays = PLAYS.findall(page)
        if trick:
            played = told.tricks[trick - 1]
            assert [(int(s), c) for _, _, s, c in plays] == [
                (s, c.code) for s, c in played.plays(fmt.seats)
            ]
            assert all(p == places[int(s)] for _, p, s, _ in plays)
            assert [int(s) for took, _, s, _ in plays if took] == [played.winner]
        else:
            assert plays == []
        links = TRICK_LINKS.findall(page)
        assert [int(t) for _, _, t, _ in links] == list(range(len(told.tricks) + 1))
        assert [int(t) for _, _, t, current in links if current] == [trick]
        assert all(lang_ == lang and h == "0" for lang_, h, _, _ in links)


async def test_the_page_follows_the_systems_dark_theme_and_steps_by_keyboard_without_needing_it(
    served: Served,
) -> None:
    """A dark theme by ``prefers-color-scheme``; a replay's ← → script is the one the policy
    allows by hash, and every step it takes is a link of the page (it works without it)."""
    assert "@media (prefers-color-scheme:dark)" in CSS
    status, page, _ = await served.get(served.home + f"m/{served.matches[0].match_id}")
    assert status == 200 and f"<script>{SCRIPT}</script>" in page
    assert '<meta name="color-scheme" content="light dark">' in page
    assert 'data-step="forward"' in page and 'aria-keyshortcuts="ArrowRight"' in page
    assert "ArrowLeft" in SCRIPT and "ArrowRight" in SCRIPT and "a[data-step=" in SCRIPT
    assert len(SCRIPT.splitlines()) <= 5

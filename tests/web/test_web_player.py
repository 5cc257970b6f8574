"""A member's page (rating, its chart as inline SVG, matches, win
rate, best partner, latest matches linking to their pages and replays; this server's data
only), a finished match's page (date, length, each member's rating change, each hand's
result), and its file, downloaded and replayed by the engine to exactly the stored match in
every format; names on every page link to the member's page; new address shapes are checked
before any read, anything else is the one 404."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urljoin

import pytest

from bot.present.web_html import CONTENT_SECURITY_POLICY
from bot.store import FinishedMatch, TableRecord
from engine.export import check
from engine.rules import FORMATS
from tests.matches import played

from .conftest import GUILD, HOSTILE, OTHER_GUILD, Served, serving
from .sample import hokm_match, shelem_match

RATED = (11, 12, 13, 14)
"""Four members, no computer: their matches are rated."""
HREF = re.compile(r'<a class="member" href="([^"]+)">')


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    """The conftest's server, with five rated matches of GUILD among 11-14 (11 "hostile",
    partnered with 13 every time) and one rated match of 11 in OTHER_GUILD."""
    async with serving(tmp_path) as served:
        names = [HOSTILE, "bahar", "sara", "darya"]
        for n in range(5):
            match = played(300 + n, RATED, GUILD, 10 + n, names)
            assert await served.store.finish_match(match)
            served.matches.append(match)
        elsewhere = played(400, (11, 21, 22, 23), OTHER_GUILD, 20)
        assert await served.store.finish_match(elsewhere)
        served.counted.calls.clear()
        yield served


def hrefs(page: str, cls: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(rf'<a class="{cls}" href="([^"]+)"', page)]


async def test_a_members_page_shows_rating_chart_record_partner_and_latest_matches(
    served: Served,
) -> None:
    url = served.home + "p/11/"
    status, page, headers = await served.get(url)
    assert status == 200 and headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert HOSTILE not in page and html.escape(HOSTILE) in page  # their name, escaped
    ratings = await served.store.ratings_of(GUILD, [11])
    record = await served.store.member_record(GUILD, 11)
    assert record is not None and record.matches_played == 8  # 3 of the conftest's, 5 rated
    facts = dict(re.findall(r'<tr><th scope="row">([^<]+)</th><td>(.*?)</td></tr>', page))
    assert facts["⭐ Rating"] == f"{ratings[11].ordinal:.1f}"
    assert facts["Played"] == "8" and facts["Won"] == str(record.matches_won)
    assert facts["Win rate"] == f"{round(record.win_rate * 100)}%"
    assert "sara" in facts["🤝 Best partner"] and "together" in facts["🤝 Best partner"]
    # the chart: inline SVG, said in words, a point per rated match of this server
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert 'role="img"' in svg and '<title id="chart-title">' in svg and "<desc" in svg
    assert "Rating over the last 5 rated matches" in svg
    assert svg.count("<circle") == 5
    assert " style=" not in page and "<script" not in page
    # the latest matches: this server's only, each with its page and its replay
    mine = [
        m.match_id for m in reversed(served.matches) if m.guild_id == GUILD and 11 in _members(m)
    ]
    assert hrefs(page, "match-page") == [f"../../m/{m}/?lang=en" for m in mine[:10]]
    assert hrefs(page, "replay") == [f"../../m/{m}?lang=en" for m in mine[:10]]
    for link in (
        *hrefs(page, "match-page")[:2],
        *hrefs(page, "replay")[:1],
        *hrefs(page, "member"),
    ):
        assert (await served.get(urljoin(url, link)))[0] == 200, link
    # another format: no match of it yet, the page says so
    status, page, _ = await served.get(url + "?format=six_pairs&lang=fa")
    assert status == 200 and '<html lang="fa" dir="rtl">' in page
    assert "هنوز بازی تمام‌شده‌ای در این نوع بازی نیست" in page and "<svg" not in page


def _members(match: FinishedMatch) -> set[int]:
    return {p.user_id for p in match.players if p.user_id is not None}


async def test_a_members_page_shows_this_servers_data_only(served: Served) -> None:
    """Member 11's match in the other server is on no page of this one; member 21, who only
    played there, has no page here; and on the other server's page 11 has one match."""
    status, page, _ = await served.get(served.home + "p/11/")
    assert status == 200 and f"{400:012x}" not in page  # the other server's match
    status, page, _ = await served.get(served.home + "p/21/")
    assert status == 404 and "There is no such page." in page
    assert 'href="../../?lang=en"' in page  # the way back from two levels down
    other = await served.store.web_secret(OTHER_GUILD)
    url = served.web.page_url(OTHER_GUILD, str(other)) + "p/11/"
    status, page, _ = await served.get(url)
    assert status == 200 and f"{400:012x}" in page and served.matches[0].match_id not in page


async def test_new_addresses_of_the_wrong_shape_are_the_one_404_before_any_read(
    served: Served,
) -> None:
    _, not_found, _ = await served.get(served.web.base_url + "/nothing")
    match_id = served.matches[0].match_id
    wrong = [
        "p/0/",
        "p/011/",
        f"p/{2**63}/",
        "p/11",
        "p/11/x",
        "p/-1/",
        "p/1e3/",
        "p/11/?format=poker",
        "p/11/?lang=de",
        f"m/{match_id}.JSON",
        f"m/{match_id}.json/",
        f"m/{match_id}//",
        f"m/{match_id}/x",
        f"m/{'0' * 11}A/",  # a match id is lower-case hex
        f"m/{match_id}/?lang=xx",
    ]
    for tail in wrong:
        status, body, _ = await served.get(served.home + tail)
        assert (status, body) == (404, not_found), tail
    assert served.counted.calls == []  # none of them read the store
    near = served.secret[:-1] + ("A" if served.secret[-1] != "A" else "B")
    base = f"{served.web.base_url}/g/{GUILD}/{near}/"
    for tail in ("p/11/", f"m/{match_id}/", f"m/{match_id}.json"):  # a wrong secret
        assert (await served.get(base + tail))[:2] == (404, not_found), tail


async def test_a_matchs_page_shows_date_length_rating_changes_and_each_hand(
    served: Served,
) -> None:
    match = served.matches[-1]  # rated: four members
    url = served.home + f"m/{match.match_id}/"
    status, page, _ = await served.get(url)
    assert status == 200
    assert f'datetime="{match.finished_at.isoformat()}"' in page
    assert "20 min" in page  # started 20 minutes before it finished
    changes = await served.store.match_rating_changes(match.match_id)
    shown = re.findall(r'<td class="num change">([^<]+)</td>', page)
    assert shown == [f"{changes[p.user_id]:+.1f}" for p in match.players if p.user_id]
    hands = re.findall(r'<tr data-hand="(\d+)">', page)
    assert match.replay is not None
    from engine.story import story

    told = story(match.replay)
    assert f"hands played: {len(told.hands)}" in page
    assert hands == [str(i) for i in range(len(told.hands))]
    assert "take the hand" in page or "takes the hand" in page
    assert HOSTILE not in page and html.escape(HOSTILE) in page
    # every member's name links to their page; the file and the replay are a click away
    links = sorted(set(hrefs(page, "member")))
    assert links == sorted(f"../../p/{u}/?lang=en" for u in RATED)
    assert hrefs(page, "download") == [f"../../m/{match.match_id}.json"]
    for link in (links[0], hrefs(page, "replay")[0], hrefs(page, "download")[0]):
        assert (await served.get(urljoin(url, link)))[0] == 200
    # a match with a computer is not rated: said so, not a number
    status, page, _ = await served.get(served.home + f"m/{served.matches[0].match_id}/")
    assert status == 200 and page.count("not rated") == 4


async def test_the_match_file_downloads_with_its_headers_and_replays(served: Served) -> None:
    match = served.matches[0]
    url = served.home + f"m/{match.match_id}.json"
    async with served.http.get(url) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"] == "application/json; charset=utf-8"
        assert answer.headers["Content-Disposition"] == (
            f'attachment; filename="hokm-{match.match_id}.json"'
        )
        assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        data = json.loads(await answer.read())
    assert data["format_version"] == 1 and data["match"]["id"] == match.match_id
    assert data["match"]["started_at"] == match.started_at.isoformat()
    assert [s["name"] for s in data["seats"]] == [HOSTILE, "bahar", "Computer 2", "darya"]
    assert [s["member"] for s in data["seats"]] == ["11", "12", None, "14"]
    done = check(data)
    assert (done.scores, done.winner_team) == (match.scores, match.winner_team)
    # a finished match never changes: its file is made once, then kept
    served.counted.calls.clear()
    async with served.http.get(url) as again:
        assert again.status == 200 and json.loads(await again.read()) == data
    assert set(served.counted.calls) == {"web_secret", "get_guild_settings"}


async def test_a_live_table_or_another_servers_match_has_no_page_and_no_file(
    served: Served,
) -> None:
    live = TableRecord("abcdef123456", GUILD, 77, "playing", 1, {"seats": []})
    await served.store.save_table(live)
    for tail in ("/", ".json"):
        status, page, _ = await served.get(served.home + f"m/{live.table_id}{tail}")
        assert status == 404 and "still being played" in page and "format_version" not in page
        status, page, _ = await served.get(served.home + f"m/{400:012x}{tail}")
        assert status == 404 and "No finished match of this server" in page


async def test_names_on_the_home_page_and_the_replay_link_to_the_members_page(
    served: Served,
) -> None:
    status, page, _ = await served.get(served.home + "?format=standard")
    board = page[page.index('id="leaderboard"') : page.index('id="matches"')]
    assert sorted(set(hrefs(board, "member"))) == sorted(f"p/{u}/?lang=en" for u in RATED)
    listed = page[page.index('id="matches"') :]
    assert "p/11/?lang=en" in hrefs(listed, "member")
    assert f"m/{served.matches[-1].match_id}/?lang=en" in hrefs(listed, "match-page")
    status, page, _ = await served.get(served.home + f"m/{served.matches[-1].match_id}")
    assert status == 200 and "../p/12/?lang=en" in hrefs(page, "member")


@pytest.mark.parametrize("name", sorted(FORMATS))
async def test_every_format_round_trips_store_page_file_engine(served: Served, name: str) -> None:
    """Item 9's round trip: a match of each format, played and stored as the bot stores it,
    downloaded from the page and replayed by the engine, ends exactly as stored."""
    names = ["amir", "<i>bita</i>", "", "dara", "elham", "farid"]
    if name == "shelem":
        match = shelem_match(77, GUILD, 30, names)
    else:
        match = hokm_match(name, 77, GUILD, 30, names)
    assert await served.store.finish_match(match)
    async with served.http.get(served.home + f"m/{match.match_id}.json") as answer:
        assert answer.status == 200
        data = json.loads(await answer.read())
    done = check(data)
    assert done.format == name and done.game == ("shelem" if name == "shelem" else "hokm")
    assert (done.scores, done.winner_team) == (tuple(match.scores), match.winner_team)
    assert [s["computer"] for s in data["seats"]] == [p.is_computer for p in match.players]
    status, page, _ = await served.get(served.home + f"m/{match.match_id}/")
    assert status == 200 and page.count('<tr data-hand="') == done.hands

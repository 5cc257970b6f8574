"""The web page over HTTP, without a browser: the page's content and escaping, its
Content-Security-Policy, right-to-left Persian, replay stepping by links, the one 404 for a
wrong secret, a page that is off and any other address, a new address after off and on, and
no secret in the logs. ``test_web_browser.py`` loads the same pages in Chromium."""

from __future__ import annotations

import base64
import hashlib
import html
import logging
import re
from urllib.parse import urljoin

import pytest

from bot.present.web_html import CONTENT_SECURITY_POLICY
from bot.store import TableRecord
from engine.shelem.story import story as shelem_story
from engine.story import story
from tests.matches import played_shelem

from .conftest import GUILD, GUILD_NAME, HOSTILE, OTHER_GUILD, Served

CARD = re.compile(r'data-card="([0-9A-Z]+)"')
SEAT = re.compile(r'<div class="seat[^"]*" data-seat="(\d)"[^>]*>(.*?)\n</div>', re.DOTALL)


def step_href(page: str, step: str) -> str | None:
    found = re.search(rf'data-step="{step}" href="([^"]+)"', page)
    return html.unescape(found.group(1)) if found else None


def seat_cards(page: str) -> list[int]:
    """How many cards each seat of a replay frame holds."""
    return [len(CARD.findall(block)) for _, block in SEAT.findall(page)]


async def test_page_shows_the_leaderboard_and_matches_with_every_name_escaped(
    served: Served,
) -> None:
    status, page, headers = await served.get(served.home)
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en" dir="ltr">' in page
    # the hostile name is text, never markup, in the leaderboard and the matches' teams
    assert HOSTILE not in page and "<script" not in page and "<img" not in page
    assert page.count(html.escape(HOSTILE)) >= 4  # a leaderboard row and three teams
    assert html.escape(GUILD_NAME) in page and GUILD_NAME not in page
    board = page[page.index('id="leaderboard"') : page.index('id="matches"')]
    assert "bahar" in board and "darya" in board
    assert "Computer 2" not in board  # computers are never on the leaderboard
    matches = page[page.index('id="matches"') :]
    assert "🤖 Computer 2" in matches  # a computer is marked as one
    links = re.findall(r'class="replay" href="([^"]+)"', matches)
    mine = [m.match_id for m in reversed(served.matches) if m.guild_id == GUILD]
    assert links == [f"m/{match_id}?lang=en" for match_id in mine]  # newest first, ours only


def sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


async def test_every_answer_carries_a_strict_policy_that_allows_only_its_stylesheet(
    served: Served,
) -> None:
    """...and its one script, a replay's keyboard stepping, by its hash: nothing
    else loads or runs, and the home page and the 404 have no script at all."""
    replay = served.home + f"m/{served.matches[0].match_id}"
    for url in (served.home, replay, served.home + "x"):
        status, page, headers = await served.get(url)
        assert status in (200, 404)
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["Cache-Control"] == "no-store"
        assert headers["X-Frame-Options"] == "DENY"
        # the one stylesheet is the one the policy's hash allows; nothing else loads
        (css,) = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
        assert f"style-src '{sha256(css)}'" in CONTENT_SECURITY_POLICY
        assert "default-src 'none'" in CONTENT_SECURITY_POLICY
        scripts = re.findall(r"<script>(.*?)</script>", page, re.DOTALL)
        assert len(scripts) == (1 if url == replay else 0)
        assert all(f"script-src '{sha256(s)}';" in CONTENT_SECURITY_POLICY for s in scripts)
        assert re.search(r"script-src '[^' ]+';", CONTENT_SECURITY_POLICY)  # that one only
        rest = re.sub(r"<script>.*?</script>", "", page, flags=re.DOTALL)
        for forbidden in ("<script", " style=", "<img", "<link", "http://", "https://", "@import"):
            assert forbidden not in rest, (url, forbidden)
        assert not re.search(r"\son[a-z]+=", page)  # no handler in an attribute


async def test_a_wrong_secret_a_page_that_is_off_and_any_other_address_get_one_404(
    served: Served,
) -> None:
    """No answer tells a wrong secret from a page that is off, or from an address that never
    existed: the same status and the same bytes, naming nothing."""
    base = served.web.base_url
    secret = served.secret
    near = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    other = await served.store.web_secret(OTHER_GUILD)
    bare = f"{base}/g/{GUILD}/{near}"  # no final slash: a redirect, then the 404
    wrong = [
        f"{base}/g/{GUILD}/{near}/",  # one character off
        f"{base}/g/{GUILD}/{secret[:-1]}/",  # a prefix
        f"{base}/g/{GUILD}/{secret}x/",
        f"{base}/g/{GUILD}/{other}/",  # another server's secret
        f"{base}/g/{OTHER_GUILD}/{secret}/",
        f"{base}/g/999/{secret}/",  # a server that never turned it on
        f"{base}/g/{2**64}/{secret}/",  # no server id fits
        f"{base}/g/{GUILD}/%C3%A9{secret}/",  # not even ASCII
        bare,
        f"{base}/g/0{GUILD}/{secret}/",  # the same server, spelled otherwise
        f"{base}/g/{GUILD}/{near}/m/{served.matches[0].match_id}",
        f"{base}/",
        f"{base}/favicon.ico",
        served.home + "?lang=de",
        served.home + "?board=-1",
        served.home + "?page=x",
        served.home + "?format=poker",
        served.home + f"m/{served.matches[0].match_id}?h=1e3",
    ]
    answers = {url: await served.get(url) for url in wrong}
    redirected = answers.pop(bare)
    assert redirected[0] == 302
    answers["followed"] = await served.get(urljoin(bare, redirected[2]["Location"]))
    async with served.http.post(served.home) as posted:
        answers["POST"] = (posted.status, await posted.text(), posted.headers)
    await served.set_settings(GUILD, web=False)
    answers["off"] = await served.get(served.home)
    bodies = {body for _, body, _ in answers.values()}
    assert {status for status, _, _ in answers.values()} == {404}
    assert len(bodies) == 1, answers.keys()
    (body,) = bodies
    for hint in ("okm", "secret", "settings", "server", "leaderboard"):
        assert hint not in body.lower()


async def test_the_persian_page_is_right_to_left_and_each_page_switches_language(
    served: Served,
) -> None:
    await served.set_settings(GUILD, language="fa")
    status, page, _ = await served.get(served.home)  # the server's language by default
    assert status == 200 and '<html lang="fa" dir="rtl">' in page
    assert "جدول رده‌بندی" in page and "Leaderboard" not in page
    assert re.search("[۰-۹]", page)  # numbers in Persian digits
    assert 'href="?lang=en"' in page  # the switch, this page in English
    status, page, _ = await served.get(served.home + "?lang=en")
    assert status == 200 and '<html lang="en" dir="ltr">' in page and "Leaderboard" in page
    match_id = served.matches[0].match_id
    status, page, _ = await served.get(served.home + f"m/{match_id}?lang=fa&h=0&t=2")
    assert status == 200 and '<html lang="fa" dir="rtl">' in page
    assert 'href="?lang=en&amp;h=0&amp;t=2"' in page  # the same frame in English


async def test_the_replay_steps_trick_by_trick_and_hand_by_hand_by_links(served: Served) -> None:
    match = served.matches[1]
    told = story(match.replay)
    assert len(told.hands) > 1
    url = served.home + f"m/{match.match_id}?lang=en"
    status, page, _ = await served.get(url)
    assert status == 200
    assert "Hand 1 of" in page and "the deal" in page
    assert seat_cards(page) == [13, 13, 13, 13]  # every seat's cards, as play began
    assert step_href(page, "back") is None and step_href(page, "hand_back") is None
    forward = step_href(page, "forward")
    assert forward == "?lang=en&h=0&t=1"
    url = urljoin(url, forward)
    status, page, _ = await served.get(url)
    first = told.hands[0].tricks[0]
    trick = page[page.index('<div class="mid trick">') : page.index('<p class="said took">')]
    assert CARD.findall(trick) == [c.code for _, c in first.plays(4)]  # as they were played
    assert seat_cards(page) == [12, 12, 12, 12] and "trick 1 of" in page
    back = step_href(page, "back")
    assert back is not None
    status, page, _ = await served.get(urljoin(url, back))
    assert seat_cards(page) == [13, 13, 13, 13]
    next_hand = step_href(page, "hand_forward")
    assert next_hand == "?lang=en&h=1&t=0"
    status, page, _ = await served.get(urljoin(url, next_hand))
    assert status == 200 and "Hand 2 of" in page
    last = len(told.hands) - 1
    end = f"?lang=en&h={last}&t={len(told.hands[last].tricks)}"
    status, page, _ = await served.get(urljoin(url, end))
    assert status == 200 and step_href(page, "forward") is None  # greyed: nowhere to go
    assert "take the hand" in page or "takes the hand" in page  # the hand's result
    # a position the match does not have: this server's page, saying so, with the way back
    status, page, _ = await served.get(urljoin(url, f"?lang=en&h={last + 1}&t=0"))
    assert status == 404 and "There is no such page." in page and 'href="../?lang=en"' in page


async def test_only_finished_matches_of_this_server_are_replayed_hidden_hands_never(
    served: Served,
) -> None:
    """A live table's id is refused in the members' words, with no card drawn; another
    server's finished match is no match of this page."""
    live = TableRecord("abcdef123456", GUILD, 77, "playing", 1, {"seats": []})
    await served.store.save_table(live)
    status, page, _ = await served.get(served.home + f"m/{live.table_id}")
    assert status == 404 and "still being played" in page and not CARD.search(page)
    elsewhere = served.matches[-1]
    assert elsewhere.guild_id == OTHER_GUILD
    status, page, _ = await served.get(served.home + f"m/{elsewhere.match_id}")
    assert status == 404 and "No finished match of this server" in page
    assert not CARD.search(page)


async def test_turned_off_and_on_the_page_has_a_new_address_and_the_old_one_is_gone(
    served: Served,
) -> None:
    old = served.home
    assert (await served.get(old))[0] == 200
    await served.set_settings(GUILD, web=False)
    assert (await served.get(old))[0] == 404
    await served.set_settings(GUILD, web=True)
    secret = await served.store.web_secret(GUILD)
    assert secret is not None and secret != served.secret
    new = served.web.page_url(GUILD, secret)
    assert (await served.get(old))[0] == 404
    assert (await served.get(new))[0] == 200


async def test_no_log_line_holds_a_secret(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    for url in (served.home, served.home + "?page=9", served.home + "x", served.home + "m/q"):
        await served.get(url)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert served.secret not in logged


def test_the_default_address_is_the_host_and_bound_port_and_a_base_url_wins() -> None:
    from bot.web.server import WebServer

    web = WebServer(None, None, host="127.0.0.1", port=8080)  # type: ignore[arg-type]
    assert web.page_url(5, "s3cr3t") == "http://127.0.0.1:8080/g/5/s3cr3t/"
    web = WebServer(None, None, host="::1", port=81)  # type: ignore[arg-type]
    assert web.base_url == "http://[::1]:81"
    proxied = WebServer(None, None, port=8080, base_url="https://hokm.example.org/x/")  # type: ignore[arg-type]
    assert proxied.page_url(5, "s") == "https://hokm.example.org/x/g/5/s/"


async def test_v6_a_shelem_match_is_listed_by_its_teams_and_replayed_with_its_bidding(
    served: Served,
) -> None:
    """A finished Shelem match on the page: its teams in the listing, and its replay
    with the lines the Discord Replay says (the bidding, the kitty, the points), every name
    escaped, every seat's cards as card faces, and the hand's result after its last trick."""
    kept, match = played_shelem(
        3, (11, 12, None, 14), GUILD, 9, names=[HOSTILE, "bahar", "", "darya"]
    )
    assert await served.store.finish_match(kept)
    status, page, _ = await served.get(served.home)
    matches = page[page.index('id="matches"') :]
    row = next(li for li in matches.split('<li class="match">') if f"m/{kept.match_id}" in li)
    assert status == 200 and "Shelem" in row and "bahar" in row and "darya" in row
    url = served.home + f"m/{kept.match_id}?lang=en"
    status, page, _ = await served.get(url)
    assert status == 200 and "Hand 1 of" in page and "Shelem" in page
    assert HOSTILE not in page and html.escape(HOSTILE) in page
    assert "Bidding: " in page and "Kitty" in page and "Points this hand: " in page
    assert seat_cards(page) == [12, 12, 12, 12]
    told = shelem_story(kept.replay)
    last = f"?lang=en&h=0&t={len(told.hands[0].tricks)}"
    status, page, _ = await served.get(urljoin(url, last))
    assert status == 200 and seat_cards(page) == [0, 0, 0, 0]
    result = {"made": "make their bid", "set": "fall short", "double_set": "fall short"}
    assert result.get(told.hands[0].result.kind, "in hand 1") in page
    status, page, _ = await served.get(urljoin(url, "?lang=fa&h=0&t=1"))
    assert status == 200 and "خواندن: " in page and "امتیاز این دور" in page
    assert match.is_over


def test_a_listed_match_of_an_unknown_shape_writes_its_scores_as_a_score_pair() -> None:
    """A match whose scores do not fit a known format (an import) still reads its score the way
    every other score reads: «۲۱۵ بر −۳۵» in Persian, never a dash between the numbers."""
    from datetime import UTC, datetime

    from bot.present import web_pages, web_player
    from bot.store.records import HistoryEntry

    entry = HistoryEntry(
        "m1", 5, datetime(2026, 1, 1, tzinfo=UTC), "gone", 7, (215, -35), 0, False, ()
    )
    for module in (web_pages, web_player):
        shown = module._teams("fa", entry)
        assert "بر" in shown and "—" not in shown and "\u2212" in shown, module.__name__
        assert "215 – −35" in module._teams("en", entry), module.__name__

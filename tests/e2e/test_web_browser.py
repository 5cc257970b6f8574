"""The web page in a real browser: Debian's Chromium, driven by Playwright, opens the
address a server admin was shown privately by ``/hokm settings web:true`` (the real bot
against the Discord double). The leaderboard shows a hostile name as text (no script runs,
no element is injected), the strict policy lets the page's own stylesheet apply and nothing
else, a replay steps forward and back by its links, the Persian page lays out right to left,
and a wrong secret, then the page turned off, get 404.

On the page served over a store of finished matches of every format: every page, in
both languages, at 360 × 740 (a phone) and 1280 × 800, with 32-character names, has no
horizontal scroll; ← → step a replay and its links do without script; the dark theme; the
README's screenshots (``docs/screenshots/``, written under ``HOKM_WRITE_SCREENSHOTS=1``); and
axe-core (from the npm registry, ``tests/e2e/axe/``) finds no serious or critical violation.

Chromium is a Debian package, not a Python one: where it is missing the tests are skipped,
saying how to install it (npm likewise), except under ``HOKM_TEST_REQUIRE_BROWSER=1``
(``.ci/run`` sets it after installing them), where a missing browser or npm fails the run
instead of hiding the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from bot.discord.client import HokmBot
from bot.service.puzzles import PuzzleBook
from bot.store import FinishedMatch
from bot.store.guild_settings import GuildSettings
from engine.dd_analysis import SOLVER_VERSION
from engine.rules import FORMATS, hokm_formats
from engine.shelem.story import story as shelem_story
from engine.story import story
from tests.double.server import DiscordDouble
from tests.matches import played
from tests.puzzle_matches import analysed
from tests.web.analysis_sample import analysis_of
from tests.web.conftest import GUILD, Served, serving
from tests.web.sample import LONG_NAMES, hokm_match, shelem_match
from tests.web.tournament_sample import sample_tournament, store_tournament

from .conftest import BotFactory

INSTALL = "apt-get install chromium chromium-driver"
HOSTILE = "<i id=x><script>alert()</script>"
"""Markup, if the page did not escape it (32 characters: a name is cut after that)."""
TOURNAMENT: Final = "7a" * 6
"""The stored tournament's id (``sample_tournament``'s)."""
URL = re.compile(r"http://127\.0\.0\.1:\d+/g/\d+/[A-Za-z0-9_-]{32,}/")


@pytest.fixture
def chromium() -> str:
    """Debian's Chromium, or the test is skipped (failed under ``HOKM_TEST_REQUIRE_BROWSER``)
    before the bot is started for nothing."""
    found = shutil.which("chromium")
    if found is not None:
        return found
    missing = f"Debian's chromium is not installed; the browser test needs it: {INSTALL}"
    if os.environ.get("HOKM_TEST_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{missing} (HOKM_TEST_REQUIRE_BROWSER=1)")
    pytest.skip(missing)


@pytest.mark.parametrize("bot_db_url", ["sqlite"], indirect=True)
async def test_the_web_page_in_chromium_leaderboard_replay_persian_and_404s(
    chromium: str, discord_double: DiscordDouble, make_bot: BotFactory
) -> None:
    from playwright.async_api import async_playwright

    double = discord_double
    guild, channel, admin = double.guild, double.channel, double.manager
    assert guild is not None and channel is not None and admin is not None
    a, b, _, d = double.members
    bot: HokmBot = await make_bot(web_port=0)
    names = [HOSTILE, "bahar", "", "darya"]
    match = played(400, (a.id, b.id, None, d.id), guild.id, 0, names)
    assert await bot.store.finish_match(match)
    told = story(match.replay)
    rec = await double.slash(admin, channel, "hokm settings", {"web": True})
    assert rec.ephemeral and rec.message is not None
    shown = URL.search(rec.message.text)
    assert shown is not None, rec.message.text
    url = shown.group(0)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium)
        try:
            page = await browser.new_page()
            page.set_default_timeout(30_000)
            console: list[str] = []
            dialogs: list[str] = []
            page.on("console", lambda message: console.append(message.text))
            page.on("dialog", lambda dialog: dialogs.append(dialog.message))

            # ------------------------------------------------------- the English page
            answer = await page.goto(url)
            assert answer is not None and answer.status == 200
            assert await page.evaluate("document.documentElement.lang") == "en"
            board = page.locator("#leaderboard table")
            assert await board.is_visible()
            players = await page.locator("#leaderboard td.player").all_inner_texts()
            assert HOSTILE in players and "bahar" in players  # the name, shown as text
            assert await page.locator("script").count() == 0
            assert await page.locator("#x").count() == 0  # no element came from a name
            # the page's own stylesheet applies under its policy
            background = "getComputedStyle(document.body).backgroundColor"
            assert await page.evaluate(background) == "rgb(244, 241, 234)"

            # ------------------------------------------------------- a replay, stepped
            await page.locator("a.replay").first.click()
            await page.wait_for_url(re.compile(r"/m/"))
            seats = page.locator(".felt .seat")
            assert await seats.count() == 4
            for seat in range(4):
                assert await seats.nth(seat).locator(".card").count() == 13
            card = page.locator(".seat .card").first
            box = await card.bounding_box()
            assert box is not None and box["width"] > 20 and box["height"] > box["width"]
            radius = await card.evaluate("c => getComputedStyle(c).borderTopLeftRadius")
            assert radius not in ("", "0px")  # drawn as a card, by the stylesheet
            await page.locator('a[data-step="forward"]').click()
            await page.wait_for_url(re.compile(r"[?&]t=1\b"))
            played_codes = await page.locator(".trick .card").evaluate_all(
                "cards => cards.map(c => c.dataset.card)"
            )
            assert played_codes == [c.code for _, c in told.hands[0].tricks[0].plays(4)]
            for seat in range(4):
                assert await seats.nth(seat).locator(".card").count() == 12
            await page.locator('a[data-step="back"]').click()
            await page.wait_for_url(re.compile(r"[?&]t=0\b"))
            assert await page.locator(".trick .card").count() == 0
            for seat in range(4):
                assert await seats.nth(seat).locator(".card").count() == 13

            # ------------------------------------------------------- the Persian page
            await page.locator('a[hreflang="fa"]').click()
            await page.wait_for_url(re.compile(r"lang=fa"))
            direction = "getComputedStyle(document.documentElement).direction"
            assert await page.evaluate(direction) == "rtl"
            assert await page.evaluate("document.documentElement.lang") == "fa"
            # a seat reads right to left (its name at its right), the table keeps its places
            # (seat 1 sits on the right of the felt in both languages)
            felt = await page.locator(".felt").bounding_box()
            bottom = await seats.nth(0).bounding_box()
            name = await seats.nth(0).locator("h3 bdi").bounding_box()
            right = await seats.nth(1).bounding_box()
            assert felt is not None and name is not None and bottom is not None
            assert right is not None
            assert name["x"] + name["width"] > bottom["x"] + bottom["width"] - 40
            assert right["x"] > felt["x"] + felt["width"] / 2
            assert await seats.nth(0).locator(".card").count() == 13  # still the deal

            # ------------------------------------------------------- nothing leaked or ran
            assert dialogs == []
            assert not [m for m in console if "Content Security Policy" in m], console

            # ------------------------------------------------------- 404s
            secret = url.rstrip("/").rsplit("/", 1)[1]
            wrong = url.replace(secret, secret[::-1])
            answer = await page.goto(wrong)
            assert answer is not None and answer.status == 404
            assert "404" in await page.locator("h1").inner_text()
            rec = await double.slash(admin, channel, "hokm settings", {"web": False})
            assert rec.message is not None
            answer = await page.goto(url)
            assert answer is not None and answer.status == 404
            assert await page.locator("#leaderboard").count() == 0
        finally:
            await browser.close()


# ---------------------------------------------------------------------- phones

PHONE: Final = {"width": 360, "height": 740}
DESKTOP: Final = {"width": 1280, "height": 800}
SIZES: Final = {"phone": PHONE, "desktop": DESKTOP}
SCREENSHOTS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
"""Where ``HOKM_WRITE_SCREENSHOTS=1`` has the layout test write its pictures (the README's)."""
FRIENDLY: Final = ("Sara", "مهسا رضایی", "", "Dariush", "نیلوفر", "Kian")
SHOWN_GUILD: Final = 4646
"""The screenshots' names (the layout itself is checked with ``LONG_NAMES``)."""

OVERFLOW: Final = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest(".sr")) continue;
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1))
      out.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return {scroll: document.documentElement.scrollWidth, width, out: out.slice(0, 5)};
}"""
"""The page's width as scrolled against the screen's, and the first elements past an edge."""
COMMAND_GLYPHS: Final = """() => {
  const code = document.querySelector("footer code");
  if (!code) return null;
  const text = code.firstChild, range = document.createRange();
  const box = (i) => { range.setStart(text, i); range.setEnd(text, i + 1);
    const r = range.getBoundingClientRect(); return {left: r.left, right: r.right, y: r.top}; };
  return [box(0), box(1)];
}"""
"""Where the footer command's "/" and "h" are drawn: "/" first, on the left, in both
languages (the Persian page showed ``hokm settings web:false/``)."""


async def store_every_format(served: Served, names: Sequence[str], guild: int = GUILD) -> dict:
    """A finished match of every Hokm format and of Shelem, with and without jokers, named
    ``names``, each with an analysis (graded, or "no analysis" for a format the solver does
    not value): its key (the format, or ``shelem``, ``shelem_joker``) to the match; and the
    server's puzzles, so the home page shows its puzzle of the day."""
    kept = {}
    for n, fmt_name in enumerate(hokm_formats()):
        kept[fmt_name] = hokm_match(fmt_name, 60 + n, guild, 20 + n, names)
    kept["shelem"] = shelem_match(80, guild, 40, names)
    kept["shelem_joker"] = shelem_match(81, guild, 41, names, joker=True)
    for match in kept.values():
        assert await served.store.finish_match(match)
    for name, match in kept.items():  # each match's page with its analysis's lines
        analysed_at = match.finished_at
        assert await served.store.save_analysis(
            match.match_id, analysis_of(name), analysed_at, solver=SOLVER_VERSION
        )
    # a finished tournament (its page, linked from the home page) named with the same names
    await store_tournament(served.store, sample_tournament(guild, names, name=(names[0] * 3)[:80]))
    # the puzzle of the day on the home page (from the fixture's match of seed 101)
    puzzled = next(m for m in served.matches if m.match_id == f"{101:012x}")
    if puzzled.guild_id == guild:
        assert await PuzzleBook(served.store).harvest(puzzled.match_id, analysed(puzzled.replay))
    return kept


def frames(match: FinishedMatch) -> list[tuple[int, int]]:
    """A replay's widest frames: the first hand's deal (every card in hand), its first trick
    (a card of every seat in the middle) and its last (the result's lines)."""
    told = shelem_story(match.replay) if match.game_format == "shelem" else story(match.replay)
    tricks = len(told.hands[0].tricks)
    return [(0, 0), (0, 1), (0, tricks)]


async def browser_page(playwright: Any, chromium: str, size: str, **options: Any) -> Any:
    browser = await playwright.chromium.launch(executable_path=chromium)
    phone = size == "phone"
    context = await browser.new_context(
        viewport=SIZES[size], is_mobile=phone, has_touch=phone, **options
    )
    page = await context.new_page()
    page.set_default_timeout(30_000)
    return browser, page


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fa"])
async def test_every_page_fits_the_screen_with_the_longest_names(
    chromium: str, tmp_path: Path, size: str, lang: str
) -> None:
    """At 360 × 740 (a phone) and 1280 × 800, in both languages, with
    32-character names (markup, Persian, the widest Latin letters) at every seat: every
    leaderboard, the matches, every format's replay at its widest frames, a refusal and the
    404 have no horizontal scroll and nothing past an edge; the leaderboard's rows are drawn
    (the Persian one was blank on a phone)."""
    from playwright.async_api import async_playwright

    async with serving(tmp_path) as served, async_playwright() as playwright:
        kept = await store_every_format(served, LONG_NAMES)
        boards = [served.home + f"?lang={lang}"]
        boards += [served.home + f"?lang={lang}&format={name}" for name in FORMATS]
        urls = list(boards)
        urls += [
            served.home + f"m/{match.match_id}?lang={lang}&h={h}&t={t}"
            for match in kept.values()
            for h, t in frames(match)
        ]
        # the members' and the matches' pages (items 7 and 8)
        urls += [served.home + f"p/{1000 + seat}/?lang={lang}" for seat in (0, 1, 2, 4)]
        urls += [served.home + f"p/1000/?lang={lang}&format=shelem"]
        urls += [served.home + f"m/{match.match_id}/?lang={lang}" for match in kept.values()]
        urls += [served.home + f"m/{'f' * 12}?lang={lang}", served.home + "nowhere"]
        urls += [served.home + f"t/{TOURNAMENT}/?lang={lang}"]  # a tournament's page
        browser, page = await browser_page(playwright, chromium, size)
        try:
            for url in urls:
                answer = await page.goto(url)
                assert answer is not None and answer.status in (200, 404), url
                fits = await page.evaluate(OVERFLOW)
                assert fits["scroll"] <= fits["width"] and not fits["out"], (url, fits)
                glyphs = await page.evaluate(COMMAND_GLYPHS)  # None: the 404 has no footer
                if glyphs is not None:
                    slash, h = glyphs
                    assert slash["y"] == h["y"] and slash["right"] <= h["left"] + 1, (url, glyphs)
                if url in boards:
                    rows = page.locator("#leaderboard tbody tr")
                    assert await rows.count() > 0, url
                    box = await rows.first.bounding_box()
                    assert box is not None and box["height"] > 10 and box["width"] > 200
                    assert await rows.first.locator("td.player").inner_text()
        finally:
            await browser.close()


async def test_the_replay_steps_by_arrow_keys_and_by_its_links_without_script(
    chromium: str, tmp_path: Path
) -> None:
    """← → step a replay (the page's one script, allowed by its hash: no
    policy error); with script off, the same steps are its links."""
    from playwright.async_api import async_playwright

    async with serving(tmp_path) as served, async_playwright() as playwright:
        match = served.matches[0]
        url = served.home + f"m/{match.match_id}?lang=fa"
        for script in (True, False):
            browser, page = await browser_page(
                playwright, chromium, "phone", java_script_enabled=script
            )
            console: list[str] = []
            page.on("console", lambda message, seen=console: seen.append(message.text))
            try:
                await page.goto(url)
                if script:
                    await page.keyboard.press("ArrowRight")
                    await page.wait_for_url(re.compile(r"[?&]t=1\b"))
                    await page.keyboard.press("ArrowRight")
                    await page.wait_for_url(re.compile(r"[?&]t=2\b"))
                    await page.keyboard.press("ArrowLeft")
                    await page.wait_for_url(re.compile(r"[?&]t=1\b"))
                else:
                    await page.locator('a[data-step="forward"]').click()
                    await page.wait_for_url(re.compile(r"[?&]t=1\b"))
                    await page.locator(".tricks a").nth(3).click()  # the list of tricks
                    await page.wait_for_url(re.compile(r"[?&]t=3\b"))
                assert await page.locator(".trick .card").count() == 4
                assert not [m for m in console if "Content Security Policy" in m], console
            finally:
                await browser.close()


async def test_the_dark_theme_follows_the_system(chromium: str, tmp_path: Path) -> None:
    """``prefers-color-scheme: dark`` gives a dark page, light a light one."""
    from playwright.async_api import async_playwright

    background = "getComputedStyle(document.body).backgroundColor"
    async with serving(tmp_path) as served, async_playwright() as playwright:
        for scheme, colour in (("light", "rgb(244, 241, 234)"), ("dark", "rgb(22, 24, 27)")):
            browser, page = await browser_page(playwright, chromium, "phone", color_scheme=scheme)
            try:
                await page.goto(served.home)
                assert await page.evaluate(background) == colour
            finally:
                await browser.close()


async def test_the_readmes_screenshots_fit_their_screens(chromium: str, tmp_path: Path) -> None:
    """The README's pictures: the leaderboard, a member's page and a 4-seat, a 6-seat (the
    joker six) and a Shelem replay, at both sizes in both languages, each fitting its screen;
    written into ``docs/screenshots/`` (kept in the repository) under
    ``HOKM_WRITE_SCREENSHOTS=1``, else into the test's own directory."""
    from playwright.async_api import async_playwright

    into = SCREENSHOTS if os.environ.get("HOKM_WRITE_SCREENSHOTS") == "1" else tmp_path / "shots"
    into.mkdir(parents=True, exist_ok=True)
    named = {"guild_name": lambda _: "Pars Club"}
    async with serving(tmp_path, **named) as served, async_playwright() as playwright:
        # a server of its own, whose page holds these matches only
        await served.store.set_guild_settings(SHOWN_GUILD, GuildSettings(web=True))
        secret = await served.store.web_secret(SHOWN_GUILD)
        assert secret is not None
        home = served.web.page_url(SHOWN_GUILD, secret)
        kept = await store_every_format(served, FRIENDLY, SHOWN_GUILD)
        shown = {"replay-4": kept["standard"], "replay-6": kept["joker_six"]}
        shown["replay-shelem"] = kept["shelem"]
        for size in SIZES:
            browser, page = await browser_page(playwright, chromium, size)
            try:
                for lang in ("en", "fa"):
                    pages = {"leaderboard": home + f"?lang={lang}"}
                    pages["member"] = home + f"p/1000/?lang={lang}"  # Sara's page (item 7)
                    for name, match in shown.items():
                        pages[name] = home + f"m/{match.match_id}?lang={lang}&h=0&t=3"
                    for name, url in pages.items():
                        await page.goto(url)
                        fits = await page.evaluate(OVERFLOW)
                        assert fits["scroll"] <= fits["width"], (url, fits)
                        path = into / f"{name}-{size}-{lang}.png"
                        await page.screenshot(path=str(path), full_page=True)
                        assert path.stat().st_size > 10_000  # a picture, not a blank
            finally:
                await browser.close()


# ---------------------------------------------------------------------- axe-core

AXE: Final = Path(__file__).resolve().parent / "axe"
"""``package.json`` and ``package-lock.json`` pinning axe-core (its version and hash)."""


def needed(what: str) -> None:
    """Skip, saying what is missing; under ``HOKM_TEST_REQUIRE_BROWSER`` (CI) fail instead."""
    if os.environ.get("HOKM_TEST_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{what} (HOKM_TEST_REQUIRE_BROWSER=1)")
    pytest.skip(what)


@pytest.fixture(scope="session")
def axe_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """axe-core from the npm registry, exactly as ``tests/e2e/axe/package-lock.json`` pins it,
    installed by ``npm ci`` into a directory of the test run's own (the repository gets no
    ``node_modules``): the path of its ``axe.min.js``."""
    npm = shutil.which("npm")
    if npm is None:
        needed("npm is not installed; the accessibility check needs it: apt-get install npm")
    into = tmp_path_factory.mktemp("axe")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(AXE / name, into / name)
    command = [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]
    done = subprocess.run(command, cwd=into, capture_output=True, text=True, timeout=300)
    script = into / "node_modules" / "axe-core" / "axe.min.js"
    if done.returncode != 0 or not script.is_file():
        needed(f"npm ci could not install axe-core ({done.returncode}): {done.stderr[-500:]}")
    return script


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_no_page_has_a_serious_or_critical_accessibility_violation(
    chromium: str, axe_script: Path, tmp_path: Path, scheme: str
) -> None:
    """Axe-core (WCAG 2 A and AA rules and its best practices) on every kind
    of page, both languages, phone and desktop, light and dark: no serious or critical
    violation. axe is injected into the page, so this context alone bypasses the policy."""
    from playwright.async_api import async_playwright

    async with serving(tmp_path) as served, async_playwright() as playwright:
        kept = await store_every_format(served, LONG_NAMES)
        found: list[str] = []
        for size in SIZES:
            browser, page = await browser_page(
                playwright, chromium, size, bypass_csp=True, color_scheme=scheme
            )
            try:
                for lang in ("en", "fa"):
                    urls = [served.home + f"?lang={lang}", served.home + f"?lang={lang}&page=2"]
                    for key in ("standard", "joker_six", "three", "shelem_joker"):
                        urls.append(served.home + f"m/{kept[key].match_id}?lang={lang}&t=1")
                    urls += [served.home + f"p/1000/?lang={lang}"]
                    urls += [served.home + f"m/{kept['six_pairs'].match_id}/?lang={lang}"]
                    urls += [served.home + f"m/{'f' * 12}?lang={lang}", served.home + "nowhere"]
                    urls += [served.home + f"t/{TOURNAMENT}/?lang={lang}"]
                    for url in urls:
                        await page.goto(url)
                        await page.add_script_tag(path=str(axe_script))
                        result = await page.evaluate("() => axe.run(document)")
                        assert result["passes"], url  # axe ran its rules
                        for violation in result["violations"]:
                            if violation["impact"] in ("serious", "critical"):
                                targets = [n["target"] for n in violation["nodes"][:3]]
                                found.append(f"{size} {url}: {violation['id']} {targets}")
            finally:
                await browser.close()
        assert not found, "\n".join(found)

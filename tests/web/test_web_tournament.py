"""A tournament's page on the server's web page (docs/rules.md T5, T10): its standings,
rounds, pairings and results, each played match linked; listed on the home page; names and
the tournament's name escaped; another server's tournament, or none, the page's 404."""

from __future__ import annotations

import re
from pathlib import Path

from bot.present.i18n import t
from tests.web.conftest import GUILD, HOSTILE, OTHER_GUILD, serving
from tests.web.tournament_sample import FIRST_MEMBER, sample_tournament, store_tournament

NAMES = (HOSTILE, "bahar", "مهسا", "darya")


async def test_a_finished_tournaments_page_shows_standings_rounds_and_results(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as served:
        state = sample_tournament(GUILD, NAMES)
        assert state.status == "finished"
        await store_tournament(served.store, state)
        status, page, headers = await served.get(served.home + f"t/{state.tournament_id}/")
        assert status == 200, page
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert "<script>alert" not in page and "<b>cup</b>" not in page  # escaped
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;b&gt;cup" in page
        assert page.count('<section id="round-') == 3
        rows = re.findall(r"<tr>.*?</tr>", page.split('id="standings"')[1].split("</table>")[0])
        assert len(rows) == 1 + 8  # the heads, then every player of the individual Swiss
        assert t("en", "web.t_standings") in page and t("en", "tstandings.legend") in page
        for k in range(2):  # every played table links its match's page
            table = state.core.rounds[2].tables[k]
            assert table.result is not None and table.result.played
            assert f'href="../../m/{state.slots[(3, k)].table_id}/?lang=en"' in page
        assert f"m/{state.slots[(1, 0)].table_id}/" not in page  # the forfeit: no match
        assert "did not join" in page
        assert f'href="../../p/{FIRST_MEMBER}/?lang=en"' in page  # a member's page
        assert "🏆" in page.split('id="tournament"')[1].split("</section>")[0]  # the winners
        status, fa, _ = await served.get(served.home + f"t/{state.tournament_id}/?lang=fa")
        assert status == 200 and 'dir="rtl"' in fa and t("fa", "web.t_standings") in fa
        assert "مرحلهٔ" in fa and "۳" in fa


async def test_the_home_page_lists_the_servers_tournaments_only(tmp_path: Path) -> None:
    async with serving(tmp_path) as served:
        ours = sample_tournament(GUILD, NAMES, rounds_played=1)
        theirs = sample_tournament(OTHER_GUILD, NAMES, tournament_id="5b" * 6, name="Theirs")
        await store_tournament(served.store, ours)
        await store_tournament(served.store, theirs)
        status, home, _ = await served.get(served.home)
        assert status == 200
        assert f'href="t/{ours.tournament_id}/?lang=en"' in home
        assert "Round 2 of 3" in home  # a running one says where it is
        assert theirs.tournament_id not in home and "Theirs" not in home
        status, page, _ = await served.get(served.home + f"t/{theirs.tournament_id}/")
        assert status == 404 and t("en", "web.no_such_page") in page
        status, page, _ = await served.get(served.home + f"t/{'0' * 12}/")
        assert status == 404
        for junk in ("t/xyz/", f"t/{ours.tournament_id}", f"t/{'A' * 12}/"):
            status, page, _ = await served.get(served.home + junk)
            assert status == 404, junk

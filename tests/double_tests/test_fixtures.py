"""The fixture's own contract: a test whose bot calls an unknown route fails at teardown."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_unknown_route_fails_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('pytest_plugins = ["tests.double.fixtures"]\n')
    pytester.makepyfile(
        """
        import aiohttp

        async def test_calls_a_route_the_double_lacks(discord_double):
            url = discord_double.api_base + "/guilds/1/bans/2"
            async with aiohttp.ClientSession() as session, session.delete(url) as resp:
                assert resp.status == 404
                assert await resp.json() == {"message": "404: Not Found", "code": 0}
        """
    )

    result = pytester.runpytest(
        "-o", "asyncio_mode=auto", "-o", "asyncio_default_fixture_loop_scope=function"
    )

    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*does not implement*DELETE /guilds/1/bans/2*"])

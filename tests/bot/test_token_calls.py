"""The hot interaction-token calls send discord.py's own JSON without discord.py's
objects, and read Discord's answers as discord.py's webhook adapter does."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params

from bot.discord import token_calls
from bot.discord.ui import message_kwargs
from bot.present import render
from bot.present.specs import ButtonSpec, EmbedSpec, MessageSpec
from engine import PLAY

from .test_hand_story import play_until, playing_table


def _specs() -> list[MessageSpec]:
    specs = []
    for lang in ("en", "fa"):
        table = playing_table(lang)
        for done in (
            lambda m: True,
            lambda m: m.phase == PLAY and len(m.trick) == 2,
            lambda m: len(m.tricks) == 3 and not m.trick,
            lambda m: m.hand_number == 2,
        ):
            play_until(table, done)
            specs.append(render.table_message(table))
            for seat in range(4):
                for live in (True, False):
                    specs.append(render.hand_message(table, seat, live=live))
                specs.append(render.hand_message(table, seat, ephemeral=True))
            specs.append(render.closed_hand_message(table, 1, ephemeral=False))
    specs.append(MessageSpec(content="only words"))
    specs.append(MessageSpec(embed=EmbedSpec(title="", description="", color=0, footer="f")))
    specs.append(
        MessageSpec(
            embed=EmbedSpec(title="t", description="d" * 5000, fields=(("n", "", False),)),
            rows=((ButtonSpec("hokm:x", "X", "danger", disabled=True),),),
        )
    )
    return specs


def test_the_payload_is_discord_pys_own_for_every_kind_of_message() -> None:
    none = discord.AllowedMentions.none()  # the bot's default (client.py)
    specs = _specs()
    assert len(specs) > 50
    for spec in specs:
        kwargs = message_kwargs(spec)
        with handle_message_parameters(**kwargs, previous_allowed_mentions=none) as params:
            assert token_calls.payload(spec) == params.payload, spec
        answer = interaction_message_response_params(
            type=7, previous_allowed_mentions=none, **kwargs
        )
        assert {"type": 7, "data": token_calls.payload(spec)} == answer.payload
        json.dumps(token_calls.payload(spec))  # plain JSON


@dataclasses.dataclass
class Script:
    """What the server answers, in turn; what it was sent."""

    answers: list[tuple[int, dict[str, str], Any]]
    seen: list[tuple[str, str, Any]] = dataclasses.field(default_factory=list)


@pytest.fixture
async def server() -> AsyncIterator[tuple[TestServer, Script]]:
    script = Script([])

    async def handle(request: web.Request) -> web.Response:
        script.seen.append((request.method, request.path_qs, await request.json()))
        status, headers, body = script.answers.pop(0)
        return web.Response(
            status=status,
            headers={"Content-Type": "application/json", **headers},
            body=json.dumps(body).encode(),
        )

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    test_server = TestServer(app)
    await test_server.start_server()
    try:
        yield test_server, script
    finally:
        await test_server.close()


async def _call(test_server: TestServer, session: aiohttp.ClientSession, bucket: bool) -> None:
    url = str(test_server.make_url("/api/v10/webhooks/1/tok/messages/@original"))
    await token_calls._request(session, "PATCH", url, b'{"content":"x"}', bucket=bucket)


async def test_answers_are_read_as_discord_py_reads_them(
    server: tuple[TestServer, Script], monkeypatch: pytest.MonkeyPatch
) -> None:
    test_server, script = server
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(token_calls.asyncio, "sleep", sleep)
    limited = {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
    async with aiohttp.ClientSession() as session:
        script.answers = [(429, {"Via": "1.1 google"}, limited), (200, {}, {"id": "5"})]
        await _call(test_server, session, bucket=True)  # waited out, then sent again
        assert slept == [0.25] and len(script.seen) == 2
        assert script.seen[0][:2] == ("PATCH", "/api/v10/webhooks/1/tok/messages/@original")
        assert script.seen[0][2] == {"content": "x"}

        script.answers = [(429, {}, limited)]  # no Via: Cloudflare's, not Discord's
        with pytest.raises(discord.HTTPException):
            await _call(test_server, session, bucket=True)

        script.answers = [(404, {}, {"message": "Unknown interaction", "code": 10062})]
        with pytest.raises(discord.NotFound) as gone:
            await _call(test_server, session, bucket=True)
        assert gone.value.code == 10062

        script.answers = [(403, {}, {"message": "Missing Access", "code": 50001})]
        with pytest.raises(discord.Forbidden):
            await _call(test_server, session, bucket=True)

        slept.clear()
        script.answers = [(500, {}, {"message": "x"})] * 5
        with pytest.raises(discord.DiscordServerError):
            await _call(test_server, session, bucket=True)
        assert slept == [1, 3, 5, 7]

        slept.clear()  # the token's bucket said empty: its next edit waits for it
        empty = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "1.5"}
        script.answers = [(200, empty, {"id": "5"})]
        await _call(test_server, session, bucket=True)
        assert slept == [1.5]
        script.answers = [(204, empty, None)]
        await _call(test_server, session, bucket=False)  # an answer's token is used once
        assert slept == [1.5]


async def test_a_closed_session_is_a_failed_call_not_a_crash() -> None:
    """An edit that waited for the courtesy budget meets the bot stopping (it raised
    RuntimeError('Session is closed') out of a worker task, logged as an error)."""
    session = aiohttp.ClientSession()
    await session.close()

    class Stopping:
        _session = session

    with pytest.raises(aiohttp.ClientError):
        await token_calls.edit_through(Stopping(), MessageSpec(content="x"))  # type: ignore[arg-type]
    await asyncio.sleep(0)

"""The hot interaction-token calls without discord.py's objects (issue 33): a card's answer (the
clicked hand updated in place) and the live edits of members' hands.

discord.py builds, for each such call, a ``View`` of ``Button`` objects and an ``Embed`` from
our ``MessageSpec`` only to turn them back into JSON, a ``Route``, and from the answer a
``Message`` (with its components) that nothing here reads; aiohttp then a request, a response,
a URL, a timeout and a task to write the body: together more CPU than the request itself. Here
the spec becomes the same JSON body directly (``payload``; a test compares it with
discord.py's), encoded by orjson, and goes on a kept-alive connection of ``http_lite`` (a pool
per discord.py session, so per bot and loop). Answers are read as discord.py's webhook adapter
reads them: a 429 with ``Via`` is waited out and tried again, a 5xx tried again, anything else
raises the same ``discord`` exception (``NotFound``, ``Forbidden``, ``HTTPException``), a failed
connection aiohttp's ``ClientConnectionError``; a token's bucket said empty waits before its next
edit. With a proxy configured, or an interaction that lacks what this needs, the call goes
through discord.py as before.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import aiohttp
import discord
import orjson
from discord.enums import InteractionResponseType
from discord.http import Route

from ..present.specs import ButtonSpec, EmbedSpec, MessageSpec
from .http_lite import Answer, Pool
from .ui import NO_PINGS, message_kwargs

log = logging.getLogger(__name__)

STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
"""``ButtonSpec.style`` as Discord's button style numbers (``discord.ButtonStyle``)."""
MENTIONS = NO_PINGS.to_dict()
ATTEMPTS = 5
"""As discord.py's webhook adapter: a 429 or a 5xx is tried again, up to five times."""


def payload(spec: MessageSpec) -> dict[str, Any]:
    """The JSON body discord.py sends for ``message_kwargs(spec)`` in an edit."""
    return {
        "tts": False,
        "embeds": [] if spec.embed is None else [_embed(spec.embed)],
        "content": spec.content or None,
        "components": [_row(row) for row in spec.rows],
        "allowed_mentions": dict(MENTIONS),
    }


def _embed(e: EmbedSpec) -> dict[str, Any]:
    """``ui.embed_of(spec).to_dict()``."""
    data: dict[str, Any] = {"flags": 0, "type": "rich"}
    if e.color is not None:  # 0 too: discord.py's Colour(0) is kept
        data["color"] = e.color
    if e.title:
        data["title"] = e.title
    description = e.description[:4096]
    if description:
        data["description"] = description
    if e.fields:
        data["fields"] = [
            {"inline": inline, "name": str(name), "value": str(value or "\u200b")}
            for name, value, inline in e.fields
        ]
    if e.footer:
        data["footer"] = {"text": e.footer}
    return data


def _row(buttons: tuple[ButtonSpec, ...]) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [
            {
                "type": 2,
                "style": STYLES[b.style],
                "disabled": b.disabled,
                "label": b.label,
                "custom_id": b.custom_id,
            }
            for b in buttons
        ],
    }


async def answer_update(interaction: discord.Interaction, spec: MessageSpec) -> None:
    """Answer a button click by showing ``spec`` in the clicked message (type 7), as
    ``interaction.response.edit_message`` does; the response then counts as done."""
    pool = _pool(interaction)
    if pool is None or interaction.response.is_done():
        await interaction.response.edit_message(**message_kwargs(spec))
        return
    body = orjson.dumps(
        {"type": InteractionResponseType.message_update.value, "data": payload(spec)}
    )
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    await _request(pool, "POST", path, body, bucket=False)
    interaction.response._response_type = InteractionResponseType.message_update


async def edit_through(
    interaction: discord.Interaction, spec: MessageSpec, followup: int | None = None
) -> None:
    """Show ``spec`` in the interaction's response (``followup`` None) or in one of its
    follow-ups, as ``edit_original_response`` and ``followup.edit_message`` do."""
    pool = _pool(interaction)
    if pool is None:
        if followup is None:
            await interaction.edit_original_response(**message_kwargs(spec))
        else:
            await interaction.followup.edit_message(followup, **message_kwargs(spec))
        return
    message = "@original" if followup is None else str(followup)
    path = f"/webhooks/{interaction.application_id}/{interaction.token}/messages/{message}"
    await _request(pool, "PATCH", path, orjson.dumps(payload(spec)), bucket=True)


_POOLS: weakref.WeakKeyDictionary[aiohttp.ClientSession, dict[str, Pool]] = (
    weakref.WeakKeyDictionary()
)
"""Per discord.py session (one a bot, on its loop), a pool per API address (``Route.BASE``)."""


def _pool(interaction: discord.Interaction) -> Pool | None:
    """Connections for the interaction's calls, kept as long as discord.py's session; ``None``
    when a proxy (or an interaction without discord.py's session) needs discord.py's path.

    :raises aiohttp.ClientConnectionError: the session is closed (the bot is stopping; an edit
        that waited for the courtesy budget meets it), as a call failing on the way would."""
    session = getattr(interaction, "_session", None)
    http = getattr(getattr(interaction, "_state", None), "http", None)
    if not isinstance(session, aiohttp.ClientSession):
        return None
    pools = _POOLS.get(session)
    if session.closed:
        for stale in (pools or {}).values():
            stale.close()
        raise aiohttp.ClientConnectionError("the bot's HTTP session is closed")
    if http is None or getattr(http, "proxy", None) or getattr(http, "proxy_auth", None):
        return None
    if pools is None:
        pools = _POOLS[session] = {}
    base = Route.BASE
    pool = pools.get(base)
    if pool is None:
        try:
            pool = pools[base] = Pool(base)
        except ValueError:
            return None
    return pool


async def _request(pool: Pool, method: str, path: str, body: bytes, *, bucket: bool) -> None:
    """One call, answered as discord.py's webhook adapter answers it.

    :raises aiohttp.ClientConnectionError: the connection failed (as aiohttp's would)."""
    limited: discord.HTTPException | None = None
    for attempt in range(ATTEMPTS):
        try:
            answer = await pool.request(method, path, body)
        except OSError as exc:
            raise aiohttp.ClientConnectionError(f"{method} {pool.host}: {exc}") from exc
        status = answer.status
        if 200 <= status < 300:
            if bucket and answer.headers.get("x-ratelimit-remaining") == "0":
                await asyncio.sleep(_reset_after(answer))
            return
        data = _data(answer)
        if status == 429:
            if not answer.headers.get("via") or not isinstance(data, dict):
                raise discord.HTTPException(answer, data)
            limited = discord.HTTPException(answer, data)
            retry_after = float(data.get("retry_after", 1.0))
            log.warning("interaction token rate limited; again in %.2f s", retry_after)
            await asyncio.sleep(retry_after)
            continue
        if status >= 500:
            if attempt == ATTEMPTS - 1:
                raise discord.DiscordServerError(answer, data)
            await asyncio.sleep(1 + attempt * 2)
            continue
        if status == 403:
            raise discord.Forbidden(answer, data)
        if status == 404:
            raise discord.NotFound(answer, data)
        raise discord.HTTPException(answer, data)
    assert limited is not None  # every other way out returns or raises
    raise limited  # five 429s in a row


def _data(answer: Answer) -> dict[str, Any] | str:
    """The body as discord.py's ``json_or_text`` reads it."""
    text = answer.body.decode("utf-8", "replace")
    if answer.headers.get("content-type", "").startswith("application/json"):
        try:
            data = orjson.loads(answer.body)
        except orjson.JSONDecodeError:
            return text
        if isinstance(data, dict):
            return data
    return text


def _reset_after(answer: Answer) -> float:
    try:
        return max(0.0, float(answer.headers.get("x-ratelimit-reset-after", "0")))
    except ValueError:
        return 0.0

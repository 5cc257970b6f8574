"""The hot interaction-token calls without discord.py's objects: a card's answer (the
clicked hand updated in place) and the live edits of members' hands.

discord.py builds, for each such call, a ``View`` of ``Button`` objects and an ``Embed`` from
our ``MessageSpec`` only to turn them back into JSON, a ``Route``, and from the answer a
``Message`` (with its components) that nothing here reads: together more CPU than the request
itself. Here the spec becomes the same JSON body directly (``payload``; a test compares it with
discord.py's), encoded by orjson, and goes through the bot's own aiohttp session, so the
connections are discord.py's, kept alive. Answers are read as discord.py reads them: a 429 with
``Via`` is waited out and tried again, a 5xx tried again, anything else raises the same
``discord`` exception (``NotFound``, ``Forbidden``, ``HTTPException``); a token's bucket said
empty waits before its next edit. With a proxy configured, or an interaction that lacks what
this needs, the call goes through discord.py as before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
import orjson
from discord.enums import InteractionResponseType
from discord.http import Route, json_or_text

from ..present.specs import ButtonSpec, EmbedSpec, MessageSpec
from .ui import NO_PINGS, message_kwargs

log = logging.getLogger(__name__)

STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
"""``ButtonSpec.style`` as Discord's button style numbers (``discord.ButtonStyle``)."""
MENTIONS = NO_PINGS.to_dict()
HEADERS = {"Content-Type": "application/json"}
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
    session = _session(interaction)
    if session is None or interaction.response.is_done():
        await interaction.response.edit_message(**message_kwargs(spec))
        return
    body = orjson.dumps(
        {"type": InteractionResponseType.message_update.value, "data": payload(spec)}
    )
    url = f"{Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
    await _request(session, "POST", url, body, bucket=False)
    interaction.response._response_type = InteractionResponseType.message_update


async def edit_through(
    interaction: discord.Interaction, spec: MessageSpec, followup: int | None = None
) -> None:
    """Show ``spec`` in the interaction's response (``followup`` None) or in one of its
    follow-ups, as ``edit_original_response`` and ``followup.edit_message`` do."""
    session = _session(interaction)
    if session is None:
        if followup is None:
            await interaction.edit_original_response(**message_kwargs(spec))
        else:
            await interaction.followup.edit_message(followup, **message_kwargs(spec))
        return
    message = "@original" if followup is None else str(followup)
    url = (
        f"{Route.BASE}/webhooks/{interaction.application_id}/{interaction.token}/messages/{message}"
    )
    await _request(session, "PATCH", url, orjson.dumps(payload(spec)), bucket=True)


def _session(interaction: discord.Interaction) -> aiohttp.ClientSession | None:
    """discord.py's session for the interaction's calls, when nothing (a proxy) needs its
    own path.

    :raises aiohttp.ClientConnectionError: the session is closed (the bot is stopping; an edit
        that waited for the courtesy budget meets it), as a call failing on the way would."""
    session = getattr(interaction, "_session", None)
    http = getattr(getattr(interaction, "_state", None), "http", None)
    if not isinstance(session, aiohttp.ClientSession):
        return None
    if session.closed:
        raise aiohttp.ClientConnectionError("the bot's HTTP session is closed")
    if http is None or getattr(http, "proxy", None) or getattr(http, "proxy_auth", None):
        return None
    return session


async def _request(
    session: aiohttp.ClientSession, method: str, url: str, body: bytes, *, bucket: bool
) -> None:
    """One call, answered as discord.py's webhook adapter answers it."""
    limited: discord.HTTPException | None = None
    for attempt in range(ATTEMPTS):
        try:
            async with session.request(method, url, data=body, headers=HEADERS) as response:
                status = response.status
                if 200 <= status < 300:
                    await response.read()  # the connection goes back to the pool
                    if bucket and response.headers.get("X-Ratelimit-Remaining") == "0":
                        await asyncio.sleep(_reset_after(response))
                    return
                data = await json_or_text(response)
                if status == 429:
                    if not response.headers.get("Via") or not isinstance(data, dict):
                        raise discord.HTTPException(response, data)
                    limited = discord.HTTPException(response, data)
                    retry_after = float(data.get("retry_after", 1.0))
                    log.warning("interaction token rate limited; again in %.2f s", retry_after)
                    await asyncio.sleep(retry_after)
                    continue
                if status >= 500:
                    if attempt == ATTEMPTS - 1:
                        raise discord.DiscordServerError(response, data)
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                if status == 403:
                    raise discord.Forbidden(response, data)
                if status == 404:
                    raise discord.NotFound(response, data)
                raise discord.HTTPException(response, data)
        except OSError as exc:
            if attempt < ATTEMPTS - 1 and exc.errno in (54, 10054):
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
    assert limited is not None  # every other way out returns or raises
    raise limited  # five 429s in a row


def _reset_after(response: aiohttp.ClientResponse) -> float:
    try:
        return max(0.0, float(response.headers.get("X-Ratelimit-Reset-After", "0")))
    except ValueError:
        return 0.0

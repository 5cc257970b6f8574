"""The outbox job that shows a seat's hand in their DM (the global budget): an edit of this
hand's DM, or a new DM message (opening the DM channel the first time).

Such a DM is not kept current between the player's turns, so it is rendered ``live=False``
(``hand_dms``), from the newest committed snapshot of the table when the job goes, without the
table's lock (``snapshots``). What a send teaches (the DM's ids, a closed or deleted DM) goes back to the
service through ``TableFeedback``; where the DM is, is read when the job runs (``Shown``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import aiohttp
import discord

from ..present import render
from ..service.service import TableFeedback
from ..service.table import Table
from .channels import Channels
from .outbox import MARKER, URGENT, Job, Retry
from .ui import message_kwargs

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
Sig = tuple[object, ...]


def dm_job(
    bot: Channels,
    feedback: TableFeedback,
    table: Table,
    seat: int,
    unsent: Callable[[], object],
    newest: Callable[[Table], Table] = lambda table: table,
) -> Job:
    """The job for ``seat``'s DM, of a snapshot ``table``; ``unsent`` forgets what the DM was
    meant to show, when the send failed and is retried (so the next refresh submits it again);
    ``newest``: the newest snapshot of the table when the job goes (``Snapshots.newest``)."""

    shown = feedback.delivery(table.table_id)  # held: it outlives the table's end

    async def job() -> None:
        now = newest(table)
        s, dm = now.seat(seat), shown.now.dm(seat)
        match = now.match
        if match is None or s.user_id is None or dm.closed:
            return
        spec = render.hand_message(now, seat, live=False)  # not kept current
        hand_no = match.hand_number
        try:
            if not (dm.message_id and dm.hand == hand_no):  # posted by another process?
                dm = (await feedback.fresh_delivery(table.table_id)).dm(seat)
            if dm.message_id and dm.channel_id and dm.hand == hand_no:
                channel = bot.get_partial_messageable(dm.channel_id)
                await channel.get_partial_message(dm.message_id).edit(**message_kwargs(spec))
                return
            # The DM channel id is kept per seat: opening it again would cost a call
            # (discord.py caches only the last 128 DM channels).
            if dm.channel_id:
                dm_id = dm.channel_id
                channel_of: discord.abc.Messageable = bot.get_partial_messageable(dm_id)
            else:
                opened = await bot.create_dm(discord.Object(s.user_id))
                channel_of, dm_id = opened, opened.id
            message = await channel_of.send(**message_kwargs(spec))
            await feedback.dm_posted(table.table_id, seat, dm_id, message.id, hand_no)
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED_CODE:
                await feedback.dm_closed(table.table_id, seat)
            else:
                log.warning("table %s: DM to seat %s refused (%s)", table.table_id, seat, exc.code)
        except discord.NotFound:
            await feedback.dm_gone(table.table_id, seat)
            unsent()
            raise Retry from None
        except (TimeoutError, discord.DiscordServerError, aiohttp.ClientError) as exc:
            unsent()
            raise Retry from exc

    return job


def dm_priority(new_hand: bool, shown: Sig | None, signature: Sig | None) -> int:
    """New cards and the player's turn go first; other changes wait behind reports, as does a
    new hand's message with no cards yet (how the last hand ended). A signature's
    items 0, 2, 5: the hand, the seat's cards, its turn (``render.hand_signatures``)."""
    if signature is None:
        return URGENT if new_hand else MARKER
    dealt = shown is not None and shown[0] == signature[0] and not shown[2]
    return URGENT if (bool(signature[2]) and (new_hand or dealt)) or signature[5] else MARKER

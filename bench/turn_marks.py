"""When each member's hand showed that it was their turn.

The double calls ``TurnMarks.observe`` with every message as it is stored (created or edited,
``World.observers``), on the bench's own event loop, so the time of the version that first
marked a member's turn (trump buttons or green cards) is known exactly, on whichever surface
the bot chose: the member's DM or their "My hand" view. The table driver then asks, per turn,
for the first mark after the turn started (the dispatch of the click that ended the turn
before) and before the member gave up waiting and pressed "My hand".
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from bench.member import read_hand
from tests.double.models import StoredMessage
from tests.double.state import World

KEEP = 16
"""Marks kept per member (a turn looks back at most a few seconds)."""


class TurnMarks:
    """Per member (user id): the times their hand surfaces newly showed their turn."""

    def __init__(self, world: World, members: set[int]) -> None:
        self.world = world
        self.members = members
        self.marks: defaultdict[int, list[float]] = defaultdict(list)
        self._shown: dict[int, tuple[object, ...] | None] = {}
        """Per message: the turn its current version marks, if any (a mark is a new one)."""
        self.newest: dict[int, int] = {}
        """Per member: their newest private hand message in a channel (a "My hand" view or a
        follow-up the bot sent through their last click there)."""
        self.timed_ms: list[float] = []
        self.turns = 0
        self.marked = 0
        self.untimed = 0
        """Turns whose start the bench did not see: after a computer's move, or after a "My
        hand" probe that showed another player's turn (reported as ``untimed_after_computer``)."""

    def install(self) -> None:
        self.world.observers.append(self.observe)

    def observe(self, msg: StoredMessage) -> None:
        owner = msg.ephemeral_to
        if owner is None and msg.in_dm:
            channel = self.world.channels.get(msg.channel_id)
            owner = channel.recipient_id if channel is not None else None
        if owner is None or owner not in self.members:
            return
        view = read_hand(msg)
        if msg.ephemeral_to is not None and view.hand is not None:
            self.newest[owner] = max(self.newest.get(owner, 0), msg.id)
        shown = (view.hand, view.trump_ids, view.green_ids) if view.actionable else None
        if shown is not None and self._shown.get(msg.id) != shown:
            times = self.marks[owner]
            times.append(asyncio.get_running_loop().time())
            del times[:-KEEP]
        self._shown[msg.id] = shown

    def first_mark(self, user_id: int, since: float, until: float) -> float | None:
        """The first time in [since, until] a surface of the member newly showed a turn."""
        for at in self.marks.get(user_id, ()):
            if since <= at <= until:
                return at
        return None

    def turn(self, user_id: int, started: float | None, marked: bool, until: float) -> None:
        """Count one turn: ``marked`` if the member saw it before giving up (or went on from
        their own response); timed from ``started`` when the bench saw the turn begin."""
        self.turns += 1
        self.marked += marked
        if started is None:
            self.untimed += 1
            return
        at = self.first_mark(user_id, started, until)
        if at is not None:
            self.timed_ms.append((at - started) * 1000)

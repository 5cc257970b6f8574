"""One table of the load bench: opened in its channel, filled, and played by its members.

Each simulated member learns that it is their turn the way a player would, from what the bot
showed: the clicker's own updated hand ("Waiting for NAME") names the next player, who then
clicks a green card in their DM once the bot's turn marker reached it, or, if the DM has not been
updated within ``--dm-patience`` seconds, presses the table message's "My hand" button and plays
from the ephemeral hand (interaction responses are exempt from the global budget, so this path
keeps tables moving when the turn markers are queued behind other traffic). How often each path
was used is reported under ``paths``.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.audit import Answer
from bench.bot_text import (
    ALREADY_SEATED,
    ALREADY_STARTED,
    CHANNEL_BUSY,
    INTERNAL_ERROR,
    NO_TABLE,
    OPENED,
    STALE,
    custom_ids,
    join_table_id,
    turn_name,
)
from bench.harness import Bench
from bench.member import Member, choose, message_text, read_hand, still_holds
from tests.double.interactions import InteractionRecord
from tests.double.models import Channel, StoredMessage, User

Outcome = tuple[str, str | None, tuple[StoredMessage, str] | None]
"""What a step of play found: ("next", who acts next, a message they can click) or ("over"|"gone")."""
UPDATE_MESSAGE = 7
"""The interaction callback type of a click answered by editing the clicked message."""


class TableDriver:
    """Opens a table in one channel and plays it with its members until the time is up."""

    def __init__(self, bench: Bench, index: int, channel: Channel, users: list[User]) -> None:
        self.bench = bench
        self.double = bench.double
        self.index = index
        self.channel = channel
        self.members = [Member(u, u.username) for u in users]
        self.by_name = {m.name: m for m in self.members}
        self.rng = random.Random(bench.args.seed * 100_003 + index)
        self.table_message: StoredMessage | None = None
        self.table_id = ""
        self.hand = 1
        self.seated: list[Member] = []
        """Humans by seat order: the host, then the joiners after the computers."""
        self.opened = 0
        self.finished = 0
        self._first_actor: str | None = None
        self._last_dispatch: float | None = None
        self._started: float | None = None
        """When the turn now begun started (the dispatch of the click that began it); None
        when the bench did not see it begin (after a computer's move)."""
        self._gave_up_at: float | None = None
        """Set when the member to act was found only by pressing "My hand"."""

    # -------------------------------------------------------------- opening

    async def run(self, start_delay: float) -> None:
        bench = self.bench
        await bench.sleep(start_delay)
        while not bench.stopping:
            if not await self.open():
                bench.stats["open_failed"] += 1
                await bench.sleep(1.0 + self.rng.random())
                continue
            over = await self.play()
            if over:
                self.finished += 1
                bench.stats["matches_finished"] += 1
                await bench.sleep(self.rng.uniform(0.5, 2.0))

    def _find_table_message(self, after: int) -> StoredMessage | None:
        ids = self.channel.message_ids
        for mid in reversed(ids[-10:]):
            if mid <= after:
                break
            msg = self.double.world.messages[mid]
            if msg.ephemeral_to is not None or msg.deleted:
                continue
            if join_table_id(msg.components) is not None:
                return msg
        return None

    async def open(self) -> bool:
        bench, args = self.bench, self.bench.args
        host = self.members[0]
        options: dict[str, Any] = {"difficulty": args.difficulty}
        if args.target_score is not None:
            options["target_score"] = args.target_score
        record = await bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm new", options, wait=False),
            "/hokm new",
        )
        if record is None:
            return False
        text = message_text(record.original)
        if not OPENED(text):
            bench.rejections[f"/hokm new: {text[:60]}"] += 1
            if CHANNEL_BUSY(text):  # a table of ours outlived the driver's knowledge of it
                await bench.answer(
                    lambda: self.double.slash(host.user, self.channel, "hokm cancel", wait=False),
                    "/hokm cancel",
                )
            return False
        self.opened += 1
        bench.stats["tables_opened"] += 1
        found: list[StoredMessage] = []

        def table_message_posted() -> bool:
            msg = self._find_table_message(record.id)
            if msg is not None:
                found.append(msg)
            return msg is not None

        if not await bench.poller.until(table_message_posted, 60.0):
            bench.stats["table_message_missing"] += 1
            return False
        msg = found[0]
        self.table_id = join_table_id(msg.components) or ""
        self.table_message = msg
        self.hand = 1
        for m in self.members:
            m.forget()
        last: InteractionRecord | None = None
        for _ in range(args.computers):
            await bench.sleep(self.rng.uniform(0.2, 1.0))
            last = await bench.answer(
                lambda: self.double.click(
                    host.user,
                    msg,
                    custom_id=custom_ids.lobby_id(self.table_id, "add_computer"),
                    wait=False,
                ),
                "Add computer",
            )
            if last is None or last.response_type != UPDATE_MESSAGE:
                return await self._abandon("add computer refused", last)
            self._last_dispatch = last.dispatched_at
        joiners = self.members[1 : 4 - args.computers]
        for member in joiners:
            await bench.sleep(self.rng.uniform(0.2, 1.0))
            if not await self._join(member, msg):
                return False
        self.seated = [host, *joiners]
        if bench.stopping:
            return False
        self._started = self._last_dispatch
        self._gave_up_at = None
        # the last click turned the table message (edited in place) into the match view
        self._first_actor = turn_name(msg.text)
        return True

    async def _join(self, member: Member, msg: StoredMessage) -> bool:
        """Click Join; clicked again once if the bot did not answer, as a member would."""
        record: InteractionRecord | None = None
        for _ in range(2):
            record = await self.bench.answer(
                lambda: self.double.click(
                    member.user,
                    msg,
                    custom_id=custom_ids.lobby_id(self.table_id, "join"),
                    wait=False,
                ),
                "Join",
            )
            if record is not None and record.response_type == UPDATE_MESSAGE:
                self._last_dispatch = record.dispatched_at  # the last join starts the match
                return True
            text = message_text(record.original if record else None)
            if ALREADY_SEATED(text) or ALREADY_STARTED(text):
                return True  # the unanswered click went through after all (and filled the table)
            if record is not None:
                break
        return await self._abandon("join refused", record)

    async def _abandon(self, why: str, record: InteractionRecord | None) -> bool:
        self.bench.rejections[
            f"{why}: {message_text(record.original if record else None)[:60]}"
        ] += 1
        host = self.members[0]
        await self.bench.answer(
            lambda: self.double.slash(host.user, self.channel, "hokm cancel", wait=False),
            "/hokm cancel",
        )
        return False

    # -------------------------------------------------------------- playing

    def _note_hand(self, hand: int | None) -> None:
        if hand is not None and hand > self.hand:
            self.hand = hand
            self.bench.stats["hands_started"] += 1

    def _newest(self, member: Member) -> int | None:
        """The member's newest private hand message in the channel (see ``TurnMarks``)."""
        return self.bench.marks.newest.get(member.user.id)

    def _probe_target(self) -> Member:
        """Who presses "My hand" when the simulator lost track of the turn."""
        computers = self.bench.args.computers
        if computers and self.rng.random() < 0.7:
            # after the computers (seats 1..N) the next human in order is the first joiner
            return self.seated[1] if len(self.seated) > 1 else self.seated[0]
        return self.rng.choice(self.seated)

    async def play(self) -> bool:
        """Play until the match ends (True) or the time is up (False)."""
        bench = self.bench
        expected = self._first_actor
        reuse: tuple[StoredMessage, str] | None = None
        while not bench.stopping:
            member = self.by_name.get(expected or "")
            if member is None or member not in self.seated:
                outcome = await self._wait_for_someone(expected)
            else:
                outcome = await self._turn(member, reuse)
            if outcome is None:
                continue  # time is up, or try again
            kind, expected, reuse = outcome
            if kind == "over":
                return True
            if kind == "gone":
                return False
        return False

    async def _wait_for_someone(self, expected: str | None) -> Outcome | None:
        """A computer (or nobody known) is to act: wait for a human's DM, else ask the bot."""
        bench = self.bench
        # the computers sit together, so up to all of them may move before a human's turn
        limit = bench.args.computer_delay * max(1, bench.args.computers) + bench.args.dm_patience
        found: list[Member] = []

        def someone_marked() -> bool:
            for m in self.seated:
                if m.fresh_surface(bench.world, self.hand, self._newest(m)) is not None:
                    found.append(m)
                    return True
            return False

        self._started = None  # a computer moved: when this turn began is not seen here
        if await bench.poller.until(someone_marked, limit):
            bench.stats["turn_seen_in_dm"] += 1
            return "next", found[0].name, None
        if bench.stopping:
            return None
        self._gave_up_at = asyncio.get_running_loop().time()
        return await self._probe(self._probe_target())

    def _late_kind(self, member: Member) -> str:
        """Where a late turn mark was looked for, and when in the hand: the surface the member
        last clicked (``dm``, a ``view``, or ``none`` yet) and whether it is their first card of
        this hand (a new hand's message) or a later one."""
        msg = self.bench.world.messages.get(member.surface or 0)
        surface = "none" if msg is None else ("dm" if msg.ephemeral_to is None else "view")
        first = member.played_hand != self.hand or not member.played
        return f"{surface}_{'first_card' if first else 'later_card'}"

    async def _probe(self, member: Member) -> Outcome | None:
        """Press "My hand" on the table message; it either shows the turn or names who is next."""
        bench = self.bench
        msg = self.table_message
        if msg is None:
            return "gone", None, None
        record = await bench.answer(
            lambda: self.double.click(
                member.user,
                msg,
                custom_id=custom_ids.my_hand_id(self.table_id),
                stale=True,
                wait=False,
            ),
            "My hand",
        )
        bench.stats["my_hand_clicks"] += 1
        if record is None or record.original is None:
            return None
        eph = record.original
        text = eph.text
        if STALE(text) or NO_TABLE(text):
            return "over", None, None  # finished (by a computer's last card) or gone
        if INTERNAL_ERROR(text):
            bench.stats["internal_error_replies"] += 1
            return None
        view = read_hand(eph)
        self._note_hand(view.hand)
        if view.actionable:
            return "next", member.name, (eph, "my_hand")
        bench.stats["my_hand_not_turn"] += 1
        self._started = None
        if view.over:
            return "over", None, None
        if view.waiting_for is None:
            bench.rejections[f"My hand: {text[:60]}"] += 1
            return None
        return "next", view.waiting_for, None

    def _answer(self, record: InteractionRecord, path: str) -> Answer:
        """Which process answered a click: the one holding the shard of its server, or shard
        0 for a DM (Discord sends every DM event there)."""
        shards = max(1, self.bench.args.processes)
        guild = record.guild_id
        shard = 0 if guild is None else (guild >> 22) % shards
        at = time.time() - (asyncio.get_running_loop().time() - (record.responded_at or 0.0))
        return Answer(shard, path, at)

    async def _turn(
        self, member: Member, reuse: tuple[StoredMessage, str] | None
    ) -> Outcome | None:
        bench = self.bench
        started, self._started = self._started, None
        gave_up_at, self._gave_up_at = self._gave_up_at, None
        await bench.sleep(bench.think())
        if bench.stopping:
            return None
        source: tuple[StoredMessage, str] | None = None
        if reuse is not None and read_hand(reuse[0]).actionable:
            source = reuse
        else:
            world = bench.world
            seen = member.fresh_surface(world, self.hand, self._newest(member))
            if seen is None and await bench.poller.until(
                lambda: member.fresh_surface(world, self.hand, self._newest(member)) is not None,
                bench.args.dm_patience,
            ):
                seen = member.fresh_surface(world, self.hand, self._newest(member))
            if seen is not None:
                source = (seen, "dm" if seen.ephemeral_to is None else "my_hand_view")
        now = asyncio.get_running_loop().time()
        bench.marks.turn(
            member.user.id,
            started,
            marked=source is not None and gave_up_at is None,
            until=now if gave_up_at is None else gave_up_at,
        )
        if source is None:
            bench.stats["dm_late"] += 1
            bench.late_turns[self._late_kind(member)] += 1
            probed = await self._probe(member)
            if probed is None or probed[1] != member.name or probed[2] is None:
                return probed
            source = probed[2]
        msg, path = source
        view = read_hand(msg)
        self._note_hand(view.hand)
        custom_id = choose(view, self.rng)
        if custom_id is None:
            return None
        bench.ledger.sent(member.user.id, custom_id)
        record = await bench.answer(
            lambda: self.double.click(member.user, msg, custom_id=custom_id, wait=False), "play"
        )
        if record is None:
            return "next", None, None
        member.used(msg)  # acted on (or past) whatever it shows; where they look next
        self._started = record.dispatched_at  # the next turn began with this click
        if record.response_type != UPDATE_MESSAGE:
            text = message_text(record.original)
            if INTERNAL_ERROR(text):
                bench.stats["internal_error_replies"] += 1
            bench.rejections[f"play: {text[:60]}"] += 1
            self._started = None
            return "next", None, None
        bench.paths[path] += 1
        after = record.original
        if still_holds(
            record.response_data, custom_id
        ):  # back from the computer; that card could not go
            bench.stats["answered_not_played"] += 1
            bench.ledger.answered_not_played(member.user.id, custom_id)
        elif member.note_clicked(custom_id):
            bench.human_cards += 1
            bench.ledger.accepted(member.user.id, custom_id, self._answer(record, path))
        else:
            bench.trumps += 1
        if after is None:
            return "next", None, None
        shown = read_hand(after)
        if shown.over and not shown.actionable:
            return "over", None, None
        self._note_hand(shown.hand)
        if shown.actionable:  # their turn again (won the trick, or hakem of the next hand)
            return "next", member.name, (after, "response")
        return "next", shown.waiting_for, None

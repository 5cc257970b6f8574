"""Guarantee 1, crash safety: ``kill -9`` at any point of a match loses nothing.

The scripted match (``script.py``: seed 5, target 2, three members and an easy computer, two
hands, 82 actions) is played once straight through and twice with the bot process killed by
SIGKILL at 21 points in all and restarted as a new ``python -m bot`` on the same SQLite file
and the same double (forked from a warm interpreter, ``warm.py``: a new process, without an
interpreter's start-up). Every run must end with the match the engine alone plays
(``script.simulate``), so the interrupted runs equal the uninterrupted one card for card.

At each restart the test also checks what members see: a "resumed" note in the channel, the
table message and the acting member's DM showing exactly the committed state, and play going
on through buttons the killed process had sent.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.present.teams import team_label
from bot.service.table import Table
from engine import auto_trump
from tests.double.server import DiscordDouble

from .clock_ahead import AHEAD_ENV
from .harness import (
    RESUMED,
    BotRun,
    Members,
    Stored,
    embed_description,
    hand_text,
    read_matches,
    read_standings,
    read_table,
    read_tables,
    table_text,
    wait_stored,
)
from .script import COMPUTER_SEATS, SEED, TARGET, find_seed, points, simulate

# The time-out point does not wait it out: it moves the restarted bot's clock ahead. So the
# time can be long, which keeps a busy machine's slow restart (up to a minute) from passing
# for a fresh wait (the check in Script._timeout) and members from timing out by accident.
TRUMP_SECONDS = 60
TURN_SECONDS = 60  # members never run out of time by accident, even on a slow machine
CLOCK_AHEAD = [sys.executable, "-m", "tests.reliability.clock_ahead"]
LONG_COMPUTER_DELAY = 3.0  # the process that is killed while a computer move is pending

# How to kill at a point (the number of actions committed when it is a member's turn):
#   idle      nothing in flight: kill, restart, the member clicks an old button
#   inflight  the member's click is on its way (sent, maybe handled, maybe answered): kill;
#             after the restart it is applied exactly once (re-clicked if it was lost)
#   computer  restart with a long computer delay, the member's click hands the turn to the
#             computer, kill while that move is pending; the new process makes it from the
#             stored due time
#   timeout   the member is away: kill, restart as a bot whose clock is past the stored
#             deadline (clock_ahead.py: as if it had stayed down that long); the bot plays
#             the time-out at once from the stored deadline
#   result    the last card: restart as a bot that SIGKILLs itself in the middle of writing
#             the match result (dies_writing_result.py); nothing of it is kept, the restarted
#             bot resumes before the last card, the member clicks it again, and the result
#             is written once
RUN_A = {
    0: "idle",  # hand 1: trump not yet named
    1: "idle",  # trump named, before the first card
    2: "inflight",  # mid-trick, one card down
    3: "computer",  # two cards down; then the computer's card pending
    5: "idle",  # a trick just ended
    45: "timeout",  # end of hand 1: the next hakem's trump choice times out
    81: "result",  # the last card of the match: the bot dies writing the result
}
RUN_B = {
    7: "idle",  # mid-trick, two cards down
    12: "inflight",  # the card that completes a trick
    14: "idle",  # one card down
    18: "inflight",
    24: "computer",
    31: "inflight",
    46: "idle",  # hand 2: trump named, before the first card
    60: "inflight",
    72: "computer",
}


def kills_in(plan: dict[int, str], *, lobby: bool, end: bool) -> int:
    double = ("computer", "result")  # a restart to set up, then the kill itself
    return sum(2 if kind in double else 1 for kind in plan.values()) + lobby + end


def test_the_script_is_what_the_plans_assume() -> None:
    """Seed 5 still gives two hands with member hakems, and each kill point is what its
    comment says (a member to act, a computer next for "computer")."""
    assert find_seed() == SEED
    pts = {p.actions: p for p in points()}
    assert len(simulate().hand_results) == 2 and len(pts) == 82
    for plan in (RUN_A, RUN_B):
        for k, kind in plan.items():
            assert pts[k].to_act not in COMPUTER_SEATS, k
            if kind == "computer":
                assert pts[k + 1].to_act in COMPUTER_SEATS, k
    assert pts[45].phase == "trump" and pts[45].hand == 2
    assert kills_in(RUN_A, lobby=True, end=True) + kills_in(RUN_B, lobby=False, end=False) >= 20


class Script:
    """Plays the scripted match against successive bot processes, killing where planned."""

    def __init__(self, double: DiscordDouble, run: BotRun) -> None:
        self.double = double
        self.run = run
        self.members = Members(double)
        self.table_id = ""
        self.kills = 0
        self.resumes = 0
        self.old_buttons = 0  # clicks on messages a killed process had sent
        self._before_restart: set[int] = set()

    @property
    def channel(self):  # type: ignore[no-untyped-def]
        assert self.double.channel is not None
        return self.double.channel

    def resumed_notes(self) -> int:
        return sum(m.text.count(RESUMED) for m in self.double.messages_in(self.channel))

    async def kill(self) -> None:
        await self.run.kill()
        self.kills += 1
        self._before_restart = set(self.double.world.messages)

    async def restart(
        self,
        *,
        computer_delay: float = 0.05,
        argv: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        live = [t for t in read_tables(self.run.db) if t.status in ("lobby", "playing")]
        notes = self.resumed_notes()
        await self.run.start(computer_delay=computer_delay, argv=argv, env=env)
        if live:
            self.resumes += 1
            await self.double.wait_until(
                lambda: self.resumed_notes() > notes, timeout=15, what="the resumed note"
            )

    async def check_resumed_view(self, stored: Stored) -> None:
        """After a restart the members see exactly the committed state again."""
        message = self.double.message(int(stored.state["message_id"]))
        expected = table_text(stored)
        await self.double.wait_until(
            lambda: embed_description(message) == expected,
            timeout=15,
            what="the table message to show the stored state",
        )
        user_id = stored.member_to_act()
        if user_id is None:
            return
        seat = next(i for i, s in enumerate(stored.state["seats"]) if s and s["user_id"] == user_id)
        user = self.members.user(user_id)
        text = hand_text(stored, seat)
        await self.double.wait_until(
            lambda: any(m.content == text for m in self.members.private_messages(user)),
            timeout=15,
            what=f"{user.username}'s DM to show their stored hand",
        )

    # ------------------------------------------------------------------ the lobby

    async def open_table(self, *, kill_in_lobby: bool) -> None:
        host, second, third, _ = self.double.members
        rec = await self.double.slash(
            host, self.channel, "hokm settings", {"trump_seconds": TRUMP_SECONDS}
        )
        assert rec.ephemeral
        options = {"target_score": TARGET, "turn_seconds": TURN_SECONDS, "difficulty": "easy"}
        rec = await self.double.slash(host, self.channel, "hokm new", options)
        assert rec.ephemeral and "opened" in (rec.message.text if rec.message else "")
        (stored,) = read_tables(self.run.db)
        self.table_id = stored.table_id
        await wait_stored(
            self.run.db,
            self.table_id,
            lambda s: s.state.get("message_id") is not None,
            what="the table message id stored",
        )
        message = self.double.message(self._table_message_id() or 0)
        await self.double.wait_until(lambda: bool(message.buttons()), what="the lobby buttons")
        if kill_in_lobby:
            await self.kill()
            await self.restart()
        for user in (second, third):  # old channel buttons, if the bot was killed
            rec = await self.double.click(user, message, label="Join", timeout=10)
            assert rec.response_type == 7, rec.response_name
        rec = await self.double.click(host, message, label="Start", timeout=10)
        assert rec.response_type == 7, rec.response_name
        if kill_in_lobby:
            self.old_buttons += 3

    def _table_message_id(self) -> int | None:
        stored = read_table(self.run.db, self.table_id)
        return None if stored is None else stored.state.get("message_id")

    # ------------------------------------------------------------------ the match

    async def play(self, plan: dict[int, str], *, kill_at_end: bool = False) -> Stored:
        plan = dict(plan)
        db, tid = self.run.db, self.table_id
        while True:
            stored = await wait_stored(
                db,
                tid,
                lambda s: s.status != "playing" or s.member_to_act() is not None,
                what="a member's turn or the end of the match",
            )
            if stored.status != "playing":
                break
            k = stored.actions
            kind = plan.pop(k, None)
            if kind == "idle":
                await self.kill()
                await self.restart()
                await self.check_resumed_view(stored)
            elif kind == "inflight":
                await self._inflight(stored)
                continue
            elif kind == "computer":
                await self._computer_pending(stored)
                continue
            elif kind == "timeout":
                await self._timeout(stored)
                continue
            elif kind == "result":
                await self._dies_writing_result(stored)
                continue
            await self._click(stored)
        assert not plan, f"kill points never reached: {plan}"
        if kill_at_end:
            await self.kill()
            await self.restart()
            assert not [t for t in read_tables(db) if t.status in ("lobby", "playing")]
        return stored

    async def _click(self, stored: Stored) -> None:
        k = stored.actions
        rec = await self.members.play(stored)
        if rec.source_message is not None and rec.source_message.id in self._before_restart:
            self.old_buttons += 1
        after = read_table(self.run.db, self.table_id)
        assert after is not None
        if rec.response_type != 7:  # only a trump choice may have been made by its time-out
            assert stored.match is not None and stored.match.phase == "trump", rec.response_name
            assert after.actions > k
            return
        # committed before it was answered: the answer's action is already in the file
        assert after.actions >= k + 1, "the click was answered before its action was stored"

    async def _inflight(self, stored: Stored) -> None:
        k = stored.actions
        rec = await self.members.play(stored, wait=False)
        await asyncio.sleep(0.01 * (k % 5))  # land the kill at different stages of the click
        await self.kill()
        answered = rec.responded
        after = read_table(self.run.db, self.table_id)
        assert after is not None
        assert after.actions in (k, k + 1), (k, after.actions)
        if answered:
            assert after.actions == k + 1, "an answered click was lost"
        await self.restart()
        if after.actions == k:  # lost with the process: the member clicks again
            again = await self.members.play(after)
            assert again.response_type == 7, again.response_name

    async def _computer_pending(self, stored: Stored) -> None:
        await self.kill()
        await self.restart(computer_delay=LONG_COMPUTER_DELAY)
        k = stored.actions
        rec = await self.members.play(stored)
        assert rec.response_type == 7, rec.response_name
        await self.kill()
        pending = read_table(self.run.db, self.table_id)
        assert pending is not None and pending.actions == k + 1
        assert pending.state["computer_due"] is not None, "no computer move was pending"
        assert pending.member_to_act() is None
        due = float(pending.state["computer_due"])
        await self.restart()
        moved = await wait_stored(
            self.run.db, self.table_id, lambda s: s.actions > k + 1, what="the computer's move"
        )
        # the move was made at the stored due time, not earlier: the next deadline (set when
        # it was made) is at least the due time plus the next delay
        nxt = moved.state["deadline"] or moved.state["computer_due"]
        step = TURN_SECONDS if moved.state["deadline"] else 0.0
        assert nxt is not None and nxt - step >= due - 0.001

    async def _dies_writing_result(self, stored: Stored) -> None:
        k = stored.actions
        assert k == len(simulate().actions) - 1, "not the last card"
        await self.kill()
        await self.restart(argv=[sys.executable, "-m", "tests.reliability.dies_writing_result"])
        rec = await self.members.play(stored, wait=False)
        assert await self.run.died() == -signal.SIGKILL
        self.kills += 1
        self._before_restart = set(self.double.world.messages)
        assert not rec.responded
        after = read_table(self.run.db, self.table_id)
        assert after is not None and after.status == "playing" and after.actions == k
        assert read_matches(self.run.db) == [], "half a result was kept"
        await self.restart()
        again = await self.members.play(after)
        assert again.response_type == 7, again.response_name

    async def _timeout(self, stored: Stored) -> None:
        k = stored.actions
        match = stored.match
        assert match is not None and match.phase == "trump"
        seat = match.to_act
        await self.kill()
        deadline = float(stored.state["deadline"])
        # Down past the deadline: the new process's clock is ahead by the rest of the wait
        # (up to TRUMP_SECONDS), instead of the test sleeping it out.
        ahead = max(0.0, deadline + 0.2 - time.time())
        await self.restart(argv=CLOCK_AHEAD, env={AHEAD_ENV: repr(ahead)})
        after = await wait_stored(
            self.run.db, self.table_id, lambda s: s.actions > k, what="the trump time-out"
        )
        assert after.seat(seat)["missed_turns"] == 1, "the bot, not the member, named trump"
        named = after.match
        assert named is not None and named.trump == auto_trump(match.hand_of(seat))
        # played at once from the stored deadline, not after a fresh TRUMP_SECONDS
        moved_at = float(after.state["deadline"]) - TURN_SECONDS
        assert moved_at < deadline + TRUMP_SECONDS
        await self.double.wait_for_message(
            self.channel, lambda m: "ran out of time" in m.text, timeout=15
        )


async def finish_and_compare(script: Script, final: Stored, *, announced: bool = True) -> None:
    db = script.run.db
    assert final.status == "finished"
    expected = simulate()
    assert final.state["match"] == expected.to_dict(), "the match differs from the script"
    (row,) = read_matches(db)
    assert row["match_id"] == script.table_id
    assert (row["team0_score"], row["team1_score"]) == tuple(expected.scores)
    assert [h["number"] for h in row["hands"]] == [1, 2] and row["seats"] == [0, 1, 2, 3]
    guild = script.double.guild
    assert guild is not None
    winners = {u.id for i, u in enumerate(script.double.members[:3]) if i % 2 == row["winner_team"]}
    standings = read_standings(db, guild.id)
    assert standings == {u.id: (1, int(u.id in winners)) for u in script.double.members[:3]}, (
        "standings count the match exactly once"
    )
    if announced:
        report = await script.double.wait_for_message(
            script.channel, lambda m: "win the match" in m.text, timeout=15
        )
        table = Table.from_dict(dict(final.state))
        assert report.text.startswith(f"🏆 {team_label(table, 'en', row['winner_team'])} win")
    else:
        # Killed right after the final commit: the result is stored once (above), but the
        # process may have died before posting it; a finished table is not resumed, so the
        # post can be lost (docs/reliability.md, "Known gap"). Old buttons answer clearly.
        message = script.double.message(int(final.state["message_id"]))
        host = script.double.members[0]
        if message.buttons():
            rec = await script.double.click(host, message, label="My hand", timeout=10)
            assert rec.ephemeral and "earlier hand or a finished table" in rec.message.text  # type: ignore[union-attr]
    assert script.run.tracebacks() == []


@pytest.mark.discord_double(ratelimits=False)
async def test_uninterrupted_run_plays_the_script(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    run = BotRun(discord_double, tmp_path)
    script = Script(discord_double, run)
    try:
        await run.start()
        await script.open_table(kill_in_lobby=False)
        final = await script.play({})
        await finish_and_compare(script, final)
        assert run.starts == 1
    finally:
        await run.close()


@pytest.mark.discord_double(ratelimits=False)
async def test_killed_in_the_lobby_hand_1_at_a_time_out_and_at_the_end(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    run = BotRun(discord_double, tmp_path, warm=True)
    script = Script(discord_double, run)
    try:
        await run.start()
        await script.open_table(kill_in_lobby=True)
        final = await script.play(RUN_A, kill_at_end=True)
        await finish_and_compare(script, final, announced=False)
        assert script.kills == kills_in(RUN_A, lobby=True, end=True)
        assert script.resumed_notes() == script.resumes  # one note per restart, no more
        assert script.old_buttons >= 5
    finally:
        await run.close()


@pytest.mark.discord_double(ratelimits=False)
async def test_killed_mid_trick_with_clicks_in_flight_and_computers_pending(
    discord_double: DiscordDouble, tmp_path: Path
) -> None:
    run = BotRun(discord_double, tmp_path, warm=True)
    script = Script(discord_double, run)
    try:
        await run.start()
        await script.open_table(kill_in_lobby=False)
        final = await script.play(RUN_B)
        await finish_and_compare(script, final)
        assert script.kills == kills_in(RUN_B, lobby=False, end=False)
        assert script.resumed_notes() == script.resumes
        assert script.old_buttons >= 5
    finally:
        await run.close()

"""Every text a Persian table shows, from whole matches played through the service's moves:
what ``tests/bot/test_persian_order.py`` reads through the bidirectional algorithm.

Like ``test_discord_limits``' driver, the engine's greedy players play each format (Hokm's
``FORMATS`` and Shelem, short targets), but through the service's own move functions, so every
event leaves the log line the service records (``history.log_line``) and the channel report
line the publisher writes (``ChannelReports``); every fifth move is a time-out (R14), so the
time-out, take-over and back lines come too. At every move: the table message, every seat's
hand message (kept live or not, ephemeral) and the closed hand message; at the end the
summary, ``/hokm history`` and every frame of the Replay.

The members' names mix Persian and Latin (one Latin name carries a digit), as at a real
Iranian server; a computer plays one seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.discord.reports import ChannelReports
from bot.names import seat_name
from bot.present import render
from bot.present.history import history_message, replay_message
from bot.present.specs import MessageSpec
from bot.present.summary import match_summary
from bot.service import moves, shelem_moves
from bot.service.games import SHELEM_FAMILY, family_of
from bot.service.history import finished_match, log_line
from bot.service.match_history import MatchReplay
from bot.service.ports import Pace, Update
from bot.service.table import Seat, Table, TableSettings
from bot.store import HistoryEntry, HistoryPage
from engine import GreedyPlayer, seat_view
from engine.shelem import DISCARD, GreedyShelemPlayer, ShelemMatch
from engine.shelem import seat_view as shelem_view
from engine.shelem.story import story as shelem_story
from engine.story import story

NAMES = ("امیر", "bahar", "کوروش", "Dara 2", "الهه", "farid")
COMPUTER_SEAT = 4
CHANNEL, GUILD, FIRST_USER = 1_180_000_000_000_000_001, 1, 101
NOW = 1_764_600_000.0


@dataclass
class Texts:
    """What a table showed, as ``(where, text)`` pairs, and the names it may show."""

    table: Table
    texts: list[tuple[str, str]] = field(default_factory=list)

    def add(self, where: str, spec: MessageSpec) -> None:
        parts = [spec.content]
        if spec.embed is not None:
            e = spec.embed
            parts += [e.title, e.description, e.footer]
            parts += [f"{name}\n{value}" for name, value, _ in e.fields]
        parts += [b.label for row in spec.rows for b in row]
        for part in parts:
            self.texts.extend((where, line) for line in part.splitlines() if line.strip())

    def line(self, where: str, text: str) -> None:
        self.texts.extend((where, line) for line in text.splitlines() if line.strip())


def persian_table(game: str, settings: dict[str, object] | None = None) -> Table:
    """A Persian table of ``game`` with ``NAMES`` seated, a computer at ``COMPUTER_SEAT``."""
    options = {"shelem_target": 600} if game.startswith("shelem") else {"target_score": 3}
    chosen = TableSettings(
        language="fa",
        game_format=game,
        hints=True,
        **(options | (settings or {})),  # type: ignore[arg-type]
    )
    table = Table("5a3c0ffee123", GUILD, CHANNEL, FIRST_USER, chosen, NOW)
    seats: list[Seat | None] = []
    for i in range(table.fmt.seats):
        if i == COMPUTER_SEAT:
            seats.append(Seat("Rostam", difficulty="easy"))
        else:
            seats.append(Seat(NAMES[i], user_id=FIRST_USER + i))
    table.seats = seats
    return table


def members(table: Table) -> dict[int, str]:
    """Each member's id and the name Discord shows in a mention of them."""
    return {s.user_id: s.name for s in table.seats if s is not None and s.user_id is not None}


def shown_names(table: Table) -> list[str]:
    """Every name as the table shows it (a computer's in code style)."""
    return [seat_name(table, i) for i in range(len(table.seats))]


def _render_all(texts: Texts, step: str) -> None:
    table = texts.table
    texts.add(f"{step} table", render.table_message(table))
    match = table.match
    if match is None:
        return
    for seat in range(table.fmt.seats):
        chosen = ()
        if isinstance(match, ShelemMatch) and match.phase == DISCARD and match.hakem == seat:
            chosen = match.hand_of(seat)[: match.kitty_size // 2]
        texts.add(f"{step} hand {seat}", render.hand_message(table, seat, chosen=chosen))
        texts.add(f"{step} dm {seat}", render.hand_message(table, seat, live=False))
    closed = render.closed_hand_message(table, match.hand_number, ephemeral=True)
    texts.add(f"{step} closed", closed)


def _move(table: Table, update: Update, pace: Pace, timed_out: bool) -> None:
    match = table.match
    assert match is not None
    seat = match.to_act
    shelem = isinstance(match, ShelemMatch)
    if timed_out:
        (shelem_moves if shelem else moves).time_out(table, update, seat, pace)  # type: ignore[attr-defined]
    elif shelem:
        choice = shelem_moves.decide(GreedyShelemPlayer(), shelem_view(match, seat))
        shelem_moves.apply_choice(table, update, seat, choice, pace)
    else:
        choice = moves.decide(GreedyPlayer(), seat_view(match, seat))  # type: ignore[arg-type]
        update.actor_seat = seat
        moves.apply_choice(table, update, seat, choice, pace)


def play_match(game: str, seed: int, settings: dict[str, object] | None = None) -> Texts:
    """A whole Persian match of ``game``, every text it shows collected on the way."""
    table = persian_table(game, settings)
    texts = Texts(table)
    reports = ChannelReports(None)  # type: ignore[arg-type]  # nothing is sent
    clock = [NOW]
    pace = Pace(clock=lambda: clock[0])
    texts.add("lobby", render.table_message(table))
    update = Update(table)
    (shelem_moves if (family_of(table) is SHELEM_FAMILY) else moves).start_match(
        table, update, seed, pace
    )
    for n in range(100_000):
        for event in update.events:
            line = log_line(table, event)
            if line is not None:
                table.add_log(line)
            reports.record(table, "fa", event)
        for line in reports.waiting(CHANNEL):
            texts.line(f"move {n} report", line)
        reports._reports.clear()  # posted
        _render_all(texts, f"move {n}")
        if table.status != "playing":
            break
        clock[0] += 7
        update = Update(table)
        _move(table, update, pace, timed_out=n % 5 == 4)
    texts.add("summary", match_summary(table))
    for step in _history(table):
        texts.add(step[0], step[1])
    return texts


def _history(table: Table) -> Iterator[tuple[str, MessageSpec]]:
    """``/hokm history`` with this match, and every frame of its Replay."""
    record = finished_match(table, NOW + 3000)
    entry = HistoryEntry(
        record.match_id,
        record.channel_id,
        record.finished_at,
        record.game_format,
        record.target_score,
        record.scores,
        record.winner_team,
        record.hints,
        record.players,
    )
    yield (
        "history",
        history_message("fa", "Hokm club", HistoryPage(GUILD, None, 1, 1, 1, False, (entry,))),
    )
    assert record.replay is not None
    told = (
        shelem_story(record.replay) if (family_of(table) is SHELEM_FAMILY) else story(record.replay)
    )
    replay = MatchReplay(entry, told)
    for hand, told_hand in enumerate(told.hands):
        for trick in range(len(told_hand.tricks) + 1):
            yield f"replay {hand}.{trick}", replay_message("fa", replay, FIRST_USER, hand, trick)

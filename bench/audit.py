"""The several-process bench's audit: every card click against the store,
and every stored card against who made it.

The bench knows each card click it sent and each it saw answered as played (``Ledger``); the
store knows each table's match, move by move (``StoredTable``); each bot process logs one line
per committed change, naming the table, the version it saved, the match's move count after it,
whether an action or a timer made it, and its pid (``bot/service/persistence.py``, ``writer``). The
audit joins the three on (table, move):

- ``actions_lost``: a click answered as played whose card is not that member's play in that
  hand of that table in the store;
- ``actions_doubled``: a click answered as played twice; a card stored twice in one hand; one
  version of a table written by two lines (two writers of one save); or a member's stored card
  that no click of theirs (answered or not: a click applied but answered late is still theirs)
  explains, whose line names no time-out (R14) and no computer playing for them (a timer's
  move in their seat), or that no line names at all while no process was killed around it;
- ``audit_false_positives``: what the audit once counted as doubled and is not: a member's
  stored card no line names, with a process killed between that table's lines before and after
  it, give or take ``KILL_SLACK`` (a process stored the move and died before writing its line;
  every such process is named: ``unlogged_at_kill``); a
  timer's move whose only line is its process's "stopped while saving, maybe stored" (a
  graceful stop cancelled the save after the database had committed it:
  ``stored_while_stopping``); and a click answered in place that still shows the card
  (``answered_not_played``: back from the computer's hands, the click's card could not go
  then; the answer is the hand and a refusal).

Each doubled case is described (``actions_doubled_detail``, the first ten): its table, seat,
hand and card, and its writers: which process (shard and pid) stored or answered each of the two.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.bot_text import click_of
from bot.service.persistence import STOPPED_SAVING
from engine.match import Match, _action_from_json
from engine.rules import FORMATS, Rules
from engine.story import unpack

DETAIL = 10
"""How many cases of each kind the report describes."""
KILL_SLACK = 10.0
"""Seconds a line may come after its change is stored (a starved event loop: the soak's
worst was 4 s). A writer stores a move, then is killed before its line; meanwhile another
process may store the next move and log it, so the kill can come after the next line."""

# --------------------------------------------------------------------------- the clicks


@dataclass(frozen=True)
class Play:
    """A member's card in one hand of one table."""

    table_id: str
    user_id: int
    hand: int
    card: str


@dataclass(frozen=True)
class Answer:
    """Who answered a click as played: the process holding the shard its interaction went to
    (a DM's is shard 0), from which surface, when (wall clock)."""

    shard: int
    surface: str
    at: float

    def __str__(self) -> str:
        return f"answered by shard {self.shard} ({self.surface}) at {_clock(self.at)}"


class Ledger:
    """Every card click of the run, sent and answered as played, to check against the store."""

    def __init__(self) -> None:
        self.plays: Counter[Play] = Counter()
        """Clicks the bot answered as played."""
        self.answers: dict[Play, list[Answer]] = defaultdict(list)
        self.clicked: set[Play] = set()
        """Every card click sent, answered in time or not (a click applied but answered after
        Discord's 3 s is the member's move all the same)."""
        self.not_played: list[Play] = []
        """Clicks answered in place whose answer still holds the card (not played)."""

    @staticmethod
    def play_of(user_id: int, custom_id: str) -> Play | None:
        click = click_of(custom_id)
        if click is None or click.kind != "card" or click.card is None:
            return None
        return Play(click.table_id, user_id, click.hand, click.card.code)

    def sent(self, user_id: int, custom_id: str) -> None:
        play = self.play_of(user_id, custom_id)
        if play is not None:
            self.clicked.add(play)

    def accepted(self, user_id: int, custom_id: str, answer: Answer) -> None:
        play = self.play_of(user_id, custom_id)
        if play is not None:
            self.clicked.add(play)
            self.plays[play] += 1
            self.answers[play].append(answer)

    def answered_not_played(self, user_id: int, custom_id: str) -> None:
        play = self.play_of(user_id, custom_id)
        if play is not None:
            self.clicked.add(play)
            self.not_played.append(play)


# --------------------------------------------------------------------------- the store


@dataclass(frozen=True)
class StoredPlay:
    """A card of a stored match: its move number (the match's actions after it), hand, seat."""

    move: int
    hand: int
    seat: int
    card: str


@dataclass
class StoredTable:
    table_id: str
    guild_id: int
    channel_id: int
    seats: list[int | None]
    """Each seat's member id (None: a computer)."""
    plays: list[StoredPlay]
    """Every card played, in order."""

    def user_at(self, seat: int) -> int | None:
        return self.seats[seat] if seat < len(self.seats) else None


def stored_plays(match_data: dict[str, Any]) -> list[StoredPlay]:
    """Each card of a stored match with its move number, hand and seat, by playing its actions
    again."""
    fmt = FORMATS[str(match_data.get("format", "standard"))]
    match = Match(int(match_data["seed"]), Rules.from_dict(match_data["rules"]), fmt)
    out: list[StoredPlay] = []
    for number, action in enumerate(unpack(match_data.get("actions", [])), start=1):
        if isinstance(action, str) and len(action) <= 3:
            out.append(StoredPlay(number, match.hand_number, match.to_act, action))
        match.apply(_action_from_json(action))  # type: ignore[arg-type]
    return out


# --------------------------------------------------------------------------- the processes' lines


@dataclass
class ProcessLog:
    """One life of one bot process: its shard, pid, log, and when it was killed (wall clock)."""

    shard: int
    pid: int
    text: str
    killed_at: float | None = None

    @property
    def name(self) -> str:
        return f"shard {self.shard} pid {self.pid}"


WRITE_LINE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) \w+ [\w.]+: table (\w+): (.*) "
    r"\(v=(\d+) move=(\d+) by=(\w+) pid=(\d+)\)$"
)
"""A committed change's line (``Commits.commit``): time, table, events, version, move, cause,
pid."""
CARD_WORD = re.compile(r"\bcard_played seat=(\d+) hand=(\d+)")


@dataclass(frozen=True)
class Write:
    """A committed change as its process logged it."""

    process: str
    table_id: str
    version: int
    move: int
    by: str
    words: str
    at: float
    maybe: bool = False
    """Its process was stopped while saving it: stored or not (``STOPPED_SAVING``)."""

    def __str__(self) -> str:
        did = "stopped while storing" if self.maybe else "stored"
        return f"{self.process} {did} v{self.version} move {self.move} ({self._what()}) at " + (
            _clock(self.at)
        )

    def _what(self) -> str:
        if "timeout seat=" in self.words:
            return "a time-out"
        return "a click" if self.by == "action" else "a timer: the computer"

    def card_seat(self) -> tuple[int, int] | None:
        """(seat, hand) of the card this change played, if it played one."""
        found = CARD_WORD.search(self.words)
        return None if found is None else (int(found.group(1)), int(found.group(2)))


def writes_of(logs: Iterable[ProcessLog]) -> list[Write]:
    out: list[Write] = []
    for proc in logs:
        for line in proc.text.splitlines():
            m = WRITE_LINE.match(line)
            if m is None:
                continue
            stamp, millis, table_id, words, version, move, by, pid = m.groups()
            at = time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")) + int(millis) / 1000
            name = proc.name if int(pid) == proc.pid else f"shard {proc.shard} pid {pid}"
            maybe = words.startswith(STOPPED_SAVING)
            words = words.removeprefix(STOPPED_SAVING)
            out.append(Write(name, table_id, int(version), int(move), by, words, at, maybe))
    return out


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


# --------------------------------------------------------------------------- the audit


@dataclass
class _Joined:
    """Every line of the run, by table and move, and the kills."""

    writes: list[Write]
    kills: list[ProcessLog]
    by_move: dict[tuple[str, int], list[Write]] = field(default_factory=dict)
    by_table: dict[str, list[Write]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_move: dict[tuple[str, int], list[Write]] = defaultdict(list)
        by_table: dict[str, list[Write]] = defaultdict(list)
        for w in self.writes:
            if w.card_seat() is not None:
                by_move[(w.table_id, w.move)].append(w)
            by_table[w.table_id].append(w)
        self.by_move, self.by_table = dict(by_move), dict(by_table)

    def card_writes(self, table_id: str, play: StoredPlay) -> list[Write]:
        """The lines of the change that stored ``play``: the committed ones, else those of a
        process stopped while saving it (the database committed it as the process stopped)."""
        found = [
            w
            for w in self.by_move.get((table_id, play.move), [])
            if w.card_seat() == (play.seat, play.hand)
        ]
        return [w for w in found if not w.maybe] or found

    def killed_around(self, table_id: str, move: int) -> list[ProcessLog]:
        """The processes killed between the table's last line before ``move`` and its first
        line after it, give or take ``KILL_SLACK``: the candidate writers of a move no line
        names (one of them stored it and was killed before its line)."""
        lines = self.by_table.get(table_id, [])
        before = max((w.at for w in lines if w.move < move), default=0.0) - KILL_SLACK
        after = min((w.at for w in lines if w.move > move), default=float("inf")) + KILL_SLACK
        return [p for p in self.kills if before <= (p.killed_at or 0.0) <= after]


def _case(kind: str, table: StoredTable | None, play: Play, seat: int | None) -> dict[str, Any]:
    return {
        "kind": kind,
        "table": play.table_id,
        "channel": table.channel_id if table else None,
        "seat": seat,
        "hand": play.hand,
        "card": play.card,
        "writers": [],
    }


def audit(
    ledger: Ledger, tables: Iterable[StoredTable], logs: Iterable[ProcessLog]
) -> dict[str, Any]:
    """``actions_lost``, ``actions_doubled`` and the audit's own false positives (the module's
    docstring says how), with each case described."""
    tables = list(tables)
    logs = list(logs)
    joined = _Joined(writes_of(logs), [p for p in logs if p.killed_at is not None])
    by_id = {t.table_id: t for t in tables}
    stored: dict[Play, list[StoredPlay]] = defaultdict(list)
    for table in tables:
        for p in table.plays:
            user = table.user_at(p.seat)
            if user is not None:
                stored[Play(table.table_id, user, p.hand, p.card)].append(p)

    lost: list[dict[str, Any]] = []
    for play in ledger.plays:
        if play not in stored:
            case = _case("answered, not stored", by_id.get(play.table_id), play, None)
            case["writers"] = [str(a) for a in ledger.answers[play]]
            lost.append(case)

    doubled: list[dict[str, Any]] = []

    def writers_of(table_id: str, plays: list[StoredPlay]) -> list[str]:
        return [str(w) for p in plays for w in joined.card_writes(table_id, p)] or [
            f"move {p.move}: no line" for p in plays
        ]

    for play, count in ledger.plays.items():
        if count > 1:
            table = by_id.get(play.table_id)
            plays = stored.get(play, [])
            case = _case("answered as played twice", table, play, plays[0].seat if plays else None)
            case["writers"] = [str(a) for a in ledger.answers[play]]
            case["stored"] = writers_of(play.table_id, plays)
            doubled.extend([case] * (count - 1))

    for table in tables:
        seen: dict[tuple[int, str], list[StoredPlay]] = defaultdict(list)
        for p in table.plays:
            seen[(p.hand, p.card)].append(p)
        for (hand, card), plays in seen.items():
            if len(plays) > 1:
                play = Play(table.table_id, table.user_at(plays[0].seat) or 0, hand, card)
                case = _case("stored twice", table, play, plays[0].seat)
                case["writers"] = writers_of(table.table_id, plays)
                doubled.extend([case] * (len(plays) - 1))

    versions: dict[tuple[str, int], list[Write]] = defaultdict(list)
    for w in joined.writes:
        if not w.maybe:
            versions[(w.table_id, w.version)].append(w)
    for (table_id, version), ws in versions.items():
        if len(ws) > 1:
            doubled.append(
                {
                    "kind": "one version written twice",
                    "table": table_id,
                    "version": version,
                    "writers": [f"{w} [{w.words}]" for w in ws],
                }
            )

    unlogged: list[dict[str, Any]] = []
    stopping: list[dict[str, Any]] = []
    for table in tables:
        for p in table.plays:
            user = table.user_at(p.seat)
            if user is None:
                continue
            play = Play(table.table_id, user, p.hand, p.card)
            if play in ledger.clicked:
                continue  # the member's own click
            lines = joined.card_writes(table.table_id, p)
            if lines and all(w.by == "timer" for w in lines):
                if all(w.maybe for w in lines):  # its only line: "stopped while saving"
                    case = _case("stored as its writer stopped", table, play, p.seat)
                    case["writers"] = [str(w) for w in lines]
                    case["move"] = p.move
                    stopping.append(case)
                continue  # a time-out (R14), or the computer playing for them (R14 again)
            if not lines:
                killed = joined.killed_around(table.table_id, p.move)
                if killed:
                    case = _case("stored, no line: its writer was killed", table, play, p.seat)
                    case["writers"] = [
                        f"{k.name}, killed at {_clock(k.killed_at or 0.0)}" for k in killed
                    ]
                    case["move"] = p.move
                    unlogged.append(case)
                    continue
            case = _case("stored, no click of theirs", table, play, p.seat)
            case["writers"] = [str(w) for w in lines] or ["no line names it"]
            case["move"] = p.move
            doubled.append(case)

    not_played = [
        _case("answered in place, card still held", by_id.get(p.table_id), p, None)
        for p in ledger.not_played
    ]
    return {
        "actions_lost": len(lost),
        "actions_doubled": len(doubled),
        "accepted_card_clicks": sum(ledger.plays.values()),
        "actions_doubled_detail": doubled[:DETAIL],
        "actions_lost_detail": lost[:DETAIL],
        "audit_false_positives": {
            "unlogged_at_kill": len(unlogged),
            "stored_while_stopping": len(stopping),
            "answered_not_played": len(not_played),
            "detail": (unlogged + stopping + not_played)[:DETAIL],
        },
        "writes_logged": len(joined.writes),
    }

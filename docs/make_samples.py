"""Write docs/samples.md: the table message, a player's DM, the match summary, ``/hokm history``
and a Replay frame in English and Persian, rendered by the bot's own presenter from a scripted
match (issues 13 and 16); and a Shelem table's auction, kitty and play (V6, issue 17).

Run from the project root: ``python docs/make_samples.py``. ``tests/bot/test_docs_samples.py``
renders them again and fails when the file is stale, so the samples never drift from the code.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.discord.reports import ChannelReports  # noqa: E402
from bot.present.history import history_message, replay_message  # noqa: E402
from bot.present.puzzles import answer_message, puzzle_message  # noqa: E402
from bot.present.render import ButtonSpec, MessageSpec, hand_message, table_message  # noqa: E402
from bot.present.summary import match_summary  # noqa: E402
from bot.service.events import HandDealt, HandEnded, TableEvent, TrickTaken, TrumpNamed  # noqa: E402
from bot.service.history import finished_match, log_line  # noqa: E402
from bot.service.match_history import MatchReplay  # noqa: E402
from bot.service.moves import decide  # noqa: E402
from bot.service.puzzles import PuzzleAnswer, PuzzleOffer  # noqa: E402
from bot.service.shelem_events import ShelemHandEnded  # noqa: E402
from bot.service.table import Seat, Table, TableSettings  # noqa: E402
from bot.service.variants import engine_move  # noqa: E402
from bot.store import HistoryEntry, HistoryPage  # noqa: E402
from bot.store.puzzle_ops import PuzzleCounts  # noqa: E402
from engine import PLAY, Card, GreedyPlayer, HandResult, Match, Suit, Trick, seat_view  # noqa: E402
from engine.dd_analysis import analyse_hand  # noqa: E402
from engine.dd_position import Position  # noqa: E402
from engine.dd_puzzles import Puzzle, candidates  # noqa: E402
from engine.dd_rules import legal_cards, step  # noqa: E402
from engine.dd_samples import random_end  # noqa: E402
from engine.dd_value import Outcome  # noqa: E402
from engine.rules import STANDARD  # noqa: E402
from engine.shelem import (  # noqa: E402
    BID,
    DISCARD,
    GreedyShelemPlayer,
    ShelemHandResult,
    ShelemMatch,
    act,
)
from engine.story import story  # noqa: E402

OUT = ROOT / "docs" / "samples.md"
SEED = 20261201
NAMES = {
    "en": ("amir", "bahar", "cyrus", "dara", "ela", "farid"),
    "fa": ("امیر", "بهار", "کوروش", "دارا", "الهه", "فرید"),
}
NOW = 1_764_600_000.0
"""A fixed clock: the ``<t:…:R>`` countdowns in the samples do not change from run to run."""


def scripted_table(lang: str, *, hands: int, cards: int) -> Table:
    """Four members at a table in ``lang``, the match played by greedy players for ``hands``
    complete hands and then ``cards`` more cards (``hands`` large plays the match out)."""
    table = Table(
        table_id="5a3c0ffee123",
        guild_id=1,
        channel_id=1_180_000_000_000_000_001,
        host_id=101,
        settings=TableSettings(language=lang),
        created_at=NOW,
    )
    for i, name in enumerate(NAMES[lang][:4]):
        table.seats[i] = Seat(name=name, user_id=101 + i)
    match = table.match = Match(SEED, table.rules())
    table.match_seed, table.status, table.started_at = SEED, "playing", NOW
    greedy = GreedyPlayer()
    played = 0
    while match.winner_team is None and (len(match.hand_results) < hands or played < cards):
        view = seat_view(match, match.to_act)
        if match.trump is None:
            match.choose_trump(match.to_act, Suit(greedy.choose_trump(view)))
            continue
        if len(match.hand_results) >= hands:
            played += 1
        match.play(match.to_act, greedy.choose_card(view))
    if match.winner_team is not None:
        table.status, table.finished_at = "finished", NOW + 1_500
    else:
        table.deadline = NOW + 30
    return table


def as_markdown(spec: MessageSpec) -> str:
    """A message as a reader sees it: the embed's parts, then the buttons as [labels]."""
    out = []
    if spec.content:
        out.append(spec.content)
    if spec.embed is not None:
        e = spec.embed
        out.append(f"**{e.title}**")
        if e.description:
            out.append(e.description)
        out.extend(f"**{name}**\n{value}" for name, value, _ in e.fields)
        if e.footer:
            out.append(f"_{e.footer}_")
    for row in spec.rows:
        out.append(" ".join(_button(b) for b in row))
    return "\n\n".join(out)


def _button(b: ButtonSpec) -> str:
    """``[A♠]`` a button to press (a legal card is highlighted: ``[*A♠*]``), ``(7♥)`` a
    greyed-out one."""
    if b.disabled:
        return f"({b.label})"
    return f"[*{b.label}*]" if b.style in ("primary", "success") else f"[{b.label}]"


def samples() -> str:
    parts = [
        "# What the bot shows\n",
        "Rendered by `python docs/make_samples.py` from the bot's own presenter (a scripted",
        "match between greedy players); `tests/bot/test_docs_samples.py` fails when this file is",
        "stale. Mentions (`<@…>`, `<#…>`) and countdowns (`<t:…:R>`) are shown as Discord's",
        "markup; Discord shows them as names, channels and live times. Buttons: `[*A♠*]`",
        "highlighted (a legal card), `[A♠]` plain, `(A♠)` greyed out.\n",
    ]
    for lang, title in (("en", "English"), ("fa", "فارسی (Persian)")):
        table = scripted_table(lang, hands=1, cards=6)
        parts.append(f"## {title}\n")
        parts.append("### The table message (in the channel), hand 2\n")
        parts.append(_block(as_markdown(table_message(table))))
        seat = table.match.to_act if table.match else 0
        parts.append(f"### Seat {seat + 1}'s DM at the same moment (their turn)\n")
        parts.append(_block(as_markdown(hand_message(table, seat, live=True))))
        other = (seat + 1) % 4
        parts.append(f"### Seat {other + 1}'s DM, edited through the outbox (not kept live)\n")
        parts.append(_block(as_markdown(hand_message(table, other, live=False))))
        done = scripted_table(lang, hands=99, cards=0)
        parts.append("### The match summary (in the channel, when the match ends)\n")
        parts.append(_block(as_markdown(match_summary(done))))
        page, replay = history_of(done)
        parts.append("### `/hokm history` (in the channel), with that match\n")
        parts.append(_block(as_markdown(history_message(lang, "Hokm club", page))))
        parts.append("### Its Replay at hand 1, trick 3 (only the member who opened it)\n")
        parts.append(_block(as_markdown(replay_message(lang, replay, 103, 0, 3))))
        parts.extend(puzzle_samples(lang))
        parts.extend(shelem_samples(lang))
        parts.extend(hand_end_samples(lang))
    return "\n".join(parts)


def puzzle_samples(lang: str) -> list[str]:
    """``/hokm puzzle`` and a wrong answer to it: the first puzzle of seeded random hands."""
    rng = random.Random("samples-puzzle")
    found: list[Puzzle] = []
    while not found:
        start = random_end(rng, STANDARD, 6)
        cards: list[int] = []
        at: Position | Outcome = start
        while isinstance(at, Position):
            cards.append(rng.choice(legal_cards(at.hands[at.to_play], at.trick, at.trump)))
            at = step(at, cards[-1])
        found = candidates(analyse_hand(start, cards))
    offer = PuzzleOffer(41, "standard", found[0])
    wrong = next(c for c in found[0].values if c != found[0].answer)
    answer = PuzzleAnswer(offer, wrong, False, True, PuzzleCounts(solved=4, tried=7))
    return [
        "### `/hokm puzzle` (only the member who asked)\n",
        _block(as_markdown(puzzle_message(lang, offer))),
        "### A card clicked that was not the only one (the same message, edited)\n",
        _block(as_markdown(answer_message(lang, answer))),
    ]


GAMES = {"standard": "Standard", "three": "Three players", "joker_six": "The joker six"}
GAMES |= {"shelem": "Shelem"}


def hand_end_samples(lang: str) -> list[str]:
    """Issue 39: hand 1 has just ended and nobody has moved in hand 2 yet, at the standard
    table, three players, the joker six and Shelem: the channel's report of it, the table
    message, the answer to the last card, and the DM of a member who neither played it nor
    has hand 2's first move."""
    parts = []
    for game, title in GAMES.items():
        table, events, last = ended_table(lang, game)
        reports = ChannelReports(None)  # type: ignore[arg-type]  # nothing is sent here
        for event in events:
            reports.record(table, lang, event)
        parts.append(f"### {title}: the end of hand 1, reported in the channel\n")
        parts.append(_block("\n".join(reports.waiting(table.channel_id))))
        parts.append(f"### {title}: the table message until hand 2's first move\n")
        parts.append(_block(as_markdown(table_message(table))))
        parts.append(f"### {title}: the answer to seat {last + 1}'s last card of hand 1\n")
        parts.append(_block(as_markdown(hand_message(table, last))))
        assert table.match is not None
        other = next(i for i in range(len(table.seats)) if i not in (last, table.match.to_act))
        parts.append(f"### {title}: seat {other + 1}'s DM until hand 2's first move\n")
        parts.append(_block(as_markdown(hand_message(table, other, live=False))))
    return parts


def ended_table(lang: str, game: str) -> tuple[Table, list[TableEvent], int]:
    """Members at a ``game`` table in ``lang``, played by greedy players to the card that ends
    hand 1, the table's lines recorded as the service records them: the table, that card's
    events and the seat that played it."""
    settings = TableSettings(language=lang, game_format=game)
    table = Table("5a3c0ffee123", 1, 1_180_000_000_000_000_001, 101, settings, NOW)
    table.seats = [Seat(name=n, user_id=101 + i) for i, n in enumerate(NAMES[lang])]
    table.seats = table.seats[: table.fmt.seats]
    shelem = game == "shelem"
    match: Match | ShelemMatch
    if shelem:
        match = ShelemMatch(SEED, settings.shelem_options())
        match.bid(match.to_act, 105)  # a hakem at once, as in ``shelem_table``
    else:
        match = Match(SEED, table.rules(), table.fmt)
    table.match, table.status, table.started_at = match, "playing", NOW
    table.deadline = NOW + 30
    while True:
        seat, hand = match.to_act, match.hand_number
        made = _greedy_step(table, match)
        if match.hand_number == hand:
            continue
        events: list[TableEvent] = []
        for event in made:
            if isinstance(event, Trick):
                events.append(TrickTaken(event, hand))
            elif isinstance(event, ShelemHandResult):
                events.append(ShelemHandEnded(event))
            elif isinstance(event, HandResult):
                events.append(HandEnded(event))
        events.append(
            HandDealt(-1 if shelem or match.hakem < 0 else match.hakem, match.hand_number)
        )
        for event in events:
            line = log_line(table, event)
            if line is not None:
                table.add_log(line)
        return table, events, seat


def _greedy_step(table: Table, match: Match | ShelemMatch) -> tuple[object, ...]:
    """One greedy decision, a trump named leaving its line as the service's does."""
    if isinstance(match, ShelemMatch):
        return tuple(act(match, GreedyShelemPlayer()))
    seat = match.to_act
    choice = decide(GreedyPlayer(), seat_view(match, seat))
    if isinstance(choice, Suit):
        line = log_line(table, TrumpNamed(seat, choice, match.hand_number))
        if line is not None:
            table.add_log(line)
        return tuple(match.choose_trump(seat, choice))
    if isinstance(choice, Card) and match.phase == PLAY:
        return tuple(match.play(seat, choice))
    return tuple(engine_move(match, seat, choice))


def shelem_table(lang: str, stop: str, cards: int = 0) -> Table:
    """Four members at a Shelem table (V6) with nars and sars, played by greedy players (the
    first to speak bids 105, to have a hakem at once) until the ``stop`` phase, and then
    ``cards`` more cards."""
    table = scripted_table(lang, hands=0, cards=0)
    table.settings = TableSettings(language=lang, game_format="shelem", shelem_modes="nars+sars")
    match = table.match = ShelemMatch(SEED, table.settings.shelem_options())
    player = GreedyShelemPlayer()
    if stop != BID:
        match.bid(match.to_act, 105)
    while match.phase != stop and not (stop == "play" and match.phase == "play"):
        act(match, player)
    for _ in range(cards):
        act(match, player)
    return table


def shelem_samples(lang: str) -> list[str]:
    """V6 Shelem: the auction (the table and the bidder's DM), the hakem's kitty with two cards
    chosen to lay down, and the table and a DM in play."""
    parts = []
    bidding = shelem_table(lang, BID)
    bidding.match.bid(bidding.match.to_act, 105)  # type: ignore[union-attr]
    seat = bidding.match.to_act  # type: ignore[union-attr]
    parts.append("### Shelem: the table message while the hand is bid for\n")
    parts.append(_block(as_markdown(table_message(bidding))))
    parts.append(f"### Shelem: seat {seat + 1}'s DM, their turn to bid\n")
    parts.append(_block(as_markdown(hand_message(bidding, seat))))
    kitty = shelem_table(lang, DISCARD)
    match = kitty.match
    assert isinstance(match, ShelemMatch)
    chosen = match.hand_of(match.hakem)[:2]
    parts.append("### Shelem: the hakem's DM, the kitty taken, two cards chosen to lay down\n")
    parts.append(_block(as_markdown(hand_message(kitty, match.hakem, chosen=chosen))))
    play = shelem_table(lang, "play", cards=6)
    parts.append("### Shelem: the table message in play\n")
    parts.append(_block(as_markdown(table_message(play))))
    match = play.match
    assert isinstance(match, ShelemMatch)
    parts.append("### Shelem: the hakem's DM in play (his laid-down cards are his alone)\n")
    parts.append(_block(as_markdown(hand_message(play, match.hakem))))
    return parts


def history_of(done: Table) -> tuple[HistoryPage, MatchReplay]:
    """The finished table as the store lists it and its Replay tells it (issue 16)."""
    m = finished_match(done, NOW)
    entry = HistoryEntry(
        m.match_id,
        m.channel_id,
        m.finished_at,
        m.game_format,
        m.target_score,
        m.scores,
        m.winner_team,
        m.hints,
        m.players,
    )
    assert m.replay is not None
    return HistoryPage(1, None, 1, 10, 1, False, (entry,)), MatchReplay(entry, story(m.replay))


def _block(text: str) -> str:
    return "```text\n" + text + "\n```\n"


if __name__ == "__main__":
    OUT.write_text(samples(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")

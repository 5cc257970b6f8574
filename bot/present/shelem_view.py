"""V6 Shelem as the presenter shows it (``families.PresentFamily``): its own title, footer and
lines (``shelem``), a seat's hand message with the auction, kitty and mode (``shelem_hand``),
its hands' bids and points (``shelem_summary``) and its replay (``shelem_replay``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card
from engine.shelem import ShelemMatch
from engine.shelem.story import ShelemStory

from ..service.match_history import MatchReplay
from ..service.table import Table
from . import shelem, shelem_hand, shelem_replay, shelem_summary
from .families import register
from .specs import MessageSpec, Signatures


def _story(replay: MatchReplay) -> ShelemStory:
    story = replay.story
    if not isinstance(story, ShelemStory):
        raise TypeError(f"not a Shelem replay: {replay.entry.game_format!r}")
    return story


class ShelemView:
    """V6: the bidding, the hakem's kitty and mode, card points."""

    name = "shelem"
    title = "shelem"
    hand_header = "shelem.hand_header"

    def footer(self, table: Table, lang: str) -> str:
        return shelem.footer(table, lang)

    def match_lines(self, table: Table, lang: str, closed: frozenset[int]) -> list[str]:
        return shelem.match_lines(table, lang, closed)

    def hand_message(
        self, table: Table, seat: int, *, ephemeral: bool, live: bool, chosen: tuple[Card, ...]
    ) -> MessageSpec:
        return shelem_hand.hand_message(table, seat, ephemeral=ephemeral, live=live, chosen=chosen)

    def hand_signatures(self, table: Table, seat: int) -> Signatures:
        return shelem_hand.hand_signatures(table, seat)

    def result_line(self, table: Table, lang: str, hand: int) -> str | None:
        match = table.match
        if not isinstance(match, ShelemMatch):
            return None
        found = next((r for r in reversed(match.hand_results) if r.number == hand), None)
        return None if found is None else shelem.hand_result_line(table, lang, found)

    def summary_lines(self, table: Table, lang: str) -> tuple[list[str], list[str]]:
        match = shelem.shelem_match(table)  # V6: each hand's bid and how it went
        hands = [shelem_summary.hand_line(table, lang, r) for r in match.hand_results]
        return hands, shelem_summary.totals(table, lang, match.hand_results)

    def owns_replay(self, replay: MatchReplay) -> bool:
        return isinstance(replay.story, ShelemStory)

    def replay_about(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int
    ) -> list[str]:
        return shelem_replay.about_lines(lang, _story(replay), names, hand)

    def replay_counts(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
    ) -> list[str]:
        return shelem_replay.count_lines(lang, _story(replay), names, hand, trick)


SHELEM_VIEW = register(ShelemView())

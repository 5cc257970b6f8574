"""The service's INFO line keeps its words (``bench/attack.py`` parses them), and never names
a card that is still in a hand."""

from __future__ import annotations

from bot.service.events import (
    CardPlayed,
    HandDealt,
    HandEnded,
    MatchOver,
    Started,
    TimedOut,
    TimedOutTrump,
    TrickTaken,
    TrumpNamed,
)
from engine import Card, HandResult, Suit, Trick


def test_log_words_are_the_ones_bench_attack_parses() -> None:
    ace = Card.parse("AS")
    trick = Trick(number=3, leader=1, cards=(ace, ace, ace, ace), winner=2)
    result = HandResult(1, 0, Suit.HEARTS, (7, 0), 0, 2, "kot", (2, 0))
    words = [
        Started(1, ((0, ace),)).log_word,
        HandDealt(1, 2).log_word,
        TrumpNamed(1, Suit(2), 2).log_word,
        CardPlayed(1, ace, 2).log_word,
        TrickTaken(trick, 2).log_word,
        HandEnded(result).log_word,
        MatchOver(0, (7, 3)).log_word,
        TimedOut(3, ace).log_word,
        TimedOutTrump(3, Suit(1)).log_word,
    ]
    assert words == [
        "started seat=1",
        "hand_dealt seat=1 hand=2",
        "trump_named seat=1 suit=2 hand=2",
        "card_played seat=1 hand=2",
        "trick seat=2 number=3 hand=2",
        "hand_result",
        "match_over winner_team=0",
        "timeout seat=3",
        "timeout_trump seat=3 suit=1",
    ]
    assert not any("AS" in w or "A♠" in w for w in words)

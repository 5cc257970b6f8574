"""A finished Shelem match told again, hand by hand and trick by trick (V6; ``/hokm history``'s
Replay, as ``engine.story`` tells a Hokm match).

A Shelem match is fully determined by its seed, options and actions (``replay``), so that is all
a finished one keeps: ``record`` writes them, each run of plays packed into one string of card
codes as ``engine.story.pack`` packs Hokm's. ``story`` plays such a record again action by
action, as ``replay`` does, and keeps for every hand that was played what a viewer stepping
through it needs: the bidding (and how many deals everyone passed before it, V6.4), the hakem
and his bid, the kitty and the cards he laid down (V6.6), the mode and trump (V6.7, V6.8.1),
every seat's cards when play began, each trick with the seat of every card, and the hand's
result. It is the story of a finished match: the kitty and the laid-down cards, hidden from
the other seats while the hand is played (V6.6.4), are part of it.

A record that does not replay (edited, truncated, from an engine that deals differently)
raises ``InvalidState``; nothing is guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..cards import BY_CODE, Card, Suit
from ..errors import InvalidState
from ..events import Trick
from ..rules import GameFormat
from ..story import pack, unpack
from .events import ShelemHandResult, ShelemRedealt
from .match import FORMAT_NAME, PLAY, ShelemMatch, _action_to_json, action_from_json
from .options import CARD_POINTS, SEATS, TRICK_POINTS, Mode, ShelemOptions

RECORD_VERSION: Final = 2
"""2 since V6.4.1 and V6.14.1 (a hand dealt at most four times, at most ``MAX_HANDS`` hands);
a record of version 1 replays as it was played, without them (``ShelemMatch(bounded=False)``)."""
UNBOUNDED_VERSION: Final = 1


def record(match: ShelemMatch) -> dict[str, Any]:
    """What ``story`` needs of ``match``, as compact JSON-able data."""
    return {
        "v": RECORD_VERSION if match.bounded else UNBOUNDED_VERSION,
        "format": FORMAT_NAME,
        "seed": match.seed,
        "options": match.options.to_dict(),
        "actions": pack([_action_to_json(a) for a in match.actions]),
    }


def rebuild(data: object) -> ShelemMatch:
    """The finished match a ``record`` describes, replayed; ``InvalidState`` if it is none."""
    match, _ = _replay(data)
    return match


@dataclass(frozen=True, slots=True)
class ShelemHandStory:
    """One hand that was played: its bidding, the kitty, the deal as play began, its tricks and
    its result."""

    number: int
    dealer: int
    passed_deals: int
    """V6.4: the deals of this hand everyone passed before the one that was played."""
    auction: tuple[tuple[int, int], ...]
    """V6.3, V6.5: every word of the bidding in order, as (seat, bid); 0 a pass."""
    hakem: int
    kitty: tuple[Card, ...]
    """V6.2: the kitty as dealt, which the hakem took (or, after a sar-shelem, only saw)."""
    laid_down: tuple[Card, ...]
    """V6.6: the cards the hakem laid down (after a sar-shelem the kitty, laid aside)."""
    dealt: tuple[tuple[Card, ...], ...]
    """Every seat's cards when the first card was led, after the kitty was taken and laid down."""
    tricks: tuple[Trick, ...]
    result: ShelemHandResult
    scores_before: tuple[int, int]

    @property
    def bid(self) -> int:
        return self.result.bid

    @property
    def mode(self) -> Mode:
        return self.result.mode

    @property
    def trump(self) -> Suit | None:
        """V6.8.1: the suit of the hakem's first card in ``hokm``; None in the other modes."""
        return self.result.trump

    def held(self, tricks: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards once the first ``tricks`` tricks were played."""
        gone = {card for trick in self.tricks[:tricks] for card in trick.cards}
        return tuple(tuple(c for c in cards if c not in gone) for cards in self.dealt)

    def team_tricks(self, tricks: int) -> tuple[int, int]:
        """Tricks each team had taken after the first ``tricks`` tricks."""
        counts = [0, 0]
        for trick in self.tricks[:tricks]:
            counts[trick.winner % 2] += 1
        return counts[0], counts[1]

    def team_points(self, tricks: int) -> tuple[int, int]:
        """V6.9: the points each team had after the first ``tricks`` tricks, the hakem's
        laid-down set counted for his side from the start (after the last trick: the result's
        ``points``)."""
        points = [0, 0]
        points[self.hakem % 2] += TRICK_POINTS + sum(CARD_POINTS[c] for c in self.laid_down)
        for trick in self.tricks[:tricks]:
            points[trick.winner % 2] += TRICK_POINTS + sum(CARD_POINTS[c] for c in trick.cards)
        return points[0], points[1]


@dataclass(frozen=True, slots=True)
class ShelemStory:
    """Every hand of a Shelem match that was played (a deal everyone passed is counted in the
    next hand's ``passed_deals``)."""

    options: ShelemOptions
    hands: tuple[ShelemHandStory, ...]
    scores: tuple[int, ...]
    winner_team: int | None
    """``None`` if the record stops before the match was over."""

    @property
    def fmt(self) -> GameFormat:
        """The table's shape (``ShelemOptions.fmt``): four seats, partners opposite."""
        return self.options.fmt


def story(data: object) -> ShelemStory:
    """Replay a ``record`` and keep its story; ``InvalidState`` if it does not replay."""
    match, hands = _replay(data)
    return ShelemStory(match.options, tuple(hands), tuple(match.scores), match.winner_team)


def _begun(match: ShelemMatch, passed: int) -> dict[str, Any]:
    """A hand as its first card is led: all of ``ShelemHandStory`` but its tricks and result."""
    hakem = match.hakem
    return {
        "number": match.hand_number,
        "dealer": match.dealer,
        "passed_deals": passed,
        "auction": tuple(match.auction),
        "hakem": hakem,
        "kitty": match.kitty_of(hakem),
        "laid_down": match.discards_of(hakem),
        "dealt": tuple(match.hand_of(s) for s in range(SEATS)),
        "scores_before": (match.scores[0], match.scores[1]),
    }


def _replay(data: object) -> tuple[ShelemMatch, list[ShelemHandStory]]:
    seed, options, actions, bounded = _parse(data)
    match = ShelemMatch(seed, options, bounded=bounded)
    hands: list[ShelemHandStory] = []
    begun: dict[str, Any] | None = None
    tricks: list[Trick] = []
    passed = 0
    try:
        for action in actions:
            card = BY_CODE.get(action) if isinstance(action, str) else None
            for event in match.apply(card if card is not None else action_from_json(action)):
                if isinstance(event, Trick):
                    tricks.append(event)
                elif isinstance(event, ShelemRedealt):
                    passed += 1
                elif isinstance(event, ShelemHandResult) and begun is not None:
                    hands.append(ShelemHandStory(**begun, tricks=tuple(tricks), result=event))
                    begun, tricks = None, []
            if begun is None and match.phase == PLAY and not match.tricks and not match.trick:
                begun, passed = _begun(match, passed), 0
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as exc:
        raise InvalidState(f"the record does not replay: {exc}") from exc
    return match, hands


def _parse(data: object) -> tuple[int, ShelemOptions, list[object], bool]:
    """The seed, options and actions of a record, and whether it was played bounded."""
    if not isinstance(data, dict) or data.get("v") not in (UNBOUNDED_VERSION, RECORD_VERSION):
        raise InvalidState("not a Shelem match record of this version")
    if data.get("format") != FORMAT_NAME:
        raise InvalidState(f"not a Shelem match record (format {data.get('format')!r})")
    seed, options, actions = data.get("seed"), data.get("options"), data.get("actions")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidState("a match record needs its seed")
    if not isinstance(options, dict) or not isinstance(actions, list):
        raise InvalidState("a Shelem match record needs its options and actions")
    bounded = data["v"] == RECORD_VERSION
    try:
        return seed, ShelemOptions.from_dict(options), unpack(actions), bounded
    except (ValueError, TypeError) as exc:
        raise InvalidState(f"not a Shelem match record: {exc}") from exc

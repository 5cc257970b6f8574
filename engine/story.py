"""A finished match told again, hand by hand and trick by trick (``/hokm history``'s Replay).

A match is fully determined by its format, seed, rules and actions (``replay``), so that is all
a finished match keeps for its replay: ``record`` writes it, with each run of plays packed
into one string of card codes (``"AS KS 2S 5S"``), about 2 KB for a match to 7. ``story``
plays such a record again and keeps what a viewer stepping through the match needs: for every
hand that was played, every seat's cards when play began, the hakem, trump (and the bid, V5),
each trick with the seat of every card, and the hand's result. It works for every format:
the engine itself replays redeals (R6), bam (V1), discards and draws (V2) and bids (V5).

A record that does not replay (edited, truncated, from an engine that deals differently)
raises ``InvalidState``; nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import BY_CODE, Card, Suit
from .errors import InvalidState
from .events import HandResult, Trick
from .match import PLAY, Match, _action_from_json, _action_to_json
from .rules import GameFormat, Rules, hokm_format

RECORD_VERSION: Final = 1


def record(match: Match) -> dict[str, Any]:
    """What ``story`` needs of ``match``, as compact JSON-able data."""
    return {
        "v": RECORD_VERSION,
        "format": match.fmt.name,
        "seed": match.seed,
        "rules": match.rules.to_dict(),
        "actions": pack([_action_to_json(a) for a in match.actions]),
    }


def pack(actions: Sequence[str | list[Any]]) -> list[str | list[Any]]:
    """The JSON form of ``Match.actions`` with every run of plays (card codes) joined by spaces."""
    out: list[str | list[Any]] = []
    run: list[str] = []
    for action in actions:
        if isinstance(action, str):
            run.append(action)
            continue
        if run:
            out.append(" ".join(run))
            run = []
        out.append(action)
    if run:
        out.append(" ".join(run))
    return out


def unpack(actions: Sequence[object]) -> list[object]:
    """``pack`` undone: one entry per action, as ``replay`` takes them."""
    out: list[object] = []
    for action in actions:
        if isinstance(action, str):
            out.extend(action.split())
        else:
            out.append(action)
    return out


def rebuild(data: object) -> Match:
    """The finished match a ``record`` describes, replayed; ``InvalidState`` if it is none."""
    match, _ = _replay(data)
    return match


@dataclass(frozen=True, slots=True)
class HandStory:
    """One hand that was played: the deal as play began, its tricks and its result."""

    number: int
    hakem: int
    trump: Suit
    dealt: tuple[tuple[Card, ...], ...]
    """Every seat's cards when the first card was led (after a V2 draw, the drawn hand)."""
    tricks: tuple[Trick, ...]
    result: HandResult
    scores_before: tuple[int, ...]

    @property
    def bid(self) -> int:
        """V5 joker six: the hakem's bid; 0 in the formats without bidding."""
        return self.result.bid

    def held(self, tricks: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards once the first ``tricks`` tricks were played."""
        gone = {card for trick in self.tricks[:tricks] for card in trick.cards}
        return tuple(tuple(c for c in cards if c not in gone) for cards in self.dealt)

    def team_tricks(self, fmt: GameFormat, tricks: int) -> tuple[int, ...]:
        """Tricks each team had taken after the first ``tricks`` tricks."""
        counts = [0] * len(fmt.teams)
        for trick in self.tricks[:tricks]:
            counts[fmt.team_of[trick.winner]] += 1
        return tuple(counts)


@dataclass(frozen=True, slots=True)
class MatchStory:
    """Every hand of a match that was played (a V5 deal everyone passed is in the scores only)."""

    fmt: GameFormat
    hands: tuple[HandStory, ...]
    scores: tuple[int, ...]
    winner_team: int | None
    """``None`` if the record stops before the match was over."""


def story(data: object) -> MatchStory:
    """Replay a ``record`` and keep its story; ``InvalidState`` if it does not replay."""
    match, hands = _replay(data)
    return MatchStory(match.fmt, tuple(hands), tuple(match.scores), match.winner_team)


@dataclass
class _Hand:
    number: int
    hakem: int
    trump: Suit
    dealt: tuple[tuple[Card, ...], ...]
    scores_before: tuple[int, ...]
    tricks: list[Trick] = field(default_factory=list)


def _replay(data: object) -> tuple[Match, list[HandStory]]:
    fmt, seed, rules, actions = _parse(data)
    match = Match(seed, rules, fmt)
    hands: list[HandStory] = []
    current: _Hand | None = None
    try:
        for action in actions:
            move = BY_CODE.get(action) if isinstance(action, str) else None
            for event in match.apply(move if move is not None else _action_from_json(action)):
                if isinstance(event, Trick) and current is not None:
                    current.tricks.append(event)
                elif isinstance(event, HandResult) and current is not None:
                    hands.append(_finished(current, event))
                    current = None
            if current is None and match.phase == PLAY and not match.tricks and not match.trick:
                assert match.trump is not None
                current = _Hand(
                    number=match.hand_number,
                    hakem=match.hakem,
                    trump=match.trump,
                    dealt=tuple(match.hand_of(s) for s in range(fmt.seats)),
                    scores_before=tuple(match.scores),
                )
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as exc:
        raise InvalidState(f"the record does not replay: {exc}") from exc
    return match, hands


def _finished(hand: _Hand, result: HandResult) -> HandStory:
    return HandStory(
        number=hand.number,
        hakem=hand.hakem,
        trump=hand.trump,
        dealt=hand.dealt,
        tricks=tuple(hand.tricks),
        result=result,
        scores_before=hand.scores_before,
    )


def _parse(data: object) -> tuple[GameFormat, int, Rules, list[object]]:
    if not isinstance(data, dict) or data.get("v") != RECORD_VERSION:
        raise InvalidState("not a match record of this version")
    fmt = hokm_format(data.get("format"))
    seed, rules, actions = data.get("seed"), data.get("rules"), data.get("actions")
    if fmt is None:
        raise InvalidState(f"unknown game format {data.get('format')!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidState("a match record needs its seed")
    if not isinstance(rules, dict) or not isinstance(actions, list):
        raise InvalidState("a match record needs its rules and actions")
    try:
        return fmt, seed, Rules.from_dict(rules), unpack(actions)
    except (ValueError, TypeError) as exc:
        raise InvalidState(f"not a match record: {exc}") from exc

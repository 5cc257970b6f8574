"""A finished match as a file anyone may keep, read and check: what PGN is to
chess, in the documented, versioned JSON of ``docs/match-format.md``.

``export`` turns a finished match's record (``engine.story.record``; a Shelem match's,
``engine.shelem.story.record``) and the table's facts (who sat where, when) into that file:
the rules, the seats, the seed and every action, which determine the match, and, derived from
them for a reader without this engine, each hand's deal, tricks and result and the final
score. ``check`` plays a file's actions again with the engine and compares everything the file
states with the replay; the first difference is a ``BadMatchFile`` saying where, so an edited,
truncated or foreign file is refused, never half believed.

The file tells nothing a finished match's replay does not show: every seat's cards, the kitty
and the cards laid down are all on the replay already. Pure: no I/O (``engine.replay_file``
reads a file named on the command line).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card
from .errors import InvalidState
from .events import HandResult, Trick
from .rules import FORMATS, GameFormat
from .shelem.events import ShelemHandResult
from .shelem.story import ShelemHandStory, ShelemStory
from .shelem.story import story as shelem_story
from .story import HandStory, MatchStory, story, unpack

FORMAT_VERSION: Final = 1
"""The file's version (``format_version``): a reader refuses one it does not know."""
HOKM, SHELEM = "hokm", "shelem"
"""The file's ``game``: its format's ``family`` (``engine.rules.GameFormat.family``)."""
FIELDS: Final = (
    "format_version",
    "game",
    "format",
    "match",
    "seats",
    "rules",
    "record_version",
    "seed",
    "actions",
    "hands",
    "result",
)
"""Every top-level field, in the order ``export`` writes them; any other is refused."""
SEAT_FIELDS: Final = frozenset({"seat", "team", "name", "computer", "member"})


class BadMatchFile(ValueError):
    """A file that is not a finished match this engine replays to what the file says."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A file that replays exactly as it says: what the verdict line names."""

    game: str
    format: str
    hands: int
    scores: tuple[int, ...]
    winner_team: int


def export(
    record: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], match: Mapping[str, Any]
) -> dict[str, Any]:
    """The file of a finished match: its ``record`` replayed, ``seats`` (in seat order: each
    seat's ``name``, ``computer`` and ``member``, a member's id as a string or None) and
    ``match`` (its id and times, as the caller keeps them).

    :raises InvalidState: the record does not replay to a finished match, or the seats do
        not fit its format
    """
    data = dict(record)
    fmt = FORMATS.get(str(data.get("format")))
    game = HOKM if fmt is None else fmt.family  # an unknown name: Hokm's story refuses it
    told = _story(game, data)
    if told.winner_team is None:
        raise InvalidState("the record stops before the match is over")
    if len(seats) != told.fmt.seats:
        raise InvalidState(f"{len(seats)} seats for a format of {told.fmt.seats}")
    return {
        "format_version": FORMAT_VERSION,
        "game": game,
        "format": told.fmt.name,
        "match": dict(match),
        "seats": [
            {
                "seat": i,
                "team": told.fmt.team_of[i],
                "name": str(s["name"]),
                "computer": bool(s["computer"]),
                "member": s.get("member"),
            }
            for i, s in enumerate(seats)
        ],
        "rules": data["options"] if game == SHELEM else data["rules"],
        "record_version": data["v"],
        "seed": data["seed"],
        "actions": unpack(data["actions"]),
        **_derived(told),
    }


def check(data: object) -> Checked:
    """Replay a match file and compare all it states with the replay.

    :raises BadMatchFile: naming the first thing wrong: a field missing or unknown, a version
        this engine does not read, actions that do not replay or stop before the match is
        over, or a hand, trick or score that differs from the replay (with both values)
    """
    if not isinstance(data, dict):
        raise BadMatchFile("not a match file: a JSON object was expected")
    if data.get("format_version") != FORMAT_VERSION:
        raise BadMatchFile(
            f"format_version {data.get('format_version')!r}: this engine reads version "
            f"{FORMAT_VERSION}"
        )
    unknown = sorted(set(data) - set(FIELDS))
    missing = [f for f in FIELDS if f not in data]
    if unknown or missing:
        what = f"unknown field {unknown[0]!r}" if unknown else f"no field {missing[0]!r}"
        raise BadMatchFile(f"not a match file: {what}")
    game = data["game"]
    if game not in (HOKM, SHELEM):
        raise BadMatchFile(f"game {game!r}: not {HOKM!r} or {SHELEM!r}")
    fmt = FORMATS.get(str(data["format"]))
    if fmt is None or fmt.family != game:
        raise BadMatchFile(f"format {data['format']!r} is no format of {game}")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise BadMatchFile("actions: a list was expected")
    for i, action in enumerate(actions):
        if not (
            isinstance(action, list) or (isinstance(action, str) and action.split() == [action])
        ):
            raise BadMatchFile(f"actions[{i}]: {action!r} is not an action")
    record = {
        "v": data["record_version"],
        "format": data["format"],
        "seed": data["seed"],
        "options" if game == SHELEM else "rules": data["rules"],
        "actions": actions,
    }
    try:
        told = _story(game, record)
    except InvalidState as exc:
        reason = str(exc).removeprefix("the record does not replay: ")
        raise BadMatchFile(f"the actions do not replay: {reason}") from None
    if told.winner_team is None:
        raise BadMatchFile(
            f"the actions stop before the match is over (after {len(told.hands)} hands)"
        )
    _check_seats(data["seats"], told.fmt)
    expected = _derived(told)
    for key in ("hands", "result"):
        _same(key, data[key], expected[key])
    return Checked(game, told.fmt.name, len(told.hands), told.scores, told.winner_team)


# ---------------------------------------------------------------------- what the replay says


def _story(game: str, record: dict[str, Any]) -> MatchStory | ShelemStory:
    return shelem_story(record) if game == SHELEM else story(record)


def _derived(told: MatchStory | ShelemStory) -> dict[str, Any]:
    """What the file states beyond the rules and actions: every hand, and the final score."""
    if isinstance(told, ShelemStory):
        hands = [_shelem_hand(h) for h in told.hands]
    else:
        hands = [_hokm_hand(h) for h in told.hands]
    return {
        "hands": hands,
        "result": {
            "scores": list(told.scores),
            "winner_team": told.winner_team,
            "hands": len(told.hands),
        },
    }


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _tricks(tricks: Sequence[Trick]) -> list[dict[str, Any]]:
    return [{"leader": t.leader, "cards": _codes(t.cards), "winner": t.winner} for t in tricks]


def _hokm_hand(hand: HandStory) -> dict[str, Any]:
    r: HandResult = hand.result
    return {
        "number": hand.number,
        "hakem": hand.hakem,
        "trump": hand.trump.letter,
        "bid": hand.bid,
        "dealt": [_codes(cards) for cards in hand.dealt],
        "tricks": _tricks(hand.tricks),
        "result": {
            "tricks": list(r.tricks),
            "winner_team": r.winner_team,
            "points": r.points,
            "kind": r.kind,
            "bam": r.bam,
            "scores_after": list(r.scores_after),
        },
    }


def _shelem_hand(hand: ShelemHandStory) -> dict[str, Any]:
    r: ShelemHandResult = hand.result
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "passed_deals": hand.passed_deals,
        "auction": [[seat, bid] for seat, bid in hand.auction],
        "hakem": hand.hakem,
        "bid": hand.bid,
        "mode": hand.mode,
        "trump": None if hand.trump is None else hand.trump.letter,
        "kitty": _codes(hand.kitty),
        "laid_down": _codes(hand.laid_down),
        "dealt": [_codes(cards) for cards in hand.dealt],
        "tricks": _tricks(hand.tricks),
        "result": {
            "tricks": list(r.tricks),
            "points": list(r.points),
            "kind": r.kind,
            "changes": list(r.changes),
            "withheld": list(r.withheld),
            "scores_after": list(r.scores_after),
        },
    }


# ---------------------------------------------------------------------- comparing


def _check_seats(seats: object, fmt: GameFormat) -> None:
    """One seat per seat of the format, each on its team; a name, a computer flag, a member id
    (digits) or null."""
    if not isinstance(seats, list) or len(seats) != fmt.seats:
        raise BadMatchFile(f"seats: {fmt.seats} seats were expected for {fmt.name}")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) != SEAT_FIELDS:
            raise BadMatchFile(f"seats[{i}]: the fields {sorted(SEAT_FIELDS)} were expected")
        _same(f"seats[{i}].seat", seat["seat"], i)
        _same(f"seats[{i}].team", seat["team"], fmt.team_of[i])
        member = seat["member"]
        if (
            not isinstance(seat["name"], str)
            or not isinstance(seat["computer"], bool)
            or not (member is None or (isinstance(member, str) and member.isdigit()))
        ):
            raise BadMatchFile(f"seats[{i}]: a name, a computer flag and a member id or null")


def _same(where: str, said: object, replayed: object) -> None:
    """``said`` (the file's) is ``replayed`` (the engine's), JSON types and all; else the first
    place they differ, with both values."""
    if isinstance(replayed, dict):
        if not isinstance(said, dict):
            raise BadMatchFile(f"{where}: an object was expected")
        for key in replayed:
            if key not in said:
                raise BadMatchFile(f"{where}: no field {key!r}")
            _same(f"{where}.{key}", said[key], replayed[key])
        extra = sorted(set(said) - set(replayed))
        if extra:
            raise BadMatchFile(f"{where}: unknown field {extra[0]!r}")
        return
    if isinstance(replayed, list) and isinstance(said, list):
        if len(said) != len(replayed):
            raise BadMatchFile(
                f"{where}: the file has {len(said)} entries, the replay {len(replayed)}"
            )
        for i, (a, b) in enumerate(zip(said, replayed, strict=True)):
            _same(f"{where}[{i}]", a, b)
        return
    if type(said) is not type(replayed) or said != replayed:
        raise BadMatchFile(f"{where}: the file says {_short(said)}, the replay {_short(replayed)}")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."

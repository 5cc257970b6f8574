"""The ``custom_id`` of every button, and its strict parser.

A custom_id is never trusted: it only says what the click claims (which table, which hand,
which card); the service checks every claim against the stored state. The parser refuses
anything it did not make itself, so forged or garbled ids get a clear answer, not a traceback.

Every kind of id is one entry of ``KINDS``: its tags and its fields (``id_fields``), each
number bounded to what it can really be (a member's id to the store's signed 64 bits, a page
to the pages there are, a bid to the bids there are), so a forged number stops here and never
reaches the store (a user id past 64 bits was an ``OverflowError`` there).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine import Card, Suit
from engine.cards import BY_CODE
from engine.rules import FORMATS, STANDARD, hokm_formats
from engine.shelem.options import PASS, SAR_SHELEM, SHELEM, ShelemOptions

from ..service.match_history import PER_PAGE as HISTORY_PER_PAGE
from ..store.history_ops import HISTORY_DEPTH
from .formats import format_is_named
from .id_fields import Cards, Fields, Kind, Number, Text, Word

PREFIX: Final = "hokm:"
MAX_LENGTH: Final = 100

LOBBY_ACTIONS: Final = {"j": "join", "l": "leave", "a": "add_computer", "s": "start", "x": "cancel"}
SHELEM_MODES: Final = {"h": "hokm", "n": "nars", "a": "ace_nars", "s": "sars"}
"""V6.7: the mode buttons' letters."""
REPLAY_STEPS: Final = {"f": "hand_back", "p": "back", "n": "forward", "l": "hand_forward"}
TOURNAMENT_ACTIONS: Final = {"tj": "join", "tl": "leave"}
"""The tournament message's **Join** and **Withdraw**."""
"""The replay's buttons (⏮ ◀ ▶ ⏭), each its own letter so two leading to one place differ."""

# ------------------------------------------------------------------ every number's range

MEMBER_MAX: Final = 2**63 - 1
"""A member's id (a Discord snowflake) is kept in a signed 64-bit column (``BigInteger``):
an id past it is no member, and the database could not even be asked about it."""
MAX_HAND: Final = 9999
"""A hand's number (a Shelem deal's): the cap the ids always had, above every number a match
can reach (a Shelem match deals at most ``MAX_DEALS``, V6.4.1 and V6.14.1; a Hokm match's
hands are fewer still, each moving a side towards its target)."""
MAX_TRICKS: Final = max(f.hand_size for f in FORMATS.values())
"""The most tricks of a hand in any game (V3–V5: 17): a replay shows tricks 0 (the deal) to it."""
MAX_HISTORY_PAGE: Final = math.ceil(HISTORY_DEPTH / HISTORY_PER_PAGE)
"""``/hokm history`` lists the newest ``HISTORY_DEPTH`` matches, ``PER_PAGE`` a page."""
MAX_STANDINGS_PAGE: Final = 999_999
"""Standings pages have no rule's bound (a row per member who played): the bot's own cap, ten
rows a page for ten million members."""
_SHELEM_OPTIONS: Final = (ShelemOptions(), ShelemOptions(joker=True))
SHELEM_BIDS: Final = tuple(
    sorted({PASS, SHELEM, SAR_SHELEM, *(b for o in _SHELEM_OPTIONS for b in o.point_bids)})
)
"""V6.3, V6.5: a pass, every points bid of either deck, shelem and sar-shelem."""
MAX_CHOSEN: Final = max(o.kitty_size for o in _SHELEM_OPTIONS)
"""V6.13: the most cards a Shelem hakem lays down (a kitty of six, with jokers)."""
PUZZLE_MAX: Final = 2**31 - 1
"""A puzzle's id: the store's ``Integer`` key, signed 32 bits."""
TRICK_BIDS: Final = (0, *sorted({b for f in hokm_formats().values() for b in f.bids}))
"""V5 joker six: a pass (0) or the tricks bid for hakem."""


@dataclass(frozen=True)
class Click:
    """What a button claims: ``kind`` is card, trump, redeal, decide (a joker six's bid too),
    lobby, my_hand, hint, rematch, a Shelem decision, standings, history, replay or its step."""

    kind: str
    table_id: str = ""
    hand: int = 0
    card: Card | None = None
    suit: Suit | None = None
    action: str = ""
    page: int = 0
    member_id: int = 0
    decision: str = ""
    """``decide``: ``bam`` (V1), ``draw`` (V2) answered ``yes`` or not, or ``bid`` (V5)."""
    yes: bool = False
    tricks: int = 0
    """``decide`` of a ``bid``: the tricks bid (0 passes)."""
    game_format: str = STANDARD.name
    """Standings buttons: the format whose standings they page through."""
    match_id: str = ""
    """``replay``, ``replay_step``: the finished match."""
    viewer: int = 0
    """``replay_step``: the member who opened that replay; only they may step it."""
    trick: int = 0
    """``replay_step``: the trick shown (0: the deal); ``hand`` is then the hand's index."""
    value: int = 0
    """``shelem_bid``: the bid (0 passes; 1000 shelem, 2000 sar-shelem). A Shelem decision's
    ``hand`` is the deal it belongs to (``ShelemMatch.deal_number``)."""
    chosen: tuple[Card, ...] = ()
    """``kitty``, ``lay_down``: the cards the hakem had chosen to lay down (``kitty``: before
    this click toggles ``card``)."""
    mode: str = ""
    """``mode``: the mode announced (V6.7)."""
    tournament_id: str = ""
    """``tournament``: the tournament whose message the button is on."""
    puzzle: int = 0
    """``puzzle``: the puzzle a card answers (``card``)."""


class BadCustomId(ValueError):
    """Not a button this bot made."""


_TABLE: Final = Text("table", r"[0-9a-f]{12}")
_MATCH: Final = r"[0-9A-Za-z_-]{1,40}"
"""A finished match's id: the bot's own are table ids; a longer or stranger one (an import)
gets no Replay button (``replay_id`` returns None)."""
_HAND: Final = Number("hand", 1, MAX_HAND)
_CARD: Final = Word("card", tuple(BY_CODE))
_MEMBER: Final = Number("member", 0, MEMBER_MAX)
"""A page of one member's (0: the server's)."""
_DIRECTION: Final = Word("direction", ("p", "n"))
"""Previous or Next: two buttons leading to one page still differ."""


def _shelem(kind: str) -> Callable[[Fields], Click]:
    def make(f: Fields) -> Click:
        card = f.text("card")
        return Click(
            kind,
            f.text("table"),
            f.num("hand"),
            card=BY_CODE[card] if card else None,
            value=int(f.text("value") or 0),
            chosen=f.cards("chosen"),
            mode=SHELEM_MODES.get(f.text("mode"), ""),
        )

    return make


KINDS: Final[tuple[Kind[Click], ...]] = (
    Kind(
        "card",
        ("c",),
        (_TABLE, _HAND, _CARD),
        lambda f: Click("card", f.text("table"), f.num("hand"), card=BY_CODE[f.text("card")]),
    ),
    Kind(
        "trump",
        ("t",),
        (_TABLE, _HAND, Word("suit", tuple(s.letter for s in Suit))),
        lambda f: Click("trump", f.text("table"), f.num("hand"), suit=Suit.parse(f.text("suit"))),
    ),
    Kind(
        "lobby",
        tuple(LOBBY_ACTIONS),
        (_TABLE,),
        lambda f: Click("lobby", f.text("table"), action=LOBBY_ACTIONS[f.tag]),
    ),
    Kind("my_hand", ("h",), (_TABLE,), lambda f: Click("my_hand", f.text("table"))),
    Kind("hint", ("i",), (_TABLE, _HAND), lambda f: Click("hint", f.text("table"), f.num("hand"))),
    Kind(
        "redeal", ("d",), (_TABLE, _HAND), lambda f: Click("redeal", f.text("table"), f.num("hand"))
    ),
    Kind(  # V1 bam or stop, V2 keep or take the next
        "decide",
        ("b", "w"),
        (_TABLE, _HAND, Word("yes", ("y", "n"))),
        lambda f: Click(
            "decide",
            f.text("table"),
            f.num("hand"),
            decision="bam" if f.tag == "b" else "draw",
            yes=f.text("yes") == "y",
        ),
    ),
    Kind(  # V5 joker six: a click of the same kind as a decision
        "bid",
        ("v",),
        (_TABLE, _HAND, Word("tricks", tuple(map(str, TRICK_BIDS)))),
        lambda f: Click(
            "decide", f.text("table"), f.num("hand"), decision="bid", tricks=int(f.text("tricks"))
        ),
    ),
    Kind("rematch", ("r",), (_TABLE,), lambda f: Click("rematch", f.text("table"))),
    # V6 Shelem: each carries the deal it belongs to (a redeal keeps the hand's number)
    Kind(
        "shelem_bid",
        ("sb",),
        (_TABLE, _HAND, Word("value", tuple(map(str, SHELEM_BIDS)))),
        _shelem("shelem_bid"),
    ),
    Kind(
        "kitty",
        ("sk",),
        (_TABLE, _HAND, _CARD, Cards("chosen", MAX_CHOSEN)),
        _shelem("kitty"),
    ),
    Kind("lay_down", ("sl",), (_TABLE, _HAND, Cards("chosen", MAX_CHOSEN)), _shelem("lay_down")),
    Kind(
        "mode",
        ("sm",),
        (_TABLE, _HAND, Word("mode", tuple(SHELEM_MODES))),
        _shelem("mode"),
    ),
    Kind(
        "standings",
        ("p",),
        (
            Number("page", 1, MAX_STANDINGS_PAGE),
            _MEMBER,
            _DIRECTION,
            Text("format", r"[a-z0-9_]{1,32}"),
        ),
        lambda f: Click(
            "standings",
            page=f.num("page"),
            member_id=f.num("member"),
            game_format=f.text("format", STANDARD.name),
        ),
        optional=1,
    ),
    Kind(  # a tournament message's Join and Withdraw
        "tournament",
        tuple(TOURNAMENT_ACTIONS),
        (Text("tournament", r"[0-9a-f]{12}"),),
        lambda f: Click(
            "tournament", tournament_id=f.text("tournament"), action=TOURNAMENT_ACTIONS[f.tag]
        ),
    ),
    Kind(  # a card answering a double-dummy puzzle (its own ephemeral message)
        "puzzle",
        ("q",),
        (Number("puzzle", 1, PUZZLE_MAX), _CARD),
        lambda f: Click("puzzle", puzzle=f.num("puzzle"), card=BY_CODE[f.text("card")]),
    ),
    Kind(
        "history",
        ("g",),
        (Number("page", 1, MAX_HISTORY_PAGE), _MEMBER, _DIRECTION),
        lambda f: Click("history", page=f.num("page"), member_id=f.num("member")),
    ),
    Kind(
        "replay",
        ("y",),
        (Text("match", _MATCH),),
        lambda f: Click("replay", match_id=f.text("match")),
    ),
    Kind(
        "replay_step",
        ("z",),
        (
            Text("match", _MATCH),
            Number("viewer", 1, MEMBER_MAX),
            Number("hand", 0, MAX_HAND - 1),
            Number("trick", 0, MAX_TRICKS),
            Word("step", tuple(REPLAY_STEPS)),
        ),
        lambda f: Click(
            "replay_step",
            match_id=f.text("match"),
            viewer=f.num("viewer"),
            hand=f.num("hand"),
            trick=f.num("trick"),
            action=REPLAY_STEPS[f.text("step")],
        ),
    ),
)
"""Every kind of button the bot makes, and so every id the parser takes."""
_BY_TAG: Final = {tag: kind for kind in KINDS for tag in kind.tags}
assert len(_BY_TAG) == sum(len(k.tags) for k in KINDS), "two kinds share a tag"


def parse(custom_id: object) -> Click:
    """The click a button claims, every field in its range; anything else is ``BadCustomId``."""
    if (
        not isinstance(custom_id, str)
        or len(custom_id) > MAX_LENGTH
        or not custom_id.startswith(PREFIX)
    ):
        raise BadCustomId("not a custom_id")
    tag, *parts = custom_id[len(PREFIX) :].split(":")
    kind = _BY_TAG.get(tag)
    click = None if kind is None else kind.read(tag, parts)
    if click is None:
        raise BadCustomId(f"unknown custom_id {custom_id[:40]!r}")
    return click


def shelem_bid_id(table_id: str, deal: int, value: int) -> str:
    """V6.3, V6.5: a bid (0 passes) in one deal of a Shelem hand."""
    return f"hokm:sb:{table_id}:{deal}:{value}"


def kitty_id(table_id: str, deal: int, card: Card, chosen: tuple[Card, ...]) -> str:
    """V6.6.1: one of the hakem's cards, which a click chooses to lay down or puts back;
    ``chosen``, what he had chosen before (kept on his own buttons only)."""
    return f"hokm:sk:{table_id}:{deal}:{card.code}:{'.'.join(c.code for c in chosen)}"


def lay_down_id(table_id: str, deal: int, chosen: tuple[Card, ...]) -> str:
    """V6.6.1: the hakem's **Lay down** of the cards chosen."""
    return f"hokm:sl:{table_id}:{deal}:{'.'.join(c.code for c in chosen)}"


def mode_id(table_id: str, deal: int, mode: str) -> str:
    """V6.7: the hakem's announcement of ``mode``."""
    letter = next(k for k, v in SHELEM_MODES.items() if v == mode)
    return f"hokm:sm:{table_id}:{deal}:{letter}"


def card_id(table_id: str, hand: int, card: Card) -> str:
    return f"hokm:c:{table_id}:{hand}:{card.code}"


def trump_id(table_id: str, hand: int, suit: Suit) -> str:
    return f"hokm:t:{table_id}:{hand}:{suit.letter}"


def redeal_id(table_id: str, hand: int) -> str:
    """R6: the hakem's Redeal button, beside the trump buttons of one hand."""
    return f"hokm:d:{table_id}:{hand}"


def decide_id(table_id: str, hand: int, decision: str, yes: bool) -> str:
    """V1's Bam/Stop (``bam``) and V2's Keep/Take the next (``draw``) of one hand."""
    return f"hokm:{'b' if decision == 'bam' else 'w'}:{table_id}:{hand}:{'y' if yes else 'n'}"


def bid_id(table_id: str, hand: int, tricks: int) -> str:
    """V5 joker six: a bid of ``tricks`` (5–9) for hakem, or 0 to pass, in one hand."""
    return f"hokm:v:{table_id}:{hand}:{tricks}"


def lobby_id(table_id: str, action: str) -> str:
    letter = next(k for k, v in LOBBY_ACTIONS.items() if v == action)
    return f"hokm:{letter}:{table_id}"


def my_hand_id(table_id: str) -> str:
    return f"hokm:h:{table_id}"


def hint_id(table_id: str, hand: int) -> str:
    """The Hint button of one hand: pressed in a later hand, it is stale."""
    return f"hokm:i:{table_id}:{hand}"


def rematch_id(table_id: str) -> str:
    """The Rematch button under a finished table's summary (the table it repeats)."""
    return f"hokm:r:{table_id}"


def standings_id(
    page: int, direction: str, member_id: int = 0, game_format: str = STANDARD.name
) -> str:
    """``direction`` (p or n) keeps Previous and Next distinct when both lead to one page; a
    format other than the standard game is named last (standings per format)."""
    tail = f":{game_format}" if format_is_named(game_format) else ""  # the default unsaid
    return f"hokm:p:{page}:{member_id}:{direction}{tail}"


def history_id(page: int, direction: str, member_id: int = 0) -> str:
    """A page of ``/hokm history``, the server's or one member's (``member_id``)."""
    return f"hokm:g:{page}:{member_id}:{direction}"


def replay_id(match_id: str) -> str | None:
    """The Replay button of one finished match; None for an id no button can carry."""
    return f"hokm:y:{match_id}" if re.fullmatch(_MATCH, match_id, re.ASCII) else None


def replay_step_id(match_id: str, viewer: int, hand: int, trick: int, step: str) -> str:
    """A ◀ ▶ button of one member's replay, leading to hand index ``hand``, trick ``trick``."""
    letter = next(k for k, v in REPLAY_STEPS.items() if v == step)
    return f"hokm:z:{match_id}:{viewer}:{hand}:{trick}:{letter}"


def tournament_id(tournament: str, action: str) -> str:
    """**Join** or **Withdraw** (``leave``) on a tournament's message."""
    tag = next(k for k, v in TOURNAMENT_ACTIONS.items() if v == action)
    return f"hokm:{tag}:{tournament}"


def puzzle_card_id(puzzle: int, card: Card) -> str:
    """A card of a puzzle's seat to play: the member's answer to puzzle ``puzzle``."""
    return f"hokm:q:{puzzle}:{card.code}"

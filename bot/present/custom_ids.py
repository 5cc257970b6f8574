"""The ``custom_id`` of every button, and its strict parser.

A custom_id is never trusted: it only says what the click claims (which table, which hand,
which card); the service checks every claim against the stored state. The parser refuses
anything it did not make itself, so forged or garbled ids get a clear answer, not a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine import Card, Suit

PREFIX: Final = "hokm:"
MAX_LENGTH: Final = 100

LOBBY_ACTIONS: Final = {"j": "join", "l": "leave", "a": "add_computer", "s": "start", "x": "cancel"}

_TABLE = r"[0-9a-f]{12}"
_MATCH = r"[0-9A-Za-z_-]{1,40}"
"""A finished match's id: the bot's own are table ids; a longer or stranger one (an import)
gets no Replay button (``replay_id`` returns None)."""
_USER = r"[1-9][0-9]{0,19}"
_CARD = r"(?:10|[2-9JQKA])[SHDC]|BJ|RJ"
_DEAL = r"[1-9][0-9]{0,3}"
SHELEM_MODES: Final = {"h": "hokm", "n": "nars", "a": "ace_nars", "s": "sars"}
"""V6.7: the mode buttons' letters."""
MAX_CHOSEN: Final = 6
"""V6.13: the most cards a Shelem hakem lays down (a kitty of six, with jokers)."""
REPLAY_STEPS: Final = {"f": "hand_back", "p": "back", "n": "forward", "l": "hand_forward"}
"""The replay's buttons (⏮ ◀ ▶ ⏭), each its own letter so two leading to one place differ."""
_PATTERNS: Final = {
    "card": re.compile(
        rf"hokm:c:(?P<table>{_TABLE}):(?P<hand>[1-9][0-9]{{0,3}}):"
        r"(?P<card>(?:10|[2-9JQKA])[SHDC]|BJ|RJ)"
    ),
    "trump": re.compile(
        rf"hokm:t:(?P<table>{_TABLE}):(?P<hand>[1-9][0-9]{{0,3}}):(?P<suit>[SHDC])"
    ),
    "lobby": re.compile(rf"hokm:(?P<action>[jlasx]):(?P<table>{_TABLE})"),
    "my_hand": re.compile(rf"hokm:h:(?P<table>{_TABLE})"),
    "hint": re.compile(rf"hokm:i:(?P<table>{_TABLE}):(?P<hand>[1-9][0-9]{{0,3}})"),
    "redeal": re.compile(rf"hokm:d:(?P<table>{_TABLE}):(?P<hand>[1-9][0-9]{{0,3}})"),
    "decide": re.compile(
        rf"hokm:(?P<what>[bwv]):(?P<table>{_TABLE}):(?P<hand>[1-9][0-9]{{0,3}}):(?P<yes>[yn0-9])"
    ),
    "rematch": re.compile(rf"hokm:r:(?P<table>{_TABLE})"),
    # V6 Shelem: each carries the deal it belongs to (a redeal keeps the hand's number)
    "shelem_bid": re.compile(
        rf"hokm:sb:(?P<table>{_TABLE}):(?P<hand>{_DEAL}):(?P<value>0|[1-9][0-9]{{2,3}})"
    ),
    "kitty": re.compile(
        rf"hokm:sk:(?P<table>{_TABLE}):(?P<hand>{_DEAL}):(?P<card>{_CARD}):"
        rf"(?P<chosen>(?:(?:{_CARD})(?:\.(?:{_CARD})){{0,{MAX_CHOSEN - 1}}})?)"
    ),
    "lay_down": re.compile(
        rf"hokm:sl:(?P<table>{_TABLE}):(?P<hand>{_DEAL}):"
        rf"(?P<chosen>(?:(?:{_CARD})(?:\.(?:{_CARD})){{0,{MAX_CHOSEN - 1}}})?)"
    ),
    "mode": re.compile(rf"hokm:sm:(?P<table>{_TABLE}):(?P<hand>{_DEAL}):(?P<mode>[hnas])"),
    "standings": re.compile(
        r"hokm:p:(?P<page>[1-9][0-9]{0,5}):(?P<member>0|[1-9][0-9]{0,19}):[pn]"
        r"(?::(?P<format>[a-z0-9_]{1,32}))?"
    ),
    "history": re.compile(r"hokm:g:(?P<page>[1-9][0-9]{0,5}):(?P<member>0|" + _USER + r"):[pn]"),
    "replay": re.compile(rf"hokm:y:(?P<match>{_MATCH})"),
    "replay_step": re.compile(
        rf"hokm:z:(?P<match>{_MATCH}):(?P<viewer>{_USER}):"
        r"(?P<hand>0|[1-9][0-9]{0,2}):(?P<trick>0|[1-9][0-9]?):(?P<step>[fpnl])"
    ),
}


@dataclass(frozen=True)
class Click:
    """What a button claims; ``kind`` is card, trump, redeal, decide, lobby, my_hand, hint,
    rematch or standings."""

    kind: str
    table_id: str = ""
    hand: int = 0
    card: Card | None = None
    suit: Suit | None = None
    action: str = ""
    page: int = 0
    member_id: int = 0
    decision: str = ""
    """``decide``: ``bam`` (V1) or ``draw`` (V2), answered ``yes`` or not."""
    yes: bool = False
    tricks: int = 0
    """``decide`` of a ``bid``: the tricks bid (0 passes)."""
    game_format: str = "standard"
    """Standings buttons: the format whose standings they page through (issue 14)."""
    match_id: str = ""
    """``replay``, ``replay_step``: the finished match (issue 16)."""
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


class BadCustomId(ValueError):
    """Not a button this bot made."""


def parse(custom_id: object) -> Click:
    if not isinstance(custom_id, str) or len(custom_id) > MAX_LENGTH:
        raise BadCustomId("not a custom_id")
    for kind, pattern in _PATTERNS.items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        g = m.groupdict()
        if kind == "card":
            return Click(kind, g["table"], int(g["hand"]), card=Card.parse(g["card"]))
        if kind == "trump":
            return Click(kind, g["table"], int(g["hand"]), suit=Suit.parse(g["suit"]))
        if kind == "lobby":
            return Click(kind, g["table"], action=LOBBY_ACTIONS[g["action"]])
        if kind in ("shelem_bid", "kitty", "lay_down", "mode"):
            return _shelem_click(kind, g, custom_id)
        if kind in ("my_hand", "rematch"):
            return Click(kind, g["table"])
        if kind == "decide":
            what = {"b": "bam", "w": "draw", "v": "bid"}[g["what"]]
            if (what == "bid") != g["yes"].isdigit():
                raise BadCustomId(f"unknown custom_id {custom_id[:40]!r}")
            yes, tricks = g["yes"] == "y", int(g["yes"]) if g["yes"].isdigit() else 0
            return Click(kind, g["table"], int(g["hand"]), decision=what, yes=yes, tricks=tricks)
        if kind in ("hint", "redeal"):
            return Click(kind, g["table"], int(g["hand"]))
        if kind == "history":
            return Click(kind, page=int(g["page"]), member_id=int(g["member"]))
        if kind == "replay":
            return Click(kind, match_id=g["match"])
        if kind == "replay_step":
            return Click(
                kind,
                match_id=g["match"],
                viewer=int(g["viewer"]),
                hand=int(g["hand"]),
                trick=int(g["trick"]),
                action=REPLAY_STEPS[g["step"]],
            )
        return Click(
            kind,
            page=int(g["page"]),
            member_id=int(g["member"]),
            game_format=g["format"] or "standard",
        )
    raise BadCustomId(f"unknown custom_id {custom_id[:40]!r}")


def _shelem_click(kind: str, g: dict[str, str], custom_id: str) -> Click:
    codes = g.get("chosen") or ""
    chosen = tuple(Card.parse(c) for c in codes.split(".")) if codes else ()
    if len(set(chosen)) != len(chosen):
        raise BadCustomId(f"a card twice in {custom_id[:40]!r}")
    return Click(
        kind,
        g["table"],
        int(g["hand"]),
        card=Card.parse(g["card"]) if g.get("card") else None,
        value=int(g.get("value") or 0),
        chosen=chosen,
        mode=SHELEM_MODES.get(g.get("mode") or "", ""),
    )


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
    """The Hint button of one hand (issue 13): pressed in a later hand, it is stale."""
    return f"hokm:i:{table_id}:{hand}"


def rematch_id(table_id: str) -> str:
    """The Rematch button under a finished table's summary (the table it repeats)."""
    return f"hokm:r:{table_id}"


def standings_id(
    page: int, direction: str, member_id: int = 0, game_format: str = "standard"
) -> str:
    """``direction`` (p or n) keeps Previous and Next distinct when both lead to one page; a
    format other than the standard game is named last (issue 14: standings per format)."""
    tail = "" if game_format == "standard" else f":{game_format}"
    return f"hokm:p:{page}:{member_id}:{direction}{tail}"


def history_id(page: int, direction: str, member_id: int = 0) -> str:
    """A page of ``/hokm history`` (issue 16), the server's or one member's (``member_id``)."""
    return f"hokm:g:{page}:{member_id}:{direction}"


_MATCH_ID = re.compile(_MATCH)


def replay_id(match_id: str) -> str | None:
    """The Replay button of one finished match; None for an id no button can carry."""
    return f"hokm:y:{match_id}" if _MATCH_ID.fullmatch(match_id) else None


def replay_step_id(match_id: str, viewer: int, hand: int, trick: int, step: str) -> str:
    """A ◀ ▶ button of one member's replay, leading to hand index ``hand``, trick ``trick``."""
    letter = next(k for k, v in REPLAY_STEPS.items() if v == step)
    return f"hokm:z:{match_id}:{viewer}:{hand}:{trick}:{letter}"

"""The pieces of a finished match's text that ``/hokm history``, its Replay of either game (Hokm
in ``history``, Shelem's lines in ``shelem_replay``) and the web page share: the seats by their
stored names, a team by its players, counts and scores per team, a seat's cards by suit.

A finished match has no ``Table``: its names are the ones stored with it (``MatchPlayer``), so
these take the names as given where ``teams`` takes a live table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import Card, GameFormat, Suit

from ..names import shown_name
from ..store import MatchPlayer
from .i18n import isolate, ltr, named, number, t, word

SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def stored_names(players: Sequence[MatchPlayer], seats: int, limit: int) -> list[str]:
    """Each seat's shown name (escaped; "?" for a seat the record does not name)."""
    names = ["?"] * seats
    for p in players:
        if p.seat < seats:
            names[p.seat] = shown_name(p.display_name, computer=p.is_computer, limit=limit)
    return names


def team_label(fmt: GameFormat, names: Sequence[str], lang: str, team: int) -> str:
    """A team by its players' names, as given (shown here, plain on the web page)."""
    members = [names[seat] for seat in fmt.seats_of(team)]
    if lang == "fa":
        members = [isolate(n) for n in members]
    return word(lang, "team.join").join(members)


def team_items(
    lang: str, fmt: GameFormat, names: Sequence[str], counts: Sequence[int]
) -> list[str]:
    """One ``team: count`` per team of the format (tricks, or points)."""
    return [
        t(lang, "table.team_count", team=team_label(fmt, names, lang, i), count=number(lang, n))
        for i, n in enumerate(counts)
    ]


def scores_line(
    fmt: GameFormat,
    names: Sequence[str],
    lang: str,
    scores: Sequence[int],
    winner: int | None = None,
) -> str:
    """Every team by its players with its score, ``winner``'s in bold (none in a title, where
    Discord shows no Markdown)."""
    parts = []
    for team, score in enumerate(scores):
        shown = number(lang, score)
        if team == winner:
            shown = f"**{shown}**"
        parts.append(named(lang, team_label(fmt, names, lang, team), shown))
    return " — ".join(parts)


def in_suit_order(cards: Sequence[Card]) -> list[Card]:
    """A seat's cards by suit (♠ ♥ ♣ ♦), highest first, jokers last: as the Replay shows a
    hand, on Discord and on the web page."""
    plain = [c for c in cards if not c.is_joker]
    plain.sort(key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))
    return plain + sorted((c for c in cards if c.is_joker), reverse=True)


def cards_line(lang: str, cards: Sequence[Card]) -> str:
    """A seat's cards by suit, highest first: ``♠ A K 5  ♥ Q 3`` (jokers last); in Persian
    one left-to-right run, as the card buttons show a hand."""
    if not cards:
        return "—"
    groups = []
    ordered = in_suit_order(cards)
    for suit in SUIT_ORDER:
        ranks = [c.rank_code for c in ordered if not c.is_joker and c.suit == suit]
        if ranks:
            groups.append(f"{suit.symbol} {' '.join(ranks)}")
    groups += [c.label for c in ordered if c.is_joker]
    return ltr(lang, "  ".join(groups))

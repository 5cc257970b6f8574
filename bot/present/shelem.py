"""A Shelem table on Discord (V6): the table message's lines, a hand's result in one
line, and the words for bids and modes (a seat's own hand message is ``shelem_hand``).

Only what every seat may know reaches the table message: the bids, the hakem and his bid, the
mode, trump once his first card named it, the points taken in tricks and the score; never the
kitty nor the cards the hakem laid down (V6.6.4), which the match object is not asked for here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from engine.shelem import (
    BID,
    DISCARD,
    MODE,
    PASS,
    PLAY,
    SAR_SHELEM,
    SHELEM,
    ShelemHandResult,
    ShelemMatch,
)

from ..names import seat_name
from ..service.table import Table
from . import hand_status
from .i18n import LIST_SEPARATOR, named, number, play, score_pair, suit_label, t, word
from .i18n import signed as signed
from .log_lines import closing_lines
from .specs import when
from .teams import score_lines, team_counts, team_label
from .tricks import scores_text

BID_WORDS = {PASS: "shelem.pass", SHELEM: "shelem.shelem", SAR_SHELEM: "shelem.sar_shelem"}


def shelem_match(table: Table) -> ShelemMatch:
    match = table.match
    assert isinstance(match, ShelemMatch), "not a Shelem table"
    return match


def bid_label(lang: str, value: int) -> str:
    """A bid in words: the points, or Pass, Shelem, Sar-shelem (V6.3, V6.5)."""
    key = BID_WORDS.get(value)
    return word(lang, key) if key else number(lang, value)


def mode_label(lang: str, mode: str) -> str:
    return word(lang, f"shelem.mode.{mode}")


def modes_label(lang: str, modes: str) -> str:
    """``GuildSettings.shelem_modes`` in words (``nars+sars``: Nars, Sars; ``hokm``: none)."""
    if modes == "hokm":
        return word(lang, "shelem.modes_none")
    return comma(lang).join(mode_label(lang, m) for m in modes.split("+"))


def modes_choice_label(lang: str, modes: str) -> str:
    """``GuildSettings.shelem_modes`` as a command's choice: ``Hokm only``, ``+ Nars, Sars``."""
    if modes == "hokm":
        return t(lang, "shelem.modes_choice_hokm")
    return t(lang, "shelem.modes_choice", modes=modes_label(lang, modes))


def comma(lang: str) -> str:
    return "، " if lang == "fa" else ", "


def footer(table: Table, lang: str) -> str:
    """The format, the target and the turn, the jokers and the modes the table plays."""
    options = table.settings.shelem_options()
    parts = [
        word(lang, "format.shelem_short"),
        t(
            lang,
            "shelem.footer",
            target=number(lang, options.target),
            turn=number(lang, table.settings.turn_seconds),
        ),
    ]
    if options.joker:
        parts.append(word(lang, "shelem.footer_jokers"))
    modes = [mode_label(lang, m) for m in options.modes if m != "hokm"]
    if modes:
        parts.append(t(lang, "shelem.footer_modes", modes=comma(lang).join(modes)))
    return LIST_SEPARATOR.join(parts)


# ---------------------------------------------------------------------- the table message


def match_lines(table: Table, lang: str, closed: frozenset[int] = frozenset()) -> list[str]:
    """The match as everyone may see it, for the table message (``closed``: the seats whose
    DMs are closed)."""
    match = shelem_match(table)
    name = partial(seat_name, table)
    head = t(lang, "table.hand", n=number(lang, match.hand_number))
    who = (
        t(lang, "table.hakem", name=name(match.hakem))
        if match.hakem >= 0
        else t(lang, "shelem.hand_dealer", name=name(match.dealer))
    )
    lines = [f"**{head}** · {who}"]
    if match.phase == BID:
        lines.append(auction_line(table, lang, match))
        notice = final_deal_line(table, lang, match)
        lines += [notice] if notice else []
    elif match.hakem >= 0:
        lines.append(contract_line(table, lang, match))
        trump = trump_line(table, lang, match)
        lines += [trump] if trump else []
    if match.phase == PLAY:
        points = team_counts(table, lang, match.team_points)
        total = number(lang, match.options.hand_total)
        lines.append(t(lang, "shelem.points", teams=points, total=total))
    lines += score_lines(table, lang, match.scores, match.target_score)
    if match.phase == PLAY:
        trick = match.current_trick()
        shown = [play(lang, name(s), c.label) for s, c in trick]
        lines.append(
            t(lang, "table.current_trick", cards=shown) if trick else t(lang, "table.no_cards_yet")
        )
    if table.status == "playing":
        lines.append(turn_line(table, lang, match))
    last = hand_result_line(table, lang, match.hand_results[-1]) if match.hand_results else None
    return closing_lines(table, lang, lines, last, closed)


def auction_line(table: Table, lang: str, match: ShelemMatch) -> str:
    """V6.3: each seat's last word this deal, from the seat after the dealer, and the highest
    bid with its bidder, or that nobody has bid yet (public)."""
    spoken = []
    for k in range(1, 5):
        seat = (match.dealer + k) % 4
        bid = match.bids[seat]
        if bid >= 0:
            spoken.append(named(lang, seat_name(table, seat), bid_label(lang, bid)))
    high = bid_label(lang, match.high) if match.high_seat >= 0 else ""
    highest = hand_status.highest_bid(table, lang, high, match.high_seat)
    if not spoken:
        return t(lang, "shelem.auction", bids=highest)
    return t(lang, "shelem.auction", bids=spoken) + LIST_SEPARATOR + highest


def final_deal_line(table: Table, lang: str, match: ShelemMatch) -> str | None:
    """V6.4.1: on a hand's last deal, until someone bids, that the dealer must open if the
    first three pass; else None."""
    if match.phase != BID or not match.final_deal or match.high_seat >= 0:
        return None
    n, name = number(lang, match.passed_deals), seat_name(table, match.dealer)
    return t(lang, "shelem.final_deal", n=n, name=name)


def contract_line(table: Table, lang: str, match: ShelemMatch) -> str:
    """The hakem's bid, and the mode once announced at a table that plays modes (V6.7)."""
    bid, name = bid_label(lang, match.bid_value), seat_name(table, match.hakem)
    if match.mode is not None and len(match.options.modes) > 1:
        mode = mode_label(lang, match.mode)
        return t(lang, "shelem.contract_mode", bid=bid, name=name, mode=mode)
    return t(lang, "shelem.contract", bid=bid, name=name)


def trump_line(table: Table, lang: str, match: ShelemMatch) -> str | None:
    """V6.8.1: trump once the hakem's first card named it; until then who names it; no trump
    in nars, ace-nars and sars."""
    if match.trump is not None:
        return t(lang, "table.trump", suit=suit_label(lang, match.trump))
    if match.mode == "hokm":
        return t(lang, "shelem.trump_by_card", name=seat_name(table, match.hakem))
    if match.mode is not None:
        return t(lang, "shelem.no_trump", mode=mode_label(lang, match.mode))
    return None


def turn_line(table: Table, lang: str, match: ShelemMatch) -> str:
    seat = match.to_act
    who, due = seat_name(table, seat), when(table.deadline)
    if table.seat(seat).computer_plays:
        return t(lang, "table.turn_computer", name=who)
    if match.phase == BID:
        return t(lang, "shelem.turn_bid", name=who, when=due)
    if match.phase == DISCARD:
        count = number(lang, match.kitty_size)
        return t(lang, "shelem.turn_discard", name=who, n=count, when=due)
    if match.phase == MODE:
        return t(lang, "shelem.turn_mode", name=who, when=due)
    return t(lang, "table.turn", name=who, when=due)


def hand_result_line(table: Table, lang: str, result: ShelemHandResult) -> str:
    """V6.9–V6.12: how the hakem's side did against its bid, the points (theirs first), what
    its score moved by and the score after; the defenders' points withheld near the target."""
    teams = [team_label(table, lang, team) for team in (0, 1)]
    return result_text(lang, result, teams, scores_text(table, lang, result.scores_after))


def result_text(lang: str, result: ShelemHandResult, teams: Sequence[str], score: str) -> str:
    """``hand_result_line`` with the teams named by ``teams`` and the score after the hand as
    ``score``: the one sentence of a live table and of a finished match's Replay."""
    hakem_team = result.hakem_team
    ours, theirs = result.points[hakem_team], result.points[1 - hakem_team]
    line = t(
        lang,
        f"shelem.result.{result.kind}",
        team=teams[hakem_team],
        n=number(lang, result.number),
        bid=bid_label(lang, result.bid),
        points=score_pair(lang, [ours, theirs]),
        change=signed(lang, result.changes[hakem_team]),
        score=score,
    )
    withheld = result.withheld[1 - hakem_team]
    if withheld:
        line += LIST_SEPARATOR + t(
            lang,
            "shelem.result.withheld",
            team=teams[1 - hakem_team],
            points=number(lang, withheld),
        )
    return line

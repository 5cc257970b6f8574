"""What a table leaves behind: the public lines under its message and, at the end, the
match record for the standings.

Both are facts the service records in the same save as the move behind them, so a rollback
takes them back too; the presenter localizes the lines later.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from engine.shelem import PASS, SAR_SHELEM, SHELEM

from ..names import seat_name
from ..store import FinishedMatch, MatchPlayer, TeamStats
from .events import (
    Back,
    BamOffer,
    Cancelled,
    Decided,
    Expired,
    NobodyBid,
    Redealt,
    Replaced,
    SeatsReleased,
    TableEvent,
    TimedOut,
    TimedOutDecision,
    TimedOutTrump,
    TrickTaken,
    TrumpNamed,
)
from .games import family_of
from .shelem_events import AllPassed, BidMade, BidWon, KittyLaidDown, ModeAnnounced
from .table import LogLine, Table

SHELEM_BIDS = {PASS: "passes", SHELEM: "bids_shelem", SAR_SHELEM: "bids_sar_shelem"}
"""V6.3, V6.5: the line a Shelem bid leaves (``shelem.…``); a points bid is ``bids``.""" """V6.10, V6.11: the hakem's side took all twelve tricks: Shelem's kot, in the standings."""
HAND_ENDED = "table.hand_ended"
"""The key of the line a hand's last trick leaves: the hand, the trick (its number,
leader, card codes and winner) and ``moves``, the match's actions when it was taken. It marks
where a hand's lines end, and the presenter shows the trick until the next hand's first move
(``bot.present.hand_end``)."""


def log_line(table: Table, event: TableEvent) -> LogLine | None:
    """The public line under the table message an event calls for, as a catalog key (the
    presenter localizes it); ``None`` for events reported only in the channel, or not at all.

    A finished trick leaves no line: the table message renders the current
    hand's tricks from the match, so none can carry over into the next hand; but the trick
    that ends a hand leaves one, ``HAND_ENDED`` (the deciding trick is shown after
    the engine has dealt the next hand, when ``Match.tricks`` no longer holds it)."""
    name = partial(seat_name, table)
    match event:
        case TrickTaken(trick=trick, hand=hand) if _ends_hand(table, hand):
            assert table.match is not None
            return LogLine.of(
                HAND_ENDED,
                hand=hand,
                n=trick.number,
                leader=trick.leader,
                cards=" ".join(card.code for card in trick.cards),
                winner=trick.winner,
                moves=len(table.match.actions),
            )
        case TrumpNamed(seat=seat, suit=suit):
            return LogLine.of("report.trump_named", name=name(seat), suit=int(suit))
        case BamOffer(seat=seat):
            return LogLine.of("report.bam_offered", name=name(seat))
        case Decided(seat=seat, what=what) if what in ("bam", "stop"):
            return LogLine.of(f"report.{what}", name=name(seat))
        case Decided(seat=seat, what="pass"):
            return LogLine.of("report.passes", name=name(seat))
        case Decided(seat=seat, tricks=tricks) if tricks:
            return LogLine.of("report.bids", name=name(seat), n=tricks)
        case NobodyBid(dealer=dealer):
            return LogLine.of("report.nobody_bid", name=name(dealer))
        case TimedOutDecision(seat=seat):
            return LogLine.of("report.timeout_decision", name=name(seat))
        case Redealt(seat=seat):
            return LogLine.of("report.redealt", name=name(seat))
        case BidMade(seat=seat, value=value):
            return LogLine.of(f"shelem.{SHELEM_BIDS.get(value, 'bids')}", name=name(seat), n=value)
        case AllPassed(dealer=dealer):
            return LogLine.of("shelem.all_passed", name=name(dealer))
        case BidWon(hakem=hakem, bid=bid):
            won = {SHELEM: "bid_won_shelem", SAR_SHELEM: "bid_won_sar_shelem"}.get(bid, "bid_won")
            return LogLine.of(f"shelem.{won}", name=name(hakem), n=bid)
        case KittyLaidDown(hakem=hakem, count=count):
            return LogLine.of("shelem.laid_down", name=name(hakem), n=count)
        case ModeAnnounced(hakem=hakem, mode=mode):
            return LogLine.of(f"shelem.announced_{mode}", name=name(hakem))
        case TimedOut(seat=seat, card=card):
            return LogLine.of("report.timeout", name=name(seat), card=card.label)
        case TimedOutTrump(seat=seat, suit=suit):
            return LogLine.of("report.timeout_trump", name=name(seat), suit=int(suit))
        case Replaced(seat=seat):
            return LogLine.of("report.replaced", name=name(seat))
        case Back(seat=seat):
            return LogLine.of("report.back", name=name(seat))
        case Cancelled(by=by):
            return LogLine.of("report.cancelled", name=f"<@{by}>")
        case Expired():
            return LogLine.of("report.expired")
        case SeatsReleased():
            return LogLine.of("report.rematch_released")
        case _:
            return None


def _ends_hand(table: Table, hand: int) -> bool:
    """A trick of ``hand`` taken when the match has moved on (or ended) was its last."""
    match = table.match
    return match is not None and (match.hand_number != hand or match.is_over)


def finished_match(table: Table, now: float) -> FinishedMatch:
    """The standings' record of a finished match; hand statistics from the engine's
    ``HandResult`` (R11: kots dealt, hakem-kots suffered), and the engine's record of the
    whole match for ``/hokm history``'s Replay (Shelem's, V6)."""
    match = table.match
    assert match is not None and match.winner_team is not None
    stats, hands, replay, target_score = family_of(table).recorded(table)
    return FinishedMatch(
        match_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        started_at=datetime.fromtimestamp(table.started_at or table.created_at, UTC),
        finished_at=datetime.fromtimestamp(table.finished_at or now, UTC),
        target_score=target_score,
        scores=tuple(match.scores),
        winner_team=match.winner_team,
        hands=hands,
        players=tuple(
            MatchPlayer(
                seat=i,
                team=table.team_of(i),
                user_id=s.user_id,
                is_computer=s.is_computer,
                display_name=s.name,
            )
            for i, s in enumerate(table.seats)
            if s is not None
        ),
        team_stats=tuple(TeamStats(*team) for team in stats),
        hints=table.settings.hints,
        game_format=match.fmt.name,
        rate_computers=table.settings.rate_computer_matches,
        rated=table.settings.rated,
        replay=replay,
    )

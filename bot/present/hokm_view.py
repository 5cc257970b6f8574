"""The Hokm family as the presenter shows it (``families.PresentFamily``): every format of
``engine.rules.FORMATS`` (R1–R15, V1–V5), its table lines, a seat's hand message with trump
and variant buttons, its hands' results, summary and replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from engine import BID, PLAY, TRUMP, Card, Match, seat_view
from engine.story import MatchStory

from ..names import seat_name
from ..service.match_history import MatchReplay
from ..service.table import Table
from . import custom_ids, hand_end, hand_status, history, summary, tricks, variants
from .families import register
from .formats import MAX_ROWS, PER_ROW, settings_footer
from .hand_cards import SUIT_ORDER, add_button, card_rows
from .hand_over import ended_lines, final_lines
from .i18n import number, play, suit_label, t, word
from .log_lines import closing_lines
from .specs import ButtonSpec, MessageSpec, Signatures, when
from .teams import score_lines, team_counts


class HokmView:
    """Hokm's tables: the hakem and trump (R5), or the bidding (V5), tricks to win (R10)."""

    name = "hokm"
    title = "table"
    hand_header = "hand.header"

    def footer(self, table: Table, lang: str) -> str:
        return settings_footer(table, lang)

    def match_lines(self, table: Table, lang: str, closed: frozenset[int]) -> list[str]:
        match = table.match
        assert isinstance(match, Match)
        name = partial(seat_name, table)
        hakem = name(match.hakem) if match.hakem >= 0 else word(lang, "table.no_hakem")
        lines = [
            f"**{t(lang, 'table.hand', n=number(lang, match.hand_number))}** · "
            + t(lang, "table.hakem", name=hakem)
        ]
        bidding = variants.bidding_line(table, lang)  # V5 joker six
        lines += [bidding] if bidding else []
        if match.trump is None and match.phase == TRUMP:
            lines.append(t(lang, "table.trump_pending", name=name(match.hakem)))
        elif match.trump is not None:
            lines.append(t(lang, "table.trump", suit=suit_label(lang, match.trump)))
        lines.append(t(lang, "table.tricks", teams=team_counts(table, lang, match.team_tricks)))
        lines += score_lines(table, lang, match.scores, match.target_score)
        if match.phase == PLAY:
            trick = match.current_trick()
            if trick:  # plays as every list is joined, not by a Latin comma
                shown = [play(lang, name(s), c.label) for s, c in trick]
                lines.append(t(lang, "table.current_trick", cards=shown))
            else:
                lines.append(t(lang, "table.no_cards_yet"))
        if table.status == "playing":
            seat = match.to_act
            who = name(seat)
            if table.seat(seat).computer_plays:
                lines.append(t(lang, "table.turn_computer", name=who))
            elif match.phase == TRUMP:
                lines.append(t(lang, "table.turn_trump", name=who, when=when(table.deadline)))
            elif match.phase != PLAY:  # V1's bam or stop, V2's discards and draws
                stock = variants.stock_line(table, lang)
                lines += [stock] if stock else []
                key = "table.turn_bid" if match.phase == BID else "table.turn_decide"  # V5
                lines.append(t(lang, key, name=who, when=when(table.deadline)))
            else:
                lines.append(t(lang, "table.turn", name=who, when=when(table.deadline)))
        last = (
            tricks.hand_result_line(table, lang, match.hand_results[-1])
            if match.hand_results
            else None
        )
        return closing_lines(table, lang, lines, last, closed)

    def hand_message(
        self, table: Table, seat: int, *, ephemeral: bool, live: bool, chosen: tuple[Card, ...]
    ) -> MessageSpec:
        match = table.match
        assert isinstance(match, Match)
        lang = table.settings.language
        view = seat_view(match, seat)
        name = partial(seat_name, table)
        channel = f"<#{table.channel_id}>"
        header = t(lang, "hand.header", channel=channel, n=number(lang, view.hand_number))
        lines = [f"**{header}**", *ended_lines(table, lang)]  # the last hand's end
        rows: list[tuple[ButtonSpec, ...]] = []
        tid, hand_no = table.table_id, view.hand_number
        if table.status != "playing":
            lines.extend(final_lines(table, lang) or [t(lang, "hand.over")])
        elif view.phase == BID:  # V5 joker six: the hakem is bid for, on all nine cards
            lines.extend(variants.decision_lines(table, view, lang, when(table.deadline)))
            bids = [ButtonSpec(*spec) for spec in variants.decision_buttons(table, view, lang)]
            rows.extend(tuple(bids[i : i + PER_ROW]) for i in range(0, len(bids), PER_ROW))
            if not view.my_turn:
                lines.append(hand_status.waiting_line(table, view, lang, live=live))
            lines.extend(hand_status.status_lines(table, view, lang, live=live))
        elif view.phase == TRUMP:
            if view.can_choose_trump:
                lines.append(t(lang, "hand.choose_trump", when=when(table.deadline)))
                trumps = [
                    ButtonSpec(custom_ids.trump_id(tid, hand_no, s), suit_label(lang, s), "primary")
                    for s in SUIT_ORDER
                ]
                if view.can_redeal:  # R6: no court card among the five, and the table allows it
                    lines.append(t(lang, "hand.can_redeal"))
                    label = t(lang, "button.redeal")
                    trumps.append(ButtonSpec(custom_ids.redeal_id(tid, hand_no), label, "danger"))
                rows.append(tuple(trumps))
            else:  # true until trump is named, when every DM shown meanwhile is edited (cards)
                lines.append(t(lang, "hand.waiting_trump", name=name(view.hakem)))
            lines.extend(hand_status.status_lines(table, view, lang, live=live))
        else:
            assert view.trump is not None
            lines.append(
                t(lang, "hand.trump_line", suit=suit_label(lang, view.trump), name=name(view.hakem))
            )
            lines.extend(hand_status.status_lines(table, view, lang, live=live))
            asked = variants.decision_lines(table, view, lang, when(table.deadline))
            if asked:  # V1 bam or stop, V2 discard or draw
                lines.extend(asked)
                asks = variants.decision_buttons(table, view, lang)
                if asks:
                    rows.append(tuple(ButtonSpec(i, label, style) for i, label, style in asks))
            if view.my_turn and view.phase == PLAY:
                lines.append(t(lang, "hand.your_turn", when=when(table.deadline)))
            elif not view.my_turn:
                lines.append(hand_status.waiting_line(table, view, lang, live=live))
        if view.hand and table.status == "playing":
            legal = view.hand if view.can_discard else view.legal  # V2: any card may go down
            rows.extend(card_rows(tid, hand_no, view.hand, frozenset(legal), MAX_ROWS - len(rows)))
        if table.settings.hints and view.my_turn and view.phase in (TRUMP, PLAY):
            add_button(rows, ButtonSpec(custom_ids.hint_id(tid, hand_no), t(lang, "button.hint")))
        if ephemeral:
            lines.append(f"-# {t(lang, 'hand.ephemeral_note')}")
        return MessageSpec(content="\n".join(lines), rows=tuple(rows))

    def hand_signatures(self, table: Table, seat: int) -> Signatures:
        match = table.match
        if not isinstance(match, Match) or table.status != "playing":
            return None, None
        view = seat_view(match, seat)
        base: tuple[object, ...] = (view.hand_number, view.phase, view.hand, view.legal, view.trump)
        base += (view.my_turn, view.drawn, view.discards, view.can_bam)  # the variants
        base += (view.bids,)  # V5: a DM says who is to bid and the highest bid
        kept_live = base + hand_status.live_signature(table, view)
        if view.phase == TRUMP and not view.can_choose_trump and hand_end.open_end(table) is None:
            # No cards yet: a DM waits for trump; a live message says who. Until the hand's first
            # move the DM shows how the last hand ended, and is sent for it.
            return None, kept_live
        return base, kept_live

    def result_line(self, table: Table, lang: str, hand: int) -> str | None:
        match = table.match
        if not isinstance(match, Match):
            return None
        result = next((r for r in reversed(match.hand_results) if r.number == hand), None)
        return None if result is None else tricks.hand_result_line(table, lang, result)

    def summary_lines(self, table: Table, lang: str) -> tuple[list[str], list[str]]:
        return summary.hokm_lines(table, lang)

    def owns_replay(self, replay: MatchReplay) -> bool:
        return isinstance(replay.story, MatchStory)

    def replay_about(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int
    ) -> list[str]:
        return history.hokm_replay_about(lang, replay, names, hand)

    def replay_counts(
        self, lang: str, replay: MatchReplay, names: Sequence[str], hand: int, trick: int
    ) -> list[str]:
        return history.hokm_replay_counts(lang, replay, names, hand, trick)


HOKM_VIEW = register(HokmView())

"""What a frame of a finished Shelem match's Replay says besides what every Replay says (V6):
the bidding, the hakem and his bid, the mode or trump, the kitty and the cards the
hakem laid down, the points each side has taken and the score, and after the hand's last trick
its result. ``history`` puts these lines into the frame, around the position, the trick and
every seat's cards; the web page shows the same lines.

It is a finished match: the kitty and the laid-down cards, which no seat but the hakem saw
while it was played (V6.6.4), are shown, as every hand is.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.shelem import SAR_SHELEM
from engine.shelem.story import ShelemStory

from .history_parts import cards_line, scores_line, team_items, team_label
from .i18n import LIST_SEPARATOR, named, number, suit_label, t
from .shelem import bid_label, mode_label, result_text


def about_lines(lang: str, story: ShelemStory, names: Sequence[str], hand: int) -> list[str]:
    """The deals everyone passed (V6.4), the bidding in order (V6.3, V6.5), the hakem, his bid
    and the mode or trump (V6.7, V6.8.1), the kitty and the cards laid down (V6.6)."""
    told = story.hands[hand]
    lines = []
    if told.passed_deals:
        lines.append(t(lang, "replay.shelem_redealt", n=number(lang, told.passed_deals)))
    said = [named(lang, names[seat], bid_label(lang, value)) for seat, value in told.auction]
    lines.append(t(lang, "shelem.auction", bids=said))
    hakem = names[told.hakem]
    if told.trump is not None:
        how = t(lang, "replay.shelem_trump", suit=suit_label(lang, told.trump))
    else:
        how = t(lang, "shelem.no_trump", mode=mode_label(lang, told.mode))
    contract = [
        t(lang, "table.hakem", name=hakem),
        t(lang, "replay.bid", n=bid_label(lang, told.bid)),
        how,
    ]
    lines.append(LIST_SEPARATOR.join(contract))
    if told.bid == SAR_SHELEM:  # V6.6.3: seen, not taken, and laid aside as his set
        lines.append(t(lang, "replay.shelem_kitty_aside", kitty=cards_line(lang, told.kitty)))
    else:
        kitty, laid = cards_line(lang, told.kitty), cards_line(lang, told.laid_down)
        lines.append(t(lang, "replay.shelem_kitty", kitty=kitty, laid=laid))
    return lines


def count_lines(
    lang: str, story: ShelemStory, names: Sequence[str], hand: int, trick: int
) -> list[str]:
    """The points each side had after trick ``trick`` (the laid-down set counted for the
    hakem's side, V6.9), the score before the hand, and after its last trick the result
    (V6.10–V6.12) and the score after it."""
    fmt, options, told = story.fmt, story.options, story.hands[hand]
    total = number(lang, options.hand_total)
    points = team_items(lang, fmt, names, told.team_points(trick))
    last = trick == len(told.tricks)
    scores = told.result.scores_after if last else told.scores_before
    target = number(lang, options.target)
    lines = [
        t(lang, "shelem.points", teams=points, total=total),
        t(lang, "table.score", teams=team_items(lang, fmt, names, scores), target=target),
    ]
    if last:
        teams = [team_label(fmt, names, lang, team) for team in (0, 1)]
        score = scores_line(fmt, names, lang, told.result.scores_after)
        lines.append(result_text(lang, told.result, teams, score))
    return lines

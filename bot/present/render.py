"""Turns a table (and, for a hand, one seat's view) into message content and buttons.

No game logic and no discord.py here: the output is plain ``MessageSpec`` data that
``bot/discord/ui.py`` converts, so what a player would see is testable on its own. A hand is
always rendered from ``seat_view`` (what that seat may know), so another seat's cards cannot
end up on the screen by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from engine import Card

from ..names import CHECK, CROWN, seat_name, shown_name
from ..service.table import Table
from . import custom_ids, hand_status, shelem
from .budget import CONTENT, cut_lines, fitted, overflows, shortened, within
from .families import presenter
from .formats import format_label, is_solo, lobby_hint
from .hand_over import ended_lines
from .i18n import LIST_SEPARATOR, number, suit_label, t, word
from .log_lines import log_lines, log_text
from .specs import COLOR_DONE, COLOR_LOBBY, COLOR_PLAY, EmbedSpec, MessageSpec, Signatures, when
from .specs import ButtonSpec as ButtonSpec
from .teams import team_label

__all__ = [
    "COLOR_DONE",
    "COLOR_LOBBY",
    "COLOR_PLAY",
    "ButtonSpec",
    "EmbedSpec",
    "MessageSpec",
    "Signatures",
    "log_lines",
    "log_text",
    "when",
]


def _seat_line(table: Table, lang: str, index: int) -> str:
    return ": ".join(_seat(table, lang, index))


def _seat(table: Table, lang: str, index: int) -> tuple[str, str]:
    """``Seat 2`` and who sits there (or that it is empty, or kept for a rematch's player)."""
    seat = table.seats[index]
    label = t(lang, "table.seat", n=number(lang, index + 1))
    kept = table.reserved.get(index)
    if seat is None and kept is not None:  # a rematch keeps it for a player of the last match
        return label, t(lang, "table.reserved", name=f"<@{kept.user_id}>")
    if seat is None:
        return label, t(lang, "table.empty_seat")
    name = seat_name(table, index) if seat.is_computer else f"<@{seat.user_id}>"
    extra = f" {t(lang, 'table.autoplay')}" if seat.autoplay else ""
    crown = f" {CROWN}" if table.match is not None and table.match.hakem == index else ""
    return label, f"{name}{crown}{extra}"


def _team_field(table: Table, lang: str, team: int) -> tuple[str, str, bool]:
    """A team's seats under its players' names (item 4); "Team 1" only while a seat of it
    is still empty in the lobby, where the names are not settled yet. A player alone is a
    seat, not a team: "Seat 2" over its player."""
    seats = table.fmt.seats_of(team)
    if is_solo(table.fmt):
        return (*_seat(table, lang, seats[0]), True)
    lines = [_seat_line(table, lang, i) for i in seats]
    if all(table.seats[i] is not None for i in seats):
        heading = team_label(table, lang, team)
    else:
        heading = t(lang, "table.team", n=number(lang, team + 1))
    return (heading, "\n".join(lines), True)


def table_message(table: Table, closed: frozenset[int] = frozenset()) -> MessageSpec:
    """The public table message: seats and teams, then the match as everyone may see it;
    within Discord's limits however long the names (``budget.fitted``). ``closed``: the
    seats whose DMs are closed (``Delivery``), told to use **My hand**.

    ``budget.fitted``'s loop written out: the message every move waits for is rendered by a
    direct call, not through a callback the budget calls."""
    for named in shortened(table):
        spec = _table_message(named, closed)
        if not overflows(spec):
            return spec
    return within(spec)


def _table_message(table: Table, closed: frozenset[int]) -> MessageSpec:
    lang = table.settings.language
    s = table.settings
    fields = tuple(_team_field(table, lang, team) for team in range(len(table.fmt.teams)))
    # V6: Shelem's own target, options and modes; else the target the match plays to
    family = presenter(table)
    footer = family.footer(table, lang)
    if s.hints:  # a hinted match says so to the end, result included (ratings leave it out)
        footer += LIST_SEPARATOR + word(lang, "table.hints_on")
    tid = table.table_id
    game = family.title  # the title names the game (V6)
    if table.status == "lobby":
        lines = [t(lang, "table.host", host=f"<@{table.host_id}>"), lobby_hint(lang, table.fmt)]
        if table.reserved:
            names = tuple(shown_name(s.name) for _, s in sorted(table.reserved.items()))
            lines.append(t(lang, "table.rematch_waiting", names=names, when=when(table.deadline)))
        elif table.deadline:
            lines.append(t(lang, "table.lobby_closes", when=when(table.deadline)))
        buttons = (
            ButtonSpec(custom_ids.lobby_id(tid, "join"), t(lang, "button.join"), "success"),
            ButtonSpec(custom_ids.lobby_id(tid, "leave"), t(lang, "button.leave")),
            ButtonSpec(
                custom_ids.lobby_id(tid, "add_computer"),
                t(lang, "button.add_computer"),
                disabled=not s.allow_computer_players,
            ),
            ButtonSpec(custom_ids.lobby_id(tid, "start"), t(lang, "button.start"), "primary"),
            ButtonSpec(custom_ids.lobby_id(tid, "cancel"), t(lang, "button.cancel"), "danger"),
        )
        embed = EmbedSpec(
            t(lang, f"{game}.lobby_title"), "\n".join(lines), COLOR_LOBBY, fields, footer
        )
        return MessageSpec(embed=embed, rows=(buttons,))
    if table.status == "cancelled":
        embed = EmbedSpec(
            t(lang, f"{game}.title"),
            "\n".join([t(lang, "table.cancelled"), *log_lines(lang, table.log)]),
            COLOR_DONE,
            fields,
            footer,
        )
        return MessageSpec(embed=embed)
    lines = family.match_lines(table, lang, closed)
    done = table.status == "finished"
    title = t(lang, "table.over") if done else t(lang, f"{game}.title")
    embed = EmbedSpec(title, "\n".join(lines), COLOR_DONE if done else COLOR_PLAY, fields, footer)
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    if not done:
        rows = ((ButtonSpec(custom_ids.my_hand_id(tid), t(lang, "button.my_hand"), "primary"),),)
    return MessageSpec(embed=embed, rows=rows)


def hand_message(
    table: Table,
    seat: int,
    *,
    ephemeral: bool = False,
    live: bool = True,
    chosen: tuple[Card, ...] = (),
) -> MessageSpec:
    """One player's private hand: only ever sent to that player (DM or ephemeral), with the
    table as the player needs it (``hand_status``). ``live``: the message will be kept current
    on every move, so it may name whose turn it is. ``chosen``: a Shelem hakem's cards picked
    to lay down so far (his own clicks, V6.6.1). Within Discord's 2,000 characters however
    long the names (``budget.fitted``: six escaped names of 32 at a Persian table pass it)."""
    return fitted(
        partial(_hand_message, seat=seat, ephemeral=ephemeral, live=live, chosen=chosen), table
    )


def _hand_message(
    table: Table, *, seat: int, ephemeral: bool, live: bool, chosen: tuple[Card, ...]
) -> MessageSpec:
    return presenter(table).hand_message(table, seat, ephemeral=ephemeral, live=live, chosen=chosen)


def closed_hand_message(table: Table, hand: int, *, ephemeral: bool = False) -> MessageSpec:
    """A hand message whose hand is over (the next hand's cards are in a new message): no
    buttons, nothing that could go stale, the score as it stands."""
    return fitted(partial(_closed_hand_message, hand=hand, ephemeral=ephemeral), table)


def _closed_hand_message(table: Table, *, hand: int, ephemeral: bool) -> MessageSpec:
    lang = table.settings.language
    match = table.match
    assert match is not None
    header = t(
        lang, presenter(table).hand_header, channel=f"<#{table.channel_id}>", n=number(lang, hand)
    )
    over = ended_lines(table, lang, hand) or [t(lang, "hand.over")]  # how it ended
    lines = [f"**{header}**", *over, hand_status.score_line(table, lang)]
    if ephemeral:
        lines.append(f"-# {t(lang, 'hand.ephemeral_note')}")
    return MessageSpec(content="\n".join(lines))


def hand_signature(table: Table, seat: int, *, live: bool = False) -> tuple[object, ...] | None:
    """What would make this seat's hand message worth editing; ``None`` when it needs none now.

    A DM edited through the outbox (``live=False``) leaves the live trick out on purpose: it
    is edited when the hand or the player's turn changes, not on every card others play
    (those would cost the global budget). A message kept current through the player's token
    (``live``) also changes with every card, trick and score (``hand_status.live_signature``).
    """
    dm, kept_live = hand_signatures(table, seat)
    return kept_live if live else dm


def hand_signatures(table: Table, seat: int) -> Signatures:
    """Both ``hand_signature``s of a seat (outbox DM, live surface) from one seat view: a
    player's own click needs both, on every card."""
    return presenter(table).hand_signatures(table, seat)


def error_text(lang: str, code: str, params: dict[str, object]) -> str:
    shown = dict(params)
    if "suit" in shown and isinstance(shown["suit"], int):
        shown["suit"] = suit_label(lang, shown["suit"])
    if code == "error.channel_busy":
        table = shown.pop("table", None)
        message_id = getattr(table, "message_id", None)
        guild, channel = getattr(table, "guild_id", 0), getattr(table, "channel_id", 0)
        shown["link"] = (
            f"https://discord.com/channels/{guild}/{channel}/{message_id}" if message_id else ""
        )
    return cut_lines(t(lang, code, **shown), CONTENT)


def settings_message(
    lang: str,
    values: Mapping[str, bool | str | int],
    *,
    changed: bool,
    web_url: str | None = None,
) -> MessageSpec:
    """The server's settings (the answer to ``/hokm settings``, for the admin only), with the
    address of the server's web page while it is on: on a line of its own, as is,
    so nothing around it joins the link."""
    lines = []
    for key, value in values.items():
        if isinstance(value, bool):
            shown = t(lang, "value.yes" if value else "value.no")
        elif key == "game_format":
            shown = format_label(lang, str(value))
        elif key == "tournament_role":  # a mention in an embed notifies nobody
            shown = f"<@&{value}>" if value else t(lang, "value.no_role")
        elif key == "shelem_modes":
            shown = shelem.modes_label(lang, str(value))
        elif isinstance(value, str):
            shown = t(lang, f"value.{value}")
        else:
            shown = number(lang, value)
        lines.append(t(lang, f"settings.{key}", value=shown))
    if web_url is not None:
        lines += ["", t(lang, "settings.web_url"), web_url, t(lang, "settings.web_url_note")]
    if changed:
        lines.append(f"\n{CHECK} {t(lang, 'settings.changed')}")
    return MessageSpec(embed=EmbedSpec(t(lang, "settings.title"), "\n".join(lines), COLOR_LOBBY))

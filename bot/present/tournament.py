"""A tournament's messages, as plain ``MessageSpec`` data, in its language.

- The tournament message: its settings, registration (entries, teams waiting for a partner,
  **Join**/**Withdraw**), then the round being played (each table, where it is, its result)
  and the end (winners, or why it was cancelled). Kept current: the publisher edits it.
- The standings after each round (docs/rules.md T5): rank, the entry's members, match points,
  Buchholz, Sonneborn-Berger, points difference and every round's result; the final one says
  who won.
- A table's ping (its players, once, where it opened), the notice of a cancelled tournament.

Members are shown as mentions (Discord shows their names, and nothing they chose can format
the text); the tournament's name, chosen by its host, goes through ``shown_name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..names import plain_name, shown_name
from ..service.tournament_state import TournamentState
from ..tournament.standings import standings as ranked
from ..tournament.standings import winners
from ..tournament.state import Result, Round
from . import custom_ids
from .budget import within
from .formats import format_label
from .i18n import number, score_pair, signed, t, word
from .specs import COLOR_DONE, COLOR_LOBBY, COLOR_PLAY, ButtonSpec, EmbedSpec, MessageSpec, when

NAME_LIMIT: Final = 80
"""The tournament's name as shown (its setting's own limit)."""
LIST_LIMIT: Final = 40
"""Entries listed in the tournament message; the rest are counted."""
RESULTS: Final = {
    "win": "tstandings.win",
    "loss": "tstandings.loss",
    "forfeit": "tstandings.forfeit",
    "walkover": "tstandings.walkover",
    "bye": "tstandings.bye",
}


def title(state: TournamentState) -> str:
    return shown_name(state.core.config.name, limit=NAME_LIMIT)


def members(state: TournamentState, ids: Sequence[int]) -> str:
    return word(state.language, "tournament.and").join(f"<@{m}>" for m in ids)


def _settings_line(state: TournamentState) -> str:
    lang, config = state.language, state.core.config
    if config.system == "swiss":
        system = t(lang, "tournament.swiss", rounds=number(lang, config.rounds))
    else:
        system = t(lang, f"tournament.{config.system}")
    target = (
        number(lang, config.target_score)
        if config.target_score
        else t(lang, "tournament.target_own")
    )
    return t(
        lang,
        "tournament.settings",
        format=format_label(lang, config.format),
        system=system,
        partners=t(lang, f"tournament.{config.partners}"),
        target=target,
        turn=number(lang, config.turn_seconds),
    )


def tournament_message(state: TournamentState) -> MessageSpec:
    lang, config = state.language, state.core.config
    lines = [
        _settings_line(state),
        t(lang, "tournament.host", host=f"<@{state.host_id}>"),
        t(
            lang,
            "tournament.grace_computers" if config.computers else "tournament.grace",
            grace=number(lang, config.grace_seconds),
        ),
    ]
    if not config.rated:
        lines.append(t(lang, "tournament.unrated"))
    if state.missing:
        names = ", ".join(t(lang, f"perm.{p}") for p in state.missing)
        lines.append(t(lang, "tournament.no_threads", missing=names))
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    color = COLOR_PLAY
    if state.status == "registration":
        color = COLOR_LOBBY
        lines += _registration(state)
        rows = (
            (
                ButtonSpec(
                    custom_ids.tournament_id(state.tournament_id, "join"),
                    t(lang, "button.t_join"),
                    "success",
                ),
                ButtonSpec(
                    custom_ids.tournament_id(state.tournament_id, "leave"),
                    t(lang, "button.t_leave"),
                ),
            ),
        )
    elif state.core.rounds:
        lines += _round_lines(state, state.core.rounds[-1])
    if state.status in ("finished", "cancelled"):
        color = COLOR_DONE
        lines.append(_ending(state))
    embed = EmbedSpec(t(lang, "tournament.title", name=title(state)), "\n".join(lines), color)
    return within(MessageSpec(embed=embed, rows=rows))


def _registration(state: TournamentState) -> list[str]:
    lang, config = state.language, state.core.config
    entrants = state.core.entrants
    lines = [
        t(
            lang,
            "tournament.registration",
            when=when(config.registration_closes),
            count=number(lang, len(entrants)),
        ),
        t(lang, "tournament.how_fixed", size=number(lang, config.entry_size))
        if config.entry_size > 1
        else t(lang, "tournament.how_alone"),
        "",
        f"**{t(lang, 'tournament.entries')}**",
    ]
    for e in entrants[:LIST_LIMIT]:
        lines.append(
            t(
                lang,
                "tournament.entry",
                n=number(lang, e.number + 1),
                members=members(state, e.members),
            )
        )
    if len(entrants) > LIST_LIMIT:
        lines.append(t(lang, "tournament.more", count=number(lang, len(entrants) - LIST_LIMIT)))
    if not entrants:
        lines.append(t(lang, "tournament.no_entries"))
    for invitation in state.invitations[:LIST_LIMIT]:
        waiting = [m for m in invitation.members if m not in invitation.confirmed]
        lines.append(
            t(
                lang,
                "tournament.invited",
                members=members(state, invitation.members),
                waiting=members(state, waiting),
            )
        )
    return lines


def _sides(state: TournamentState, round_no: int, table_no: int) -> list[str]:
    return [members(state, side) for side in state.table_members(round_no, table_no)]


def _outcome(state: TournamentState, sides: list[str], result: Result) -> str:
    lang = state.language
    if result.winner is None:
        lost = [sides[i] for i in result.forfeits]
        return t(lang, "tournament.forfeited", sides=word(lang, "tournament.and").join(lost))
    return t(
        lang, "tournament.won", side=sides[result.winner], score=score_pair(lang, result.scores)
    )


def _round_lines(state: TournamentState, r: Round) -> list[str]:
    lang = state.language
    total = state.core.total_rounds
    lines = [
        "",
        f"**{t(lang, 'tournament.round', n=number(lang, r.number), total=number(lang, total))}**",
    ]
    for k, table in enumerate(r.tables[:LIST_LIMIT]):
        sides = _sides(state, r.number, k)
        slot = state.slots.get((r.number, k))
        if table.result is not None:
            where = _outcome(state, sides, table.result)
        elif slot is not None and slot.channel_id is not None:
            where = t(lang, "tournament.at", channel=f"<#{slot.channel_id}>")
        else:
            where = t(lang, "tournament.waiting")
        vs = word(lang, "tournament.vs").join(sides)
        lines.append(t(lang, "tournament.table", n=number(lang, k + 1), sides=vs, where=where))
    if len(r.tables) > LIST_LIMIT:
        more = len(r.tables) - LIST_LIMIT
        lines.append(t(lang, "tournament.more", count=number(lang, more)))
    entrants = state.core.entrants
    if r.byes:
        names = ", ".join(members(state, entrants[e].members) for e in r.byes[:LIST_LIMIT])
        lines.append(t(lang, "tournament.byes", names=names))
    if state.drops:
        lines.append(t(lang, "tournament.drops", names=members(state, state.drops)))
    return lines


def _ending(state: TournamentState) -> str:
    lang = state.language
    if state.status == "cancelled":
        few = state.cancel_reason == "too_few"
        return t(lang, "tournament.cancelled_few" if few else "tournament.cancelled")
    won = winners(state.core)
    if not won:
        return t(lang, "tournament.no_winner")
    return t(lang, "tournament.finished", names=members(state, won))


def standings_message(state: TournamentState) -> MessageSpec:
    """The standings after the last round with every result (the final ones at the end)."""
    lang = state.language
    done = [r for r in state.core.rounds if not r.pending]
    last = done[-1].number if done else 0
    final = state.status == "finished"
    heading = (
        t(lang, "tstandings.final", name=title(state))
        if final
        else t(lang, "tstandings.title", name=title(state), n=number(lang, last))
    )
    lines = []
    for row in ranked(state.core)[:LIST_LIMIT]:
        results = " ".join(t(lang, RESULTS[g.kind]) for g in row.games if g.round <= last)
        line = t(
            lang,
            "tstandings.row",
            rank=number(lang, row.rank),
            members=members(state, row.members),
            points=number(lang, row.match_points),
            bh=number(lang, row.buchholz),
            sb=number(lang, row.sonneborn_berger),
            diff=signed(lang, row.hand_diff),
            results=results,
        )
        if row.dropped:
            line += " " + t(lang, "tstandings.dropped")
        lines.append(line)
    if final:
        won = winners(state.core)
        if won:
            lines.append(t(lang, "tstandings.winners", names=members(state, won)))
    color = COLOR_DONE if final else COLOR_PLAY
    legend = t(lang, "tstandings.legend")
    embed = EmbedSpec(heading, "\n".join(lines), color, footer=legend)
    return within(MessageSpec(embed=embed))


def ping_text(
    state: TournamentState, round_no: int, players: Sequence[int], deadline: float
) -> str:
    """The one message that tells a table's players it is theirs (it pings them alone)."""
    return t(
        state.language,
        "tournament.ping",
        mentions=" ".join(f"<@{m}>" for m in players),
        name=title(state),
        r=number(state.language, round_no),
        when=when(deadline),
    )


def cancel_notice(state: TournamentState, reason: str, players: Sequence[int]) -> str:
    """The notice that a tournament was cancelled, to ``players`` (some of its players: one
    message names at most a few dozen)."""
    key = "tournament.cancel_few_notice" if reason == "too_few" else "tournament.cancel_notice"
    mentions = " ".join(f"<@{m}>" for m in players)
    return t(state.language, key, mentions=mentions, name=title(state))


def thread_name(state: TournamentState, round_no: int, table_no: int) -> str:
    """A table's thread: plain text (a thread's name shows no markup), in 100 characters."""
    name = plain_name(state.core.config.name, limit=60)
    text = t(state.language, "tournament.thread", name=name, r=round_no, n=table_no + 1)
    return text[:100]

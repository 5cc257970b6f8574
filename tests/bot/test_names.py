"""Names are text, never markup: the cleaner, the bidi isolate and the allowed mentions."""

from __future__ import annotations

import re

import discord
import pytest

from bot.discord.reports import MAX_MESSAGE, _chunks
from bot.discord.ui import NO_PINGS, mentions, message_kwargs, text_kwargs
from bot.names import NAME_LIMIT, clip, member_name, seat_name, shown_name
from bot.present import render
from bot.present.i18n import balanced, isolate, t
from bot.service.table import Seat, Table, TableSettings
from tests.double.mentions import mention_problems, pings
from tests.double.rest import RequestRecord, SentMessage

BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
ROLE, USER = 123456789012345678, 223456789012345678


def test_nested_bold_is_escaped_and_cannot_close_the_bold_around_it() -> None:
    shown = shown_name("**Ali** _x_ ~~y~~ ||z|| `c`")
    assert shown == r"\*\*Ali\*\* \_x\_ \~\~y\~\~ \|\|z\|\| \`c\`"
    line = t("en", "report.random_hakem", name=shown)
    assert line.startswith(r"**\*\*Ali\*\*") and line.count("**") == 2  # only the catalog's pair


@pytest.mark.parametrize("key", ["report.trump_named", "report.back"])
def test_a_heading_name_at_the_start_of_a_line_stays_text(key: str) -> None:
    name = shown_name("# 🏆 Team 2 wins")
    assert name == r"\# Team 2 wins"  # and the bot's own 🏆 is not the member's
    line = t("en", key, name=name, suit="♠ Spades")
    assert line.startswith("\\# ")
    for other in ("## x", "### x", "> quote", "-# small", "- item", "1. item"):
        assert shown_name(other)[0] == "\\" or shown_name(other).startswith("1\\."), other


def test_right_to_left_override_is_dropped_so_english_card_labels_read_right() -> None:
    shown = shown_name("evil\u202e 10♠ A♥")
    assert not BIDI.search(shown) and shown == "evil 10♠ A♥"
    # and a piece that still carries one cannot turn the rest of an English line around
    line = t("en", "report.trick", n=1, cards="\u202e10♠", name="x")
    assert line.index("\u202c") < line.index(" →")


def test_a_persian_name_with_a_pop_isolate_cannot_escape_its_isolate() -> None:
    raw = "علی\u2069 **x** \u2067"
    shown = shown_name(raw)
    assert not BIDI.search(shown)
    line = t("fa", "report.back", name=shown)
    assert line.count("\u2068") == 1 and line.count("\u2069") == 1
    assert line.index("\u2069") > line.index("x")  # the whole name sits inside the isolate
    # isolate balances on its own too (a raw name reaching it by mistake)
    wrapped = isolate(raw)
    assert _isolates_balanced(wrapped) and wrapped.endswith("\u2069")
    assert wrapped.count("\u2069") == 2  # the stray closer dropped, the RLI closed, then ours


def _isolates_balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "\u2066\u2067\u2068":
            depth += 1
        elif ch == "\u2069":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def test_balanced_keeps_nested_pieces_built_by_the_catalog() -> None:
    inner = t("fa", "table.team_count", team="\u2068amir\u2069 و \u2068cyrus\u2069", count=3)
    assert balanced(inner) == inner
    assert balanced("a\u202bb") == "a\u202bb\u202c"
    assert balanced("\u202cx\u2069") == "x"


def test_zero_width_and_control_characters_are_dropped_but_persian_zwnj_kept() -> None:
    assert clip("A\u200bl\u2060i\ufeff\u200e\u200f") == "Ali"
    assert clip("a\nb\tc\r\n# d") == "a b c # d"  # no new line, so no heading
    assert clip("علی\u200cرضا") == "علی\u200cرضا"  # نیم‌فاصله is spelling
    assert clip("\u200b\u3164") == "?"
    assert clip("\u200d\u200c \u200d") == "?"  # joiners alone are an invisible name
    assert shown_name("x\u200b@\u2060everyone") == "x@\u200beveryone"  # the escape's own


def test_robot_names_of_members_do_not_pass_for_a_computer() -> None:
    assert shown_name("🤖 Rostam") == "Rostam"
    assert shown_name("\u200b 🤖\ufe0f👾 Rostam 🤖") == "Rostam"
    assert shown_name("`🤖 Rostam`") == r"\` Rostam\`"  # literal backticks, no code span
    computer = shown_name("🤖 Rostam", computer=True)
    assert computer == "`🤖 Rostam`"
    # no member name, however built, comes out as the computer's code span
    for raw in ("🤖 Rostam", "`🤖 Rostam`", "\u200b`🤖 Rostam`\u200b", "``🤖 Rostam``"):
        assert shown_name(raw) != computer
        assert "🤖" not in shown_name(raw)


def test_seat_name_marks_computers_and_escapes_members() -> None:
    table = Table("t", 1, 2, 3, TableSettings(), 0.0)
    table.seats = [Seat("🤖 Rostam"), Seat("🤖 Rostam", user_id=9), Seat("**b**", user_id=8), None]
    assert [seat_name(table, i) for i in range(4)] == ["`🤖 Rostam`", "Rostam", r"\*\*b\*\*", "?"]


def test_a_long_name_is_capped_with_an_ellipsis() -> None:
    shown = shown_name("x" * 200)
    assert len(shown) == NAME_LIMIT and shown.endswith("…")
    assert shown_name("y" * NAME_LIMIT) == "y" * NAME_LIMIT
    # the cap counts the name, not the escapes added after it
    assert shown_name("*" * 40) == "\\*" * (NAME_LIMIT - 1) + "…"


def test_mentions_and_discord_markup_in_names_are_inert() -> None:
    shown = shown_name(f"@everyone <@&{ROLE}>")
    assert pings(shown, None) == pings("", None)
    for raw in ("@here", f"<@{USER}>", f"<@!{USER}>", "<@1>", "<#1>", "<t:1:R>", "</x:1>"):
        assert pings(shown_name(raw), None).users == frozenset(), raw
        assert not re.search(r"<[@#/t]", shown_name(raw)), raw
    assert "://" not in shown_name("https://evil.example/x")
    assert shown_name("[click](https://evil.example)").startswith("\\[")


def test_every_message_carries_allowed_mentions_that_ping_only_the_meant_members() -> None:
    kwargs = message_kwargs(render.MessageSpec(content="<@1>"))  # a record names, never pings
    assert kwargs["allowed_mentions"].to_dict() == {"parse": []}
    assert text_kwargs("x")["allowed_mentions"] is NO_PINGS
    allowed = text_kwargs("x", [5, 4, 5])["allowed_mentions"]
    assert allowed.to_dict() == {"parse": [], "users": [4, 5]}
    merged = discord.AllowedMentions.all().merge(mentions([4]))
    assert merged.to_dict() == {"parse": [], "users": [4]}  # wins over any client default


def test_report_chunks_cut_between_lines() -> None:
    lines = ["a" * 1000, "\\*b" * 400, "c" * 5000]
    chunks = _chunks(lines)
    assert all(len(c) <= MAX_MESSAGE for c in chunks)
    assert "".join(chunks).replace("\n", "") == "".join(lines)
    assert chunks[1].startswith("\\*b")  # the 1,200-character line was not split


def record(content: str, allowed: dict[str, object] | None) -> RequestRecord:
    sent = SentMessage(content, allowed)  # type: ignore[arg-type]
    return RequestRecord("POST", "/channels/1/messages", "/channels/{channel_id}/messages", "channel_message", 200, 0.0, sent)  # fmt: skip


def test_the_checker_catches_planted_bad_payloads() -> None:
    def meant(content: str) -> set[int]:
        return {7} if "begins" in content else set()

    good = [
        record(
            f"🃏 The match begins! <@7> {shown_name('@everyone')}", {"parse": [], "users": ["7"]}
        ),
        record(f"<@{USER}> <@&{ROLE}> @here", {"parse": []}),
    ]
    assert mention_problems(good, meant) == []
    bad = {
        "no allowed_mentions": record("hello", None),
        "would ping everyone": record("@here", None),
        "parses everyone": record("x", {"parse": ["everyone"]}),
        "would ping roles": record(f"<@&{ROLE}>", {"parse": [], "roles": [str(ROLE)]}),
        "parses users": record(f"<@{USER}>", {"parse": ["users"]}),
        "would ping users": record(f"<@{USER}>", {"parse": [], "users": [str(USER)]}),
    }
    for what, planted in bad.items():
        found = mention_problems([*good, planted], meant)
        assert any(what in p for p in found), (what, found)


def test_member_name_reads_the_display_name_and_clips_it_at_the_edge() -> None:
    """What a seat keeps from a member: the server nickname when there is one, else the
    account name, with what draws nothing dropped and the length capped."""

    class Account:
        name = "account"

    class Nicknamed(Account):
        display_name = "Shirin\u200b " + "x" * 40

    assert member_name(Account()) == "account"
    kept = member_name(Nicknamed())
    assert kept.startswith("Shirin x") and "\u200b" not in kept
    assert len(kept) == NAME_LIMIT and kept.endswith("…")

"""``present.rules_text``: each format's rules put together from the catalog."""

from __future__ import annotations

from bot.present.rules_text import rules_text
from bot.store.guild_settings import hosted_formats


def test_each_format_names_its_own_deal_and_the_target() -> None:
    texts = {name: rules_text("en", name, 9) for name in hosted_formats()}
    assert len(set(texts.values())) == len(texts)  # no two formats share a text
    for name, text in texts.items():
        if name != "joker_six":  # the joker six plays to its own 124
            assert " 9 " in text, name
    assert "50 cards" in texts["five"] and "each plays alone" in texts["five"].lower()
    assert (
        "three teams of two" in texts["six_pairs"] and "Partners sit opposite" in texts["six_pairs"]
    )
    assert "First team to 9" in texts["six_teams"] and "First to 9" in texts["three"]


def test_an_unknown_format_gets_the_standard_rules() -> None:
    assert rules_text("en", "<@&1>", 7) == rules_text("en", "standard", 7)
    assert "<@&1>" not in rules_text("fa", "<@&1>", 7)

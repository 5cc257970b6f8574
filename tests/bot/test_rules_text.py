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


def test_a_target_of_one_point_is_singular_in_every_hokm_format() -> None:
    """One point is singular: "1 point", never "1 points"; 7 is "7 points" (Persian: one form)."""
    for name in hosted_formats():
        one, seven = rules_text("en", name, 1), rules_text("en", name, 7)
        assert "1 points" not in one, name
        if name not in ("joker_six", "shelem"):  # their own targets (124; Shelem's own words)
            assert "1 point " in one and "7 points" in seven, name
        assert "۱ امتیاز" in rules_text("fa", name, 1) or name in ("joker_six", "shelem"), name

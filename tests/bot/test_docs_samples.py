"""docs/samples.md is the real renderer's output, not text typed by hand."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_samples_in_docs_are_what_the_renderer_makes_now() -> None:
    script = runpy.run_path(str(ROOT / "docs" / "make_samples.py"))
    made = script["samples"]()
    assert (ROOT / "docs" / "samples.md").read_text(encoding="utf-8") == made, (
        "docs/samples.md is stale: run python docs/make_samples.py"
    )


def test_the_samples_show_both_languages_and_no_unplayed_card_in_the_channel() -> None:
    script = runpy.run_path(str(ROOT / "docs" / "make_samples.py"))
    made = script["samples"]()
    assert "## English" in made and "فارسی" in made and "امیر" in made
    table = script["scripted_table"]("en", hands=1, cards=6)
    channel = script["table_message"](table).all_text()
    match = table.match
    unplayed = {c.label for seat in range(4) for c in match.hand_of(seat)}
    assert unplayed and not any(f" {label}" in channel for label in unplayed)

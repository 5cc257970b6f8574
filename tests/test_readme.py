"""The README's python blocks run as written, so its examples can never rot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """Every ```python block as (line number of its first line, source)."""
    return [
        (text.count("\n", 0, found.start(1)) + 1, found.group(1))
        for found in PYTHON_BLOCK.finditer(text)
    ]


def run_block(line: int, source: str, filename: str = "README.md") -> None:
    """Run one block in a fresh namespace; a failure points at the README's own line."""
    code = compile("\n" * (line - 1) + source, filename, "exec")
    exec(code, {"__name__": "readme"})


def test_the_readme_python_blocks_run_and_check_what_they_show() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    engine_blocks = [source for _, source in blocks if "from engine import" in source]
    assert engine_blocks, "the engine snippet in 'How it is built' is gone"
    assert all(re.search(r"^assert ", s, re.MULTILINE) for s in engine_blocks), (
        "the engine snippet must assert what it shows"
    )
    for line, source in blocks:
        run_block(line, source)


def test_a_false_claim_in_a_block_fails_at_its_readme_line() -> None:
    text = "intro\n\n```python\nx = 1\nassert x == 2\n```\n\n```sh\nexit 1\n```\n"
    assert python_blocks(text) == [(4, "x = 1\nassert x == 2\n")]
    with pytest.raises(AssertionError) as failed:
        run_block(*python_blocks(text)[0])
    assert failed.traceback[-1].lineno + 1 == 5  # pytest counts lines from 0


def test_the_first_screen_is_for_a_newcomer() -> None:
    """What it is in a sentence, a picture of a table, then the quick start in
    the order a newcomer needs it; the details of each format live in docs/playing.md."""
    text = README.read_text(encoding="utf-8")
    headings = re.findall(r"^##+ (.+)$", text, re.MULTILINE)
    quick = headings.index("Quick start")
    assert headings[quick + 1 : quick + 4] == [
        "1. Create the Discord application and invite the bot",
        "2. Run the bot",
        "3. Run the tests",
    ]
    intro = text[: text.index("## Quick start")]
    assert intro.count("```") == 4, "the picture: the table message and a DM"
    assert "Hokm table" in intro and "My hand*]" in intro
    first_paragraph = intro.split("\n\n")[1]
    assert first_paragraph.count(". ") == 0 and first_paragraph.endswith(".")
    quick_start = text[text.index("## Quick start") : text.index("## What it does")]
    assert "pip install -e . && HOKM_DISCORD_TOKEN=your-token python -m bot" in quick_start
    assert "pip install -e '.[test]' && ruff check ." in quick_start
    playing = README.parent / "docs" / "playing.md"
    assert "Take the next" in playing.read_text(encoding="utf-8")
    assert "Take the next" not in text, "per-format details belong in docs/playing.md"


PICTURE_NAMES = {
    "<@101>": "@amir",
    "<@102>": "@bahar",
    "<@103>": "@cyrus",
    "<@104>": "@dara",
    "<#1180000000000000001>": "#hokm",
    "<t:1764600030:R>": "in 17 seconds",
}
"""What Discord draws for the samples' markup: mentions as names, the countdown live."""


def as_discord_draws(text: str) -> str:
    for markup, drawn in PICTURE_NAMES.items():
        text = text.replace(markup, drawn)
    text = text.replace("**", "")
    return re.sub(r"^_(.*)_$", r"\1", text, flags=re.MULTILINE)


def test_the_pictures_are_the_bots_own_rendering() -> None:
    """The README's two pictures are ``docs/samples.md``'s table message and seat 1's DM, as
    Discord draws them: a change of the renderer that regenerates the samples shows here too."""
    samples = (README.parent / "docs" / "samples.md").read_text(encoding="utf-8")

    def sample(heading: str) -> str:
        start = samples.index("```text\n", samples.index(heading)) + len("```text\n")
        return samples[start : samples.index("```", start)]

    text = README.read_text(encoding="utf-8")
    pictures = text[: text.index("## Quick start")].split("```")[1::2]
    assert pictures == [
        "\n" + as_discord_draws(sample("### The table message (in the channel), hand 2")),
        "\n" + as_discord_draws(sample("### Seat 1's DM at the same moment (their turn)")),
    ]

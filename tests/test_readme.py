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
    """Issue 39, item 8: what it is in a sentence, a picture of a table, then the quick start in
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
    assert "Hokm table" in intro and "[My hand]" in intro
    first_paragraph = intro.split("\n\n")[1]
    assert first_paragraph.count(". ") == 0 and first_paragraph.endswith(".")
    quick_start = text[text.index("## Quick start") : text.index("## What it does")]
    assert "pip install -e . && HOKM_DISCORD_TOKEN=your-token python -m bot" in quick_start
    assert "pip install -e '.[test]' && ruff check ." in quick_start
    playing = README.parent / "docs" / "playing.md"
    assert "Take the next" in playing.read_text(encoding="utf-8")
    assert "Take the next" not in text, "per-format details belong in docs/playing.md"

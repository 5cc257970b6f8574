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

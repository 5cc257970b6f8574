"""Comments and docstrings say the rule (R…, V…) or the reason, never an issue number.

An issue number means nothing to a reader of the code: the tracker is not where the code is
read, and a tracker's number says neither what the line is for nor why it is so. The reason belongs
in the comment; the history belongs in the commit message.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("bot", "engine", "tests", "bench")
CITATION = re.compile(r"\bissues?\s*#?\s*\d", re.IGNORECASE)


def prose(source: str) -> list[tuple[int, str]]:
    """Every comment and every triple-quoted string (docstrings and their kind) of a module,
    with the line it starts on."""
    triple = ('"""', "'''")
    return [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
        or (token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith(triple))
    ]


def citations(source: str) -> list[tuple[int, str]]:
    """Where ``source``'s comments and docstrings cite an issue number: (line, the words)."""
    hits = []
    for line, text in prose(source):
        for match in CITATION.finditer(text):
            at = line + text.count("\n", 0, match.start())
            words = text[max(0, match.start() - 30) : match.end() + 10].replace("\n", " ")
            hits.append((at, words))
    return hits


def test_citations_are_found_in_comments_and_docstrings_only() -> None:
    source = (
        '"""A module (issue 12)."""\n'
        "x = 1  # see issue #4\n"
        "def f() -> None:\n"
        '    """Issue\n    35: why."""\n'
        '    print("issue 7 is a string, not a comment")\n'
        "    # tissue 3 is no citation\n"
    )
    assert [line for line, _ in citations(source)] == [1, 2, 4]


def test_no_comment_or_docstring_cites_an_issue_number() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{line}: …{words}…"
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, words in citations(path.read_text(encoding="utf-8"))
    ]
    assert not hits, (
        "say the rule (R…, V…) or the reason instead of an issue number:\n" + "\n".join(hits)
    )

"""``python -m engine.replay_file FILE``: replay a match file (``docs/match-format.md``
item 9) with the engine and say in one line whether it ends exactly as it says.

Exit status 0 and ``ok: …`` when every hand, trick and score the file states is what its
actions give; 1 and ``refused: …`` naming the first difference (or why the file is no match
file at all); 2 for a usage error. Standard library only. This is the engine's one entry point
that reads a file: the checking itself is ``engine.export.check``, which does no I/O.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from .export import BadMatchFile, check

MAX_BYTES = 16_000_000
"""Far more than the longest match (500 Shelem hands, V6.14.1, is under 1 MB)."""


def verdict(text: str) -> tuple[bool, str]:
    """The verdict on a file's text: (it replays as it says, the line to print)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return False, f"refused: not JSON ({type(exc).__name__}: {str(exc)[:120]})"
    try:
        done = check(data)
    except BadMatchFile as exc:
        return False, f"refused: {exc}"
    scores = "–".join(str(s) for s in done.scores)
    return True, (
        f"ok: {done.game} {done.format}, {done.hands} hands replayed, final score {scores}, "
        f"winner_team {done.winner_team}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m engine.replay_file FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        print(f"refused: cannot read {args[0]}: {exc.strerror or type(exc).__name__}")
        return 1
    if len(raw) > MAX_BYTES:
        print(f"refused: over {MAX_BYTES} bytes, longer than any match")
        return 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print("refused: not UTF-8 text")
        return 1
    ok, line = verdict(text)
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

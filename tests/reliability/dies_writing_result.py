"""``python -m tests.reliability.dies_writing_result``: the bot (``python -m bot``, same
arguments and environment) that kills itself with SIGKILL in the middle of writing a match
result: after the match row is inserted, before the transaction commits."""

from __future__ import annotations

import os
import runpy
import signal
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event


@event.listens_for(sa.engine.Engine, "before_cursor_execute")
def _die_writing_the_result(
    conn: Any, cursor: Any, statement: str, params: Any, context: Any, executemany: bool
) -> None:
    if statement.lstrip().upper().startswith("INSERT INTO MATCH_PLAYERS"):
        os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    runpy.run_module("bot", run_name="__main__", alter_sys=True)

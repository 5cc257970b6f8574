"""``python -m tests.reliability.clock_ahead``: the bot (``python -m bot``, same arguments and
environment) with its service's wall clock (the time deadlines are stored in and compared
with) ``TEST_CLOCK_AHEAD_SECONDS`` seconds ahead of the machine's, as if it had been down that
much longer: the crash test's "timeout" restart finds the trump deadline passed without
waiting it out. The clock is moved the way the e2e tests' ``skip_time`` moves it
(``service.clock``). The variable is removed before the bot reads its environment."""

from __future__ import annotations

import os
import runpy
import time
from typing import Any

from bot.service.service import TableService

AHEAD_ENV = "TEST_CLOCK_AHEAD_SECONDS"


def _install(ahead: float) -> None:
    init = TableService.__init__

    def init_ahead(self: TableService, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.clock = lambda: time.time() + ahead

    TableService.__init__ = init_ahead  # type: ignore[method-assign]


if __name__ == "__main__":
    _install(float(os.environ.pop(AHEAD_ENV)))
    runpy.run_module("bot", run_name="__main__", alter_sys=True)

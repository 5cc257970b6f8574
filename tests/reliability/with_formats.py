"""``python -m tests.reliability.with_formats``: the bot (``python -m bot``, same arguments and
environment) with every table shape of the Hokm family known: the engine's formats, and a stand-in
(``tests.formats``) for a shape the engine has no format of yet, registered before the bot
builds its commands, so ``/hokm new format:`` offers it."""

from __future__ import annotations

import runpy

from tests.formats import register_stand_ins

if __name__ == "__main__":
    register_stand_ins()
    runpy.run_module("bot", run_name="__main__", alter_sys=True)

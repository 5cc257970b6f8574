"""Python's cyclic garbage collector, set for a long-running bot.

Once started, what exists lives as long as the bot: it is frozen out of every later collection
(a full collection paused all tables for a quarter of a second). Then the collector is asked
to run less often than its defaults (700 new objects, every 10th and 10th again): a card makes
objects that live from a few milliseconds (a request) to a few seconds (a click's interaction,
kept for its token), and at the defaults most of those were still alive at a young
collection, so they were promoted and scanned again in the older generations. At 200 tables the
collector took 12-14 % of the bot's CPU; at ``THRESHOLDS`` 5-6 % (bench/bot_load.py with a
collector callback timing it). Memory is bounded by the same thresholds: garbage in cycles
waits for at most ``THRESHOLDS[0]`` new objects.
"""

from __future__ import annotations

import gc
from typing import Final

THRESHOLDS: Final = (20_000, 20, 20)
"""``gc.set_threshold``: new container objects before a young collection, and young (then
middle) collections before the next older one."""


def settle() -> None:
    """Collect once, freeze what is left, and collect less often from now on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

"""The sentences of skill ratings (issue 16), in English and Persian.

Part of ``catalog.CATALOG`` (merged like ``catalog_hints``), so the catalog stays under the
module size limit. ``{rating}`` and ``{change}`` are numbers said in the language by the
presenter; a member's name arrives escaped or as a mention.
"""

from __future__ import annotations

from typing import Final

RATINGS: Final[dict[str, dict[str, str]]] = {
    "settings.rate_computer_matches": {
        "en": "Matches with computer players change ratings: {value}",
        "fa": "بازی با بازیکن کامپیوتری در امتیاز مهارت حساب می‌شود: {value}",
    },
}

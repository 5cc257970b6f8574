"""Shelem's own refusals (V6), beside the shared ones of ``engine.errors``.

Kept in the Shelem package: only a Shelem match raises them, and each is an ``IllegalMove``
with a stable ``code``, so the bot turns it into a member's words as it does any other.
"""

from __future__ import annotations

from ..errors import IllegalMove


class DealerMustOpen(IllegalMove):
    """V6.4.1 Shelem: after ``PASSED_DEALS_MAX`` deals of one hand that everyone passed, the
    dealer is asked when the first three pass again, and may not pass: he bids at least
    ``minimum`` (or shelem)."""

    code = "dealer_must_open"

    def __init__(self, seat: int, minimum: int, passed_deals: int) -> None:
        super().__init__(
            f"seat {seat} cannot pass: {passed_deals} deals in a row were passed, so the dealer "
            f"must open at {minimum} or more"
        )
        self.seat = seat
        self.minimum = minimum
        self.passed_deals = passed_deals

"""Where seeing the partner's hand changes a searching player's card, by place in the trick.

Team 0's seats search (``hard`` unless ``--a``), the others play greedy. At every card decision
of a searching seat with a choice, the same view is put to the player and to the same player
shown its partners' hands (``arena.Seeing``, as ``--reveal partner``), both from the same seed;
the shown player's card is played. The first ``--hands`` hands of each match are played, the
trump named by the greedy rule. Prints decisions and changed cards per position in the trick
(0: leading); the last line is machine-readable::

    variant=<name> decisions=<N> changed=<M> lead_changed_rate=<x>
"""

from __future__ import annotations

from arena import (  # run as a script: bench/ is on the path
    Seeing,
    first_hands,
    first_hands_parser,
    make,
)

from engine import Card, Match, SearchPlayer, SeatView
from engine.rules import FORMATS


def run(
    variant: str, spec: str, matches: int, seed: int, hands: int
) -> tuple[list[int], list[int]]:
    """Decisions and changed cards per position in the trick."""
    fmt = FORMATS[variant]
    decisions = [0] * fmt.seats
    changed = [0] * fmt.seats

    def decide(match: Match, view: SeatView, player_seed: int) -> Card:
        if len(view.legal) == 1:
            return view.legal[0]
        plain = make(spec, player_seed)
        assert isinstance(plain, SearchPlayer), "--a must be a searching level"
        card = Seeing(player_seed, plain, match, "partner").choose_card(view)
        position = len(view.trick)
        decisions[position] += 1
        changed[position] += plain.choose_card(view) != card
        return card

    first_hands(fmt, seed, matches, hands, decide)
    return decisions, changed


def main() -> None:
    args = first_hands_parser(__doc__, 6, "the searching level").parse_args()
    decisions, changed = run(args.variant, args.a, args.matches, args.seed, args.hands)
    for position, (n, m) in enumerate(zip(decisions, changed, strict=True)):
        print(f"position {position}: {n} decisions, {m} changed ({m / max(n, 1):.2f})")
    lead_rate = changed[0] / max(decisions[0], 1)
    print(
        f"variant={args.variant} decisions={sum(decisions)} changed={sum(changed)}"
        f" lead_changed_rate={lead_rate:.2f}"
    )


if __name__ == "__main__":
    main()

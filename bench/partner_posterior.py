"""How well a searching seat's play model places its partners' cards.

Team 0's seats play ``--a`` (``hard`` unless told), the others greedy, the first ``--hands``
hands of each match, the trump named by the greedy rule. At each card decision of a team-0 seat
after the first trick, ``--deals`` deals are drawn as the seat's sampler draws them (what the
seat knows and the hakem's trump prior) and each reading weighs them (``PlayModel.weight``).
Printed per reading: the weighted share of the partners' true cards the deals put in the
partners' hands, and the same for the partners' side masters (the highest unplayed card of a
suit other than trump: shown only those, ``six_pairs`` goes from 0.690 to 0.830,
``docs/experiments/six-pairs-partner.md``). The readings: ``ignored`` (every deal weighs 1), ``greedy=E`` for each
``--eps-partner`` E (the partners read as greedy players, ``eps`` 0.3 for the others), and, when
``--a`` plays the signal (``signals=1``), ``signal`` (read by ``engine.signals``). The last line
is machine-readable (run from the checkout: ``python -m bench.partner_posterior``)::

    variant=<name> decisions=<N> <reading>=<cards share>/<masters share> ...
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bench.arena import first_hands, first_hands_parser, make
from engine import Card, Match, SearchPlayer
from engine.fastsim import to_rm
from engine.rules import FORMATS
from engine.sampling import PlayModel, Sampler, knowledge
from engine.signals import side_masters
from engine.view import SeatView

#: The weight ``eps`` of the opponents' cards in every reading (the search's default).
OPPONENT_EPS = 0.3


@dataclass
class Placement:
    """Sums over decisions of one reading's weighted shares."""

    cards: float = 0.0
    masters: float = 0.0
    decisions: int = 0
    with_masters: int = 0

    def add(self, cards: float, masters: float | None) -> None:
        self.cards += cards
        self.decisions += 1
        if masters is not None:
            self.masters += masters
            self.with_masters += 1

    @property
    def cards_share(self) -> float:
        return self.cards / max(self.decisions, 1)

    @property
    def masters_share(self) -> float:
        return self.masters / max(self.with_masters, 1)


@dataclass
class Readings:
    """The play models compared, by name (``None``: every deal weighs 1)."""

    eps_partner: tuple[float, ...]
    signals: bool
    results: dict[str, Placement] = field(default_factory=dict)

    def models(self, view: SeatView, partners: frozenset[int]) -> dict[str, PlayModel | None]:
        out: dict[str, PlayModel | None] = {"ignored": None}
        for eps in self.eps_partner:
            out[f"greedy={eps:g}"] = PlayModel(view, OPPONENT_EPS, eps)
        if self.signals:
            out["signal"] = PlayModel(view, OPPONENT_EPS, 0.5, signal_seats=partners)
        return out


def share(weights: list[float], deals: list[list[int]], seats: list[int], truth: int) -> float:
    """The weighted share of ``truth``'s cards that the deals give to ``seats``."""
    total = sum(weights)
    right = 0.0
    for w, hands in zip(weights, deals, strict=True):
        held = 0
        for seat in seats:
            held |= hands[seat]
        right += w * (held & truth).bit_count()
    return right / total / truth.bit_count()


def measure(readings: Readings, match: Match, view: SeatView, deals: int, seed: int) -> None:
    """Adds one decision's shares to every reading."""
    partners = [s for s in range(view.seats) if view.is_partner(s)]
    truth = 0
    unplayed = 0
    for seat in range(view.seats):
        hand = to_rm(match.hand_of(seat))
        unplayed |= hand
        if seat in partners:
            truth |= hand
    if not truth:
        return
    assert view.trump is not None
    trump = int(view.trump)
    masters = truth & side_masters(unplayed, trump, trump)  # every suit but trump
    rng = random.Random(seed)
    sampler = Sampler(knowledge(view), SearchPlayer._trump_bias(view))
    drawn = [sampler.sample(rng) for _ in range(deals)]
    for name, model in readings.models(view, frozenset(partners)).items():
        weights = [model.weight(h) if model else 1.0 for h in drawn]
        placed = share(weights, drawn, partners, masters) if masters else None
        readings.results.setdefault(name, Placement()).add(
            share(weights, drawn, partners, truth), placed
        )


def run(
    variant: str, spec: str, matches: int, seed: int, hands: int, deals: int, readings: Readings
) -> None:
    """Plays the matches and fills ``readings.results``."""

    def decide(match: Match, view: SeatView, moment: int) -> Card:
        if view.tricks and len(view.legal) > 1:
            measure(readings, match, view, deals, moment)
        return make(spec, moment).choose_card(view)

    first_hands(FORMATS[variant], seed, matches, hands, decide)


def main() -> None:
    parser = first_hands_parser(__doc__, 16, "what team 0 plays")
    parser.add_argument("--deals", type=int, default=300, help="deals drawn per decision")
    parser.add_argument("--eps-partner", type=float, nargs="+", default=[0.5, 0.25, 0.1])
    args = parser.parse_args()
    readings = Readings(tuple(args.eps_partner), "signals=1" in args.a)
    run(args.variant, args.a, args.matches, args.seed, args.hands, args.deals, readings)
    for name, placed in readings.results.items():
        print(
            f"{name}: partners' cards {placed.cards_share:.4f},"
            f" side masters {placed.masters_share:.4f}"
            f" ({placed.decisions} decisions, {placed.with_masters} with masters)"
        )
    decisions = max((p.decisions for p in readings.results.values()), default=0)
    shares = " ".join(
        f"{name}={p.cards_share:.3f}/{p.masters_share:.3f}" for name, p in readings.results.items()
    )
    print(f"variant={args.variant} decisions={decisions} {shares}")


if __name__ == "__main__":
    main()

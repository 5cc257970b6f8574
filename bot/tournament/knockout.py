"""Single elimination, seeded by rating (docs/rules.md T7).

The bracket has the next power of two of slots; seeds go where the standard bracket puts
them (1 v N, then 1's winner meets the winner of N/2 v N/2+1, …), so the two best seeds can
meet only in the final. Seeds beyond the entries are empty slots: the top seeds get the byes.
A slot whose entrant was dropped is empty too, and its opponent goes through on a bye.
"""

from __future__ import annotations

from .state import Round, Table, Tournament


def bracket_order(size: int) -> list[int]:
    """Seeds 1…``size`` (a power of two) in bracket slot order: 1, size, …."""
    order = [1]
    while len(order) < size:
        twice = 2 * len(order)
        order = [x for seed in order for x in (seed, twice + 1 - seed)]
    return order


def bracket_size(entries: int) -> int:
    size = 1
    while size < entries:
        size *= 2
    return size


def first_slots(t: Tournament) -> tuple[int | None, ...]:
    seeds = t.seed_order()
    return tuple(
        seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(bracket_size(len(seeds)))
    )


def rounds_for(entries: int) -> int:
    return bracket_size(entries).bit_length() - 1


def _present(t: Tournament, slots: tuple[int | None, ...]) -> tuple[int | None, ...]:
    dropped = {e.number for e in t.entrants if e.dropped is not None}
    return tuple(None if s in dropped else s for s in slots)


def knockout_round(t: Tournament, number: int, slots: tuple[int | None, ...]) -> Round:
    """Round ``number`` on ``slots``: a table for every pair of filled slots, a bye for an
    entrant whose pair's other slot is empty."""
    slots = _present(t, slots)
    tables, byes = [], []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is not None and b is not None:
            tables.append(Table(((a,), (b,))))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)
    return Round(number, tuple(tables), tuple(e for e in byes if e is not None), slots)


def next_slots(r: Round) -> tuple[int | None, ...]:
    """Who fills each slot of the round after ``r``: a table's winner (none when both sides
    forfeited), a bye's entrant, or nobody."""
    winners: dict[int, int | None] = {}
    for table in r.tables:
        res = table.result
        (a,), (b,) = table.sides
        won: int | None = None
        if res is not None and res.against(0, 1) != res.against(1, 0):  # not both forfeited
            won = a if res.against(0, 1) == 2 else b
        winners[a] = winners[b] = won
    out: list[int | None] = []
    for first, second in zip(r.slots[::2], r.slots[1::2], strict=True):
        if first is not None and second is not None:
            out.append(winners[first])
        else:
            out.append(first if first is not None else second)
    return tuple(out)


def following(t: Tournament) -> tuple[int | None, ...]:
    """The next round's slots after the current one, dropped entrants emptied."""
    return _present(t, next_slots(t.rounds[-1]))


def is_over(slots: tuple[int | None, ...]) -> bool:
    return len(slots) <= 1 or sum(1 for s in slots if s is not None) <= 1


def champion(t: Tournament) -> int | None:
    """The winner of a finished knockout (``None`` when nobody is left)."""
    if t.status != "finished" or not t.rounds:
        return None
    left = [s for s in following(t) if s is not None]
    return left[0] if len(left) == 1 else None

"""Exact play of the last few tricks of one fully known deal (max-n: each seat maximises its own
hand score; ties go to the lowest card so results are reproducible)."""

from __future__ import annotations

from ..cards import indices
from .sim import Table


def solve(table: Table) -> list[int]:
    """The four final hand scores when everyone plays the rest of ``table`` perfectly for themselves."""
    hands = table.hands
    if not (hands[0] | hands[1] | hands[2] | hands[3]):
        return table.scores()
    seat = (table.leader + len(table.trick)) & 3
    legal = table.legal(seat)
    best: list[int] | None = None
    for card in indices(legal):
        child = table.copy()
        child.play(card)
        scores = solve(child)
        if best is None or scores[seat] > best[seat]:
            best = scores
    assert best is not None
    return best

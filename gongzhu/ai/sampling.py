"""Deals of the unseen cards consistent with what a seat knows, weighted by a play model.

A world gives every other seat the right number of cards, never a card of a suit it has shown void
in, and keeps known holdings (unplayed exposed cards, the 2S of hand 1's first leader) in place.
Its weight is how likely the opponents' plays so far were if Normal's strategy (the play model)
had played them from that world: a play Normal would have made counts 1, any other ``MISMATCH``.
"""

from __future__ import annotations

import random

from ..cards import FULL_MASK, indices
from .heuristic import normal_play
from .knowledge import Knowledge
from .sim import Table

MISMATCH = 0.5
_ATTEMPTS = 30


def sample_world(k: Knowledge, rng: random.Random) -> list[int]:
    """Four hands (this seat's own included) for the cards not yet played."""
    for attempt in range(_ATTEMPTS + 1):
        world = _try_sample(k, rng, use_voids=attempt < _ATTEMPTS)
        if world is not None:
            return world
    raise RuntimeError("no deal fits the view")  # pragma: no cover - the real deal always fits


def _try_sample(k: Knowledge, rng: random.Random, use_voids: bool) -> list[int] | None:
    known = k.known_holdings()
    hands = list(known)
    hands[k.seat] = k.hand
    need = [k.hand_sizes[s] - hands[s].bit_count() for s in range(4)]
    need[k.seat] = 0
    rest = FULL_MASK & ~k.gone & ~k.hand & ~(known[0] | known[1] | known[2] | known[3])
    others = [s for s in range(4) if s != k.seat]
    voids = k.voids if use_voids else [0, 0, 0, 0]
    cards = indices(rest)
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in others if not voids[s] >> (c // 13) & 1))
    for c in cards:
        suit = c // 13
        allowed = [s for s in others if need[s] > 0 and not voids[s] >> suit & 1]
        if not allowed:
            return None
        r = rng.randrange(sum(need[s] for s in allowed))
        for s in allowed:
            r -= need[s]
            if r < 0:
                hands[s] |= 1 << c
                need[s] -= 1
                break
    return hands


def play_weight(k: Knowledge, world: list[int]) -> float:
    """Likelihood of the opponents' plays of this hand under the play model, in ``world``."""
    if not k.history:
        return 1.0
    start = list(world)
    for seat, card in k.history:
        start[seat] |= 1 << card
    table = Table(start, [0, 0, 0, 0], k.exposed, 0, k.first_leader, [], 0)
    weight = 1.0
    for seat, card in k.history:
        if seat != k.seat:
            legal = table.legal(seat)
            if legal & (legal - 1) and normal_play(table, seat, legal) != card:
                weight *= MISMATCH
        table.play(card)
    return weight

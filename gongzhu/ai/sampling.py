"""Deals of the unseen cards consistent with what a seat knows, drawn from the posterior of a play model.

A world gives every other seat the right number of cards, never a card of a suit it has shown void
in, and keeps known holdings (unplayed exposed cards, the 2S of hand 1's first leader) in place.

Which of those worlds are likely depends on the opponents' plays so far.  The play model is
Normal's strategy: a world's likelihood is ``MISMATCH`` to the power of the number of the
opponents' plays (with a choice) that Normal would not have made from that world.  Uniform draws
are nearly all unlikely after a few tricks (measured: after trick 3 fewer than 2% of them agree
with every play), so :func:`posterior_worlds` walks a Metropolis chain over card swaps between the
opponents instead, whose worlds are drawn in proportion to prior × likelihood.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from ..cards import FULL_MASK, indices
from .heuristic import normal_play
from .knowledge import Knowledge
from .sim import Table

MISMATCH = 0.1  # likelihood factor of a play the model would not have made (0.02–0.3 measured alike)
CHAINS = 4  # independent chains per decision
BURN_IN = 50  # swaps a chain proposes before its first world
THIN = 3  # swaps a chain proposes between two of its worlds
_ATTEMPTS = 30


def sample_world(k: Knowledge, rng: random.Random) -> list[int]:
    """Four hands (this seat's own included) for the cards not yet played, ignoring the plays' evidence."""
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


def mismatches(k: Knowledge, world: list[int], limit: int = 52) -> int:
    """How many of the opponents' plays this hand the play model would not have made in ``world``
    (counting stops once it passes ``limit``)."""
    start = list(world)
    for seat, card in k.history:
        start[seat] |= 1 << card
    table = Table(start, [0, 0, 0, 0], k.exposed, 0, k.first_leader, [], 0)
    count = 0
    for seat, card in k.history:
        if seat != k.seat:
            legal = table.legal(seat)
            if legal & (legal - 1) and normal_play(table, seat, legal) != card:
                count += 1
                if count > limit:
                    return count
        table.play(card)
    return count


class WorldChain:
    """A Metropolis chain over the worlds of one view: each step proposes swapping one unseen card
    between two opponents (a symmetric proposal), accepted with the likelihood ratio."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        self.k = k  # what the seat knows
        self.rng = rng  # the decision's random source
        self.world = sample_world(k, rng)  # the chain's current deal, all four hands
        self.mismatches = mismatches(k, self.world)  # the play model's misses in ``world``
        known = k.known_holdings()
        self.movable = [self.world[s] & ~known[s] for s in range(4)]  # cards a swap may move, per seat
        self.movable[k.seat] = 0
        self.opponents = [s for s in range(4) if s != k.seat and self.movable[s]]  # seats swaps pick

    def step(self) -> None:
        if len(self.opponents) < 2:
            return
        k, rng = self.k, self.rng
        a, b = rng.sample(self.opponents, 2)
        card_a = rng.choice(indices(self.movable[a]))
        card_b = rng.choice(indices(self.movable[b]))
        if k.voids[a] >> (card_b // 13) & 1 or k.voids[b] >> (card_a // 13) & 1:
            return  # a world the seat knows is impossible: the prior gives it nothing
        # accept with probability MISMATCH ** (new - old), i.e. when new <= old + log(u) / log(MISMATCH)
        u = rng.random()
        limit = self.mismatches + int(math.log(u) / math.log(MISMATCH)) if u > 0.0 else 52
        swap = (1 << card_a) | (1 << card_b)
        world = list(self.world)
        world[a] ^= swap
        world[b] ^= swap
        count = mismatches(k, world, limit)
        if count <= limit:
            self.world, self.mismatches = world, count
            self.movable[a] ^= swap
            self.movable[b] ^= swap


def has_evidence(k: Knowledge) -> bool:
    """Whether an opponent has played this hand (else every world is as likely as the next)."""
    return any(seat != k.seat for seat, _card in k.history)


def affordable(k: Knowledge, budget: int, play_cost: int) -> tuple[int, int]:
    """How many worlds ``budget`` simulated plays pay for, and from how many chains, when playing
    a world costs ``play_cost``: drawing the worlds is paid from the same budget (a chain step
    replays the hand's plays, and stops at the first excess miss), and a budget too small for
    every chain's burn-in (the coach's small batches) draws from one chain."""
    if not has_evidence(k):
        return budget // play_cost, 1
    replay = len(k.history)
    chains = CHAINS if CHAINS * BURN_IN * replay <= budget else 1
    left = max(0, budget - chains * BURN_IN * replay)
    return left // (play_cost + THIN * replay), chains


def posterior_worlds(
    k: Knowledge, rng: random.Random, count: int, chains: int = CHAINS
) -> Iterator[list[int]]:
    """``count`` worlds drawn in proportion to how well they explain the opponents' plays, taken in
    turn from ``chains`` independent chains."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng)
        return
    walkers = [WorldChain(k, rng) for _ in range(chains)]
    for chain in walkers:
        for _ in range(BURN_IN):
            chain.step()
    for i in range(count):
        chain = walkers[i % chains]
        for _ in range(THIN):
            chain.step()
        yield list(chain.world)

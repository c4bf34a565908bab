"""Deals of the unseen cards consistent with what a seat knows, drawn from the posterior of a play model.

A world gives every other seat the right number of cards, never a card of a suit it has shown void
in, and keeps known holdings (unplayed exposed cards, the 2S of hand 1's first leader) in place.

Which of those worlds are likely depends on the opponents' plays so far.  Normal's play model: a
world's likelihood is ``mismatch`` (:class:`Chains`) to the power of the number of the opponents'
plays (with a choice) that Normal would not have made from that world.  Uniform draws are nearly all
unlikely after a few tricks, so :func:`posterior_worlds` walks a Metropolis chain over card swaps
between the opponents instead, whose worlds are drawn in proportion to prior × likelihood; the other
weightings (:mod:`gongzhu.ai.worlds`) walk the same swaps with their own likelihoods.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..cards import FULL_MASK, indices
from .heuristic import normal_play
from .knowledge import Knowledge
from .sim import Table


@dataclass(frozen=True)
class Chains:
    """How the Metropolis chains that draw weighted worlds walk (part of Hard's configuration)."""

    mismatch: float = 0.1  # likelihood factor of a play the model would not have made
    chains: int = 4  # independent chains per decision
    burn_in: int = 50  # swaps a chain proposes before its first world
    thin: int = 3  # swaps a chain proposes between two of its worlds
    replay_cost: float = 1.0  # a play a chain step replays costs this many simulated plays of the budget
    # (more when the learned play model judges it: ``gongzhu.ai.habits.Judging.learned_cost``)


CHAINS = Chains()  # the game's
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


def hand_start(k: Knowledge, world: list[int]) -> Table:
    """The table this hand started from in ``world``: each seat's hand with its plays so far given
    back (the chains replay the plays from it)."""
    start = list(world)
    for seat, card in k.history:
        start[seat] |= 1 << card
    return Table(start, [0, 0, 0, 0], k.exposed, 0, k.first_leader, [], 0)


def mismatches(k: Knowledge, world: list[int], limit: int = 52) -> int:
    """How many of the opponents' plays this hand the play model would not have made in ``world``
    (counting stops once it passes ``limit``)."""
    table = hand_start(k, world)
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


class SwapWalk:
    """A walk over the worlds of one view: each step proposes swapping one unseen card between two
    opponents (a symmetric proposal); the chains below accept it by their likelihood ratio."""

    def __init__(self, k: Knowledge, rng: random.Random, world: list[int] | None = None) -> None:
        self.k = k  # what the seat knows
        self.rng = rng  # the decision's random source
        # the chain's current deal, all four hands (``world``, else an unweighted draw)
        self.world = list(world) if world is not None else sample_world(k, rng)
        known = k.known_holdings()
        self.movable = [self.world[s] & ~known[s] for s in range(4)]  # cards a swap may move, per seat
        self.movable[k.seat] = 0
        self.opponents = [s for s in range(4) if s != k.seat and self.movable[s]]  # seats swaps pick

    def propose(self) -> tuple[int, int, int, int] | None:
        """Two opponents and a card of each to swap, or None: no swap this step (fewer than two
        opponents hold movable cards, or a world the seat knows is impossible: the prior gives it
        nothing)."""
        if len(self.opponents) < 2:
            return None
        k, rng = self.k, self.rng
        a, b = rng.sample(self.opponents, 2)
        card_a = rng.choice(indices(self.movable[a]))
        card_b = rng.choice(indices(self.movable[b]))
        if k.voids[a] >> (card_b // 13) & 1 or k.voids[b] >> (card_a // 13) & 1:
            return None
        return a, b, card_a, card_b

    def step(self) -> None:
        """One step of the chain: a proposal, accepted by the chain's own likelihood (:meth:`bound`
        from a uniform draw, then :meth:`take` of the swapped world within that bound)."""
        proposal = self.propose()
        if proposal is None:
            return
        a, b, card_a, card_b = proposal
        bound = self.bound(self.rng.random())
        swap = (1 << card_a) | (1 << card_b)
        world = list(self.world)
        world[a] ^= swap
        world[b] ^= swap
        if self.take(world, bound):
            self.world = world
            self.movable[a] ^= swap
            self.movable[b] ^= swap

    def bound(self, u: float) -> float:
        """The acceptance threshold the uniform draw ``u`` sets, in the chain's own terms."""
        raise NotImplementedError

    def take(self, world: list[int], bound: float) -> bool:
        """Score ``world`` (a chain may stop early past ``bound``); if it is accepted, keep its score
        and say so (the walk then moves to it)."""
        raise NotImplementedError


class WorldChain(SwapWalk):
    """A Metropolis chain over the worlds of one view, a miss of Normal's costing ``mismatch``."""

    def __init__(self, k: Knowledge, rng: random.Random, mismatch: float = CHAINS.mismatch) -> None:
        super().__init__(k, rng)
        self.mismatch = mismatch  # the likelihood factor of one miss
        self.mismatches = mismatches(k, self.world)  # the play model's misses in ``world``

    def bound(self, u: float) -> float:
        # accept with probability mismatch ** (new - old), i.e. when new <= old + log(u) / log(mismatch)
        return self.mismatches + int(math.log(u) / math.log(self.mismatch)) if u > 0.0 else 52

    def take(self, world: list[int], bound: float) -> bool:
        count = mismatches(self.k, world, int(bound))
        if count > bound:
            return False
        self.mismatches = count
        return True


def has_evidence(k: Knowledge) -> bool:
    """Whether an opponent has played this hand (else every world is as likely as the next)."""
    return any(seat != k.seat for seat, _card in k.history)


def affordable(k: Knowledge, budget: int, play_cost: int, chains: Chains | None = CHAINS) -> tuple[int, int]:
    """How many worlds ``budget`` simulated plays pay for, and from how many chains, when playing
    a world costs ``play_cost``: drawing the worlds is paid from the same budget (a chain step
    replays the hand's plays, each ``chains.replay_cost`` simulated plays, and stops at the first
    excess miss), and a budget too small for every chain's burn-in (the coach's small batches) draws
    from one chain; unweighted worlds (``chains`` None) cost nothing to draw."""
    if not has_evidence(k) or chains is None:
        return budget // play_cost, 1
    replay = round(len(k.history) * chains.replay_cost)
    count = chains.chains if chains.chains * chains.burn_in * replay <= budget else 1
    left = max(0, budget - count * chains.burn_in * replay)
    return left // (play_cost + chains.thin * replay), count


def chain_worlds(
    k: Knowledge,
    rng: random.Random,
    count: int,
    chain: Callable[[], SwapWalk],
    chains: int | None = None,
    tune: Chains = CHAINS,
) -> Iterator[list[int]]:
    """``count`` worlds taken in turn from ``chains`` chains (``tune.chains`` when None) that ``chain``
    makes, each burnt in, then thinned (:func:`thinned`); unweighted worlds while no opponent has
    played (every world is then as likely as the next)."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng)
        return
    walkers = [chain() for _ in range(tune.chains if chains is None else chains)]
    for walker in walkers:
        for _ in range(tune.burn_in):
            walker.step()
    yield from thinned(walkers, count, tune.thin)


def thinned(walkers: Sequence[SwapWalk], count: int, thin: int = CHAINS.thin) -> Iterator[list[int]]:
    """``count`` worlds taken in turn from ``walkers`` (burnt in), ``thin`` steps between two draws."""
    for i in range(count):
        walker = walkers[i % len(walkers)]
        for _ in range(thin):
            walker.step()
        yield list(walker.world)


def posterior_worlds(
    k: Knowledge, rng: random.Random, count: int, chains: int | None = None, tune: Chains = CHAINS
) -> Iterator[list[int]]:
    """``count`` worlds drawn in proportion to how well they explain the opponents' plays, taken in
    turn from ``chains`` independent chains."""
    return chain_worlds(k, rng, count, lambda: WorldChain(k, rng, tune.mismatch), chains, tune)


def fitted_worlds(
    k: Knowledge,
    rng: random.Random,
    count: int,
    fits: list[float],
    chains: int | None = None,
    tune: Chains = CHAINS,
) -> Iterator[list[int]]:
    """``count`` worlds in which a miss of Normal's on opponent ``s``'s plays costs a world
    ``mismatch`` to the power of ``fits[s]`` (1: Normal's posterior; 0: the opponent's plays weigh
    nothing), taken in turn from ``chains`` chains."""
    costs = [-math.log(tune.mismatch) * fit for fit in fits]
    return chain_worlds(k, rng, count, lambda: SeatChain(k, rng, costs), chains, tune)


def seat_misses(
    k: Knowledge, world: list[int], costs: list[float], limit: float = math.inf
) -> tuple[float, list[int], list[int]]:
    """The plays of each opponent this hand (with a choice) that Normal would not have made in
    ``world``, as (their total cost, a miss of seat ``s`` costing ``costs[s]``; the misses per
    seat; the plays with a choice per seat).  Counting stops once the cost passes ``limit``."""
    table = hand_start(k, world)
    cost = 0.0
    misses = [0, 0, 0, 0]
    choices = [0, 0, 0, 0]
    for seat, card in k.history:
        if seat != k.seat:
            legal = table.legal(seat)
            if legal & (legal - 1):
                choices[seat] += 1
                if normal_play(table, seat, legal) != card:
                    misses[seat] += 1
                    cost += costs[seat]
                    if cost > limit:
                        break
        table.play(card)
    return cost, misses, choices


class SeatChain(SwapWalk):
    """A Metropolis chain over the worlds of one view, a miss of Normal's on seat ``s``'s plays
    costing the world a factor ``exp(-costs[s])`` (:func:`seat_misses`)."""

    def __init__(self, k: Knowledge, rng: random.Random, costs: list[float]) -> None:
        super().__init__(k, rng)
        self.costs = list(costs)  # per seat, the log-likelihood a miss of Normal's costs (>= 0)
        # the misses' cost in ``world``, the misses per seat, the plays with a choice per seat
        self.cost, self.misses, self.choices = seat_misses(k, self.world, self.costs)

    def bound(self, u: float) -> float:
        # accept with probability exp(old - new), i.e. when new <= old - log(u)
        return self.cost - math.log(u) if u > 0.0 else math.inf

    def take(self, world: list[int], bound: float) -> bool:
        cost, misses, choices = seat_misses(self.k, world, self.costs, bound)
        if cost > bound:
            return False
        self.cost, self.misses, self.choices = cost, misses, choices
        return True

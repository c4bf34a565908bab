"""Deals of the unseen cards consistent with what a seat knows, drawn from the posterior of a play model.

A world gives every other seat the right number of cards, never a card of a suit it has shown void
in, and keeps known holdings (unplayed exposed cards, the 2S of hand 1's first leader) in place.

Which of those worlds are likely depends on the opponents' plays so far.  The play model is
Normal's strategy: a world's likelihood is ``MISMATCH`` to the power of the number of the
opponents' plays (with a choice) that Normal would not have made from that world.  Uniform draws
are nearly all unlikely after a few tricks (measured: after trick 3 fewer than 2% of them agree
with every play), so :func:`posterior_worlds` walks a Metropolis chain over card swaps between the
opponents instead, whose worlds are drawn in proportion to prior × likelihood.

People are not Normal, so Hard's own model of an opponent (``MIXTURE``, :class:`MixtureChain`) is a
mixture: with prior weight ``NORMAL_PRIOR`` the opponent plays Normal's card (or, with ``SLIP``, any
other), else any legal card alike.  A world's likelihood is the product over the opponents of
their mixtures, each taken over all of that opponent's plays this hand, so the weight of "this one
plays Normal" follows what the opponent has played: an opponent Normal explains pulls the worlds to
where Normal would have played as it did (as ``NORMAL`` does), and one it explains nowhere falls back
to the uniform part, which no world's play can veto.  ``UNIFORM`` ignores the plays (the benchmarks'
reference: the mixture must never do worse than it).  ``ADAPTIVE`` (:func:`adaptive_worlds`, the
benchmarks' ``hard-adaptive``) keeps Normal's weighting for each opponent only as far as Normal
explains that opponent's plays in Normal's own posterior.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import TypeVar

from ..cards import FULL_MASK, indices
from .heuristic import normal_play
from .knowledge import Knowledge
from .sim import Table

MIXTURE, NORMAL, UNIFORM = "mixture", "normal", "uniform"  # how the opponents' plays weigh the worlds
MIXTURE_WORLDS = "mixture-worlds"  # the mixture's worlds, every opponent playing Normal in the playouts
#: Normal's weighting for the opponents whose plays Normal explains in its own posterior, none for the
#: others (:func:`adaptive_worlds`)
ADAPTIVE = "adaptive"
#: Normal's weighting for each opponent as far as Normal explained its plays in the match's previous
#: hand (:mod:`gongzhu.ai.opponents`, :func:`fitted_worlds`)
FITTED = "fitted"
#: Each opponent that did not play like Normal in the match's previous hand judged by its habits there,
#: in the worlds and in the playouts (:mod:`gongzhu.ai.habits`); the others as ``FITTED`` does
HABITS = "habits"
OPPONENT_MODELS = (MIXTURE, NORMAL, UNIFORM, MIXTURE_WORLDS, ADAPTIVE, FITTED, HABITS)
NORMAL_PRIOR = 0.5  # the mixture: prior weight of "this opponent plays Normal's strategy"
SLIP = 0.1  # the mixture's Normal part: chance of a card other than Normal's (spread over the others)
MISMATCH = 0.1  # likelihood factor of a play the model would not have made (0.02–0.3 measured alike)
CHAINS = 4  # independent chains per decision
BURN_IN = 50  # swaps a chain proposes before its first world
THIN = 3  # swaps a chain proposes between two of its worlds
_ATTEMPTS = 30
#: The adaptive model's test of an opponent, on its plays in the worlds of Normal's posterior: Normal
#: misses a share ``FITS`` of them when it models the opponent (the chains measure 0.03–0.12 for
#: Normals, trick 3 to 9), ``MISFITS`` when it does not (0.37–0.60 for the panel's other styles).
FITS, MISFITS = 0.1, 0.45
ADAPT_STEPS = 25  # swaps each chain proposes under the adapted weights before its first world


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


class SwapWalk:
    """A walk over the worlds of one view: each step proposes swapping one unseen card between two
    opponents (a symmetric proposal); the chains below accept it by their likelihood ratio."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        self.k = k  # what the seat knows
        self.rng = rng  # the decision's random source
        self.world = sample_world(k, rng)  # the chain's current deal, all four hands
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
    """A Metropolis chain over the worlds of one view, weighed by Normal's misses."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        super().__init__(k, rng)
        self.mismatches = mismatches(k, self.world)  # the play model's misses in ``world``

    def bound(self, u: float) -> float:
        # accept with probability MISMATCH ** (new - old), i.e. when new <= old + log(u) / log(MISMATCH)
        return self.mismatches + int(math.log(u) / math.log(MISMATCH)) if u > 0.0 else 52

    def take(self, world: list[int], bound: float) -> bool:
        count = mismatches(self.k, world, int(bound))
        if count > bound:
            return False
        self.mismatches = count
        return True


_LOG = [0.0, *(math.log(n) for n in range(1, 14))]  # log n, by n
_LOG_KEEP = math.log(1.0 - SLIP)
_LOG_SLIP = math.log(SLIP)
_LOG_PRIOR = (math.log(NORMAL_PRIOR), math.log(1.0 - NORMAL_PRIOR))


def play_evidence(k: Knowledge, world: list[int]) -> list[tuple[float, float]]:
    """Per seat, the log-likelihoods of its plays this hand (with a choice) in ``world`` under the
    mixture's two parts: (Normal's strategy with slips, any legal card alike); (0, 0) for this seat."""
    start = list(world)
    for seat, card in k.history:
        start[seat] |= 1 << card
    table = Table(start, [0, 0, 0, 0], k.exposed, 0, k.first_leader, [], 0)
    normal = [0.0, 0.0, 0.0, 0.0]
    uniform = [0.0, 0.0, 0.0, 0.0]
    for seat, card in k.history:
        if seat != k.seat:
            legal = table.legal(seat)
            if legal & (legal - 1):
                n = legal.bit_count()
                uniform[seat] -= _LOG[n]
                if normal_play(table, seat, legal) == card:
                    normal[seat] += _LOG_KEEP
                else:
                    normal[seat] += _LOG_SLIP - _LOG[n - 1]
        table.play(card)
    return list(zip(normal, uniform, strict=True))


def normal_odds(evidence: list[tuple[float, float]]) -> list[float]:
    """Per seat, the chance that it plays Normal's strategy, given its plays in the world whose
    evidence this is (:func:`play_evidence`)."""
    out = []
    for normal, uniform in evidence:
        a, b = _LOG_PRIOR[0] + normal, _LOG_PRIOR[1] + uniform
        out.append(1.0 / (1.0 + math.exp(min(700.0, b - a))))
    return out


def mixture_log_likelihood(evidence: list[tuple[float, float]]) -> float:
    """The world's log-likelihood: the sum over the seats of the log of their mixtures."""
    total = 0.0
    for normal, uniform in evidence:
        a, b = _LOG_PRIOR[0] + normal, _LOG_PRIOR[1] + uniform
        top = max(a, b)
        total += top + math.log(math.exp(a - top) + math.exp(b - top))
    return total


class MixtureChain(SwapWalk):
    """:class:`WorldChain`'s walk, the worlds weighed by the mixture's likelihood
    (:func:`mixture_log_likelihood`) instead of Normal's misses."""

    def __init__(self, k: Knowledge, rng: random.Random) -> None:
        super().__init__(k, rng)
        self.evidence = play_evidence(k, self.world)  # the plays' log-likelihoods in ``world``, per seat
        self.log_likelihood = mixture_log_likelihood(self.evidence)  # of ``world``

    def bound(self, u: float) -> float:
        # accept with probability exp(new - old), i.e. when log(u) <= new - old (never when u is 0)
        return math.log(u) if u > 0.0 else math.inf

    def take(self, world: list[int], bound: float) -> bool:
        evidence = play_evidence(self.k, world)
        log_likelihood = mixture_log_likelihood(evidence)
        if not bound <= log_likelihood - self.log_likelihood:
            return False
        self.evidence, self.log_likelihood = evidence, log_likelihood
        return True


def mixture_worlds(
    k: Knowledge, rng: random.Random, count: int, chains: int = CHAINS
) -> Iterator[tuple[list[int], list[float]]]:
    """``count`` worlds drawn in proportion to the mixture's likelihood, each with every seat's chance
    of playing Normal's strategy in it (:func:`normal_odds`; the prior where nobody has played)."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng), [NORMAL_PRIOR] * 4
        return
    for chain in thinned([MixtureChain(k, rng) for _ in range(chains)], count):
        yield list(chain.world), normal_odds(chain.evidence)


def has_evidence(k: Knowledge) -> bool:
    """Whether an opponent has played this hand (else every world is as likely as the next)."""
    return any(seat != k.seat for seat, _card in k.history)


def affordable(k: Knowledge, budget: int, play_cost: int, opponents: str = NORMAL) -> tuple[int, int]:
    """How many worlds ``budget`` simulated plays pay for, and from how many chains, when playing
    a world costs ``play_cost``: drawing the worlds is paid from the same budget (a chain step
    replays the hand's plays, and stops at the first excess miss), and a budget too small for
    every chain's burn-in (the coach's small batches) draws from one chain; ``UNIFORM`` worlds
    cost nothing to draw."""
    if not has_evidence(k) or opponents == UNIFORM:
        return budget // play_cost, 1
    replay = len(k.history)
    burn_in = BURN_IN + ADAPT_STEPS if opponents == ADAPTIVE else BURN_IN
    chains = CHAINS if CHAINS * burn_in * replay <= budget else 1
    left = max(0, budget - chains * burn_in * replay)
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
    for chain in thinned([WorldChain(k, rng) for _ in range(chains)], count):
        yield list(chain.world)


Walk = TypeVar("Walk", bound=SwapWalk)


def thinned(walkers: list[Walk], count: int) -> Iterator[Walk]:
    """Each chain burnt in, then ``count`` draws from the chains in turn, ``THIN`` steps apart (the
    chain itself is yielded at each draw: read its world before the next)."""
    for chain in walkers:
        for _ in range(BURN_IN):
            chain.step()
    for i in range(count):
        chain = walkers[i % len(walkers)]
        for _ in range(THIN):
            chain.step()
        yield chain


def fitted_worlds(
    k: Knowledge, rng: random.Random, count: int, fits: list[float], chains: int = CHAINS
) -> Iterator[list[int]]:
    """``count`` worlds in which a miss of Normal's on opponent ``s``'s plays costs a world
    ``MISMATCH`` to the power of ``fits[s]`` (1: Normal's posterior; 0: the opponent's plays weigh
    nothing), taken in turn from ``chains`` chains."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng)
        return
    costs = [-math.log(MISMATCH) * fit for fit in fits]
    for chain in thinned([SeatChain(k, rng, costs) for _ in range(chains)], count):
        yield list(chain.world)


def seat_misses(
    k: Knowledge, world: list[int], costs: list[float], limit: float = math.inf
) -> tuple[float, list[int], list[int]]:
    """The plays of each opponent this hand (with a choice) that Normal would not have made in
    ``world``, as (their total cost, a miss of seat ``s`` costing ``costs[s]``; the misses per
    seat; the plays with a choice per seat).  Counting stops once the cost passes ``limit``."""
    start = list(world)
    for seat, card in k.history:
        start[seat] |= 1 << card
    table = Table(start, [0, 0, 0, 0], k.exposed, 0, k.first_leader, [], 0)
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
    costing the world a factor ``exp(-costs[s])`` (:func:`seat_misses`); the weights can change
    between steps (:meth:`reweigh`)."""

    def __init__(self, k: Knowledge, rng: random.Random, costs: list[float]) -> None:
        super().__init__(k, rng)
        self.costs = list(costs)  # per seat, the log-likelihood a miss of Normal's costs (>= 0)
        # the misses' cost in ``world``, the misses per seat, the plays with a choice per seat
        self.cost, self.misses, self.choices = seat_misses(k, self.world, self.costs)

    def reweigh(self, costs: list[float]) -> None:
        self.costs = list(costs)
        self.cost = sum(m * c for m, c in zip(self.misses, self.costs, strict=True))

    def bound(self, u: float) -> float:
        # accept with probability exp(old - new), i.e. when new <= old - log(u)
        return self.cost - math.log(u) if u > 0.0 else math.inf

    def take(self, world: list[int], bound: float) -> bool:
        cost, misses, choices = seat_misses(self.k, world, self.costs, bound)
        if cost > bound:
            return False
        self.cost, self.misses, self.choices = cost, misses, choices
        return True


def normal_fit(misses: float, choices: float) -> float:
    """How far Normal's strategy is to be trusted for an opponent (0 to 1): the chance that it plays
    like Normal (misses a share ``FITS`` of its plays) rather than otherwise (``MISFITS``), prior ½,
    given that Normal misses ``misses`` of its ``choices`` plays on average in Normal's posterior."""
    log_odds = misses * math.log(FITS / MISFITS) + (choices - misses) * math.log((1 - FITS) / (1 - MISFITS))
    return 1.0 / (1.0 + math.exp(min(700.0, -log_odds)))


def fitted_chains(
    k: Knowledge, rng: random.Random, chains: int = CHAINS
) -> tuple[list[SeatChain], list[float]]:
    """``chains`` chains burnt in over Normal's posterior (a miss ×``MISMATCH``), and how far Normal
    fits each seat (:func:`normal_fit`), measured on the misses in the second half of their burn-in."""
    full = -math.log(MISMATCH)
    walkers = [SeatChain(k, rng, [full] * 4) for _ in range(chains)]
    misses = [0.0, 0.0, 0.0, 0.0]
    choices = [0.0, 0.0, 0.0, 0.0]
    seen = 0
    for chain in walkers:
        for step in range(BURN_IN):
            chain.step()
            if 2 * step >= BURN_IN:
                seen += 1
                for s in range(4):
                    misses[s] += chain.misses[s]
                    choices[s] += chain.choices[s]
    return walkers, [normal_fit(misses[s] / seen, choices[s] / seen) for s in range(4)]


def adaptive_worlds(
    k: Knowledge, rng: random.Random, count: int, chains: int = CHAINS
) -> Iterator[list[int]]:
    """``count`` worlds weighed by Normal's misses on each opponent's plays as far as Normal fits that
    opponent (:func:`fitted_chains`): a miss of an opponent costs a world ``MISMATCH`` to the power
    of its fit, so an opponent Normal fails to explain even in the worlds that suit Normal best weighs
    them hardly at all (people are not Normal), and one it explains weighs them as Normal's
    posterior does.  The chains adapt for ``ADAPT_STEPS`` swaps, then give a world every ``THIN``."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng)
        return
    walkers, fits = fitted_chains(k, rng, chains)
    costs = [-math.log(MISMATCH) * fit for fit in fits]
    for chain in walkers:
        chain.reweigh(costs)
        for _ in range(ADAPT_STEPS):
            chain.step()
    for i in range(count):
        chain = walkers[i % len(walkers)]
        for _ in range(THIN):
            chain.step()
        yield list(chain.world)

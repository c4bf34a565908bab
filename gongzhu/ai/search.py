"""Hard's search: expected hand score of each choice over sampled deals of the hidden cards.

Every candidate (a legal card, or a set of cards to expose) is played in the same sampled worlds
(common random numbers; a play decision's worlds are drawn from what the opponents' plays so far
say about their hands, :func:`sampled_worlds`), then the rest of the hand is simulated with
Normal's strategy for all four seats (the seat itself looking ahead to the end of each trick it
follows, :func:`own_lookahead`; an opponent that did not play like Normal in the match's previous
hand by its habits there, :mod:`gongzhu.ai.habits`), or solved exactly once few cards remain.  The
value of a world is the seat's own hand score minus ``OPPONENT_WEIGHT`` times the opponents' mean,
or, with ``match_aware`` when the match can end soon, the match outcome (:mod:`gongzhu.ai.match`).
The work done is a fixed number of simulated card plays per decision (``budget``, drawing the
worlds included), never a clock, so decisions are reproducible.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import EXPOSABLE_MASK, FULL_MASK, POINT_MASK, SUIT_MASKS, indices
from ..rules import winning_position
from .exact import solve
from .habits import Habit, habit_policy, habit_worlds
from .heuristic import normal_expose, normal_play
from .inhand import checked_habit_worlds, checked_worlds
from .knowledge import Knowledge
from .match import Valuer, match_in_reach, match_valuer
from .opponents import normal_fits, seat_habits, world_model
from .sampling import (
    CHECKED,
    CHECKED_HABITS,
    FITTED,
    HABITS,
    NORMAL,
    UNIFORM,
    affordable,
    fitted_worlds,
    posterior_worlds,
    sample_world,
)
from .sim import Policy, Table, low_bit, run

DEFAULT_BUDGET = 40_000  # simulated plays per decision (bench/decision_regret.py: 60,000 no better)
EXACT_CARDS = 8  # solve exactly when this many cards (or fewer) remain after the candidate
MIN_WORLDS, MAX_WORLDS = 8, 120
#: A playout with the seat's lookahead costs this many playouts without, and the budget pays for it
#: (CPU time of 6,000 full-hand playouts each way: 1.55), so a decision bound by the budget takes
#: about as long as without the look (one capped at ``MAX_WORLDS`` worlds takes longer).
LOOKAHEAD_COST = 1.5
#: How the opponents' plays weigh the worlds and who plays them in the playouts (gongzhu.ai.sampling).
#: The game's Hard judges each opponent on the match's previous hand (gongzhu.ai.opponents): one that
#: played like Normal is weighed and played as Normal, any other by its habits there (gongzhu.ai.habits).
#: While every opponent played like Normal (in a match's first hand, every opponent) the chains check
#: Normal's weighting within the hand (gongzhu.ai.inhand): an opponent it clearly fails to explain is
#: judged by the habits its plays show in the chains' worlds; among Normals nothing changes (first hands,
#: 400 deals: +11.4 against the cautious style, -0.4 against Normals).  Normal's weighting alone
#: (``NORMAL``, the benchmarks' ``hard-normal-worlds``) lost to unweighted worlds against the panel's
#: cautious style; judged within the hand (``hard-adaptive``, ``hard-mixture-noise``, since removed) it
#: lost to Normal's weighting against Normals; the fits alone (``FITTED``, the benchmarks' ``hard-fitted``,
#: the game's Hard before the habits) gave the others unweighted worlds and Normal's playouts; the in-hand
#: check alone (``CHECKED``, ``hard-checked``) gained less (bench/results/PANEL.md).
OPPONENTS = CHECKED_HABITS
OPPONENT_WEIGHT = 1.0  # measured: +91 vs +70 margin over Normal (60 deals) for own score alone


@dataclass
class Evaluation:
    values: dict[int, float]  # candidate → expected value
    worlds: int

    def best(self) -> int:
        return max(self.values, key=lambda c: (self.values[c], -c))


def hand_margin(scores: list[int], seat: int, opponent_weight: float) -> float:
    own = scores[seat]
    if not opponent_weight:
        return float(own)
    return own - opponent_weight * (sum(scores) - own) / 3


def valuer(k: Knowledge, opponent_weight: float, match_aware: bool) -> Valuer:
    """How a world's four hand scores are valued for this seat (see the module doc)."""

    def margin(scores: list[int]) -> float:
        return hand_margin(scores, k.seat, opponent_weight)

    if match_aware and match_in_reach(k.totals, k.rules, k.hand_number):
        return match_valuer(k.totals, k.seat, margin, k.rules, k.hand_number)
    return margin


def trick_alike(table: Table, seat: int, legal: int) -> list[int]:
    """The lowest card of each set of ``legal`` cards that end the current trick alike.

    Following suit, two cards are alike when no card outside the seat's hand lies between them
    (neither in another hand nor in the trick) and neither scores; a discard cannot win, so the
    cards that score nothing are all alike.  A card that scores stands alone.
    """
    if not legal & SUIT_MASKS[table.trick[0] // 13]:
        plain = legal & ~POINT_MASK
        return sorted(([low_bit(plain)] if plain else []) + indices(legal & POINT_MASK))
    apart = FULL_MASK & ~table.gone & ~table.hands[seat]
    for c in table.trick:
        apart |= 1 << c
    out: list[int] = []
    previous = -1
    for c in indices(legal):
        if previous < 0 or ((1 << c) | (1 << previous)) & POINT_MASK or apart & ((1 << c) - (2 << previous)):
            out.append(c)
        previous = c
    return out


def trick_gain(table: Table, own: int, card: int) -> float:
    """How much ``own`` playing ``card`` now changes its hand margin by the end of the trick, the
    later seats of the trick playing Normal with their hands in ``table`` (left as it was)."""
    trick, hands = table.trick, table.hands
    taken: list[tuple[int, int]] = []  # (seat, card bit) played for the look, taken back below
    while True:
        seat = (table.leader + len(trick)) & 3
        c = card if not taken else normal_play(table, seat, table.legal(seat))
        if len(trick) == 3:
            cards = [*trick, c]
            break
        bit = 1 << c
        hands[seat] ^= bit
        table.gone |= bit
        trick.append(c)
        taken.append((seat, bit))
    for seat, bit in taken:
        hands[seat] |= bit
        table.gone &= ~bit
        trick.pop()
    winner = (table.leader + winning_position(cards)) & 3
    won = table.captured[winner]
    change = table.own_score(won | (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3]))
    change -= table.own_score(won)
    return change if winner == own else -change / 3


def own_lookahead(own: int) -> Policy:
    """Normal's strategy, except for ``own`` following second or third to a trick: it plays each of
    its cards out to the end of the trick (:func:`trick_gain`) and keeps Normal's card unless another
    one does strictly better.

    Why: in a playout, the seat stands for Hard's own later play, which reads the cards far better
    than Normal does, so Normal's rules for the seat undervalue the positions that need that
    reading.  The look reads the later seats' cards from the world, where Hard reads them from the
    play; measured: +5.8 per hand for Hard, +8.3 for the open-hand player (``bench/results/LADDER.md``,
    2026-12-01 22:00 UTC).  It is the one policy that reads other hands than the acting seat's
    (:mod:`gongzhu.ai.sim`).  The last seat of a trick sees every card already.
    """

    def choose(table: Table, seat: int, legal: int) -> int:
        card = normal_play(table, seat, legal)
        if seat != own or not table.trick or len(table.trick) == 3 or legal & (legal - 1) == 0:
            return card
        alike = trick_alike(table, seat, legal)
        if len(alike) == 1:
            return card  # every card ends the trick as Normal's does
        best, best_gain = card, trick_gain(table, own, card)
        for other in alike:
            if other != card:
                gain = trick_gain(table, own, other)
                if gain > best_gain:
                    best, best_gain = other, gain
        return best

    return choose


#: How a world's playouts play the opponents: the playout policy and the world's random source for
#: them → the policy the playouts use (None: the playout policy as it is).
Playouts = Callable[[Policy, random.Random], Policy] | None


def sampled_worlds(
    k: Knowledge, rng: random.Random, budget: int, cost: int, opponents: str
) -> Iterable[tuple[list[int], Playouts]]:
    """The worlds a play decision is valued in, each with how its playouts play the opponents
    (:data:`Playouts`: the playout policy itself but for opponents judged by their habits)."""
    fits = [1.0, 1.0, 1.0, 1.0]
    habits: list[Habit | None] = [None, None, None, None]
    if opponents in (HABITS, CHECKED, CHECKED_HABITS):
        fits, habits = seat_habits(k)
        if world_model(fits, k.seat) == NORMAL and opponents == HABITS:
            opponents = NORMAL  # every opponent played like Normal: exactly Normal's posterior
        elif world_model(fits, k.seat) != NORMAL:
            opponents = HABITS
    elif opponents == FITTED:
        fits = normal_fits(k)
        opponents = world_model(fits, k.seat)
    count, chains = affordable(k, budget, cost, opponents)
    count = max(MIN_WORLDS, min(MAX_WORLDS, count))
    if opponents == UNIFORM:
        return ((sample_world(k, rng), None) for _ in range(count))
    if opponents == NORMAL:
        return ((world, None) for world in posterior_worlds(k, rng, count, chains))
    if opponents == FITTED:
        return ((world, None) for world in fitted_worlds(k, rng, count, fits, chains))
    if opponents == CHECKED:
        return ((world, None) for world in checked_worlds(k, rng, count, chains))
    if opponents == CHECKED_HABITS:
        habits, worlds = checked_habit_worlds(k, rng, count, chains)
        if all(h is None for h in habits):
            return ((world, None) for world in worlds)
    else:
        worlds = habit_worlds(k, rng, count, habits, chains)
    playouts = functools.partial(habit_policy, habits)
    return ((world, playouts) for world in worlds)


def evaluate_plays(
    k: Knowledge,
    legal: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    match_aware: bool = False,
    world: list[int] | None = None,
    lookahead: bool = True,
    opponents: str = OPPONENTS,
) -> Evaluation:
    """Expected value of each legal card.  ``world``: the true hands, when known (the open-hand
    reference player of the benchmarks; then one world is played, as every sample would be it);
    ``lookahead``: the seat's playouts use :func:`own_lookahead` (else Normal's strategy alone, as
    Hard did until 2026-12-01 22:00 UTC: benchmarks only); ``opponents``: how the opponents' plays weigh the
    worlds and who plays in the playouts (:data:`OPPONENTS`; the others for the benchmarks)."""
    cards = indices(legal)
    left = k.hand.bit_count() + sum(k.hand_sizes) - k.hand_sizes[k.seat]
    exact = left - 1 <= EXACT_CARDS
    playout = int(left * LOOKAHEAD_COST) if lookahead else left
    cost = len(cards) * (left * 4 if exact else playout)  # simulated plays per world
    if world is not None:
        worlds: Iterable[tuple[list[int], Playouts]] = [(list(world), None)]
    else:
        worlds = sampled_worlds(k, rng, budget, cost, opponents)
    value = valuer(k, opponent_weight, match_aware)
    policy = own_lookahead(k.seat) if lookahead else normal_play
    totals = dict.fromkeys(cards, 0.0)
    count = 0
    for hands, playouts in worlds:
        count += 1
        base = k.table(hands)
        # an integer seed: a float one is hashed, and a 32-bit Python (the browser's) hashes it differently
        noise_seed = rng.getrandbits(64) if playouts and not exact else 0
        for card in cards:
            table = base.copy()
            table.play(card)
            if exact:
                scores = solve(table)
            else:
                # the same random choices for every card (common random numbers)
                run(table, playouts(policy, random.Random(noise_seed)) if playouts else policy)
                scores = table.scores()
            totals[card] += value(scores)
    return Evaluation({c: v / count for c, v in totals.items()}, count)


def expose_candidates(exposable: int) -> list[int]:
    """Every subset when there are at most three exposable cards, else none, singles and Normal's."""
    cards = indices(exposable & EXPOSABLE_MASK)
    if len(cards) <= 3:
        out = [0]
        for c in cards:
            out += [m | (1 << c) for m in out]
        return out
    return sorted({0, *(1 << c for c in cards), normal_expose(exposable)})


def evaluate_exposes(
    k: Knowledge,
    exposable: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    extra: int | None = None,
    match_aware: bool = False,
    world: list[int] | None = None,
) -> Evaluation:
    """Value of each exposure; the other seats expose as Normal would with their sampled hands.
    ``extra``: one more exposure to value (the coach's: the one the player chose); ``world``: the
    true hands (open-hand reference player only)."""
    candidates = expose_candidates(exposable)
    if extra is not None and extra not in candidates:
        candidates = sorted([*candidates, extra])
    worlds = (
        1 if world is not None else max(MIN_WORLDS, min(MAX_WORLDS, 2 * budget // (len(candidates) * 52)))
    )
    value = valuer(k, opponent_weight, match_aware)
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(worlds):
        hands = list(world) if world is not None else sample_world(k, rng)
        others = [normal_expose(h) for h in hands]
        for chosen in candidates:
            exposed = list(others)
            exposed[k.seat] = chosen
            table = Table(list(hands), [0, 0, 0, 0], exposed, 0, k.leader, [], 0, k.rules.flip)
            run(table, normal_play)
            totals[chosen] += value(table.scores())
    return Evaluation({c: v / worlds for c, v in totals.items()}, worlds)

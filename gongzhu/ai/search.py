"""Hard's search: expected hand score of each choice over sampled deals of the hidden cards.

Every candidate (a legal card, or a set of cards to expose) is played in the same sampled worlds
(common random numbers; a play decision's worlds are drawn by the configuration's world model,
:mod:`gongzhu.ai.worlds`, from what the opponents' plays so far say about their hands), then the rest
of the hand is simulated with Normal's strategy for all four seats (the seat itself looking ahead to
the end of each trick it follows, :func:`own_lookahead`; an opponent the world model judges by its
habits plays by them, :mod:`gongzhu.ai.habits`), or solved exactly once few cards remain.  The value
of a world is the seat's own hand score minus ``opponent_weight`` times the opponents' mean, or, with
``match_aware`` when the match can end soon, the match outcome (:mod:`gongzhu.ai.match`).  The work
done is a fixed number of simulated card plays per decision (``budget``, drawing the worlds
included), never a clock, so decisions are reproducible.  Every setting is a field of
:class:`gongzhu.ai.config.HardConfig`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import EXPOSABLE_MASK, FULL_MASK, POINT_MASK, SUIT_MASKS, indices
from ..rules import winning_position
from .config import HardConfig
from .exact import solve
from .heuristic import normal_expose, normal_play
from .knowledge import Knowledge
from .match import Valuer, match_in_reach, match_valuer
from .sampling import Chains, affordable, sample_world
from .sim import Policy, Table, low_bit, run
from .worlds import Worlds, previous_hand_playouts


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
    play (its gain is measured in ``bench/results/LADDER.md``).  It is the one policy that reads other
    hands than the acting seat's (:mod:`gongzhu.ai.sim`).  The last seat of a trick sees every card
    already.
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


def sampled_worlds(k: Knowledge, rng: random.Random, config: HardConfig, cost: int) -> Worlds:
    """The worlds a play decision is valued in, each with how its playouts play the opponents: as
    many as ``config.budget`` pays for when playing a world costs ``cost`` simulated plays, within
    ``config.min_worlds`` and ``config.max_worlds``, drawn by ``config.worlds``."""

    def afford(chains: Chains | None) -> tuple[int, int]:
        count, walkers = affordable(k, config.budget, cost, chains)
        return max(config.min_worlds, min(config.max_worlds, count)), walkers

    return config.worlds.draw(k, rng, afford)


def evaluate_plays(
    k: Knowledge, legal: int, rng: random.Random, config: HardConfig, world: list[int] | None = None
) -> Evaluation:
    """Expected value of each legal card under ``config``.  ``world``: the true hands, when known (the
    open-hand reference player of the benchmarks; then one world is played, as every sample would be it)."""
    cards = indices(legal)
    left = k.hand.bit_count() + sum(k.hand_sizes) - k.hand_sizes[k.seat]
    exact = left - 1 <= config.exact_cards
    playout = int(left * config.lookahead_cost) if config.lookahead else left
    cost = len(cards) * (left * 4 if exact else playout)  # simulated plays per world
    worlds: Worlds = [(list(world), None)] if world is not None else sampled_worlds(k, rng, config, cost)
    value = valuer(k, config.opponent_weight, config.match_aware)
    policy = own_lookahead(k.seat) if config.lookahead else normal_play
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
    config: HardConfig,
    extra: int | None = None,
    world: list[int] | None = None,
) -> Evaluation:
    """Value of each exposure under ``config``; the other seats expose as Normal would with their
    sampled hands, and play as Normal does, or with ``config.expose_judging`` as their habits in the
    previous hand say (as a play decision's playouts play them).  ``extra``: one more exposure to
    value (the coach's: the one the player chose); ``world``: the true hands (open-hand reference
    player only)."""
    candidates = expose_candidates(exposable)
    if extra is not None and extra not in candidates:
        candidates = sorted([*candidates, extra])
    worlds = (
        1
        if world is not None
        else max(config.min_worlds, min(config.max_worlds, 2 * config.budget // (len(candidates) * 52)))
    )
    value = valuer(k, config.opponent_weight, config.match_aware)
    judging = config.expose_judging
    playouts = previous_hand_playouts(k, judging) if judging is not None and world is None else None
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(worlds):
        hands = list(world) if world is not None else sample_world(k, rng)
        others = [normal_expose(h) for h in hands]
        noise_seed = rng.getrandbits(64) if playouts else 0
        for chosen in candidates:
            exposed = list(others)
            exposed[k.seat] = chosen
            table = Table(list(hands), [0, 0, 0, 0], exposed, 0, k.leader, [], 0, k.rules.flip)
            # the same random choices for every candidate (common random numbers)
            run(table, playouts(normal_play, random.Random(noise_seed)) if playouts else normal_play)
            totals[chosen] += value(table.scores())
    return Evaluation({c: v / worlds for c, v in totals.items()}, worlds)

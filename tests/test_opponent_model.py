"""Hard's model of the opponents it meets: a mixture of Normal's strategy and any legal card, per
opponent, over its plays this hand (gongzhu/ai/sampling.py), and playouts that follow it."""

from __future__ import annotations

import math
import random
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.ai import NormalPlayer
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.sampling import (
    MISMATCH,
    MIXTURE,
    NORMAL_PRIOR,
    OPPONENT_MODELS,
    mismatches,
    mixture_log_likelihood,
    mixture_worlds,
    normal_odds,
    play_evidence,
)
from gongzhu.ai.search import mixed_policy, sampled_worlds
from gongzhu.ai.sim import deal_table, random_hands
from gongzhu.cards import to_mask
from gongzhu.game import apply_legal
from gongzhu.players import RandomPlayer

from .ai_helpers import nobody_exposes
from .test_ai import _every_world, _holding_odds


def _position(seed: int, tricks_done: int, kind: str) -> dict[str, Any]:
    """Hand 1 of match ``seed`` played by four Normals or four random players until ``tricks_done``."""
    state = nobody_exposes(new_match(seed))
    make = NormalPlayer if kind == "normal" else RandomPlayer
    players = [make(seed, s) for s in range(4)]
    while len(state["tricks"]) < tricks_done:
        seat = state["turn"]
        card = players[seat].play(view_for(state, seat))
        state = apply_legal(state, {"type": "play", "seat": seat, "card": card})
    return state


def _exact_odds(k: Any, sizes: list[int], weigh: Any) -> dict[tuple[int, int], float]:
    worlds = _every_world(k, sizes)
    return _holding_odds(worlds, [weigh(w) for w in worlds])


def test_the_chain_draws_worlds_in_proportion_to_the_mixture() -> None:
    # three cards left each: every world can be listed and weighed exactly
    state = _position(0, 10, "normal")
    k = read_view(view_for(state, state["turn"]))
    sizes = [len(h) for h in state["hands"]]
    exact = _exact_odds(k, sizes, lambda w: math.exp(mixture_log_likelihood(play_evidence(k, w))))
    uniform = _exact_odds(k, sizes, lambda w: 1.0)
    drawn = [world for world, _odds in mixture_worlds(k, random.Random(0), 2000)]
    chain = _holding_odds(drawn, [1.0] * len(drawn))
    assert max(abs(uniform[x] - exact[x]) for x in exact) > 0.3  # Normal's plays tell a lot here
    assert max(abs(chain[x] - exact[x]) for x in exact) < 0.1


def test_plays_normal_explains_nowhere_veto_no_world() -> None:
    """Random players' plays: Normal's weighting (a factor MISMATCH per miss) makes some worlds over 10^4
    times less likely than others; under the mixture no world falls below 1% of the likeliest."""
    for seed in range(4):
        state = _position(seed, 10, "random")
        k = read_view(view_for(state, state["turn"]))
        worlds = _every_world(k, [len(h) for h in state["hands"]])
        by_normal = [MISMATCH ** mismatches(k, w) for w in worlds]
        mixture = [math.exp(mixture_log_likelihood(play_evidence(k, w))) for w in worlds]
        assert min(by_normal) / max(by_normal) < 1e-4
        assert min(mixture) / max(mixture) >= 0.01


def test_the_weight_of_normal_follows_each_opponents_plays() -> None:
    """In the true deal, the chance that an opponent plays Normal's strategy is high for Normals and
    low for random players, from the prior ``NORMAL_PRIOR`` before any play."""
    of_random: list[float] = []
    for seed in range(6):
        for kind in ("normal", "random"):
            state = _position(seed, 5, kind)
            seat = state["turn"]
            k = read_view(view_for(state, seat))
            odds = normal_odds(play_evidence(k, [to_mask(h) for h in state["hands"]]))
            others = [odds[s] for s in range(4) if s != seat]
            if kind == "normal":
                assert min(others) > 0.9
            else:
                of_random += others
    assert sum(of_random) / len(of_random) < 0.2
    state = nobody_exposes(new_match(1))
    k = read_view(view_for(state, state["turn"]))
    assert normal_odds(play_evidence(k, [to_mask(h) for h in state["hands"]])) == [NORMAL_PRIOR] * 4


def test_mixture_playouts_add_noise_to_the_noisy_seats_only() -> None:
    """The playout policy of a world: ``policy`` for every seat outside the noisy set, and for the
    noisy seats a random legal card part of the time."""
    changed = [0, 0, 0, 0]
    for seed in range(40):
        rng = random.Random(seed)
        table = deal_table(random_hands(rng))
        policy = mixed_policy(lambda t, s, legal: (legal & -legal).bit_length() - 1, 0b0110, rng)
        for _ in range(52):
            seat = table.turn()
            legal = table.legal(seat)
            card = policy(table, seat, legal)
            assert legal >> card & 1
            changed[seat] += card != (legal & -legal).bit_length() - 1
            table.play(card)
    assert changed[0] == changed[3] == 0 and min(changed[1], changed[2]) > 50
    plain = mixed_policy(lambda t, s, legal: 0, 0, random.Random(0))
    assert plain(deal_table(random_hands(random.Random(0))), 0, 1) == 0


def test_only_the_mixture_changes_the_playouts_in_a_first_hand() -> None:
    """Against random players' plays in a match's first hand, the mixture plays opponents as noisy in
    nearly every world; every other way of weighing the worlds keeps the playout policy (the habits
    need a previous hand, :mod:`tests.test_habits`)."""
    state = _position(2, 4, "random")
    k = read_view(view_for(state, state["turn"]))
    for opponents in OPPONENT_MODELS:
        worlds = list(sampled_worlds(k, random.Random(0), 3000, 40, opponents))
        changed = sum(playouts is not None for _world, playouts in worlds)
        if opponents == MIXTURE:
            assert changed > 0.8 * len(worlds)
        else:
            assert changed == 0

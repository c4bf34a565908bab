"""Hard's decisions, pinned: the daily deal's full trace and a fixed set of decisions of the game's
Hard and of the benchmarks' variants hash to the values the engine gave before Hard became one
frozen configuration (:mod:`gongzhu.ai.config`).  A change to any of Hard's decisions fails here;
a deliberate one updates the hashes in the same commit and says why.

Changes since, each also checked against the decisions' hash before it (the change undone by a setting):

- 2026-12-06: an opponent judged by its habits plays their "any legal card" share as Normal's card in
  the playouts (``Judging.random_in_playouts``; ``bench/results/ABLE.md``).
- 2026-12-08: an exposure's playouts play each opponent by its habits in the previous hand, as a play's
  do (``HardConfig.expose_judging``; ``bench/results/ABLE.md``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from gongzhu.ai import EasyPlayer, NormalPlayer, make_level
from gongzhu.ai.config import HARD, HardConfig
from gongzhu.ai.habits import Judging
from gongzhu.ai.hard import HardPlayer, choose_expose, choose_play
from gongzhu.ai.inhand import InHandCheck
from gongzhu.ai.sampling import Chains
from gongzhu.ai.worlds import Checked, CheckedHabits, Fitted, Habits, NormalPosterior, Uniform
from gongzhu.daily import DAILY_LEVEL, daily_seed
from gongzhu.game import State, apply_legal, new_match, view_for
from gongzhu.players import RandomPlayer
from gongzhu.service import bot_seed
from gongzhu.simulate import play_hand

from .support.bench import bench_module

DAILY_DATE = "2026-12-03"
DAILY_TRACE = "61c3a02f8daecd0fc06d1ee68fcb8755e6d8bdac7e51dbbfa0de83a1bd0e1d1e"
DECISIONS = "d8e2c89faf5eeb18a0b860c199fb4c93c8f3cdd351b7801e05d00e15ff263a1b"
#: The pinned decisions with every exposure played out by Normal (before 2026-12-08)
DECISIONS_EXPOSE_NORMAL = "c5fca3917157928c43636c402f55e7664872fd8ef22c89865f31a9ddd36522d6"
#: The pinned decisions with the habits' "any" share played at random in the playouts (before 2026-12-06)
DECISIONS_RANDOM_ANY = "00feea53fc379430dc1644766b871cb9fab8aecc77c97f1bc7c47a3c49680544"
SMALL = 2500  # simulated plays per decision in the pinned set: cheap, and every model still draws worlds

#: The game's Hard and the benchmarks' variants of it, by name, at a small budget.
VARIANTS: dict[str, HardConfig] = {
    "hard": replace(HARD, budget=SMALL),
    "hard-margin": replace(HARD, budget=SMALL, match_aware=False),
    "hard-no-lookahead": replace(HARD, budget=SMALL, lookahead=False),
    **{
        f"hard-{name}": replace(HARD, budget=SMALL, worlds=model)
        for name, model in (
            ("normal", NormalPosterior()),
            ("uniform", Uniform()),
            ("fitted", Fitted()),
            ("habits", Habits()),
            ("checked", Checked()),
        )
    },
}


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def daily_trace() -> Any:
    """The daily deal's hand as the game's Hard plays every seat, seeded as the service seeds them."""
    seed = daily_seed(DAILY_DATE)
    players = [make_level(DAILY_LEVEL, bot_seed(seed, s), s) for s in range(4)]
    _state, log = play_hand(new_match(seed), players)
    return log


def collect(seed: int, others: list[Any]) -> list[Any]:
    """Seat 0's views at its expose decisions and at some play decisions with a choice, in the first two
    hands of match ``seed`` played by ``others`` (in the second hand Hard judges them on the first)."""
    views: list[Any] = []
    state: State = new_match(seed)
    for hand in range(2):
        if hand:
            if state["phase"] == "match_over":
                break
            state = apply_legal(state, {"type": "next_hand"})
        for s in range(4):
            if state["expose_choices"][s] is None:
                view = view_for(state, s)
                if s == 0 and view["exposable"]:
                    views.append(view)
                cards = others[s].expose(view)
                state = apply_legal(state, {"type": "expose", "seat": s, "cards": cards})
        while state["phase"] == "play":
            seat = state["turn"]
            view = view_for(state, seat)
            if seat == 0 and len(view["legal"]) > 1 and len(view["tricks"]) in (1, 4, 7):
                views.append(view)
            card = others[seat].play(view)
            state = apply_legal(state, {"type": "play", "seat": seat, "card": card})
    return views


def pinned_views() -> list[Any]:
    """The views of the pinned decisions: two matches, against Easy and random players."""
    views = collect(11, [NormalPlayer(11, 0), EasyPlayer(11, 1), RandomPlayer(11, 2), NormalPlayer(11, 3)])
    return views + collect(
        12, [NormalPlayer(12, 0), RandomPlayer(12, 1), EasyPlayer(12, 2), EasyPlayer(12, 3)]
    )


def decisions(change: Callable[[HardConfig], HardConfig] = lambda config: config) -> Any:
    """Each variant's choice and every candidate's value at each pinned view (each variant's
    configuration changed by ``change``)."""
    views = pinned_views()
    return {name: [decide(change(config), view) for view in views] for name, config in VARIANTS.items()}


def decide(config: HardConfig, view: Any) -> Any:
    """Hard's decision by ``config`` at ``view`` with the evaluation behind it (values as exact repr)."""
    player = HardPlayer(5, 0, config)
    if view["phase"] == "expose":
        cards, evaluation = choose_expose(view, player.seed, player.config)
        assert cards == player.expose(view)
        return [cards, {str(c): repr(v) for c, v in evaluation.values.items()}, evaluation.worlds]
    card, played = choose_play(view, player.seed, player.config)
    assert card == player.play(view)
    assert played is not None
    return [card, {str(c): repr(v) for c, v in played.values.items()}, played.worlds]


def test_the_daily_deal_is_played_as_before() -> None:
    assert digest(daily_trace()) == DAILY_TRACE


def test_hard_and_its_variants_decide_as_before() -> None:
    assert digest(decisions()) == DECISIONS


def test_with_exposures_played_out_by_normal_hard_decides_as_before_that_change() -> None:
    """Every exposure played out by Normal gives back every pinned decision of before 2026-12-08 (the
    game's Hard and every variant; the exposures of hand 2 changed): that change is the setting's."""
    assert digest(decisions(lambda config: replace(config, expose_judging=None))) == DECISIONS_EXPOSE_NORMAL


def test_with_the_any_way_played_at_random_hard_decides_as_before_that_change() -> None:
    """The habits' "any" share played at random in the playouts (and every exposure played out by
    Normal) gives back every pinned decision of before 2026-12-06 (the game's Hard and every variant):
    that change is the setting's and nothing else, and the setting reaches the search."""
    random_any = bench_module("variants").random_any
    assert digest(decisions(lambda config: random_any(replace(config, expose_judging=None)))) == (
        DECISIONS_RANDOM_ANY
    )


def test_each_part_of_the_configuration_reaches_the_search() -> None:
    """A setting replaced in HARD changes Hard's values somewhere in the pinned decisions: the chains',
    the in-hand check's and the judging's settings inside the world model, and the search's own."""
    views = [v for v in pinned_views() if v["phase"] == "play"]
    hard = VARIANTS["hard"]
    base = [decide(hard, view) for view in views]
    for changed in (
        replace(hard, worlds=CheckedHabits(chains=Chains(burn_in=20))),
        replace(hard, worlds=CheckedHabits(check=InHandCheck(prior=0.5))),
        replace(hard, worlds=CheckedHabits(judging=Judging(way_slip=0.2))),
        replace(hard, lookahead_cost=1.0),
    ):
        assert [decide(changed, view) for view in views] != base, changed

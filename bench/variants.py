"""The benchmarks' variants of Hard, by player spec: the game's Hard (``gongzhu.ai.config.HARD``) with
fields replaced.  Never players of the game: :func:`register_variants` makes them player specs in a
benchmark's process (``gongzhu.players.register_player``).

- ``hard-margin``: values the hand margin alone (no match plan);
- ``hard-expose-normal``: an exposure's playouts play every opponent as Normal (the game's Hard until
  2026-12-08 did; it plays each by its habits in the previous hand there, as a play's playouts do:
  ``gongzhu.ai.config.HardConfig.expose_judging``);
- ``hard-no-lookahead``: its own seat plays Normal's strategy alone in the playouts;
- ``hard-opponents-half``: values a world by its own hand score minus half the opponents' mean (the
  game's Hard: the whole mean);
- ``hard-random-any``: an opponent judged by its habits plays their "any legal card" share at random
  in the playouts (the game's Hard until 2026-12-06; it plays that share as Normal's card);
- ``hard-situated``: an opponent's habit fitted for each situation (lead, follow, discard), in the
  worlds and in the playouts (``gongzhu.ai.habits.Judging.by_situation``);
- ``hard-low-in-suit``: the habits mix one more way, the lowest card of a suit taken at random
  (``Judging.low_in_suit``); ``hard-situated-low-in-suit``: both;
- ``hard-learned``: the habits mix one more way, the card of the play model learned from Hard's games
  (``gongzhu.ai.learned``, ``Judging.learned``), in the worlds (the playouts play its share as Normal's card);
  ``hard-learned-paid``: the same, its work paid from the budget (fewer worlds, ``Judging.learned_cost``);
- ``hard-normal-worlds``, ``hard-uniform-worlds``, ``hard-fitted``, ``hard-habits``, ``hard-checked``,
  ``hard-checked-habits``, ``hard-checked-every-hand``: each world model of ``gongzhu.ai.worlds``
  (``hard-checked-habits`` is the game's).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from gongzhu.ai.config import HARD, HardConfig
from gongzhu.ai.hard import HardPlayer
from gongzhu.ai.worlds import (
    Checked,
    CheckedEveryHand,
    CheckedHabits,
    Fitted,
    Habits,
    NormalPosterior,
    Uniform,
    WorldModel,
)
from gongzhu.players import added_players, register_player

#: Hard by each world model, by player spec.
WORLD_MODELS: dict[str, WorldModel] = {
    "hard-normal-worlds": NormalPosterior(),
    "hard-uniform-worlds": Uniform(),
    "hard-fitted": Fitted(),
    "hard-habits": Habits(),
    "hard-checked": Checked(),
    "hard-checked-habits": CheckedHabits(),
    "hard-checked-every-hand": CheckedEveryHand(),
}


def judged(config: HardConfig, **changes: Any) -> HardConfig:
    """``config`` with the fields ``changes`` of how it judges the opponents replaced, in its world model
    (one with a ``judging``; one without is left as it is) and in its exposures."""
    worlds = config.worlds
    if config.expose_judging is not None:
        config = replace(config, expose_judging=replace(config.expose_judging, **changes))
    if not isinstance(worlds, Fitted | Habits | Checked):
        return config
    return replace(config, worlds=replace(worlds, judging=replace(worlds.judging, **changes)))


def random_any(config: HardConfig) -> HardConfig:
    """``config`` with the habits' "any legal card" share played at random in the playouts."""
    return judged(config, random_in_playouts=True)


#: What a play the chains replay costs with the learned model judging, in simulated plays of the budget
#: (``Judging.learned_cost``): set so that Hard's CPU time a decision at a later ``selfish`` table is the
#: game's (bench/opponents_cost.py; bench/results/ABLE.md).
LEARNED_REPLAY_COST = 4.0


VARIANTS: dict[str, HardConfig] = {
    "hard-margin": replace(HARD, match_aware=False),
    "hard-no-lookahead": replace(HARD, lookahead=False),
    "hard-random-any": random_any(HARD),
    "hard-situated": judged(HARD, by_situation=True),
    "hard-low-in-suit": judged(HARD, low_in_suit=True),
    "hard-situated-low-in-suit": judged(HARD, by_situation=True, low_in_suit=True),
    "hard-learned": judged(HARD, learned=True),
    "hard-learned-paid": judged(HARD, learned=True, learned_cost=LEARNED_REPLAY_COST),
    "hard-opponents-half": replace(HARD, opponent_weight=0.5),
    "hard-expose-normal": replace(HARD, expose_judging=None),
    **{name: replace(HARD, worlds=model) for name, model in WORLD_MODELS.items()},
}


def register_variants() -> None:
    """Make every variant a player spec in this process (benchmarks only)."""
    registered = added_players(VARIANTS)
    for name, config in VARIANTS.items():
        if name not in registered:
            register_player(name, functools.partial(HardPlayer, config=config))

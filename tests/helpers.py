"""Shared helpers for the engine tests: crafted states and a seeded random driver."""

from __future__ import annotations

import itertools
import random
from typing import Any

from gongzhu import State, apply_legal, exposable_cards, legal_plays, new_match, sort_cards
from gongzhu.house_rules import CHOICES, Rules

#: Every combination of the house rules (docs/rules.md "House rules"), the defaults first.
EVERY_RULES: list[Rules] = [Rules(*combo) for combo in itertools.product(*CHOICES.values())]


def crafted_state(hands: list[list[str]], exposed: list[list[str]], leader: int) -> State:
    """A play-phase state with the given hands (any sizes) and exposures, ``leader`` to lead."""
    state = new_match(0)
    state.update(
        phase="play",
        hands=[sort_cards(h) for h in hands],
        deal=[sort_cards(h) for h in hands],
        expose_choices=[list(e) for e in exposed],
        exposed=[list(e) for e in exposed],
        leader=leader,
        turn=leader,
        trick={"leader": leader, "plays": []},
    )
    return state


def random_step(state: State, rng: random.Random, expose_rate: float = 0.3) -> tuple[State, dict[str, Any]]:
    """One legal action chosen at random (expose decisions, plays, next hand)."""
    if state["phase"] == "expose":
        seat = next(s for s in range(4) if state["expose_choices"][s] is None)
        cards = [c for c in exposable_cards(state["hands"][seat]) if rng.random() < expose_rate]
        action: dict[str, Any] = {"type": "expose", "seat": seat, "cards": cards}
    elif state["phase"] == "play":
        seat = state["turn"]
        action = {"type": "play", "seat": seat, "card": rng.choice(legal_plays(state, seat))}
    else:
        action = {"type": "next_hand"}
    return apply_legal(state, action), action

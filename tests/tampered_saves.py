"""Tampered engine states that pass the save's shape and card checks but no legal play reaches
(issue 11): the engine's unit tests and the browser test share them.

Each entry: ``(name, state, code)`` — ``code`` is the :class:`gongzhu.state_check.Problem` that
``validate_state`` reports.  Built from real states so only the intended defect differs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gongzhu import State, exposable_cards, new_match
from gongzhu.state_check import Problem

from .helpers import random_step


def first_state(seed: int, phase: str, hand: int = 1) -> State:
    """The first state of a random legal run from ``seed`` in ``phase`` of hand ``hand`` or later."""
    rng = random.Random(seed)
    state = new_match(seed)
    while not (state["phase"] == phase and state["hand_number"] >= hand):
        assert state["phase"] != "match_over", "the match ended first"
        state, _action = random_step(state, rng)
    return state


def _match_over_without_result(seed: int) -> State:
    state = first_state(seed, "hand_over")
    state["phase"] = "match_over"
    return state


def _hand_over_without_last_hand(seed: int) -> State:
    state = first_state(seed, "hand_over")
    state["last_hand"] = None
    return state


def _nobody_holds_the_captured_pig(seed: int) -> State:
    state = first_state(seed, "hand_over")
    for cards in state["captured"]:
        if "QS" in cards:
            cards.remove("QS")
    return state


def _expose_phase_with_every_choice_made(seed: int) -> State:
    state = new_match(seed)
    state["expose_choices"] = [[], [], [], []]
    return state


def _seed_as_text(seed: int) -> State:
    state = new_match(seed)
    state["seed"] = str(seed)
    return state


def _exposed_card_not_held(seed: int) -> State:
    state = first_state(seed, "play")
    seat = next(s for s in range(4) if "QS" not in state["deal"][s] and exposable_cards(state["deal"][s]))
    state["exposed"][seat] = state["expose_choices"][seat] = ["QS"]
    return state


def _previous_tricks(seed: int) -> tuple[State, list[dict[str, Any]]]:
    """A state of hand 2 in play and the tricks its summary keeps of hand 1 (changed in place)."""
    state = first_state(seed, "play", hand=2)
    return state, state["last_hand"]["tricks"]


def _previous_card_swapped_between_tricks(seed: int) -> State:
    state, tricks = _previous_tricks(seed)
    first, other = tricks[0]["plays"][0], tricks[1]["plays"][0]
    if other["seat"] == first["seat"]:
        other = tricks[1]["plays"][1]  # a card of another seat: the first seat does not hold it
    first["card"], other["card"] = other["card"], first["card"]
    return state


def _previous_trick_winner_changed(seed: int) -> State:
    state, tricks = _previous_tricks(seed)
    tricks[3]["winner"] = (tricks[3]["winner"] + 1) % 4
    return state


def _previous_hand_of_twelve_tricks(seed: int) -> State:
    state, tricks = _previous_tricks(seed)
    del tricks[-1]
    return state


def _previous_play_by_the_wrong_seat(seed: int) -> State:
    state, tricks = _previous_tricks(seed)
    play = tricks[2]["plays"][1]
    play["seat"] = (play["seat"] + 1) % 4
    return state


CASES: list[tuple[str, Callable[[int], State], Problem]] = [
    ("match over without a result", _match_over_without_result, Problem.MISMATCH),
    ("hand over without its summary", _hand_over_without_last_hand, Problem.MISMATCH),
    ("nobody holds the captured pig", _nobody_holds_the_captured_pig, Problem.MISMATCH),
    ("expose phase with every choice made", _expose_phase_with_every_choice_made, Problem.MISMATCH),
    ("seed as text", _seed_as_text, Problem.SEED),
    ("exposed card its seat does not hold", _exposed_card_not_held, Problem.ILLEGAL_ACTION),
    ("previous hand: a card swapped", _previous_card_swapped_between_tricks, Problem.LAST_HAND),
    ("previous hand: a trick winner changed", _previous_trick_winner_changed, Problem.LAST_HAND),
    ("previous hand of twelve tricks", _previous_hand_of_twelve_tricks, Problem.LAST_HAND),
    ("previous hand: a play by the wrong seat", _previous_play_by_the_wrong_seat, Problem.LAST_HAND),
]


def tampered_states(seed: int = 9) -> list[tuple[str, State, Problem]]:
    return [(name, build(seed), code) for name, build, code in CASES]

"""validate_state: a state is valid only when legal play from its seed reaches it (gongzhu.state_check)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    MAX_SEED,
    InvalidState,
    Refusal,
    State,
    apply,
    exposable_cards,
    new_match,
    replay,
    validate_state,
)
from gongzhu.house_rules import DEFAULT_RULES, Rules, rules_from_json
from gongzhu.state_check import Problem, upgrade_state

from .helpers import EVERY_RULES, random_step
from .tampered_saves import CASES, first_state, tampered_states


def _run(
    seed: int, rng_seed: int, steps: int, rules: Rules = DEFAULT_RULES
) -> tuple[list[State], list[dict[str, Any]]]:
    """Every state of a random legal run under ``rules`` and the actions between them."""
    rng = random.Random(rng_seed)
    states, actions = [new_match(seed, rules)], []
    for _ in range(steps):
        if states[-1]["phase"] == "match_over":
            break
        state, action = random_step(states[-1], rng)
        states.append(state)
        actions.append(action)
    return states, actions


def _rejected(state: State, code: Problem) -> None:
    with pytest.raises(InvalidState) as caught:
        validate_state(state)
    assert caught.value.code is code, caught.value


# --- the tampered saves of issue 11 (each passed the old schema/deck checks) -------------------


@pytest.mark.parametrize(("name", "state", "code"), tampered_states(), ids=[c[0] for c in CASES])
def test_tampered_save_is_refused(name: str, state: State, code: Problem) -> None:
    _rejected(state, code)
    for action in _every_action(state):
        apply(state, action)  # a new state or a refusal, never an exception (no StopIteration)


def test_next_hand_with_nobody_holding_the_pig_is_refused() -> None:
    state = next(s for name, s, _ in tampered_states() if name == "nobody holds the captured pig")
    assert isinstance(apply(state, {"type": "next_hand"}), Refusal)


@pytest.mark.parametrize("seed", ["3", 3.0, True, None, MAX_SEED + 1, -(10**30)])
def test_seed_that_is_not_an_engine_seed(seed: object) -> None:
    state = new_match(3)
    state["seed"] = seed
    _rejected(state, Problem.SEED)


def test_a_later_hand_led_by_someone_else_than_the_pig_taker() -> None:
    state = first_state(5, "expose", hand=2)
    validate_state(state)
    pig_taker = state["leader"]
    state["leader"] = state["trick"]["leader"] = (pig_taker + 1) % 4
    _rejected(state, Problem.MISMATCH)


def test_earlier_hands_must_add_up() -> None:
    state = first_state(5, "play", hand=2)
    state["history"][0]["scores"][1] += 10
    _rejected(state, Problem.HISTORY)
    state = first_state(5, "play", hand=2)
    state["last_hand"]["breakdowns"][0]["goat"] = 100 - state["last_hand"]["breakdowns"][0]["goat"]
    _rejected(state, Problem.LAST_HAND)


def test_the_previous_hand_is_replayed_from_the_tricks_its_summary_keeps() -> None:
    for hand in (2, 3):  # led by the first-lead holder; then by its first trick's leader
        state = first_state(5, "play", hand=hand)
        validate_state(state)
        tricks = state["last_hand"]["tricks"]
        tricks[0]["leader"] = tricks[0]["plays"][0]["seat"] = (tricks[0]["leader"] + 1) % 4
        _rejected(state, Problem.LAST_HAND)
    state = first_state(5, "expose", hand=2)
    state["last_hand"]["tricks"] = {"plays": []}
    _rejected(state, Problem.LAST_HAND)


def test_a_finished_hand_recomputes_its_summary_tricks_included() -> None:
    state = first_state(5, "hand_over", hand=2)
    validate_state(state)
    state["last_hand"]["tricks"][4]["winner"] = (state["last_hand"]["tricks"][4]["winner"] + 1) % 4
    _rejected(state, Problem.MISMATCH)
    state = first_state(5, "hand_over", hand=2)
    state["last_hand"]["tricks"] = []
    _rejected(state, Problem.MISMATCH)


def _saved_before_tricks_were_kept(state: State) -> State:
    """``state`` as an earlier release saved it: its hand summary without ``tricks``."""
    old = copy.deepcopy(state)
    del old["last_hand"]["tricks"]
    return old


@pytest.mark.parametrize("phase", ["expose", "play", "hand_over"])
def test_a_save_from_before_the_summary_kept_its_tricks_still_resumes(phase: str) -> None:
    state = first_state(5, phase, hand=2)
    old = _saved_before_tricks_were_kept(state)
    text = json.dumps(old)
    upgraded = upgrade_state(old)
    assert json.dumps(old) == text  # the save itself is left as it was
    validate_state(upgraded)
    assert isinstance(upgraded, dict)
    if phase == "hand_over":  # the hand just finished still holds its tricks: the summary gets them
        assert upgraded == state
    else:  # the previous hand's plays were never kept: "not kept", its summary checked as before
        assert upgraded["last_hand"]["tricks"] == []
        assert upgraded == {**state, "last_hand": {**state["last_hand"], "tricks": []}}
        upgraded["last_hand"]["breakdowns"][0]["goat"] = 100 - upgraded["last_hand"]["breakdowns"][0]["goat"]
        _rejected(upgraded, Problem.LAST_HAND)


def test_shapes_that_are_not_states() -> None:
    for bad in [None, [], "state", {"schema": 1}, {**new_match(1), "tricks": "none"}]:
        with pytest.raises(InvalidState):
            validate_state(bad)


# --- properties ---------------------------------------------------------------------------------


def _every_action(state: State) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [{"type": "next_hand"}]
    for seat in range(4):
        actions.append({"type": "expose", "seat": seat, "cards": exposable_cards(state["hands"][seat])})
        actions += [{"type": "play", "seat": seat, "card": c} for c in state["hands"][seat]]
    return actions


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(-MAX_SEED, MAX_SEED), rng_seed=st.integers(0, 2**32), rules=st.sampled_from(EVERY_RULES)
)
def test_every_state_of_legal_play_validates_and_apply_never_crashes(
    seed: int, rng_seed: int, rules: Rules
) -> None:
    states, _actions = _run(seed, rng_seed, 140, rules)
    for state in states:
        validate_state(state)
        validate_state(json.loads(json.dumps(state)))  # as a save brings it back
        for action in _every_action(state):
            apply(state, action)  # a new state or a refusal, never an exception


_REPLACEMENTS: list[Any] = [None, True, False, 0, 1, -1, 3, 13, 2.0, "", "QS", "2S", "play", [], {}, ["QS"]]
_REPLACEMENTS += ["2C", "on", "off", "flip", "standard", "-500", "-1000", "hands:4", "hands:8"]  # rule values


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every field of a JSON value (containers and scalars)."""
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _leaves(item, (*path, i))
    return out


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = new


def _actions_for(state: State, before: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``before`` (the run up to this hand's deal) plus the expose choices and plays ``state`` shows."""
    actions = list(before)
    for seat, choice in enumerate(state["expose_choices"]):
        if (
            choice is not None
            and exposable_cards(state["deal"][seat])
            and rules_from_json(state["rules"]).exposing_on
        ):
            actions.append({"type": "expose", "seat": seat, "cards": choice})
    for trick in [*state["tricks"], state["trick"]]:
        actions += [{"type": "play", "seat": p["seat"], "card": p["card"]} for p in trick["plays"]]
    return actions


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    rng_seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    rules=st.sampled_from(EVERY_RULES),
    data=st.data(),
)
def test_a_mutated_state_is_refused_or_reachable(
    seed: int, rng_seed: int, steps: int, rules: Rules, data: st.DataObject
) -> None:
    states, actions = _run(seed, rng_seed, steps, rules)
    state = states[-1]
    deal_at = max((i + 1 for i, a in enumerate(actions) if a["type"] == "next_hand"), default=0)
    mutated = copy.deepcopy(state)
    path = data.draw(st.sampled_from(_leaves(state)))
    _set(mutated, path, copy.deepcopy(data.draw(st.sampled_from(_REPLACEMENTS))))
    try:
        validate_state(mutated)
    except InvalidState:
        return
    # accepted: then legal play from the seed reaches it (rebuilt here through replay() alone)
    assert mutated["seed"] == seed
    reached = replay(seed, _actions_for(mutated, actions[:deal_at]), rules_from_json(mutated["rules"]))
    last = mutated["last_hand"]
    if mutated["phase"] in ("expose", "play") and isinstance(last, dict) and last["tricks"] == []:
        # or an earlier release's save of it, upgraded: the previous hand's plays "not kept"
        reached = upgrade_state(_saved_before_tricks_were_kept(reached))
    assert json.dumps(reached, sort_keys=True) == json.dumps(mutated, sort_keys=True), path

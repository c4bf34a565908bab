"""The browser table's engine service (gongzhu.service): JSON ops, seat 0's table view, bots deciding
from their view, and the table facts the UI renders without deriving a rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu
from gongzhu import InvalidState, service
from gongzhu.game import MAX_SEED, all_hearts_threat, point_cards
from gongzhu.table_view import table_view

from .helpers import random_step
from .tampered_saves import first_state


def _call(request: object) -> dict[str, Any]:
    text = request if isinstance(request, str) else json.dumps(request)
    reply = json.loads(service.call(text))
    assert isinstance(reply, dict)
    return reply


def _op(op: str, **args: Any) -> Any:
    reply = _call({"op": op, "args": args})
    assert reply["ok"], reply
    return reply["result"]


def _play_out_expose(packed: dict[str, Any]) -> dict[str, Any]:
    packed = _op("bots_expose", state=packed["state"], level="normal")
    if packed["view"]["phase"] == "expose":
        packed = _op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
    return packed


# --- the wire format ----------------------------------------------------------------------------


def test_ping_answers_with_the_engine_package() -> None:
    result = _op("ping", text="hi")
    assert result["pong"] is True and result["echo"] == "hi" and result["engine"] == "gongzhu"


def test_args_are_optional() -> None:
    assert _call({"op": "ping"})["ok"] is True


def test_errors_are_answers_not_exceptions() -> None:
    for bad in ["not json", "[]", {"op": 3}, {"op": "nope"}, {"op": "ping", "args": [1]}, {"op": "view"}]:
        reply = _call(bad)
        assert reply["ok"] is False
        assert isinstance(reply["error"], str) and reply["error"]
    assert "unknown op 'nope'" in str(_call({"op": "nope"})["error"])


def test_seed_outside_the_engines_bound_is_a_clean_error() -> None:
    for seed in [MAX_SEED + 1, -MAX_SEED - 1, "7", 7.5, True, None, 10**4000]:
        reply = _call({"op": "new_match", "args": {"seed": seed}})
        assert reply["ok"] is False and reply["error"].startswith("InvalidSeed:"), seed
    reply = _call('{"op": "new_match", "args": {"seed": ' + "9" * 5000 + "}}")
    assert reply["ok"] is False  # CPython refuses the JSON itself: still an answer
    assert json.loads(_op("new_match", seed=MAX_SEED)["state"])["seed"] == MAX_SEED
    assert json.loads(_op("new_match", seed=-MAX_SEED)["state"])["seed"] == -MAX_SEED


def test_a_refused_resumed_state_answers_with_its_code() -> None:
    state = json.loads(_op("new_match", seed=4)["state"])
    state["seed"] = "4"
    reply = _call({"op": "check", "args": {"state": json.dumps(state)}})
    assert reply["ok"] is False and reply["code"] == "seed" and reply["error"].startswith("InvalidState:")


# --- the game ops -----------------------------------------------------------------------------


def test_new_match_gives_state_string_and_table_view() -> None:
    packed = _op("new_match", seed=7)
    assert isinstance(packed["state"], str)
    state = json.loads(packed["state"])
    view = packed["view"]
    assert view == table_view(state, 0)
    assert {k: view[k] for k in gongzhu.view_for(state, 0)} == gongzhu.view_for(state, 0)
    assert set(view["refusals"]) == set(view["hand"]) == set(view["expose_refusals"])
    assert all(r["reason"] == "wrong_phase" for r in view["refusals"].values())
    assert "hands" not in view and "seed" not in view


def test_refused_step_keeps_state_and_says_why() -> None:
    for seed in range(20):
        packed = _play_out_expose(_op("new_match", seed=seed))
        view = packed["view"]
        if view["turn"] != 0:
            break
    assert view["phase"] == "play" and view["turn"] != 0
    out = _op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": view["hand"][0]})
    assert out["refusal"]["reason"] == "not_your_turn"
    assert json.loads(out["state"]) == json.loads(packed["state"])
    assert view["actions"]["play"] == {"reason": "not_your_turn"}


def test_bots_play_a_whole_hand_and_refusals_match_engine() -> None:
    packed = _play_out_expose(_op("new_match", seed=3))
    while packed["view"]["phase"] == "play":
        view = packed["view"]
        state = json.loads(packed["state"])
        expected = gongzhu.card_refusals(gongzhu.view_for(state, 0))
        assert {c: (r.to_json() if r else None) for c, r in expected.items()} == view["refusals"]
        if view["turn"] == 0:
            assert view["actions"]["play"] is None
            card = next(c for c, r in view["refusals"].items() if r is None)
            packed = _op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": card})
            assert packed["refusal"] is None
        else:
            packed = _op("bot_step", state=packed["state"], seat=view["turn"], level="easy")
            assert packed["action"]["seat"] == view["turn"]
    assert packed["view"]["phase"] in ("hand_over", "match_over")
    assert len(packed["view"]["last_hand"]["breakdowns"]) == 4
    if packed["view"]["phase"] == "hand_over":
        assert packed["view"]["actions"]["next_hand"] is None


def test_bot_step_is_deterministic_and_idle_when_not_its_turn() -> None:
    packed = _play_out_expose(_op("new_match", seed=5))
    turn = packed["view"]["turn"]
    idle = (turn + 1) % 4 or 1
    if idle != turn:
        out = _op("bot_step", state=packed["state"], seat=idle, level="normal")
        assert out["action"] is None
    if turn != 0:
        a = _op("bot_step", state=packed["state"], seat=turn, level="hard")
        b = _op("bot_step", state=packed["state"], seat=turn, level="hard")
        assert a["action"] == b["action"]


def test_hint_in_both_phases() -> None:
    for seed in range(40):
        packed = _op("new_match", seed=seed)
        if packed["view"]["exposable"]:
            hint = _op("hint", state=packed["state"])
            assert "cards" in hint and set(hint["cards"]) <= set(packed["view"]["exposable"])
            break
    packed = _play_out_expose(packed)
    while packed["view"]["phase"] == "play" and packed["view"]["turn"] != 0:
        packed = _op("bot_step", state=packed["state"], seat=packed["view"]["turn"], level="easy")
    hint = _op("hint", state=packed["state"])
    assert hint["card"] in packed["view"]["legal"]
    assert isinstance(hint["reason"], str)


def test_check_brings_an_older_save_to_todays_shape() -> None:
    state = first_state(5, "play", hand=2)
    older = json.loads(json.dumps(state))
    for breakdown in older["last_hand"]["breakdowns"]:
        del breakdown["exposure_effects"]  # as saved before breakdowns carried them
    with pytest.raises(InvalidState):
        gongzhu.validate_state(older)
    packed = _op("check", state=json.dumps(older))
    assert json.loads(packed["state"]) == state


def test_seeds_are_derived_by_one_function_each() -> None:
    assert service.bot_seed(10, 2) != service.bot_seed(10, 3) != service.bot_seed(11, 2)
    assert service.hint_seed(10, 1) != service.hint_seed(10, 2)


# --- the table facts ----------------------------------------------------------------------------


def _first_state_with_exposable_cards() -> gongzhu.State:
    for seed in range(100):
        state = gongzhu.new_match(seed)
        if gongzhu.exposable_cards(state["hands"][0]):
            return state
    raise AssertionError("no deal with an exposable card for seat 0")


def test_expose_refusals_and_effects() -> None:
    state = _first_state_with_exposable_cards()
    view = table_view(state, 0)
    effects = {"AH": "hearts_x2", "QS": "pig_x2", "JD": "goat_x2", "TC": "transformer_x4"}
    assert view["exposable_effects"] == {c: effects[c] for c in view["exposable"]}
    for card, refusal in view["expose_refusals"].items():
        if card in view["exposable"]:
            assert refusal is None
        else:
            assert refusal == {"reason": "not_exposable", "card": card}
    assert view["actions"] == {
        "expose": None,
        "play": {"reason": "wrong_phase"},
        "next_hand": {"reason": "wrong_phase"},
    }
    decided = gongzhu.apply_legal(state, {"type": "expose", "seat": 0, "cards": view["exposable"][:1]})
    after = table_view(decided, 0)
    assert after["actions"]["expose"] == {"reason": "already_decided"}
    assert all(r == {"reason": "already_decided"} for r in after["expose_refusals"].values())
    assert after["exposures"] == []  # secret until everyone has decided


def test_exposures_in_effect_once_revealed() -> None:
    state = _first_state_with_exposable_cards()
    mine = gongzhu.exposable_cards(state["hands"][0])
    state = gongzhu.apply_legal(state, {"type": "expose", "seat": 0, "cards": mine})
    for seat in (1, 2, 3):
        if state["phase"] == "expose" and state["expose_choices"][seat] is None:
            state = gongzhu.apply_legal(state, {"type": "expose", "seat": seat, "cards": []})
    view = table_view(state, 0)
    assert view["phase"] == "play"
    codes = {"AH": "hearts_x2", "QS": "pig_x2", "JD": "goat_x2", "TC": "transformer_x4"}
    assert view["exposures"] == [{"seat": 0, "card": c, "effect": codes[c]} for c in mine]
    assert all(r == {"reason": "wrong_phase"} for r in view["expose_refusals"].values())
    assert view["exposed_held"] == [mine, [], [], []]
    while state["phase"] == "play" and not set(mine) & {p["card"] for p in state["trick"]["plays"]}:
        seat = state["turn"]
        state = gongzhu.apply_legal(
            state, {"type": "play", "seat": seat, "card": gongzhu.legal_plays(state, seat)[0]}
        )
    played = {p["card"] for t in [*state["tricks"], state["trick"]] for p in t["plays"]}
    assert table_view(state, 0)["exposed_held"][0] == [c for c in mine if c not in played]


def test_point_cards_and_threat() -> None:
    assert point_cards(["AS", "QS", "KH", "2H", "JD", "TC", "9C"]) == ["QS", "KH", "2H", "JD", "TC"]
    assert all_hearts_threat([[], [], [], []]) is None
    assert all_hearts_threat([["QS"], ["2H"], [], []]) == 1
    assert all_hearts_threat([["3H"], ["2H"], [], []]) is None


def test_breakdown_exposure_effects() -> None:
    from gongzhu.cards import to_mask
    from gongzhu.scoring import score_breakdown

    exposed = to_mask(["TC", "QS", "AH"])
    assert score_breakdown(to_mask(["TC", "QS", "7H"]), exposed)["exposure_effects"] == [
        "hearts_x2",
        "pig_x2",
        "transformer_x4",
    ]
    assert score_breakdown(to_mask(["TC"]), exposed)["exposure_effects"] == ["transformer_bonus_x2"]
    assert score_breakdown(to_mask(["TC"]), 0)["exposure_effects"] == []
    assert score_breakdown(to_mask(["JD"]), exposed)["exposure_effects"] == []  # JD was not exposed


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), rng_seed=st.integers(0, 2**32))
def test_table_view_never_leaks_a_hidden_card(seed: int, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    state = gongzhu.new_match(seed)
    while state["phase"] in ("expose", "play"):
        view = table_view(state, 0)
        shown = set(state["hands"][0]) | {c for e in state["exposed"] for c in e}
        shown |= {p["card"] for t in [*state["tricks"], state["trick"]] for p in t["plays"]}
        # the memory aid's point cards still out name every unplayed point card, whoever holds it:
        # public knowledge (the same for any hidden deal), so it is checked as such, not as a leak
        out = view["memory"].pop("points_out")
        played = {p["card"] for t in [*state["tricks"], state["trick"]] for p in t["plays"]}
        assert out == point_cards([c for c in gongzhu.DECK if c not in played])
        # the house rules name the first-lead card as a rule (public, the same for any deal)
        assert view.pop("rules") == gongzhu.new_match(seed)["rules"]
        text = json.dumps(view)
        for seat in (1, 2, 3):
            for card in state["hands"][seat]:
                if card not in shown:
                    assert f'"{card}"' not in text, f"seat 0 can see {card} of seat {seat}"
        state, _action = random_step(state, rng)

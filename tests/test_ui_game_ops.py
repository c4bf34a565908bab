"""The worker's game ops (CPython): stateless steps, seat 0's view, bots deciding from their view."""

from __future__ import annotations

import json
from typing import Any

import gongzhu
from ui import engine_worker


def _op(op: str, **args: Any) -> Any:
    reply = json.loads(engine_worker.call(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def _play_out_expose(packed: dict[str, Any]) -> dict[str, Any]:
    packed = _op("bots_expose", state=packed["state"], level="normal")
    if packed["view"]["phase"] == "expose":
        packed = _op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
    return packed


def test_new_match_gives_state_string_and_view_with_refusals() -> None:
    packed = _op("new_match", seed=7)
    assert isinstance(packed["state"], str)
    state = json.loads(packed["state"])
    view = packed["view"]
    assert view == {**gongzhu.view_for(state, 0), "refusals": view["refusals"], "threat": None}
    assert set(view["refusals"]) == set(view["hand"])
    assert all(r["reason"] == "wrong_phase" for r in view["refusals"].values())
    assert "hands" not in view and "seed" not in view


def test_refused_step_keeps_state_and_says_why() -> None:
    packed = _play_out_expose(_op("new_match", seed=11))
    view = packed["view"]
    assert view["phase"] == "play"
    state = json.loads(packed["state"])
    if view["turn"] != 0:
        out = _op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": view["hand"][0]})
        assert out["refusal"]["reason"] == "not_your_turn"
        assert json.loads(out["state"]) == state


def test_bots_play_a_whole_match_hand_and_refusals_match_engine() -> None:
    packed = _play_out_expose(_op("new_match", seed=3))
    while packed["view"]["phase"] == "play":
        view = packed["view"]
        state = json.loads(packed["state"])
        expected = gongzhu.card_refusals(gongzhu.view_for(state, 0))
        assert {c: (r.to_json() if r else None) for c, r in expected.items()} == view["refusals"]
        if view["turn"] == 0:
            card = next(c for c, r in view["refusals"].items() if r is None)
            packed = _op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": card})
            assert packed["refusal"] is None
        else:
            packed = _op("bot_step", state=packed["state"], seat=view["turn"], level="easy")
            assert packed["action"]["seat"] == view["turn"]
    assert packed["view"]["phase"] in ("hand_over", "match_over")
    assert len(packed["view"]["last_hand"]["breakdowns"]) == 4


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


def test_all_hearts_threat() -> None:
    assert engine_worker._all_hearts_threat([[], [], [], []]) is None
    assert engine_worker._all_hearts_threat([["QS"], ["2H"], [], []]) == 1
    assert engine_worker._all_hearts_threat([["3H"], ["2H"], [], []]) is None

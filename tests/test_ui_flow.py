"""The UI's transitions (ui/flow.py) in CPython: every effect is run here against the real engine
service, as the shell (ui/app.py) runs them in the page, minus the clock and the DOM."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.broken_saves import good_save
from tests.e2e.game import find_seed, op, play_out
from ui import effects as fx
from ui import flow, store
from ui.state import UIState


class Shell:
    """Runs effects like ui/app.py: engine calls through the service, the rest recorded."""

    def __init__(self, s: UIState) -> None:
        self.s = s
        self.said: list[str] = []
        self.saves = 0
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.effects: list[Any] = []  # every effect run, in order

    def run(self, result: Any) -> None:
        _state, effects = result
        for effect in effects:
            self.effects.append(effect)
            if isinstance(effect, fx.Call):
                self.calls.append((effect.op, effect.args))
                answer = op(effect.op, **effect.args)
                self.run(getattr(flow, effect.then)(self.s, answer, effect.args.get("state")))
            elif isinstance(effect, fx.Announce):
                self.said.append(effect.text)
            elif isinstance(effect, fx.Save):
                self.saves += 1
            elif isinstance(effect, fx.Drive):
                self.drive()
            elif isinstance(effect, fx.NewMatch):
                self.run(flow.started(self.s, op("new_match", seed=effect.seed or 1)))
                self.drive()

    def play_hand(self) -> None:
        """Play the hand on the table to its end: no exposure, the first playable card each turn."""
        s = self.s
        assert s.view is not None
        hand = s.view["hand_number"]
        while s.view["hand_number"] == hand and s.view["phase"] in ("expose", "play"):
            if s.view["phase"] == "expose":
                self.run(flow.on_action(s, "expose-none"))
            else:
                card = _playable(s)[0]
                flow.tap_card(s, card)
                self.run(flow.tap_card(s, card))

    def drive(self) -> None:
        while True:
            if self.s.hold:
                self.run(flow.sweep(self.s))
                self.run(flow.trick_cleared(self.s))
                continue
            _state, effects, go_on = flow.next_step(self.s)
            self.run((self.s, effects))
            if not go_on:
                return


def _started(seed: int) -> Shell:
    shell = Shell(UIState())
    shell.s.engine_ready = True
    shell.run(flow.started(shell.s, op("new_match", seed=seed)))
    shell.drive()
    return shell


def _to_my_turn(shell: Shell) -> None:
    if shell.s.view and shell.s.view["phase"] == "expose":
        shell.run(flow.on_action(shell.s, "expose-none"))
    assert shell.s.view is not None and shell.s.view["phase"] == "play" and shell.s.view["turn"] == 0


def _playable(s: UIState) -> list[str]:
    assert s.view is not None
    return [c for c in s.view["hand"] if s.view["refusals"][c] is None]


def test_select_then_play_and_double_tap() -> None:
    shell = _started(find_seed(lambda s: not op("new_match", seed=s)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    assert "Your turn" in shell.said
    first = _playable(s)[0]
    _state, effects = flow.tap_card(s, first)
    assert s.selected == first and [type(e) for e in effects] == [fx.Save]
    if len(_playable(s)) > 1:  # another card moves the selection
        other = _playable(s)[1]
        flow.tap_card(s, other)
        assert s.selected == other
        flow.tap_card(s, first)
    shell.run(flow.tap_card(s, first))  # the second tap plays it
    played = {"type": "play", "seat": 0, "card": first}
    assert any(name == "step" and args["action"] == played for name, args in shell.calls)
    assert s.view is not None and first not in s.view["hand"] and s.selected is None and not s.busy
    # ... and the Play button plays the selected card
    _to_my_turn(shell)
    card = _playable(s)[0]
    flow.tap_card(s, card)
    shell.run(flow.on_action(s, "play"))
    assert card not in s.view["hand"]


def test_refused_cards_say_why_and_change_nothing() -> None:
    def following(view: dict[str, Any]) -> bool:
        return bool(view["trick"]["plays"]) and any(view["refusals"][c] for c in view["hand"])

    from tests.e2e.game import simulate

    seed = find_seed(lambda n: simulate(n, lambda e: [], following) is not None)
    packed, _mine = simulate(seed, lambda e: [], following)  # type: ignore[misc]
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    s.engine_ready = True
    refused = next(c for c in s.view["hand"] if s.view["refusals"][c])  # type: ignore[index]
    before = (s.state, s.selected)
    _state, effects = flow.tap_card(s, refused)
    assert s.message.startswith("You must follow") and [type(e) for e in effects] == [fx.Announce]
    assert (s.state, s.selected) == before
    # not my turn: the engine's refusal says so
    waiting = play_out(op("new_match", seed=5), lambda v: v["phase"] == "play" and v["turn"] != 0)
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(waiting))))
    s.engine_ready = True
    _state, effects = flow.tap_card(s, s.view["hand"][0])  # type: ignore[index]
    assert s.message == "Wait for your turn" and not any(isinstance(e, fx.Call) for e in effects)


def test_expose_select_confirm_and_none() -> None:
    seed = find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"]))
    shell = _started(seed)
    s = shell.s
    assert s.view is not None and s.view["phase"] == "expose" and s.bots_exposed
    mark = s.view["exposable"][0]
    other = next(c for c in s.view["hand"] if c not in s.view["exposable"])
    flow.tap_card(s, other)
    assert s.message == "Only the cards marked exposable can be chosen now" and s.expose_sel == []
    flow.tap_card(s, mark)
    assert s.expose_sel == [mark]
    flow.tap_card(s, mark)
    assert s.expose_sel == []
    flow.tap_card(s, mark)
    shell.run(flow.on_action(s, "expose"))
    assert s.view["phase"] == "play" and mark in s.view["exposed"][0]
    assert "You" in s.notice and s.expose_sel == []
    # Don't expose
    shell = _started(seed)
    shell.run(flow.on_action(shell.s, "expose-none"))
    assert shell.s.view is not None and shell.s.view["exposed"][0] == []


def test_hint_selects_and_explains() -> None:
    shell = _started(find_seed(lambda s: not op("new_match", seed=s)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    _state, effects = flow.hint(s)
    assert s.busy and s.message == "Thinking…" and isinstance(effects[-1], fx.Call)
    assert flow.tap_card(s, s.view["hand"][0])[1] == []  # type: ignore[index]  # busy: ignored
    shell.run((s, effects))
    assert not s.busy and s.selected in _playable(s) and s.message.startswith("Hint: play")
    # an answer about a state that is no longer the table's is dropped
    flow.hinted(s, {"card": "2C", "reason": "ducks"}, "another state")
    assert s.selected != "2C" or "2C" in _playable(s)


def test_speed_up_next_hand_and_difficulty_from_the_next_hand() -> None:
    shell = _started(3)
    s = shell.s
    flow.on_action(s, "speed-up")
    assert s.speed
    shell.run(flow.choose_level(s, "hard"))
    assert s.level == "hard" and s.hand_level == "normal"
    assert s.message == "Difficulty changes from the next hand"
    assert flow.choose_level(s, "impossible")[1] == [] and s.level == "hard"
    shell.play_hand()
    assert s.view is not None and s.view["phase"] == "hand_over"
    levels = {args["level"] for name, args in shell.calls if name == "bot_step"}
    assert levels == {"normal"}
    shell.calls.clear()
    shell.run(flow.on_action(s, "next-hand"))
    assert s.view is not None and s.view["hand_number"] == 2
    assert s.hand_level == "hard" and not s.speed and s.selected is None
    assert {args["level"] for name, args in shell.calls if name in ("bot_step", "bots_expose")} == {"hard"}


PHASES = {
    "expose": lambda v: v["phase"] == "expose",
    "play, an opponent to play": lambda v: v["phase"] == "play" and v["turn"] != 0,
    "play, my turn": lambda v: v["phase"] == "play" and v["turn"] == 0,
    "hand over": lambda v: v["phase"] == "hand_over",
}


@pytest.mark.parametrize("where", list(PHASES))
def test_resuming_in_every_phase(where: str) -> None:
    packed = play_out(op("new_match", seed=9), PHASES[where])
    saved = store.decode(json.dumps(good_save(packed)))
    s = flow.resume(UIState(), saved)
    assert s.view == packed["view"] and s.state == packed["state"]
    _state, effects, go_on = flow.next_step(s)
    phase, turn = packed["view"]["phase"], packed["view"]["turn"]
    if phase == "expose":
        assert go_on and effects[0].op == "bots_expose"  # type: ignore[union-attr]
    elif phase == "play" and turn != 0:
        assert go_on and effects[0].op == "bot_step" and effects[0].args["seat"] == turn  # type: ignore[union-attr]
    elif phase == "play":
        assert not go_on and [e.text for e in effects] == ["Your turn"]  # type: ignore[union-attr]
        assert flow.next_step(s)[1] == []  # said once
    else:  # the hand is over: only the coach's analysis starts, in the background
        assert not go_on and [(type(e), e.call.op) for e in effects] == [(fx.Background, "coach")]  # type: ignore[union-attr]
    shell = Shell(s)
    s.engine_ready = True
    shell.drive()
    assert s.view is not None
    if phase != "hand_over":
        assert s.view["phase"] in ("expose", "play") and (s.view["phase"] == "expose" or s.view["turn"] == 0)
    else:
        shell.run(flow.on_action(s, "next-hand"))
        assert s.view["hand_number"] == 2


def test_nothing_is_played_before_the_engine_checked_the_table_or_from_a_follower_tab() -> None:
    packed = play_out(op("new_match", seed=9), PHASES["play, my turn"])
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    card = next(c for c in s.view["hand"] if s.view["refusals"][c] is None)  # type: ignore[index]
    assert flow.tap_card(s, card)[1] == [] and s.selected is None  # the engine has not answered yet
    s.engine_ready = True
    s.elsewhere = True
    assert flow.tap_card(s, card)[1] == [] and flow.on_action(s, "play")[1] == []
    s.elsewhere = False
    s.ask_seed = 8
    assert flow.tap_card(s, card)[1] == []
    _state, effects = flow.on_action(s, "seed-new")
    assert s.ask_seed is None and isinstance(effects[0], fx.NewMatch) and effects[0].seed == 8
    s.ask_seed = 8
    _state, effects = flow.on_action(s, "seed-resume")
    assert s.ask_seed is None and isinstance(effects[0], fx.Drive)
    assert flow.tap_card(s, card)[1] != [] and s.selected == card


def test_panels_and_keys() -> None:
    s = UIState()
    s.view = op("new_match", seed=3)["view"]
    s.engine_ready = True
    flow.on_action(s, "captured")
    assert s.panel == "captured"
    flow.on_action(s, "last-trick")
    assert s.panel == "last-trick"
    flow.on_action(s, "close")
    assert s.panel is None
    hand = s.view["hand"]
    assert flow.arrow(s, hand[0], "ArrowRight")[1] == hand[1] and s.focus == hand[1]
    assert flow.arrow(s, hand[0], "End")[1] == hand[-1]
    assert flow.arrow(s, hand[0], "ArrowLeft")[1] == hand[0]


def test_the_settings_sheet_opens_switches_and_closes() -> None:
    s = UIState()
    s.view = op("new_match", seed=3)["view"]
    s.engine_ready = True
    flow.on_action(s, "menu")
    assert s.sheet
    # a switch flips its setting, is saved, and leaves the sheet open to show it
    for action, field in (("four-colour", "four_colour"), ("memory-aid", "memory_aid")):
        _s, effects = flow.on_action(s, action)
        assert getattr(s, field) is True and s.sheet
        assert [type(e) for e in effects] == [fx.SaveSettings]
    # sound turned on is heard at once (a preview); turned off, it is silent
    _s, effects = flow.on_action(s, "sound")
    assert s.sound is True and s.sheet
    assert [type(e) for e in effects] == [fx.SaveSettings, fx.Sound] and effects[1].kind == "card"
    _s, effects = flow.on_action(s, "sound")
    assert s.sound is False and [type(e) for e in effects] == [fx.SaveSettings]
    # an entry that opens a panel closes the sheet; ☰ again, or its close button, closes it
    flow.on_action(s, "captured")
    assert s.panel == "captured" and not s.sheet
    flow.on_action(s, "menu")  # the entry again, with the panel open: it stays open
    flow.on_action(s, "captured")
    assert s.panel == "captured" and not s.sheet
    flow.on_action(s, "last-trick")  # the table's Last trick button is a toggle
    flow.on_action(s, "last-trick")
    assert s.panel is None
    flow.on_action(s, "close")
    flow.on_action(s, "menu")
    flow.on_action(s, "menu")
    assert not s.sheet
    flow.on_action(s, "menu")
    flow.on_action(s, "menu-close")
    assert not s.sheet


def test_pace_follows_the_settings_speed_up_and_fast() -> None:
    s = UIState()
    assert flow.pace(s) == (700, 1200, 320)
    flow.choose(s, "play-speed", "slow")
    flow.choose(s, "trick-pause", "long")
    slow = flow.pace(s)
    assert slow[0] > 700 and slow[1] > 1200
    _s, effects = flow.choose(s, "play-speed", "fast")
    assert [type(e) for e in effects] == [fx.SaveSettings]
    flow.choose(s, "trick-pause", "short")
    quick = flow.pace(s)
    assert quick[0] < 700 and quick[1] < 1200
    # a value that is not one of the setting's changes nothing and saves nothing
    assert flow.choose(s, "play-speed", "warp") == (s, []) and s.play_speed == "fast"
    assert flow.choose(s, "trick-pause", "<b>") == (s, []) and s.trick_pause == "short"
    assert flow.choose(s, "level", "hard") == (s, [])
    # Speed up is never slower than the chosen pace; ?fast=1 beats everything
    s.play_speed, s.trick_pause = "slow", "long"
    s.speed = True
    assert flow.pace(s) == flow.PACE_SPEED
    s.play_speed, s.trick_pause = "fast", "short"
    assert all(a <= b for a, b in zip(flow.pace(s), flow.PACE_SPEED, strict=True))
    s.fast = True
    assert flow.pace(s) == flow.PACE_FAST

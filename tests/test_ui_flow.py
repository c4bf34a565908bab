"""The UI's transitions (ui/core/flow.py) in CPython: every effect is run here against the real engine
service, as the shell (ui/shell/app.py) runs them in the page, minus the clock and the DOM."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.broken_saves import good_save
from tests.e2e.game import find_seed, op, play_out
from ui.core import effects as fx
from ui.core import flow, page_flow, store
from ui.core.state import UIState


class Shell:
    """Runs effects like ui/shell/app.py: engine calls through the service, the rest recorded."""

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
                self.run(effect.then(self.s, answer, effect.args.get("state")))
            elif isinstance(effect, fx.Announce):
                self.said.append(effect.text)
            elif isinstance(effect, fx.Save):
                self.saves += 1
            elif isinstance(effect, fx.Drive):
                self.drive()
            elif isinstance(effect, fx.Replay):
                self.run(flow.replay(self.s))
            elif isinstance(effect, fx.NewMatch):
                self.run(flow.started(self.s, op("new_match", seed=effect.seed or 1)))
                self.drive()

    def play_hand(self) -> None:
        """Play the hand on the table to its end: no exposure, the first playable card each turn."""
        s = self.s
        assert s.table.view is not None
        hand = s.table.view["hand_number"]
        while s.table.view["hand_number"] == hand and s.table.view["phase"] in ("expose", "play"):
            if s.table.view["phase"] == "expose":
                self.run(flow.on_action(s, "expose-none"))
            else:
                card = _playable(s)[0]
                flow.tap_card(s, card)
                self.run(flow.tap_card(s, card))

    def drive(self) -> None:
        while True:
            if self.s.table.hold:
                self.run(flow.sweep(self.s))
                self.run(flow.trick_cleared(self.s))
                continue
            _state, effects, go_on = flow.next_step(self.s)
            self.run((self.s, effects))
            if not go_on:
                return


def _started(seed: int) -> Shell:
    shell = Shell(UIState())
    shell.s.link.engine_ready = True
    shell.run(flow.started(shell.s, op("new_match", seed=seed)))
    shell.drive()
    return shell


def _to_my_turn(shell: Shell) -> None:
    if shell.s.table.view and shell.s.table.view["phase"] == "expose":
        shell.run(flow.on_action(shell.s, "expose-none"))
    assert (
        shell.s.table.view is not None
        and shell.s.table.view["phase"] == "play"
        and shell.s.table.view["turn"] == 0
    )


def _playable(s: UIState) -> list[str]:
    assert s.table.view is not None
    return [c for c in s.table.view["hand"] if s.table.view["refusals"][c] is None]


def test_select_then_play_and_double_tap() -> None:
    shell = _started(find_seed(lambda s: not op("new_match", seed=s)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    assert "Your turn" in shell.said
    first = _playable(s)[0]
    _state, effects = flow.tap_card(s, first)
    assert s.table.selected == first and [type(e) for e in effects] == [fx.Save]
    if len(_playable(s)) > 1:  # another card moves the selection
        other = _playable(s)[1]
        flow.tap_card(s, other)
        assert s.table.selected == other
        flow.tap_card(s, first)
    shell.run(flow.tap_card(s, first))  # the second tap plays it
    played = {"type": "play", "seat": 0, "card": first}
    assert any(name == "step" and args["action"] == played for name, args in shell.calls)
    assert (
        s.table.view is not None
        and first not in s.table.view["hand"]
        and s.table.selected is None
        and not s.link.busy
    )
    # ... and the Play button plays the selected card
    _to_my_turn(shell)
    card = _playable(s)[0]
    flow.tap_card(s, card)
    shell.run(flow.on_action(s, "play"))
    assert card not in s.table.view["hand"]


def test_refused_cards_say_why_and_change_nothing() -> None:
    def following(view: dict[str, Any]) -> bool:
        return bool(view["trick"]["plays"]) and any(view["refusals"][c] for c in view["hand"])

    from tests.e2e.game import simulate

    seed = find_seed(lambda n: simulate(n, lambda e: [], following) is not None)
    found = simulate(seed, lambda e: [], following)
    assert found is not None
    packed = found[0]
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    s.link.engine_ready = True
    assert s.table.view is not None
    refused = next(c for c in s.table.view["hand"] if s.table.view["refusals"][c])
    before = (s.table.state, s.table.selected)
    _state, effects = flow.tap_card(s, refused)
    assert s.screen.message.startswith("You must follow") and [type(e) for e in effects] == [fx.Announce]
    assert (s.table.state, s.table.selected) == before
    # not my turn: the engine's refusal says so
    waiting = play_out(op("new_match", seed=5), lambda v: v["phase"] == "play" and v["turn"] != 0)
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(waiting))))
    s.link.engine_ready = True
    assert s.table.view is not None
    _state, effects = flow.tap_card(s, s.table.view["hand"][0])
    assert s.screen.message == "Wait for your turn" and not any(isinstance(e, fx.Call) for e in effects)


def test_expose_select_confirm_and_none() -> None:
    seed = find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"]))
    shell = _started(seed)
    s = shell.s
    assert s.table.view is not None and s.table.view["phase"] == "expose" and s.table.bots_exposed
    mark = s.table.view["exposable"][0]
    other = next(c for c in s.table.view["hand"] if c not in s.table.view["exposable"])
    flow.tap_card(s, other)
    assert (
        s.screen.message == "Only the cards marked exposable can be chosen now" and s.table.expose_sel == []
    )
    flow.tap_card(s, mark)
    assert s.table.expose_sel == [mark]
    flow.tap_card(s, mark)
    assert s.table.expose_sel == []
    flow.tap_card(s, mark)
    shell.run(flow.on_action(s, "expose"))
    assert s.table.view["phase"] == "play" and mark in s.table.view["exposed"][0]
    assert "You" in s.screen.notice and s.table.expose_sel == []
    # Don't expose
    shell = _started(seed)
    shell.run(flow.on_action(shell.s, "expose-none"))
    assert shell.s.table.view is not None and shell.s.table.view["exposed"][0] == []


def test_hint_selects_and_explains() -> None:
    shell = _started(find_seed(lambda s: not op("new_match", seed=s)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    _state, effects = flow.hint(s)
    assert s.link.busy and s.screen.message == "Thinking…" and isinstance(effects[-1], fx.Call)
    assert s.table.view is not None
    assert flow.tap_card(s, s.table.view["hand"][0])[1] == []  # busy: ignored
    shell.run((s, effects))
    assert not s.link.busy and s.table.selected in _playable(s) and s.screen.message.startswith("Hint: play")
    # an answer about a state that is no longer the table's is dropped
    flow.hinted(s, {"card": "2C", "reason": "ducks"}, "another state")
    assert s.table.selected != "2C" or "2C" in _playable(s)


def test_speed_up_next_hand_and_difficulty_from_the_next_hand() -> None:
    shell = _started(3)
    s = shell.s
    flow.on_action(s, "speed-up")
    assert s.table.speed
    shell.run(flow.choose_level(s, "hard"))
    assert s.settings.level == "hard" and s.table.hand_level == "normal"
    assert s.screen.message == "Difficulty changes from the next hand"
    assert flow.choose_level(s, "impossible")[1] == [] and s.settings.level == "hard"
    shell.play_hand()
    assert s.table.view is not None and s.table.view["phase"] == "hand_over"
    levels = {args["level"] for name, args in shell.calls if name == "bot_step"}
    assert levels == {"normal"}
    shell.calls.clear()
    shell.run(flow.on_action(s, "next-hand"))
    assert s.table.view is not None and s.table.view["hand_number"] == 2
    assert s.table.hand_level == "hard" and not s.table.speed and s.table.selected is None
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
    assert s.table.view == packed["view"] and s.table.state == packed["state"]
    _state, effects, go_on = flow.next_step(s)
    phase, turn = packed["view"]["phase"], packed["view"]["turn"]
    first = effects[0]
    if phase == "expose":
        assert go_on and isinstance(first, fx.Call) and first.op == "bots_expose"
    elif phase == "play" and turn != 0:
        assert go_on and isinstance(first, fx.Call) and first.op == "bot_step" and first.args["seat"] == turn
    elif phase == "play":
        assert (
            not go_on and len(effects) == 1 and isinstance(first, fx.Announce) and first.text == "Your turn"
        )
        assert flow.next_step(s)[1] == []  # said once
    else:  # the hand is over: only the coach's analysis starts, in the background
        assert (
            not go_on and len(effects) == 1 and isinstance(first, fx.Background) and first.call.op == "coach"
        )
    shell = Shell(s)
    s.link.engine_ready = True
    shell.drive()
    assert s.table.view is not None
    if phase != "hand_over":
        assert s.table.view["phase"] in ("expose", "play") and (
            s.table.view["phase"] == "expose" or s.table.view["turn"] == 0
        )
    else:
        shell.run(flow.on_action(s, "next-hand"))
        assert s.table.view["hand_number"] == 2


def test_nothing_is_played_before_the_engine_checked_the_table_or_from_a_follower_tab() -> None:
    packed = play_out(op("new_match", seed=9), PHASES["play, my turn"])
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    assert s.table.view is not None
    card = next(c for c in s.table.view["hand"] if s.table.view["refusals"][c] is None)
    assert flow.tap_card(s, card)[1] == [] and s.table.selected is None  # the engine has not answered yet
    s.link.engine_ready = True
    s.saving.elsewhere = True
    assert flow.tap_card(s, card)[1] == [] and flow.on_action(s, "play")[1] == []
    s.saving.elsewhere = False
    s.link.ask_seed = 8
    assert flow.tap_card(s, card)[1] == []
    _state, effects = flow.on_action(s, "seed-new")
    assert s.link.ask_seed is None and isinstance(effects[0], fx.NewMatch) and effects[0].seed == 8
    s.link.ask_seed = 8
    _state, effects = flow.on_action(s, "seed-resume")
    assert s.link.ask_seed is None and isinstance(effects[0], fx.Drive)
    assert flow.tap_card(s, card)[1] != [] and s.table.selected == card


def _resumed(where: str) -> UIState:
    """A saved table of ``where`` (PHASES), drawn before the engine has answered."""
    packed = play_out(op("new_match", seed=9), PHASES[where])
    return flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))


def _engine_answers(s: UIState) -> Shell:
    """The engine is ready and has checked the resumed table; the inputs kept meanwhile run."""
    s.link.engine_ready = True
    flow.checked(s, op("check", state=s.table.state))
    shell = Shell(s)
    shell.run(flow.replay(s))
    return shell


def test_taps_before_the_engine_answers_are_kept_in_order_and_carried_out() -> None:
    s = _resumed("play, my turn")
    assert s.table.view is not None
    card = _playable(s)[0]
    for _tap in range(2):
        assert flow.tap_card(s, card)[1] == []
    assert s.link.queued == [("tap", card), ("tap", card)] and flow.busy(s)  # kept, and the page says so
    shell = _engine_answers(s)
    assert s.link.queued == [] and card not in s.table.view["hand"]
    steps = [args["action"] for name, args in shell.calls if name == "step"]
    assert steps[0] == {"type": "play", "seat": 0, "card": card}


def test_next_hand_before_the_engine_answers_starts_the_next_hand() -> None:
    s = _resumed("hand over")
    assert s.table.view is not None
    assert flow.on_action(s, "next-hand")[1] == [] and s.link.queued == [("action", "next-hand")]
    _engine_answers(s)
    assert s.table.view["hand_number"] == 2 and s.link.queued == []


def test_kept_inputs_are_dropped_when_the_table_is_not_the_players() -> None:
    s = _resumed("play, my turn")
    assert s.table.view is not None
    flow.tap_card(s, _playable(s)[0])
    s.link.engine_ready = True
    s.saving.elsewhere = True  # another tab took the game meanwhile
    assert flow.replay(s)[1] == [] and s.link.queued == [] and s.table.selected is None


def test_busy_while_anything_on_screen_still_moves() -> None:
    shell = _started(find_seed(lambda n: not op("new_match", seed=n)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    s.motion.dealing = None
    s.motion.flying = None
    assert not flow.busy(s)
    s.motion.dealing = s.table.view["hand_number"] if s.table.view else 1
    assert flow.busy(s)
    flow.dealt(s, s.motion.dealing)
    assert not flow.busy(s)
    card = _playable(s)[0]
    flow.tap_card(s, card)
    _state, effects = flow.stepped(
        s, op("step", state=s.table.state, action={"type": "play", "seat": 0, "card": card})
    )
    assert (
        s.motion.flying == card and fx.Fly in [type(e) for e in effects] and flow.busy(s)
    )  # the card flies in
    flow.landed(s, card)
    assert s.motion.flying is None
    s.link.engine_ready = False
    assert flow.busy(s)  # the engine is (re)starting: nothing may be taken for settled


def test_panels_and_keys() -> None:
    s = UIState()
    s.table.view = op("new_match", seed=3)["view"]
    s.link.engine_ready = True
    flow.on_action(s, "captured")
    assert s.screen.panel == "captured"
    flow.on_action(s, "last-trick")
    assert s.screen.panel == "last-trick"
    flow.on_action(s, "close")
    assert s.screen.panel is None
    hand = s.table.view["hand"]
    assert flow.arrow(s, hand[0], "ArrowRight")[1] == hand[1] and s.table.focus == hand[1]
    assert flow.arrow(s, hand[0], "End")[1] == hand[-1]
    assert flow.arrow(s, hand[0], "ArrowLeft")[1] == hand[0]


def test_the_settings_sheet_opens_switches_and_closes() -> None:
    s = UIState()
    s.table.view = op("new_match", seed=3)["view"]
    s.link.engine_ready = True
    flow.on_action(s, "menu")
    assert s.screen.sheet
    # a switch flips its setting, is saved, and leaves the sheet open to show it
    for action, field in (("four-colour", "four_colour"), ("memory-aid", "memory_aid")):
        _s, effects = flow.on_action(s, action)
        assert getattr(s.settings, field) is True and s.screen.sheet
        assert [type(e) for e in effects] == [fx.SaveSettings]
    # sound turned on is heard at once (a preview); turned off, it is silent
    _s, effects = flow.on_action(s, "sound")
    assert s.settings.sound is True and s.screen.sheet
    assert [type(e) for e in effects] == [fx.SaveSettings, fx.Sound]
    assert isinstance(effects[1], fx.Sound) and effects[1].kind == "card"
    _s, effects = flow.on_action(s, "sound")
    assert s.settings.sound is False and [type(e) for e in effects] == [fx.SaveSettings]
    # an entry that opens a panel closes the sheet; ☰ again, or its close button, closes it
    flow.on_action(s, "captured")
    assert s.screen.panel == "captured" and not s.screen.sheet
    flow.on_action(s, "menu")  # the entry again, with the panel open: it stays open
    flow.on_action(s, "captured")
    assert s.screen.panel == "captured" and not s.screen.sheet
    flow.on_action(s, "last-trick")  # the table's Last trick button is a toggle
    flow.on_action(s, "last-trick")
    assert s.screen.panel is None
    flow.on_action(s, "close")
    flow.on_action(s, "menu")
    flow.on_action(s, "menu")
    assert not s.screen.sheet
    flow.on_action(s, "menu")
    flow.on_action(s, "menu-close")
    assert not s.screen.sheet


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
    assert flow.choose(s, "play-speed", "warp") == (s, []) and s.settings.play_speed == "fast"
    assert flow.choose(s, "trick-pause", "<b>") == (s, []) and s.settings.trick_pause == "short"
    assert flow.choose(s, "level", "hard") == (s, [])
    # Speed up is never slower than the chosen pace; ?fast=1 beats everything
    s.settings.play_speed, s.settings.trick_pause = "slow", "long"
    s.table.speed = True
    assert flow.pace(s) == flow.PACE_SPEED
    s.settings.play_speed, s.settings.trick_pause = "fast", "short"
    assert all(a <= b for a, b in zip(flow.pace(s), flow.PACE_SPEED, strict=True))
    s.link.fast = True
    assert flow.pace(s) == flow.PACE_FAST


def test_another_tab_is_followed_then_taken_back() -> None:
    s = _resumed("play, my turn")
    assert s.table.view is not None
    flow.tap_card(s, _playable(s)[0])  # kept for the engine
    gen = s.link.gen
    other = play_out(op("new_match", seed=9), PHASES["hand over"])
    page_flow.follow(s, store.decode(json.dumps(good_save(other))))
    assert (
        s.saving.elsewhere and s.link.gen == gen + 1 and s.link.queued == [] and s.table.view == other["view"]
    )
    s.link.engine_ready = True
    assert flow.on_action(s, "next-hand")[1] == []  # a follower plays nothing
    page_flow.take_back(s, store.decode(json.dumps(good_save(other))))
    assert not s.saving.elsewhere and not s.table.checked  # the engine checks the save it takes back
    shell = Shell(s)
    flow.checked(s, op("check", state=s.table.state))
    shell.run(flow.on_action(s, "next-hand"))
    assert s.table.view["hand_number"] == 2


def test_an_engine_restart_stops_the_flows_and_says_so() -> None:
    shell = _started(3)
    s = shell.s
    gen = s.link.gen
    _state, effects = page_flow.engine_lost(s)
    assert s.link.gen == gen + 1 and s.link.recovering and not s.link.engine_ready and flow.busy(s)
    assert [type(e) for e in effects] == [
        fx.Announce
    ] and s.link.engine_note == "The game engine stopped. Restarting it…"
    _state, effects = page_flow.engine_back(s, op("check", state=s.table.state))
    assert (
        s.link.engine_ready
        and not s.link.recovering
        and s.table.checked
        and "restarted" in s.link.engine_note
    )
    page_flow.engine_lost(s)
    page_flow.engine_gone(s)
    assert (
        not s.link.recovering and not s.link.engine_ready and "could not be restarted" in s.link.engine_note
    )


def test_a_failed_request_says_why_and_a_dead_worker_says_nothing_yet() -> None:
    s = _started(3).s
    s.link.busy = True
    s.motion.thinking = 2
    _state, effects = page_flow.request_failed(s, "boom")
    assert not s.link.busy and s.motion.thinking is None and s.screen.message == "Something went wrong: boom"
    assert [type(e) for e in effects] == [fx.Announce]
    s.screen.message = ""
    assert page_flow.request_failed(s, "")[1] == [] and s.screen.message == ""


def test_back_from_the_daily_deal_to_the_match_or_to_a_new_one() -> None:
    s = _started(3).s
    s.day.on_table = "2026-12-01"
    s.day.practice = True
    match = play_out(op("new_match", seed=9), PHASES["hand over"])
    page_flow.back_to_match(s, store.decode(json.dumps(good_save(match))))
    assert (
        s.day.on_table is None
        and not s.day.practice
        and s.table.view == match["view"]
        and not s.table.checked
    )
    page_flow.back_to_match(s, None)
    assert s.table.view is None and s.table.state is None  # (the shell deals a new match)
    page_flow.dealing_new(s)
    assert s.link.busy and s.day.on_table is None


def test_settings_read_at_boot_are_taken_whole() -> None:
    storage = store.MemoryStorage()
    s = UIState()
    s.settings.level = "hard"
    s.settings.sound = True
    s.settings.play_speed = "fast"
    assert store.save_settings(storage, s)
    fresh = page_flow.take_settings(UIState(), store.load_settings(storage))
    assert (
        fresh.settings.level,
        fresh.settings.sound,
        fresh.settings.play_speed,
        fresh.settings.four_colour,
    ) == ("hard", True, "fast", False)


@pytest.mark.parametrize("decision", ["resume", "ask", "new"])
def test_the_table_drawn_at_boot_follows_the_start_decision(decision: str) -> None:
    packed = play_out(op("new_match", seed=9), PHASES["play, my turn"])
    saved = store.decode(json.dumps(good_save(packed))) if decision != "new" else None
    s = page_flow.boot_table(UIState(), decision, saved, 77 if decision == "ask" else None, decision == "new")
    assert s.table.view == (packed["view"] if saved else None) and not s.table.checked
    assert s.link.ask_seed == (77 if decision == "ask" else None)
    assert (s.saving.unsaved, s.saving.save_blocked) == (
        (True, True) if decision == "new" else (False, False)
    )
    assert s.screen.loading_text and flow.busy(s)  # the engine is not ready: never settled
    page_flow.engine_started(s)
    if decision == "resume":  # the engine refuses the save: no table, nothing kept for it
        s.link.queued.append(("tap", _playable(s)[0]))
        page_flow.save_refused(s)
        assert (
            s.table.view is None and s.table.state is None and s.link.queued == [] and s.link.ask_seed is None
        )
    page_flow.start_notices(s, ["", "a", "b"])
    assert s.screen.alert == "a · b"


def test_the_daily_deal_already_played_shows_its_result_over_the_table() -> None:
    s = _started(3).s
    gen = s.link.gen
    result = {"score": -50, "place": 2, "codes": []}
    assert page_flow.daily_asked(s, "2026-12-01", result, practice=False) is False
    assert s.screen.panel == "daily" and s.day.result == result and s.link.gen == gen and not s.link.busy
    assert page_flow.daily_asked(s, "2026-12-01", result, practice=True) is True
    assert s.link.gen == gen + 1 and s.link.busy
    shell = Shell(s)
    shell.run(page_flow.daily_dealt(s, "2026-12-01", True, op("daily", date="2026-12-01"), None))
    assert s.day.on_table == "2026-12-01" and s.day.practice and s.screen.panel is None and not s.link.busy
    assert s.table.hand_level == "hard"


def test_saving_toasts_and_the_opponents_run_are_bookkept() -> None:
    s = _started(3).s
    assert page_flow.save_asked(s) and not page_flow.save_asked(s)  # one save queued at a time
    page_flow.save_done(s, written=False)
    assert not s.saving.save_pending and s.saving.unsaved
    s.saving.elsewhere = True
    assert not page_flow.save_asked(s) and not page_flow.driving(s, s.link.gen)  # another tab has the game
    s.saving.elsewhere = False
    assert page_flow.driving(s, s.link.gen) and not page_flow.driving(s, s.link.gen)
    page_flow.driven(s, s.link.gen)
    assert s.link.driving is None
    page_flow.toast_shown(s, "QS", 1.0)
    page_flow.toast_shown(s, "JD", 2.0)
    assert not page_flow.toast_over(s, 1.0) and s.motion.toast == "JD"
    assert page_flow.toast_over(s, 2.0) and s.motion.toast is None
    _state, effects = page_flow.shared(s, "copied", "text")
    assert s.screen.message == "Copied to the clipboard: text" and [type(e) for e in effects] == [fx.Announce]


def test_the_check_of_a_table_replaced_meanwhile_is_dropped() -> None:
    s = _resumed("play, my turn")
    old = s.table.state
    assert old is not None
    answer = op("check", state=old)
    shell = Shell(s)
    shell.run(flow.started(s, op("new_match", seed=8)))  # a ?seed= link's new match came first
    new = (s.table.state, s.table.view)
    flow.checked(s, answer, old)
    assert (s.table.state, s.table.view) == new


def test_a_refused_save_gives_way_to_the_links_deal_or_a_random_one() -> None:
    assert page_flow.decision_after_refusal("ask", 8) == ("new", 8)
    assert page_flow.decision_after_refusal("resume", None) == ("new", None)

"""The UI's transitions (ui/core/flow.py and the features' flows) in CPython, their effects run by the
page's own runner (ui/runner.py) against the real engine service, with doubles of the clock, the
screen, storage and files (tests/support/page.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.broken_saves import good_save
from tests.support.page import Page as Shell
from tests.support.page import playable as _playable
from tests.support.replay import find_seed, op, play_out
from ui import actions
from ui.core import bookkeeping, flow, match, recovery, store
from ui.core import effects as fx
from ui.core.ports import EngineStartError
from ui.core.state import UIState
from ui.features import boot, daily_flow, review, tabs, transfer
from ui.features.record import RECORD_KEY
from ui.view import render, texts


def _checked(packed: dict[str, Any]) -> UIState:
    """The page resumed from a save of ``packed``, the engine ready and the table checked by it."""
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    s.link.engine_ready = True
    flow.checked(s, op("check", state=s.table.state))
    return s


def _started(seed: int) -> Shell:
    shell = Shell(UIState())
    shell.s.link.engine_ready = True
    shell.run(flow.started(shell.s, op("new_match", seed=seed)))
    shell.drive()
    return shell


def _to_my_turn(shell: Shell) -> None:
    if shell.s.table.view and shell.s.table.view["phase"] == "expose":
        shell.run(actions.on_action(shell.s, "expose-none"))
    assert (
        shell.s.table.view is not None
        and shell.s.table.view["phase"] == "play"
        and shell.s.table.view["turn"] == 0
    )


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
    shell.run(actions.on_action(s, "play"))
    assert card not in s.table.view["hand"]


def test_refused_cards_say_why_and_change_nothing() -> None:
    def following(view: dict[str, Any]) -> bool:
        return bool(view["trick"]["plays"]) and any(view["refusals"][c] for c in view["hand"])

    from tests.support.replay import simulate

    seed = find_seed(lambda n: simulate(n, lambda e: [], following) is not None)
    found = simulate(seed, lambda e: [], following)
    assert found is not None
    packed = found[0]
    s = _checked(packed)
    assert s.table.view is not None
    refused = next(c for c in s.table.view["hand"] if s.table.view["refusals"][c])
    before = (s.table.state, s.table.selected)
    _state, effects = flow.tap_card(s, refused)
    assert texts.words(s.screen.message).startswith("You must follow") and [type(e) for e in effects] == [
        fx.Announce
    ]
    assert (s.table.state, s.table.selected) == before
    # not my turn: the engine's refusal says so
    waiting = play_out(op("new_match", seed=5), lambda v: v["phase"] == "play" and v["turn"] != 0)
    s = _checked(waiting)
    assert s.table.view is not None
    _state, effects = flow.tap_card(s, s.table.view["hand"][0])
    assert texts.words(s.screen.message) == "Wait for your turn" and not any(
        isinstance(e, fx.Call) for e in effects
    )


def test_expose_select_confirm_and_none() -> None:
    seed = find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"]))
    shell = _started(seed)
    s = shell.s
    assert s.table.view is not None and s.table.view["phase"] == "expose" and s.table.bots_exposed
    mark = s.table.view["exposable"][0]
    other = next(c for c in s.table.view["hand"] if c not in s.table.view["exposable"])
    flow.tap_card(s, other)
    assert (
        texts.words(s.screen.message) == "Only the cards marked exposable can be chosen now"
        and s.table.expose_sel == []
    )
    flow.tap_card(s, mark)
    assert s.table.expose_sel == [mark]
    flow.tap_card(s, mark)
    assert s.table.expose_sel == []
    flow.tap_card(s, mark)
    shell.run(actions.on_action(s, "expose"))
    assert s.table.view["phase"] == "play" and mark in s.table.view["exposed"][0]
    assert "You" in texts.words(s.screen.notice) and s.table.expose_sel == []
    # Don't expose
    shell = _started(seed)
    shell.run(actions.on_action(shell.s, "expose-none"))
    assert shell.s.table.view is not None and shell.s.table.view["exposed"][0] == []


def test_hint_selects_and_explains() -> None:
    shell = _started(find_seed(lambda s: not op("new_match", seed=s)["view"]["exposable"]))
    s = shell.s
    _to_my_turn(shell)
    _state, effects = flow.hint(s)
    assert s.link.busy and texts.words(s.screen.message) == "Thinking…" and isinstance(effects[-1], fx.Call)
    assert s.table.view is not None
    assert flow.tap_card(s, s.table.view["hand"][0])[1] == []  # busy: ignored
    shell.run((s, effects))
    assert (
        not s.link.busy
        and s.table.selected in _playable(s)
        and texts.words(s.screen.message).startswith("Hint: play")
    )
    # an answer about a state that is no longer the table's is dropped
    flow.hinted(s, {"card": "2C", "reason": "ducks"}, "another state")
    assert s.table.selected != "2C" or "2C" in _playable(s)


def test_speed_up_next_hand_and_difficulty_from_the_next_hand() -> None:
    shell = _started(3)
    s = shell.s
    actions.on_action(s, "speed-up")
    assert s.table.speed
    shell.run(flow.choose_level(s, "hard"))
    assert s.settings.level == "hard" and s.table.hand_level == "normal"
    assert texts.words(s.screen.message) == "Difficulty changes from the next hand"
    assert flow.choose_level(s, "impossible")[1] == [] and s.settings.level == "hard"
    shell.play_hand()
    assert s.table.view is not None and s.table.view["phase"] == "hand_over"
    levels = {args["level"] for name, args in shell.calls if name == "bot_step"}
    assert levels == {"normal"}
    shell.calls.clear()
    shell.run(actions.on_action(s, "next-hand"))
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
            not go_on
            and len(effects) == 1
            and isinstance(first, fx.Announce)
            and texts.words(first.message) == "Your turn"
        )
        assert flow.next_step(s)[1] == []  # said once
    else:  # the hand is over: the review goes on; only the coach's analysis starts, in the background
        assert not go_on and [type(e) for e in effects] == [fx.AfterHand]
        after = review.after_hand(s)
        assert len(after) == 1 and isinstance(after[0], fx.Background) and after[0].call.op == "coach"
    shell = Shell(s)
    s.link.engine_ready = True
    flow.checked(s, op("check", state=s.table.state))
    shell.drive()
    assert s.table.view is not None
    if phase != "hand_over":
        assert s.table.view["phase"] in ("expose", "play") and (
            s.table.view["phase"] == "expose" or s.table.view["turn"] == 0
        )
    else:
        shell.run(actions.on_action(s, "next-hand"))
        assert s.table.view["hand_number"] == 2


def test_nothing_is_played_before_the_engine_checked_the_table_or_from_a_follower_tab() -> None:
    packed = play_out(op("new_match", seed=9), PHASES["play, my turn"])
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    assert s.table.view is not None
    card = next(c for c in s.table.view["hand"] if s.table.view["refusals"][c] is None)
    assert flow.tap_card(s, card)[1] == [] and s.table.selected is None  # the engine has not answered yet
    s.link.engine_ready = True
    assert flow.tap_card(s, card)[1] == [] and s.table.selected is None  # nor checked the table
    assert s.link.queued == [("tap", card)] * 2 and flow.busy(s)
    flow.checked(s, op("check", state=s.table.state))
    s.link.queued = []
    s.saving.elsewhere = True
    assert flow.tap_card(s, card)[1] == []
    _state, effects = actions.on_action(s, "play")  # a follower's control says why it does nothing
    assert [type(e) for e in effects] == [fx.Announce] and "another tab" in texts.words(s.screen.message)
    s.saving.elsewhere = False
    s.link.ask_seed = 8
    assert flow.tap_card(s, card)[1] == []
    _state, effects = actions.on_action(s, "seed-new")
    assert s.link.ask_seed is None and isinstance(effects[0], fx.NewMatch) and effects[0].seed == 8
    s.link.ask_seed = 8
    _state, effects = actions.on_action(s, "seed-resume")
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
    shell.run(actions.replay(s))
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
    assert actions.on_action(s, "next-hand")[1] == [] and s.link.queued == [("action", "next-hand")]
    _engine_answers(s)
    assert s.table.view["hand_number"] == 2 and s.link.queued == []


def test_kept_inputs_are_dropped_when_the_table_is_not_the_players() -> None:
    s = _resumed("play, my turn")
    assert s.table.view is not None
    flow.tap_card(s, _playable(s)[0])
    s.link.engine_ready = True
    s.saving.elsewhere = True  # another tab took the game meanwhile
    assert actions.replay(s)[1] == [] and s.link.queued == [] and s.table.selected is None


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
    s = flow.checked(UIState(), op("new_match", seed=3))  # (the engine's table)
    s.link.engine_ready = True
    actions.on_action(s, "captured")
    assert s.screen.panel == "captured"
    actions.on_action(s, "last-trick")
    assert s.screen.panel == "last-trick"
    actions.on_action(s, "close")
    assert s.screen.panel is None
    hand = s.table.view["hand"]
    assert flow.arrow(s, hand[0], "ArrowRight")[1] == hand[1] and s.table.focus == hand[1]
    assert flow.arrow(s, hand[0], "End")[1] == hand[-1]
    assert flow.arrow(s, hand[0], "ArrowLeft")[1] == hand[0]


def test_the_settings_sheet_opens_switches_and_closes() -> None:
    s = flow.checked(UIState(), op("new_match", seed=3))  # (the engine's table)
    s.link.engine_ready = True
    actions.on_action(s, "menu")
    assert s.screen.sheet
    # a switch flips its setting, is saved, and leaves the sheet open to show it
    for action, field in (("four-colour", "four_colour"), ("memory-aid", "memory_aid")):
        _s, effects = actions.on_action(s, action)
        assert getattr(s.settings, field) is True and s.screen.sheet
        assert [type(e) for e in effects] == [fx.SaveSettings]
    # sound turned on is heard at once (a preview); turned off, it is silent
    _s, effects = actions.on_action(s, "sound")
    assert s.settings.sound is True and s.screen.sheet
    assert [type(e) for e in effects] == [fx.SaveSettings, fx.Sound]
    assert isinstance(effects[1], fx.Sound) and effects[1].kind == "card"
    _s, effects = actions.on_action(s, "sound")
    assert s.settings.sound is False and [type(e) for e in effects] == [fx.SaveSettings]
    # an entry that opens a panel closes the sheet; ☰ again, or its close button, closes it
    actions.on_action(s, "captured")
    assert s.screen.panel == "captured" and not s.screen.sheet
    actions.on_action(s, "menu")  # the entry again, with the panel open: it stays open
    actions.on_action(s, "captured")
    assert s.screen.panel == "captured" and not s.screen.sheet
    actions.on_action(s, "last-trick")  # the table's Last trick button is a toggle
    actions.on_action(s, "last-trick")
    assert s.screen.panel is None
    actions.on_action(s, "close")
    actions.on_action(s, "menu")
    actions.on_action(s, "menu")
    assert not s.screen.sheet
    actions.on_action(s, "menu")
    actions.on_action(s, "menu-close")
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


def _saved(where: str, seed: int = 9, **rules: str) -> dict[str, Any]:
    """The fields of a save (``store.decode``) of a match played to ``where``."""
    packed = op("new_match", seed=seed, rules=rules) if rules else op("new_match", seed=seed)
    return store.decode(json.dumps(good_save(play_out(packed, PHASES[where]))))


def _match_over() -> dict[str, Any]:
    """A save of a match over (one hand long: the house rule ``hands:4``, played to its end)."""
    packed = op("new_match", seed=4, rules={"match_end": "hands:4"})
    packed = play_out(packed, lambda v: v["phase"] == "match_over")
    return store.decode(json.dumps(good_save(packed)))


def _booted(saved: dict[str, Any] | None, page: Shell | None = None, **links: str | None) -> Shell:
    """A page booted as ui/main.py boots it: ``saved`` in storage, ``links`` the address's ?seed=
    and ?daily (None: absent), then the engine ready."""
    page = page or Shell()
    if saved is not None:
        page.storage.setItem(store.SAVE_KEY, json.dumps(saved))
    plan = boot.first_paint(
        page.s,
        True,
        True,
        store.load_settings(page.storage),
        store.load(page.storage),
        store.save_blocked(page.storage),
        links.get("seed"),
        links.get("daily"),
    )
    page.run(boot.connect(page.s, plan))
    return page


def _rules(page: Shell) -> dict[str, str]:
    return json.loads(page.s.table.state or "{}")["rules"]


def test_the_loading_bar_follows_what_has_arrived_and_stops_once_the_table_is_drawn() -> None:
    s = UIState()
    runtime = "https://example.org/gongzhu/runtime/pyodide/"
    assert boot.loading(s, None, []) and s.screen.progress == 10
    assert boot.loading(s, None, [runtime + "pyodide.mjs", runtime + "pyodide.asm.wasm", "x.css"])
    assert s.screen.progress == 60
    assert boot.loading(s, (3, 4), [runtime + "pyodide.mjs"]) and s.screen.progress == 73  # the bytes win
    assert boot.loading(s, (4, 4), []) and s.screen.progress == 95  # never full before the deal
    page = _booted(None, seed="5")
    before = page.s.screen.progress
    assert not boot.loading(page.s, (1, 4), []) and page.s.screen.progress == before


def test_the_boot_resumes_a_save_checked_by_the_engine() -> None:
    page = _booted(_saved("play, my turn"))
    s = page.s
    assert s.table.checked and s.link.engine_ready and not flow.busy(s)
    assert [name for name, _args in page.calls][:1] == ["check"] and "table-ready" in page.screen.marks


def test_the_boot_waits_for_the_engine_through_the_runner_and_an_engine_that_cannot_start_fails_it() -> None:
    page = _booted(_saved("play, my turn"))
    assert page.engine.connected == 1 and isinstance(page.effects[0], fx.Connect)
    broken = Shell()
    broken.engine.broken = True
    with pytest.raises(EngineStartError):
        _booted(None, broken)
    assert broken.engine.connected == 0 and broken.calls == [] and not broken.s.link.engine_ready


def test_the_boot_deals_a_new_match_under_the_players_house_rules() -> None:
    page = Shell()
    page.s.settings.house_rules = {"match_end": "-500", "all_hearts": "flip"}
    assert store.save_settings(page.storage, page.s)
    _booted(None, page, seed="77")
    assert json.loads(page.s.table.state or "")["seed"] == 77
    assert _rules(page)["match_end"] == "-500" and _rules(page)["all_hearts"] == "flip"


def test_a_refused_save_is_set_aside_and_gives_way_to_the_links_deal() -> None:
    saved = _saved("play, my turn")
    page = Shell()
    page.engine.refuse["check"] = "the state is not one the engine made"
    _booted(saved, page, seed="8")  # (a ?seed= link over a match in progress: the question first)
    assert page.s.link.ask_seed is None and json.loads(page.s.table.state or "")["seed"] == 8
    assert page.storage.getItem(store.corrupt_key(1)) == json.dumps(saved)  # the refused save, kept aside
    assert "Your saved game could not be read: a new match starts." in texts.words(page.s.screen.alert)


def _asked(saved: dict[str, Any], seed: str) -> tuple[Shell, boot.BootPlan]:
    """A page drawn from ``saved`` under a ``?seed=`` link: the question is up, the engine starting."""
    page = Shell()
    page.storage.setItem(store.SAVE_KEY, json.dumps(saved))
    plan = boot.first_paint(page.s, True, True, store.load_settings(page.storage), store.load(page.storage),
                            False, seed, None)  # fmt: skip
    assert page.s.link.ask_seed == int(seed) and not page.s.link.engine_ready
    return page, plan


@pytest.mark.parametrize("start_new", [True, False])
def test_the_seed_question_answered_while_the_engine_starts_is_carried_out_once_it_answers(
    start_new: bool,
) -> None:
    saved = _saved("play, my turn")
    page, plan = _asked(saved, "8")
    page.input(actions.on_action, "seed-new" if start_new else "seed-resume")
    assert page.s.link.ask_seed is None and page.calls == []  # kept: the start is not cut short
    page.run(boot.connect(page.s, plan))
    s = page.s
    assert s.link.engine_ready and not flow.busy(s) and s.link.seed_chosen is None
    assert [name for name, _args in page.calls][:1] == ["check"]
    deal = json.loads(s.table.state or "")["seed"]
    assert deal == (8 if start_new else 9)
    assert [name for name, _args in page.calls].count("new_match") == (1 if start_new else 0)


def test_the_seed_question_answered_new_while_a_refused_save_is_replaced_deals_once() -> None:
    page, plan = _asked(_saved("play, my turn"), "8")
    page.engine.refuse["check"] = "the state is not one the engine made"
    page.input(actions.on_action, "seed-new")
    page.run(boot.connect(page.s, plan))
    assert json.loads(page.s.table.state or "")["seed"] == 8 and page.s.link.engine_ready
    assert [name for name, _args in page.calls].count("new_match") == 1


def test_a_bad_deal_link_is_said_and_a_random_match_starts() -> None:
    page = _booted(None, seed="12abc")
    assert page.s.table.view is not None and "not valid" in texts.words(page.s.screen.alert)


def test_an_engine_lost_with_no_save_starts_the_next_match_under_the_players_house_rules() -> None:
    page = Shell()
    page.s.settings.house_rules = {"match_end": "hands:8", "first_lead": "2C"}
    store.save_settings(page.storage, page.s)
    page.s.saving.unsaved = True
    page.s.saving.save_blocked = True  # (nothing is saved: the recovery finds no save)
    _booted(None, page)
    assert _rules(page)["match_end"] == "hands:8"
    page.engine.die = True
    page.run(actions.on_action(page.s, "hint"))
    assert page.engine.restarts == 1 and page.s.link.engine_ready and not page.s.link.recovering
    assert _rules(page)["match_end"] == "hands:8" and _rules(page)["first_lead"] == "2C"
    assert "restarted" in texts.words(page.s.link.engine_note)


def test_a_recovery_resumes_the_save_and_nothing_else() -> None:
    """Defect: a second "Play again" kept before the engine answered stayed queued (the page busy for
    good) and a later restart replayed it, starting a new match over the one in progress."""
    page = Shell()
    page.storage.setItem(store.SAVE_KEY, json.dumps(_match_over()))
    plan = boot.first_paint(page.s, True, True, store.load_settings(page.storage),
                            store.load(page.storage), False, None, None)  # fmt: skip
    for _press in range(2):
        page.run(actions.on_action(page.s, "play-again"))
    assert page.s.link.queued == [("action", "play-again")] * 2
    page.run(boot.connect(page.s, plan))
    s = page.s
    assert s.link.queued == [] and not flow.busy(s)  # the new table emptied the queue
    assert sum(name == "new_match" for name, _args in page.calls) == 1
    _to_my_turn(page)
    page.run(flow.tap_card(s, _playable(s)[0]))
    page.run(flow.tap_card(s, s.table.selected or ""))
    match_id = s.table.view["match_id"] if s.table.view else ""
    page.engine.die = True
    page.run(actions.on_action(s, "hint"))
    assert s.table.view is not None and s.table.view["match_id"] == match_id  # the same match goes on
    assert sum(name == "new_match" for name, _args in page.calls) == 1


def test_a_doubled_dont_expose_kept_at_the_first_paint_is_carried_out_once() -> None:
    saved = _saved("expose", seed=find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"])))
    page = Shell()
    page.storage.setItem(store.SAVE_KEY, json.dumps(saved))
    plan = boot.first_paint(page.s, True, True, store.load_settings(page.storage),
                            store.load(page.storage), False, None, None)  # fmt: skip
    for _press in range(2):
        page.run(actions.on_action(page.s, "expose-none"))
    page.run(boot.connect(page.s, plan))
    steps = [args["action"] for name, args in page.calls if name == "step"]
    assert steps == [{"type": "expose", "seat": 0, "cards": []}]
    assert texts.words(page.s.screen.message) == "" and not flow.busy(page.s)


def test_another_tab_is_followed_then_taken_back_from_the_hand_summary() -> None:
    page = _booted(_saved("play, my turn"))
    s = page.s
    gen = s.link.gen
    saved_there = _saved("hand over")
    page.storage.setItem(store.SAVE_KEY, json.dumps(saved_there))
    page.run(tabs.other_tab_saved(s, json.dumps(saved_there)))
    assert s.saving.elsewhere and s.link.gen > gen and s.table.view is not None
    assert s.table.view["phase"] == "hand_over" and s.table.checked  # the engine's own view of it
    shown = render.regions(s)  # "Play here" in the summary, which covers the notes; no "Next hand"
    assert 'data-testid="take-over"' in shown["overlay"] and 'data-action="next-hand"' not in shown["overlay"]
    assert 'data-testid="take-over"' not in shown["notes"]
    page.run(actions.on_action(s, "next-hand"))  # a follower's control says why it does nothing
    assert s.table.view["hand_number"] == 1 and "another tab" in texts.words(s.screen.message)
    page.run(actions.on_action(s, "take-over"))  # "Play here", from the summary
    assert not s.saving.elsewhere and s.table.checked and page.storage.getItem(store.SAVE_KEY) is not None
    page.run(actions.on_action(s, "next-hand"))
    assert s.table.view["hand_number"] == 2


@pytest.mark.parametrize("press", ["next-hand", "review-hand"])
def test_a_press_made_while_the_taken_back_table_is_checked_waits_for_it(press: str) -> None:
    """ "Play here", then at once "Next hand" (or "Review hand"), before the engine has checked the
    table taken back: the page reads as busy, the press is kept, then carried out on the checked table
    (it was sent to the engine on the unchecked one, and its answer dropped once the table became this
    tab's: the page stayed busy on the summary for good)."""
    page = _booted(_saved("play, my turn"), Shell(coach=False))
    s = page.s
    saved_there = _saved("hand over")
    page.storage.setItem(store.SAVE_KEY, json.dumps(saved_there))
    page.run(tabs.other_tab_saved(s, json.dumps(saved_there)))
    seen_busy: list[bool] = []

    async def two_presses() -> None:
        page.runner.take_input(actions.on_action, "take-over")
        page.runner.take_input(actions.on_action, press)
        while page.runner.tasks and not all(task.done() for task in page.runner.tasks):
            seen_busy.append(flow.busy(s))
            await asyncio.sleep(0)

    page.until_rest(two_presses())
    assert all(seen_busy) and not flow.busy(s) and not s.saving.elsewhere
    if press == "next-hand":
        assert s.table.view is not None and s.table.view["hand_number"] == 2
    else:
        assert s.review.trick == 1
    checks = [i for i, (name, _args) in enumerate(page.calls) if name == "check"]
    after = [name for name, _args in page.calls[checks[-1] + 1 :]]
    assert after[:1] == (["step"] if press == "next-hand" else ["review"])  # (sent once the table is checked)


def test_a_follower_ignores_a_save_it_cannot_read() -> None:
    page = _booted(_saved("play, my turn"))
    page.run(tabs.other_tab_saved(page.s, "{not json"))
    assert not page.s.saving.elsewhere and page.screen.warnings


def test_a_failed_request_says_why() -> None:
    page = _booted(_saved("play, my turn"))
    page.engine.refuse["hint"] = "boom"
    page.run(actions.on_action(page.s, "hint"))
    assert texts.words(page.s.screen.message) == "Something went wrong: boom" and not page.s.link.busy


def test_an_engine_that_cannot_be_restarted_says_to_reload() -> None:
    page = _booted(_saved("play, my turn"))
    page.engine.die = True
    page.engine.broken = True
    page.run(actions.on_action(page.s, "hint"))
    s = page.s
    assert (
        not s.link.recovering
        and not s.link.engine_ready
        and "could not be restarted" in texts.words(s.link.engine_note)
    )


def test_the_daily_deal_opens_is_recorded_then_shows_its_result_and_leaves_for_the_match() -> None:
    page = _booted(_saved("play, my turn"), Shell(coach=False))  # (the coach is not the subject)
    s = page.s
    match_id = s.table.view["match_id"] if s.table.view else ""
    page.run(actions.on_action(s, "daily"))
    assert s.day.on_table == "2026-12-03" and not s.day.practice and s.table.hand_level == "hard"
    while s.table.view is not None and s.table.view["phase"] in ("expose", "play"):
        page.play_hand()
    assert s.day.result is not None  # recorded once, for today
    page.run(actions.on_action(s, "share"))
    assert page.files.shared and texts.words(s.screen.message).startswith("Copied to the clipboard")
    page.run(actions.on_action(s, "daily-leave"))
    assert s.day.on_table is None and s.table.view is not None and s.table.view["match_id"] == match_id
    page.run(actions.on_action(s, "daily"))  # played already: its result, over the match
    assert s.screen.panel == "daily" and s.day.on_table is None
    # A replay for practice: the same deal, played out, records nothing and offers no Share.
    recorded = page.storage.getItem(RECORD_KEY)
    page.run(actions.on_action(s, "daily-practice"))
    assert s.day.on_table == "2026-12-03" and s.day.practice and s.table.view is not None
    while s.table.view["phase"] in ("expose", "play"):
        page.play_hand()
    summary = texts.words(render.regions(s)["overlay"])
    assert "Practice: this result is not recorded." in summary and 'data-testid="share"' not in summary
    assert page.storage.getItem(RECORD_KEY) == recorded
    page.run(actions.on_action(s, "daily-leave"))
    assert s.day.on_table is None and s.table.view["match_id"] == match_id


def test_another_days_deal_is_practice_and_says_so() -> None:
    page = _booted(None, daily="2026-11-30")
    s = page.s
    assert s.day.on_table == "2026-11-30" and s.day.practice and texts.words(s.screen.alert)


def test_an_import_is_offered_then_written_and_its_match_goes_on() -> None:
    page = _booted(_saved("play, my turn"))
    s = page.s
    other = _saved("hand over", seed=21)
    page.files.picked = transfer.export_text(_storage_with(other), "2026-12-02")
    page.run(actions.on_action(s, "import"))
    assert s.stats.import_offer is not None and s.screen.panel == "statistics"
    page.run(actions.on_action(s, "import-confirm"))
    assert texts.words(s.screen.message) == "Your data was imported." and s.table.view is not None
    assert s.table.view["phase"] == "hand_over" and s.table.state == other["state"]


def _storage_with(saved: dict[str, Any]) -> Any:
    storage = store.MemoryStorage()
    storage.setItem(store.SAVE_KEY, json.dumps(saved))
    return storage


def test_a_cancelled_or_broken_import_changes_nothing() -> None:
    page = _booted(_saved("play, my turn"))
    before = page.s.table.state
    page.files.picked = None
    page.run(actions.on_action(page.s, "import"))
    assert page.s.stats.import_offer is None and texts.words(page.s.screen.message) == ""
    page.files.picked = "{broken"
    page.run(actions.on_action(page.s, "import"))
    assert (
        page.s.stats.import_offer is None
        and texts.words(page.s.screen.message)
        and page.s.table.state == before
    )


def test_settings_read_at_boot_are_taken_whole() -> None:
    storage = store.MemoryStorage()
    s = UIState()
    s.settings.level = "hard"
    s.settings.sound = True
    s.settings.play_speed = "fast"
    assert store.save_settings(storage, s)
    fresh = UIState()
    boot.first_paint(fresh, True, False, store.load_settings(storage), (None, None), False, None, None)
    assert (
        fresh.settings.level,
        fresh.settings.sound,
        fresh.settings.play_speed,
        fresh.settings.four_colour,
    ) == ("hard", True, "fast", False)


@pytest.mark.parametrize("decision", ["resume", "ask", "new"])
def test_the_table_drawn_at_boot_follows_the_start_decision(decision: str) -> None:
    saved = _saved("play, my turn") if decision != "new" else None
    s = UIState()
    problem = "unreadable" if decision == "new" else None
    seed = "77" if decision == "ask" else None
    plan = boot.first_paint(s, True, False, s.settings, (saved, problem), decision == "new", seed, None)
    assert plan.decision == decision
    assert s.table.view == (saved["view"] if saved else None) and not s.table.checked
    assert s.link.ask_seed == (77 if decision == "ask" else None)
    assert (s.saving.unsaved, s.saving.save_blocked) == (
        (True, True) if decision == "new" else (False, False)
    )
    assert texts.words(s.screen.loading_text) and flow.busy(s)  # the engine is not ready: never settled


def test_the_check_of_a_table_replaced_meanwhile_changes_nothing() -> None:
    page = Shell(flow.resume(UIState(), _saved("play, my turn")))
    s = page.s
    s.link.engine_ready = True
    _state, effects = match.check_table(s, lambda s: (s, []), match.new_match)
    call = effects[0]
    assert isinstance(call, fx.Call)
    answer = op("check", state=s.table.state)
    page.run(flow.started(s, op("new_match", seed=8)))  # a ?seed= link's new match came first
    new = (s.table.state, s.table.view)
    page.run(call.then(s, answer, None))
    assert (s.table.state, s.table.view) == new


def test_saving_toasts_and_the_opponents_run_are_bookkept() -> None:
    s = _started(3).s
    assert bookkeeping.save_asked(s) and not bookkeeping.save_asked(s)  # one save queued at a time
    bookkeeping.save_done(s, written=False)
    assert not s.saving.save_pending and s.saving.unsaved
    s.saving.elsewhere = True
    assert not bookkeeping.save_asked(s) and not bookkeeping.driving(
        s, s.link.gen
    )  # another tab has the game
    assert bookkeeping.save_slot(s) == ""
    s.saving.elsewhere = False
    assert bookkeeping.driving(s, s.link.gen) and not bookkeeping.driving(s, s.link.gen)
    bookkeeping.driven(s, s.link.gen)
    assert s.link.driving is None
    bookkeeping.toast_shown(s, "QS", 1.0)
    bookkeeping.toast_shown(s, "JD", 2.0)
    assert not bookkeeping.toast_over(s, 1.0) and s.motion.toast == "JD"
    assert bookkeeping.toast_over(s, 2.0) and s.motion.toast is None
    _state, effects = daily_flow.shared(s, "copied", "text")
    assert texts.words(s.screen.message) == "Copied to the clipboard: text" and [
        type(e) for e in effects
    ] == [fx.Announce]


def test_the_page_autosaves_and_the_toast_goes() -> None:
    page = _started(3)
    assert page.storage.getItem(store.SAVE_KEY) is not None and not page.s.saving.save_pending
    assert texts.words(recovery.request_failed(page.s, "x")[0].screen.message) == "Something went wrong: x"


# --------------------------------------------------------------------------- the prepared first table


def _prepared(seed: int) -> dict[str, Any]:
    """A prepared first table as the page reads it: the build's save text (sitebuild/first_tables.py)
    picked from its file by ``boot.prepared_table``."""
    from sitebuild.first_tables import prepared_table

    return boot.prepared_table(json.dumps({"seeds": [seed], "tables": [prepared_table(seed)]}), 0.5) or {}


def _first_visit(page: Shell, prepared: dict[str, Any] | None, **links: str | None) -> boot.BootPlan:
    loaded = store.load(page.storage)
    wanted = not links and loaded[0] is None
    assert boot.wants_prepared(loaded, links.get("seed"), links.get("daily")) is wanted
    return boot.first_paint(page.s, True, True, store.load_settings(page.storage), loaded,
                            store.save_blocked(page.storage), links.get("seed"), links.get("daily"),
                            prepared)  # fmt: skip


def test_a_first_visit_draws_a_prepared_table_that_the_engine_checks_and_saves() -> None:
    seed = find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"]))
    page = Shell()
    plan = _first_visit(page, _prepared(seed))
    s = page.s
    assert plan.decision == "prepared" and s.table.view is not None and len(s.table.view["hand"]) == 13
    assert not s.link.engine_ready and not s.table.checked  # drawn, not yet the engine's
    assert s.table.match_token
    assert page.storage.getItem(store.SAVE_KEY) is None
    page.run(boot.connect(s, plan))
    assert [name for name, _args in page.calls][:1] == ["check"]  # checked like a save, not dealt again
    assert "new_match" not in [name for name, _args in page.calls]
    assert json.loads(s.table.state or "")["seed"] == seed and s.table.checked and s.link.engine_ready
    assert s.table.view["hand"] == op("new_match", seed=seed)["view"]["hand"]  # the engine's deal
    assert store.load(page.storage)[0] is not None and s.screen.alert is None  # saved, nothing said


def test_inputs_made_on_the_prepared_table_are_carried_out_once_the_engine_checked_it() -> None:
    seed = find_seed(lambda n: bool(op("new_match", seed=n)["view"]["exposable"]))
    page = Shell()
    plan = _first_visit(page, _prepared(seed))
    card = page.s.table.view["exposable"][0]
    page.run(flow.tap_card(page.s, card))
    page.run(actions.on_action(page.s, "expose"))
    assert [name for name, _args in page.calls] == []  # kept: the engine has not answered yet
    page.run(boot.connect(page.s, plan))
    steps = [args["action"] for name, args in page.calls if name == "step"]
    assert steps[:1] == [{"type": "expose", "seat": 0, "cards": [card]}]
    assert card in page.s.table.view["exposed"][0] and not flow.busy(page.s)  # exposed once, play went on


def test_a_prepared_table_the_engine_refuses_gives_way_to_a_new_match_without_a_notice() -> None:
    page = Shell()
    page.engine.refuse["check"] = "the state is not one the engine made"
    plan = _first_visit(page, _prepared(5))
    page.run(boot.connect(page.s, plan))
    assert "new_match" in [name for name, _args in page.calls] and page.s.table.checked
    assert page.s.screen.alert is None and page.storage.getItem(store.corrupt_key(1)) is None


@pytest.mark.parametrize("why", ["seed link", "daily link", "house rules", "level", "save"])
def test_a_prepared_table_stands_only_for_a_random_standard_match(why: str) -> None:
    page = Shell()
    links: dict[str, str | None] = {}
    if why == "seed link":
        links["seed"] = "77"
    elif why == "daily link":
        links["daily"] = ""
    elif why == "house rules":
        page.s.settings.house_rules = {"match_end": "-500"}
        store.save_settings(page.storage, page.s)
    elif why == "level":
        page.s.settings.level = "hard"
        store.save_settings(page.storage, page.s)
    else:
        page.storage.setItem(store.SAVE_KEY, json.dumps(_saved("play, my turn")))
    loaded = store.load(page.storage)
    plan = boot.first_paint(page.s, True, True, store.load_settings(page.storage), loaded, False,
                            links.get("seed"), links.get("daily"), _prepared(5))  # fmt: skip
    assert plan.decision != "prepared"
    assert page.s.table.state is None or json.loads(page.s.table.state)["seed"] != 5


def test_a_broken_prepared_tables_file_is_no_table() -> None:
    assert boot.prepared_table("", 0.3) is None
    assert boot.prepared_table('{"tables": []}', 0.3) is None
    assert boot.prepared_table('{"tables": ["{\\"schema\\": 1}"]}', 0.3) is None


def test_wait_for_your_turn_stays_up_while_the_opponents_play_on_and_goes_at_your_turn() -> None:
    """A tap while an opponent is to play says "Wait for your turn"; the opponents' next cards leave it
    up (it would be gone before it is read), the player's turn takes it away."""
    waiting = play_out(op("new_match", seed=5), lambda v: v["phase"] == "play" and v["turn"] not in (0, 3))
    s = _checked(waiting)
    assert s.table.view is not None
    flow.tap_card(s, s.table.view["hand"][0])
    assert texts.words(s.screen.message) == "Wait for your turn"
    packed, still_up = waiting, 0
    while True:
        packed = op("bot_step", state=packed["state"], seat=packed["view"]["turn"], level="normal")
        flow.answered(s, packed)
        if packed["view"]["turn"] == 0:
            break
        assert texts.words(s.screen.message) == "Wait for your turn"  # an opponent played: still up
        still_up += 1
    assert still_up and s.screen.message is None


def _trick_on_show(leader_is_player: bool) -> UIState:
    """A table just after a finished trick, the trick still on show, the next lead the player's or not."""

    def after_a_trick(v: dict[str, Any]) -> bool:
        return (
            v["phase"] == "play"
            and bool(v["tricks"])
            and not v["trick"]["plays"]
            and ((v["turn"] == 0) == leader_is_player)
        )

    packed = play_out(op("new_match", seed=5), after_a_trick)
    s = _checked(packed)
    s.table.hold = True
    return s


def test_a_tap_while_a_finished_trick_is_on_show_is_carried_out_when_play_goes_on() -> None:
    """Nothing is played while the trick is on show, but the tap is not lost: the player who leads next
    has the card selected, and one who does not is told to wait."""
    for leads in (True, False):
        s = _trick_on_show(leads)
        assert s.table.view is not None
        code = _playable(s)[0] if leads else s.table.view["hand"][0]
        _state, effects = flow.tap_card(s, code)
        assert effects == [] and s.table.selected is None and s.link.queued == [("tap", code)]
        assert flow.busy(s)  # the page is not settled while the tap waits
        _state, effects = flow.trick_cleared(s)
        assert [type(e) for e in effects] == [fx.Save, fx.Replay]
        actions.replay(s)
        assert s.link.queued == []
        if leads:
            assert s.table.selected == code
        else:
            assert s.table.selected is None and texts.words(s.screen.message) == "Wait for your turn"

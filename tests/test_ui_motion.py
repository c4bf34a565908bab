"""Living seats, motion and sound (issue 17) in CPython: which effects a step emits (the sounds, the
deal), who is shown thinking, and what the seat, hand and trick regions draw from it; the sound
player against a stand-in for the browser's Web Audio."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from tests.broken_saves import good_save
from tests.support.page import Page as Shell
from tests.support.replay import find_seed, op, play_out
from ui import actions
from ui.core import effects as fx
from ui.core import flow, store
from ui.core.state import UIState
from ui.features import sound
from ui.view import render


class _Cards(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cards: list[tuple[str, list[str], str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("data-card"):
            self.cards.append(
                (str(found["data-card"]), str(found["class"]).split(), found.get("style") or "")
            )


def _hand_cards(html: str) -> list[tuple[str, list[str], str]]:
    """The hand's cards as drawn: (code, classes, style), in order."""
    parser = _Cards()
    parser.feed(html)
    return parser.cards


def _new_shell(sound_on: bool, seed: int = 5) -> Shell:
    shell = Shell(UIState(), motion=False)
    shell.s.link.engine_ready = True
    shell.s.settings.sound = sound_on
    shell.run(flow.started(shell.s, op("new_match", seed=seed)))
    shell.drive()
    return shell


def test_a_hand_sounds_each_card_each_trick_and_each_signal_card_once() -> None:
    shell = _new_shell(sound_on=True)
    shell.play_hand()
    kinds = [e.kind for e in shell.effects if isinstance(e, fx.Sound)]
    assert kinds.count("card") == 52 and kinds.count("trick") == 13
    assert sorted(k for k in kinds if k not in ("card", "trick")) == ["goat", "pig", "transformer"]
    # each signal sound follows its own toast, the card the engine's view shows played
    for i, effect in enumerate(shell.effects):
        if isinstance(effect, fx.Toast):
            follow = next(e.kind for e in shell.effects[i:] if isinstance(e, fx.Sound))
            assert follow == sound.SIGNALS[effect.card]
    assert set(kinds) <= set(sound.SOUNDS)


def test_sound_off_emits_no_sound_at_all() -> None:
    shell = _new_shell(sound_on=False)
    shell.play_hand()
    assert shell.effects and not [e for e in shell.effects if isinstance(e, fx.Sound)]
    assert [e for e in shell.effects if isinstance(e, fx.Toast)]  # (the toasts still show)


def test_an_opponent_is_thinking_from_its_request_until_its_card_is_adopted() -> None:
    seed = find_seed(lambda n: not op("new_match", seed=n)["view"]["exposable"])
    packed = play_out(op("new_match", seed=seed), lambda v: v["phase"] == "play" and v["turn"] != 0)
    s = flow.resume(UIState(), store.decode(json.dumps(good_save(packed))))
    s.link.engine_ready = True
    seat = packed["view"]["turn"]
    assert s.motion.thinking is None and 'data-testid="thinking"' not in render.seat_html(s, seat)
    _state, effects, go_on = flow.next_step(s)
    call = effects[0]
    assert go_on and isinstance(call, fx.Call) and call.op == "bot_step" and call.args["seat"] == seat
    assert s.motion.thinking == seat
    html = {n: render.seat_html(s, n) for n in range(4)}
    assert 'data-testid="thinking"' in html[seat] and "plate active" in html[seat]
    assert not any('data-testid="thinking"' in html[n] for n in range(4) if n != seat)
    flow.answered(s, op(call.op, **call.args), call.args["state"])
    assert s.motion.thinking is None and 'data-testid="thinking"' not in render.seat_html(s, seat)
    # the player's own turn: lit, never "thinking"; a resumed table shows nobody thinking
    s.motion.thinking = 2
    flow.resume(s, store.decode(json.dumps(good_save(packed))))
    assert s.motion.thinking is None


def test_the_seat_to_play_is_lit_and_each_opponent_has_its_monogram() -> None:
    shell = _new_shell(
        sound_on=False, seed=find_seed(lambda n: not op("new_match", seed=n)["view"]["exposable"])
    )
    s = shell.s
    assert s.table.view is not None and s.table.view["phase"] == "play" and s.table.view["turn"] == 0
    html = {n: render.seat_html(s, n) for n in range(4)}
    assert "plate active" in html[0] and not any("plate active" in html[n] for n in (1, 2, 3))
    assert "avatar" not in html[0]
    for seat, letter in ((1, "M"), (2, "H"), (3, "J")):
        assert f'<span class="avatar av-{seat}" aria-hidden="true">{letter}</span>' in html[seat]
    s.table.hold = True  # a finished trick on show: nobody is to play yet
    assert not any("plate active" in render.seat_html(s, n) for n in range(4))


def test_a_new_hand_is_dealt_card_after_card_until_the_deal_is_over_or_the_player_acts() -> None:
    shell = _new_shell(sound_on=False)
    s = shell.s
    deals = [e for e in shell.effects if isinstance(e, fx.Deal)]
    assert [d.hand for d in deals] == [1] and s.motion.dealing == 1
    assert s.table.view is not None
    cards = _hand_cards(render.hand_html(s))
    assert [code for code, _classes, _style in cards] == s.table.view["hand"]
    assert all("deal" in classes and style == f"--i:{i}" for i, (_code, classes, style) in enumerate(cards))
    flow.dealt(s, 0)  # (an earlier hand's timer) changes nothing
    assert s.motion.dealing == 1
    flow.dealt(s, 1)
    assert s.motion.dealing is None and not any(
        "deal" in c or st for _code, c, st in _hand_cards(render.hand_html(s))
    )
    # the next hand deals again; a tap ends the deal at once (the hand is redrawn)
    shell.play_hand()
    shell.run(actions.on_action(s, "next-hand"))
    assert [e.hand for e in shell.effects if isinstance(e, fx.Deal)] == [1, 2]
    assert s.motion.dealing == 2
    flow.tap_card(s, s.table.view["hand"][0])
    assert s.motion.dealing is None
    s.motion.dealing = 2
    flow.act(s, {"type": "expose", "seat": 0, "cards": []})  # (a step redraws the hand too)
    assert s.motion.dealing is None
    # a resumed table is not dealt again
    assert flow.resume(s, store.decode(json.dumps(good_save(op("new_match", seed=5))))).motion.dealing is None


def test_the_trick_sweeps_to_its_winner_with_its_sound() -> None:
    shell = _new_shell(sound_on=True)
    s = shell.s
    packed = play_out(op("new_match", seed=5), lambda v: bool(v["tricks"]))
    s.table.view, s.table.state, s.table.hold = packed["view"], packed["state"], True
    winner = packed["view"]["tricks"][-1]["winner"]
    _state, effects = flow.sweep(s)
    assert s.motion.collecting == winner and [e.kind for e in effects if isinstance(e, fx.Sound)] == ["trick"]
    html = render.trick_html(s)
    assert html.count("collect to-") == 4 and html.count("collect to-" + render.table.POSITIONS[winner]) == 4


# --------------------------------------------------------------------------- the sound player


class FakeParam:
    def __init__(self, log: list[Any]) -> None:
        self.log = log

    def setValueAtTime(self, value: float, at: float) -> None:
        self.log.append(("set", value, at))

    def exponentialRampToValueAtTime(self, value: float, at: float) -> None:
        self.log.append(("ramp", value, at))


class FakeNode:
    def __init__(self, context: FakeContext) -> None:
        self.context = context
        self.frequency = FakeParam([])
        self.gain = FakeParam([])
        self.type = ""

    def connect(self, other: Any) -> None:
        pass

    def start(self, at: float) -> None:
        self.context.started.append((self.type, self.frequency.log[0][1]))

    def stop(self, at: float) -> None:
        pass


class FakeContext:
    made = 0

    def __init__(self) -> None:
        FakeContext.made += 1
        self.state = "suspended"
        self.currentTime = 3.0
        self.destination = object()
        self.started: list[tuple[str, float]] = []
        self.resumed = 0

    def resume(self) -> None:
        self.resumed += 1
        self.state = "running"

    def createOscillator(self) -> FakeNode:
        return FakeNode(self)

    def createGain(self) -> FakeNode:
        return FakeNode(self)


class FakeWindow:
    """The browser's window, as far as ui/features/sound.py uses it (``AudioContext.new()``, user activation)."""

    def __init__(self, active: bool = False) -> None:
        self.AudioContext = type("AudioContext", (), {"new": staticmethod(FakeContext)})
        self.navigator = type("Navigator", (), {"userActivation": type("UA", (), {"hasBeenActive": active})})


def test_no_audio_context_before_a_gesture_with_sound_on() -> None:
    FakeContext.made = 0
    player = sound.Player(FakeWindow(active=False))
    player.play("card")  # the page has not been touched: skipped, nothing created
    player.gesture(False)  # sound off: a tap creates nothing either
    assert FakeContext.made == 0 and player.context is None
    player.gesture(True)
    assert FakeContext.made == 1
    player.gesture(True)  # a suspended context is woken up by the next tap
    assert player.context.resumed == 1 and FakeContext.made == 1
    player.play("trick")
    notes = sound.SOUNDS["trick"]
    assert player.context.started == [(n[4], n[2]) for n in notes]


def test_the_first_sound_after_a_gesture_creates_the_context() -> None:
    FakeContext.made = 0
    player = sound.Player(FakeWindow(active=True))
    player.play("pig")
    assert FakeContext.made == 1 and len(player.context.started) == len(sound.SOUNDS["pig"])
    player.play("no-such-sound")
    assert len(player.context.started) == len(sound.SOUNDS["pig"])


def test_every_signal_card_has_a_sound() -> None:
    from gongzhu.vocab import SIGNAL_CARDS

    assert set(sound.SIGNALS) == set(SIGNAL_CARDS)
    assert all(kind in sound.SOUNDS for kind in sound.SIGNALS.values())

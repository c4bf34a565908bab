"""Issue 15 in the UI's pure layer (CPython): the review's transitions (ui/review.py), the coach run
one request at a time in the background and dropped when the player moves on, the review's HTML
(ui/review_html.py, escaped) and the memory aid's switch and HTML."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.game import op, play_out
from tests.test_ui_flow import Shell as FlowShell
from ui import effects as fx
from ui import flow, render, review, review_html, store
from ui.state import UIState


class Shell(FlowShell):
    """Runs effects like ui/app.py (tests/test_ui_flow.py's shell); background calls are queued and
    run only when asked, as the page runs them between its other requests."""

    def __init__(self, s: UIState) -> None:
        super().__init__(s)
        self.background: list[fx.Call] = []

    def run(self, result: Any) -> None:
        state, effects = result
        self.background += [e.call for e in effects if isinstance(e, fx.Background)]
        super().run((state, [e for e in effects if not isinstance(e, fx.Background)]))

    def run_background(self) -> None:
        while self.background:
            call = self.background.pop(0)
            self.run(getattr(flow, call.then)(self.s, op(call.op, **call.args), call.args.get("state")))


def at_hand_over(seed: int = 5) -> Shell:
    packed = play_out(op("new_match", seed=seed), lambda v: v["phase"] == "hand_over")
    s = UIState()
    s.engine_ready = True
    s.state, s.view = packed["state"], packed["view"]
    shell = Shell(s)
    shell.drive()
    return shell


def test_the_coach_runs_one_decision_a_request_then_gives_its_verdict() -> None:
    shell = at_hand_over()
    s = shell.s
    assert len(shell.background) == 1 and shell.background[0].op == "coach"
    assert "analysing" in review_html.verdict_text(s.review)
    call = shell.background.pop(0)
    shell.run(flow.coached(s, op(call.op, **call.args), call.args.get("state")))
    assert len(s.review.analyses) == 1 and len(shell.background) == 1  # one at a time
    shell.run_background()
    assert s.review.count is not None and len(s.review.analyses) == s.review.count
    costly, cost, complete = review.verdict(s.review)
    assert costly == sum(1 for a in s.review.analyses if a["costly"])
    assert complete and cost == sum(a["cost"] for a in s.review.analyses if a["costly"])
    assert "analysing" not in review_html.verdict_text(s.review)
    assert 'data-testid="coach-verdict"' in render.overlay_html(s)


def test_the_analysis_is_dropped_when_the_player_moves_on() -> None:
    shell = at_hand_over()
    s = shell.s
    pending = shell.background.pop(0)
    shell.run(flow.on_action(s, "next-hand"))
    assert s.view is not None and s.view["phase"] != "hand_over"
    shell.run(flow.coached(s, op(pending.op, **pending.args), pending.args.get("state")))
    assert shell.background == [] and review.of_table(s).analyses == []


def test_review_steps_through_the_tricks_and_resumes_after_a_reload() -> None:
    shell = at_hand_over()
    s = shell.s
    shell.run(flow.on_action(s, "review-hand"))
    html = render.overlay_html(s)
    assert 'data-testid="review"' in html and 'data-trick="1"' in html
    first = s.review.data["tricks"][0]["plays"]
    for play in first:
        assert 'data-card="{card}" data-seat="{seat}"'.format(**play) in html
    shell.run(flow.on_action(s, "review-prev"))
    assert s.review.trick == 1
    for _ in range(20):
        shell.run(flow.on_action(s, "review-next"))
    assert s.review.trick == 13
    shell.run(flow.on_action(s, "review-go-4"))
    assert s.review.trick == 4
    winner = {0: "You", 1: "Ming", 2: "Hua", 3: "Jun"}[s.review.data["tricks"][3]["winner"]]
    assert shell.said[-1].startswith("Trick 4: ") and shell.said[-1].endswith("won by " + winner)  # read out
    shell.run(review.on_key(s, "ArrowRight"))
    review.pointer_down(s, 300.0)
    shell.run(review.pointer_up(s, 100.0))  # a swipe to the left: the next trick
    assert s.review.trick == 6
    review.pointer_down(s, 100.0)
    shell.run(review.pointer_up(s, 110.0))  # too short for a swipe
    assert s.review.trick == 6
    # a reload: the save keeps the trick shown; the engine sends the hand again
    saved = store.decode(store.encode(s))
    again = UIState()
    again.engine_ready = True
    flow.resume(again, saved)
    shell2 = Shell(again)
    shell2.drive()
    assert again.review.trick == 6 and again.review.data == s.review.data
    assert 'data-trick="6"' in render.overlay_html(again)
    shell2.run(review.on_key(again, "Escape"))
    assert 'data-testid="hand-summary"' in render.overlay_html(again)


def test_a_saved_review_trick_out_of_range_is_dropped() -> None:
    shell = at_hand_over()
    data = json.loads(store.encode(shell.s))
    for bad in (14, -1, "3", True, 2.5):
        data["review_trick"] = bad
        assert store.decode(json.dumps(data))["review_trick"] == 0


def test_costly_plays_carry_their_cost_in_the_review() -> None:
    shell = at_hand_over()
    s = shell.s
    shell.run_background()
    shell.run(flow.on_action(s, "review-hand"))
    costly = [a for a in s.review.analyses if a["costly"] and a["kind"] == "play"]
    assert costly, "seed 5 played by Normal has a costly play of seat 0 (see tests/test_review.py)"
    shell.run(flow.on_action(s, "review-go-{}".format(costly[0]["trick"])))
    html = render.overlay_html(s)
    assert 'data-costly="{}"'.format(costly[0]["cost"]) in html


def test_memory_aid_switch_is_a_saved_setting_and_shows_the_engine_facts() -> None:
    packed = play_out(op("new_match", seed=2), lambda v: v["phase"] == "play" and len(v["tricks"]) >= 4)
    s = UIState()
    s.engine_ready = True
    s.state, s.view = packed["state"], packed["view"]
    assert 'data-testid="memory-points"' not in render.seat_html(s, 0)
    s, effects = flow.on_action(s, "memory-aid")
    assert s.memory_aid and any(isinstance(e, fx.SaveSettings) for e in effects)
    assert 'data-testid="memory-points"' in render.seat_html(s, 0)
    memory = s.view["memory"]

    class Storage(dict[str, str]):
        def getItem(self, key: str) -> str | None:
            return self.get(key)

        def setItem(self, key: str, value: str) -> None:
            self[key] = value

    storage = Storage()
    store.save_settings(storage, s)
    assert store.load_settings(storage)["memory_aid"] is True
    voids = [seat for seat in (1, 2, 3) if memory["voids"][seat]]
    for seat in voids:
        assert "memory-seat" in render.seat_html(s, seat)


def test_no_value_of_the_review_or_the_coach_is_written_as_markup() -> None:
    from tests.test_ui_escaping import MARKUP, Poisoned, _values
    from ui import i18n

    shell = at_hand_over()
    s = shell.s
    shell.run_background()
    shell.run(flow.on_action(s, "review-hand"))
    assert s.review.data is not None
    i18n.install("fr", Poisoned())
    try:
        s.review.data = _values(s.review.data)
        s.review.analyses = [
            dict(_values(a), costly=True, cost=5, trick=t % 13 + 1) for t, a in enumerate(s.review.analyses)
        ]
        for trick in range(1, 14):
            s.review.trick = trick
            html = render.overlay_html(s)
            assert 'data-testid="review"' in html and "<b " not in html, html[html.find("<b ") - 80 :][:200]
        s.review.trick = 0
        assert "<b " not in render.overlay_html(s)
        assert MARKUP not in review_html.verdict_text(s.review) or "<b " not in review_html.verdict_html(s)
    finally:
        i18n.install("en", {})


def test_a_saved_memory_aid_of_the_wrong_shape_is_refused_before_it_is_drawn() -> None:
    import pytest

    from ui import shape

    packed = play_out(op("new_match", seed=2), lambda v: v["phase"] == "play" and len(v["tricks"]) >= 3)
    shape.check_view(packed["view"])
    for bad in (
        {"voids": 5},
        {"voids": [["X"], [], [], []], "exposed_out": [[], [], [], []], "points_out": []},
        {"voids": [[], [], [], []], "exposed_out": [["QS"], [], []], "points_out": []},
        {"voids": [[], [], [], []], "exposed_out": [[], [], [], []], "points_out": ["QS", "QS"]},
        {"voids": [[], [], [], []], "exposed_out": [[], [], [], []], "points_out": "QS"},
    ):
        view = dict(packed["view"], memory=bad)
        with pytest.raises(shape.ShapeError):
            shape.check_view(view)


def test_a_resumed_review_survives_a_save_before_the_engine_answered() -> None:
    shell = at_hand_over()
    shell.run(flow.on_action(shell.s, "review-hand"))
    shell.run(flow.on_action(shell.s, "review-go-7"))
    resumed = flow.resume(UIState(), store.decode(store.encode(shell.s)))
    again = store.decode(store.encode(resumed))  # saved again before the engine's check answered
    assert again["review_trick"] == 7

"""Issue 15 in the UI's pure layer (CPython): the review's transitions (ui/features/review.py), the coach run
one request at a time in the background and dropped when the player moves on, the review's HTML
(ui/view/review_html.py, escaped) and the memory aid's switch and HTML."""

from __future__ import annotations

import json
from typing import Any

from gongzhu import coach
from tests.support.page import Page
from tests.support.replay import op, play_out
from ui import actions
from ui.core import effects as fx
from ui.core import flow, settings, store
from ui.core.state import UIState
from ui.features import boot, review, review_store
from ui.view import render, review_html, texts

STORED = (fx.Background, fx.KeepReview, fx.CheckReviews, fx.StoreReviews)


class Shell(Page):
    """The page's runner (tests/support/page.py) with its background requests (the coach, the stored
    reviews' check) queued and run only when asked, as the page runs them between its other requests."""

    def __init__(self, s: UIState, storage: Any = None) -> None:
        super().__init__(s, storage)
        self.background: list[fx.Call] = []
        self.runner.handlers[fx.Background] = self._queue
        self.runner.handlers[fx.CheckReviews] = self._queue_check

    async def _queue(self, effect: Any, gen: int) -> None:
        self.effects.append(effect)
        self.background.append(effect.call)

    async def _queue_check(self, effect: Any, gen: int) -> None:
        self.effects.append(effect)
        hands = review_store.entries(self.storage)
        args = {"table": effect.table, "hands": hands}
        self.background.append(
            fx.Call("check_reviews", args, review.reviews_checked, failed=review.reviews_failed)
        )

    def run_background(self, limit: int = 10_000) -> None:
        while self.background and limit:
            limit -= 1
            call = self.background.pop(0)
            self.until_rest(self.runner._quietly(call, self.s.link.gen))


def at_hand_over(seed: int = 5, packed: Any = None) -> Shell:
    if packed is None:
        packed = play_out(op("new_match", seed=seed), lambda v: v["phase"] == "hand_over")
    s = UIState()
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    shell = Shell(s)
    shell.drive()
    return shell


def test_the_coach_runs_one_decision_a_request_then_gives_its_verdict() -> None:
    shell = at_hand_over()
    s = shell.s
    assert len(shell.background) == 1 and shell.background[0].op == "coach"
    assert "analysing" in review_html.verdict_text(s.review)
    call = shell.background.pop(0)
    shell.run(review.coached(s, op(call.op, **call.args), call.args.get("state")))
    # a small step: the decision's sums so far, sent back with its next step, one request at a time
    assert s.review.analyses == [] and s.review.count is not None and len(shell.background) == 1
    assert shell.background[0].args["part"]["step"] == 1 and shell.background[0].args["index"] == 0
    shell.run_background(limit=coach.STEPS - 1)
    assert len(s.review.analyses) == 1 and len(shell.background) == 1
    assert shell.background[0].args["index"] == 1 and "part" not in shell.background[0].args
    shell.run_background()
    assert s.review.count is not None and len(s.review.analyses) == s.review.count
    costly, cost, complete = review.verdict(s.review)
    assert costly == sum(1 for a in s.review.analyses if a["costly"])
    assert complete and cost == sum(a["cost"] for a in s.review.analyses if a["costly"])
    assert "analysing" not in review_html.verdict_text(s.review)
    assert 'data-testid="coach-verdict"' in render.overlay_html(s)


def test_a_player_action_while_a_coach_step_is_pending_goes_at_once_and_drops_the_coach() -> None:
    shell = at_hand_over()
    s = shell.s
    pending = shell.background.pop(0)  # a coach step the worker has not answered yet
    assert s.review.running and not s.link.busy
    _s, effects = actions.on_action(s, "next-hand")
    # the player's request is the transition's own engine call: nothing waits for the coach first
    assert [type(e) for e in effects] == [fx.Call] and effects[0].op == "step"
    shell.run((s, effects))
    assert s.table.view is not None and s.table.view["phase"] != "hand_over"
    shell.run(review.coached(s, op(pending.op, **pending.args), pending.args.get("state")))
    assert shell.background == [] and review.of_table(s).analyses == []
    assert not review.current(s).running and review.after_hand(s) == []  # no coach for a hand in play


def test_review_steps_through_the_tricks_and_resumes_after_a_reload() -> None:
    shell = at_hand_over()
    s = shell.s
    shell.run(actions.on_action(s, "review-hand"))
    html = render.overlay_html(s)
    assert 'data-testid="review"' in html and 'data-trick="1"' in html
    first = s.review.data["tricks"][0]["plays"]
    for play in first:
        assert 'data-card="{card}" data-seat="{seat}"'.format(**play) in html
    shell.run(actions.on_action(s, "review-prev"))
    assert s.review.trick == 1
    for _ in range(20):
        shell.run(actions.on_action(s, "review-next"))
    assert s.review.trick == 13
    shell.run(actions.on_action(s, "review-go-4"))
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
    again.link.engine_ready = True
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
    from tests.support.replay import COSTLY_SEED, predicted_hand_over

    shell = at_hand_over(packed=predicted_hand_over(COSTLY_SEED))
    s = shell.s
    shell.run_background()
    shell.run(actions.on_action(s, "review-hand"))
    costly = [a for a in s.review.analyses if a["costly"] and a["kind"] == "play"]
    assert costly, "the first playable card each time gives points away in this deal"
    shell.run(actions.on_action(s, "review-go-{}".format(costly[0]["trick"])))
    html = render.overlay_html(s)
    assert 'data-costly="{}"'.format(costly[0]["cost"]) in html


def test_memory_aid_switch_is_a_saved_setting_and_shows_the_engine_facts() -> None:
    packed = play_out(op("new_match", seed=2), lambda v: v["phase"] == "play" and len(v["tricks"]) >= 4)
    s = UIState()
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    assert 'data-testid="memory-points"' not in render.seat_html(s, 0)
    s, effects = actions.on_action(s, "memory-aid")
    assert s.settings.memory_aid and any(isinstance(e, fx.SaveSettings) for e in effects)
    assert 'data-testid="memory-points"' in render.seat_html(s, 0)
    memory = s.table.view["memory"]

    class Storage(dict[str, str]):
        def getItem(self, key: str) -> str | None:
            return self.get(key)

        def setItem(self, key: str, value: str) -> None:
            self[key] = value

    storage = Storage()
    store.save_settings(storage, s)
    assert settings.as_json(store.load_settings(storage))["memory_aid"] is True
    voids = [seat for seat in (1, 2, 3) if memory["voids"][seat]]
    for seat in voids:
        assert "memory-seat" in render.seat_html(s, seat)


def test_no_value_of_the_review_or_the_coach_is_written_as_markup() -> None:
    from tests.test_ui_escaping import MARKUP, Poisoned, _values
    from ui.view import i18n

    shell = at_hand_over()
    s = shell.s
    shell.run_background()
    shell.run(actions.on_action(s, "review-hand"))
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

    from ui.core import shape

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
    shell.run(actions.on_action(shell.s, "review-hand"))
    shell.run(actions.on_action(shell.s, "review-go-7"))
    resumed = flow.resume(UIState(), store.decode(store.encode(shell.s)))
    again = store.decode(store.encode(resumed))  # saved again before the engine's check answered
    assert again["review_trick"] == 7


# --------------------------------------------------------------------------- the match's earlier hands


def _stored_match(seed: int = 1) -> tuple[dict[str, Any], dict[str, str]]:
    """Match ``seed`` played out by the Normal bots, each finished hand kept as the page keeps it:
    the final answer and the storage's data."""
    storage = store.MemoryStorage()
    packed = op("new_match", seed=seed)
    while True:
        packed = play_out(packed, lambda v: v["phase"] in ("hand_over", "match_over"))
        review_store.remember(storage, packed["view"]["hand_number"], packed["state"], [])
        if packed["view"]["phase"] == "match_over":
            return packed, storage.data
        packed = op("step", state=packed["state"], action={"type": "next_hand"})


_MATCH: list[tuple[dict[str, Any], dict[str, str]]] = []


def at_match_over(tamper: Any = None) -> Shell:
    """The match result of seed 1 (6 hands) with its stored reviews (``tamper(entries)`` first)."""
    if not _MATCH:
        _MATCH.append(_stored_match())
    packed, data = _MATCH[0]
    storage = store.MemoryStorage()
    storage.data = dict(data)
    if tamper is not None:
        entries = json.loads(storage.data[review_store.KEY])
        tamper(entries)
        storage.data[review_store.KEY] = json.dumps(entries)
    s = UIState()
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    shell = Shell(s, storage)
    shell.drive()
    return shell


def run_check(shell: Shell) -> None:
    """Run the engine's check of the stored reviews (queued in the background at the match result)."""
    check = next(c for c in shell.background if c.op == "check_reviews")
    shell.background.remove(check)
    shell.run(review.reviews_checked(shell.s, op(check.op, **check.args), check.args["table"]))


def test_the_match_result_offers_the_last_hands_the_engine_checked() -> None:
    from gongzhu.review import KEEP_HANDS

    shell = at_match_over()
    s = shell.s
    last = s.table.view["hand_number"]
    assert 'data-testid="review-hand-1"' not in render.overlay_html(s)  # nothing before the engine's check
    run_check(shell)
    numbers = [h["hand_number"] for h in s.stored.hands]
    assert (
        numbers == list(range(max(1, last - KEEP_HANDS + 1), last + 1)) and texts.words(s.stored.note) == ""
    )
    html = render.overlay_html(s)
    for n in numbers[:-1]:
        assert f'data-testid="review-hand-{n}"' in html
    assert f'data-testid="review-hand-{last}"' not in html and 'data-testid="review-hand"' in html
    assert len(shell.storage.data[review_store.KEY]) < 60_000  # six states (~41 KB here), no analyses yet


def test_an_earlier_hand_is_reviewed_coached_and_resumed_after_a_reload() -> None:
    shell = at_match_over()
    s = shell.s
    run_check(shell)
    shell.background.clear()  # (the last hand's coach: not needed here)
    s.review.running = False
    shell.run(actions.on_action(s, "review-hand-2"))
    assert s.review.hand == 2 and s.review.data is not None and s.review.data["hand_number"] == 2
    html = render.overlay_html(s)
    assert 'data-testid="review"' in html and 'data-trick="1"' in html and "Hand 2: trick 1 of 13" in html
    first = s.review.data["tricks"][0]["plays"]
    assert 'data-card="{card}" data-seat="{seat}"'.format(**first[0]) in html
    # its coach runs in the background, and each analysis is stored with the hand
    assert [c.op for c in shell.background] == ["coach"]
    assert shell.background[0].args["state"] == s.review.hand_state
    shell.run_background(limit=coach.STEPS)
    assert len(s.review.analyses) == 1
    stored = {e["hand"]: e for e in review_store.entries(shell.storage)}
    assert stored[2]["analyses"] == s.review.analyses
    shell.background.clear()
    shell.run(actions.on_action(s, "review-go-5"))
    # a reload: the save names the hand and the trick; the engine checks the stored hands again
    saved = store.decode(store.encode(s))
    assert saved["review_hand"] == 2 and saved["review_trick"] == 5
    data = json.loads(store.encode(s))
    for bad in (-1, "2", True, 2.0, 1000):
        data["review_hand"] = bad
        assert store.decode(json.dumps(data))["review_hand"] == 0
    again = UIState()
    again.link.engine_ready = True
    flow.resume(again, saved)
    shell2 = Shell(again, shell.storage)
    shell2.drive()
    assert 'data-card="' not in render.overlay_html(again)  # nothing drawn before the engine's check
    run_check(shell2)
    assert again.review.hand == 2 and again.review.trick == 5
    assert again.review.data == s.review.data and again.review.analyses == s.review.analyses
    assert 'data-trick="5"' in render.overlay_html(again)
    shell2.run(review.on_key(again, "Escape"))
    assert 'data-testid="match-summary"' in render.overlay_html(again) and again.review.hand == 0


def test_a_tampered_stored_review_is_set_aside_with_a_notice_and_never_drawn() -> None:
    def tamper(entries: list[dict[str, Any]]) -> None:
        state = json.loads(entries[1]["state"])  # hand 2: two plays swapped
        plays = state["tricks"][0]["plays"]
        plays[0]["card"], plays[1]["card"] = plays[1]["card"], plays[0]["card"]
        entries[1]["state"] = json.dumps(state)
        entries[2]["analyses"] = [{"index": 0, "cost": "<b>lots</b>"}]  # hand 3: a forged analysis
        entries[3]["state"] = "{not json"

    shell = at_match_over(tamper)
    s = shell.s
    run_check(shell)
    numbers = [h["hand_number"] for h in s.stored.hands]
    assert 2 not in numbers and 3 not in numbers and 4 not in numbers and 1 in numbers
    html = render.overlay_html(s)
    assert (
        "could not be read and was set aside" in html
        and "review-hand-2" not in html
        and "<b>lots" not in html
    )
    assert shell.said[-1] == texts.words(s.stored.note)
    assert "<b>lots</b>" in shell.storage.data[review_store.CORRUPT_KEY]  # kept aside, not lost
    assert [e["hand"] for e in review_store.entries(shell.storage)] == numbers
    shell.run(actions.on_action(s, "review-hand-3"))  # a refused hand cannot be opened
    assert s.review.trick == 0


def test_another_matchs_stored_hands_are_not_offered_and_not_a_fault() -> None:
    other = op("new_match", seed=2)
    other = play_out(other, lambda v: v["phase"] == "hand_over")

    def foreign(entries: list[dict[str, Any]]) -> None:
        entries[0] = {"hand": 1, "state": other["state"], "analyses": []}

    shell = at_match_over(foreign)
    run_check(shell)
    assert (
        1 not in [h["hand_number"] for h in shell.s.stored.hands] and texts.words(shell.s.stored.note) == ""
    )


def test_the_store_keeps_the_last_hands_of_one_match() -> None:
    storage = store.MemoryStorage()
    for n in range(1, 10):
        assert review_store.remember(storage, n, f"state {n}", [])
    assert [e["hand"] for e in review_store.entries(storage)] == list(range(10 - review_store.KEEP_HANDS, 10))
    review_store.remember(storage, 7, "again", [{"index": 0}])  # the same hand, coached further
    assert [e["hand"] for e in review_store.entries(storage)] == [4, 5, 6, 7]
    review_store.remember(storage, 1, "a new match", [])
    assert [e["state"] for e in review_store.entries(storage)] == ["a new match"]
    storage.data[review_store.KEY] = "x" * (review_store.MAX_CHARS + 1)
    assert review_store.entries(storage) == []


def test_a_finished_hand_is_kept_for_review_as_it_ends() -> None:
    packed = play_out(op("new_match", seed=5), lambda v: v["phase"] == "play" and len(v["tricks"]) == 12)
    s = UIState()
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    while s.table.view["phase"] == "play":
        turn = s.table.view["turn"]
        before = s.table.state
        answer = op("bot_step", state=before, seat=turn, level="normal")
        s, effects = flow.answered(s, answer, before)
    assert [e for e in effects if isinstance(e, fx.HandOver)]  # (the review keeps the hand: review.kept)
    kept = [e for e in review.kept(s) if isinstance(e, fx.KeepReview)]
    assert len(kept) == 1 and kept[0].hand == 1 and kept[0].state == s.table.state


def test_the_page_states_the_coachs_threshold() -> None:
    shell = at_hand_over()
    assert f"at least {coach.COSTLY_POINTS} expected points" in render.overlay_html(shell.s)


def test_a_resumed_earlier_review_closes_when_the_engine_cannot_check_the_stored_hands() -> None:
    shell = at_match_over()
    run_check(shell)
    shell.run(actions.on_action(shell.s, "review-hand-3"))
    saved = store.decode(store.encode(shell.s))
    again = flow.resume(UIState(), saved)
    again.link.engine_ready = True
    Shell(again, shell.storage).drive()
    assert again.review.hand == 3 and again.review.trick == 1  # waiting for the engine's check
    review.reviews_failed(again)
    assert again.review.trick == 0 and 'data-testid="match-summary"' in render.overlay_html(again)


def test_a_page_opened_with_coach_0_keeps_and_reviews_the_hand_but_asks_the_coach_nothing() -> None:
    """``?coach=0`` (the end-to-end tests not about the coach): the finished hand is kept and its review
    works, but no decision is valued, neither at the hand's end nor when its review opens or closes."""
    packed = play_out(op("new_match", seed=5), lambda v: v["phase"] == "hand_over")
    s = UIState()
    boot.first_paint(s, True, True, settings.Settings(), (None, None), False, None, None, coach=False)
    assert not s.link.coach
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    shell = Shell(s)
    shell.drive()
    assert shell.background == [] and not s.review.running
    assert [e for e in review.kept(s) if isinstance(e, fx.KeepReview)]  # (kept for review all the same)
    shell.run(actions.on_action(s, "review-hand"))
    assert s.review.trick == 1 and s.review.data is not None
    shell.run(actions.on_action(s, "review-close"))
    assert shell.background == [] and s.review.analyses == []
    assert not [c for c in shell.calls if c[0] == "coach"]
    # the same hand on a page opened without it: the coach's first step is asked at once
    other = at_hand_over(packed=packed)
    assert other.s.link.coach and [c.op for c in other.background] == ["coach"]

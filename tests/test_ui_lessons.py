"""The lessons on the page (ui/features/lessons.py, ui/view/lessons_html.py) in CPython: the real
runner, the real engine service and doubles of the ports (tests/support/page.py). The offer on a
first visit, each lesson guided to its verdict, a wrong play and its retry, skipping and leaving
for the match as it was, a reload in the middle of a lesson, progress checked on read, and no
statistics."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest

from gongzhu.vocab import LESSONS
from tests.support.page import Page
from ui import actions
from ui.core import flow, store
from ui.features import boot, lessons, record
from ui.view import lessons_html, render, texts


def _booted(page: Page | None = None) -> Page:
    """A page booted as ui/main.py boots it (storage as it is), run until the player may act."""
    page = page or Page()
    plan = boot.first_paint(
        page.s,
        True,
        True,
        store.load_settings(page.storage),
        store.load(page.storage),
        store.save_blocked(page.storage),
        None,
        None,
    )
    page.run(boot.connect(page.s, plan))
    return page


def _act(page: Page, name: str) -> None:
    page.input(actions.on_action, name)


def _follow(page: Page) -> int:
    """Do what the lesson asks until its verdict: play the card it selected (one tap), or confirm the
    exposure it chose. Returns the taps made."""
    s = page.s
    taps = 0
    while s.lesson.outcome is None:
        view = s.table.view
        assert view is not None and taps < 12, (s.lesson.on, s.lesson.step)
        if view["phase"] == "expose":
            assert s.table.expose_sel == ["JD"]
            _act(page, "expose")
        else:
            assert s.lesson.guide is not None and s.table.selected == s.lesson.guide
            page.input(flow.tap_card, s.lesson.guide)
        taps += 1
    return taps


def _regions(page: Page) -> dict[str, str]:
    return {k: unescape(v) for k, v in render.regions(page.s).items()}


def test_a_first_visit_offers_the_lessons_and_playing_answers_it() -> None:
    page = _booted()
    s = page.s
    assert s.lesson.offer and s.lesson.on is None
    notes = _regions(page)["notes"]
    assert 'data-testid="lesson-offer"' in notes and "Learn to play" in notes and "Play now" in notes
    # playing a card (or exposing) answers it: it is not made again
    if s.table.view and s.table.view["phase"] == "expose":
        _act(page, "expose-none")
    else:
        card = next(c for c in s.table.view["hand"] if s.table.view["refusals"][c] is None)
        flow.tap_card(s, card)
        page.input(flow.tap_card, card)
    assert not s.lesson.offer
    assert json.loads(page.storage.getItem(lessons.PROGRESS_KEY)) == {
        "schema": 1,
        "done": [],
        "offered": True,
    }
    again = _booted(Page(storage=page.storage))
    assert not again.s.lesson.offer


def test_play_now_dismisses_the_offer_for_good() -> None:
    page = _booted()
    _act(page, "offer-dismiss")
    assert not page.s.lesson.offer and "lesson-offer" not in _regions(page)["notes"]
    assert not _booted(Page(storage=page.storage)).s.lesson.offer


def test_no_offer_once_anything_was_played() -> None:
    page = Page()
    page.storage.setItem(record.RECORD_KEY, record.encode(record.Record()))
    assert not _booted(page).s.lesson.offer


def test_every_lesson_guided_to_its_verdict_in_a_row_then_back_to_the_match() -> None:
    page = _booted()
    s = page.s
    match_save = page.storage.getItem(store.SAVE_KEY)
    match_state = s.table.state
    _act(page, "offer-learn")
    taps = {}
    for number in range(1, len(LESSONS) + 1):
        assert s.lesson.on == number and s.table.hand_level == "easy"
        strip = _regions(page)["notes"]
        assert lessons_html.goal(number) in strip
        assert any(lessons_html.goal(number) in said for said in page.said)
        taps[number] = _follow(page)
        assert s.lesson.passed and s.lesson.outcome == LESSONS[number - 1] + "_done"
        assert number in s.lesson.done
        overlay = _regions(page)["overlay"]
        assert 'data-testid="lesson-verdict"' in overlay
        assert lessons_html.outcome_text(s.lesson.outcome) in overlay
        if number < len(LESSONS):  # (the next lesson's goal, before it starts)
            assert lessons_html.goal(number + 1) in overlay
        assert page.storage.getItem(store.SAVE_KEY) == match_save  # (the match's save untouched)
        if number == len(LESSONS):
            during = len(page.effects)
        _act(page, "lesson-next")
    assert taps == {1: 1, 2: 1, 3: 1, 4: 2, 5: 1, 6: 3, 7: 2}
    # after the last lesson, "Next" is the way back to the match, as it was
    assert s.lesson.on is None and s.table.state == match_state
    assert page.storage.getItem(lessons.SLOT_KEY) is None
    assert json.loads(page.storage.getItem(lessons.PROGRESS_KEY))["done"] == list(range(1, 8))
    # lessons count in no statistics
    assert page.storage.getItem(record.RECORD_KEY) in (None, record.encode(record.Record()))
    in_lessons = page.effects[:during]
    assert not any(
        type(e).__name__ in ("CountHand", "CountDaily", "KeepReview", "HandOver") for e in in_lessons
    )
    # the menu's list marks them done
    _act(page, "lessons")
    listed = _regions(page)["overlay"]
    assert listed.count('data-done="true"') == 7
    assert all(lessons_html.goal(n) in listed for n in range(1, 8))  # each with its goal, on any screen


def test_a_wrong_play_leads_to_the_retry_which_deals_the_lesson_again() -> None:
    page = _booted()
    s = page.s
    _act(page, "lesson-2")
    assert s.lesson.guide == "5S"
    page.input(flow.tap_card, "AS")  # (selects the ace: the lesson's card is no longer selected)
    page.input(flow.tap_card, "AS")  # the pig falls to the player
    assert s.lesson.outcome == "pig_retry" and not s.lesson.passed and 2 not in s.lesson.done
    overlay = _regions(page)["overlay"]
    assert "Try again" in overlay and lessons_html.outcome_text("pig_retry") in overlay
    assert lessons_html.goal(2) in overlay
    assert any(lessons_html.outcome_text("pig_retry") in said for said in page.said)
    _act(page, "lesson-retry")
    assert s.lesson.on == 2 and s.lesson.outcome is None and s.table.selected == "5S"
    assert _follow(page) == 1 and s.lesson.passed


@pytest.mark.parametrize("number", [4, 6, 7])
def test_a_reload_in_the_middle_of_a_lesson_resumes_it(number: int) -> None:
    page = _booted()
    s = page.s
    match_save = page.storage.getItem(store.SAVE_KEY)
    _act(page, "lesson-" + str(number))
    first = s.table.view["phase"] == "expose"
    if first:
        _act(page, "expose")
    else:
        page.input(flow.tap_card, s.lesson.guide)
    assert s.lesson.outcome is None
    state = s.table.state
    saved = json.loads(page.storage.getItem(lessons.SLOT_KEY))
    assert saved["lesson"] == number and saved["state"] == state
    assert page.storage.getItem(store.SAVE_KEY) == match_save
    reloaded = _booted(Page(storage=page.storage))
    r = reloaded.s
    assert r.lesson.on == number and r.table.state == state and r.lesson.step is not None
    assert r.table.selected == r.lesson.guide and not r.lesson.offer
    assert _follow(reloaded) >= 1 and r.lesson.passed
    # leaving returns to the match, exactly as saved
    _act(reloaded, "lesson-leave")
    assert r.lesson.on is None and reloaded.storage.getItem(lessons.SLOT_KEY) is None
    assert json.loads(match_save)["state"] == r.table.state


def test_skip_and_leave_at_any_point() -> None:
    page = _booted()
    s = page.s
    state = s.table.state
    _act(page, "lesson-1")
    _act(page, "lesson-skip")
    assert s.lesson.on == 2 and s.lesson.done == []
    _act(page, "lesson-leave")
    assert s.lesson.on is None and s.table.state == state and page.storage.getItem(lessons.SLOT_KEY) is None


def test_a_lessons_slot_or_progress_that_cannot_be_read_is_set_aside() -> None:
    page = Page()
    page.storage.setItem(lessons.PROGRESS_KEY, "{not json")
    page.storage.setItem(lessons.SLOT_KEY, json.dumps({"lesson": 99}))
    booted = _booted(page)
    assert booted.s.lesson.on is None and booted.s.lesson.done == []
    assert page.storage.getItem(lessons.CORRUPT_KEY) == "{not json"
    assert lessons.read_progress('{"schema": 1, "done": [3, 3, 9, "x", 1]}') == ([1, 3], True)
    assert lessons.read_progress('{"schema": 2, "done": []}') == ([], False)
    assert lessons.read_progress("x" * 1000) == ([], False)


def test_a_tampered_lesson_slot_is_refused_by_the_engine() -> None:
    page = _booted()
    _act(page, "lesson-3")
    saved: dict[str, Any] = json.loads(page.storage.getItem(lessons.SLOT_KEY))
    saved["lesson"] = 1  # (lesson 3's table under lesson 1's number)
    page.storage.setItem(lessons.SLOT_KEY, json.dumps(saved))
    reloaded = _booted(Page(storage=page.storage))
    assert reloaded.s.lesson.on is None and reloaded.storage.getItem(lessons.SLOT_KEY) is None
    assert reloaded.s.table.view is not None and reloaded.s.link.engine_ready


def test_every_lesson_text_is_worded() -> None:
    for number, key in enumerate(LESSONS, start=1):
        assert lessons_html.title(number) and lessons_html.goal(number)
        assert lessons_html.outcome_text(key + "_done") and lessons_html.outcome_text(key + "_retry")
        for n in range(3):
            code = key + "_" + str(n)
            if n < len(_lesson(number).guides):
                assert "{" not in lessons_html.step_text(code, "KD") and lessons_html.step_text(code, "KD")
    assert "Expose" in lessons_html.step_text("exposing_expose", None)
    assert texts.words(("@lesson", {"what": "goal", "number": 7})).startswith("Lesson 7 of 7")


def _lesson(number: int) -> Any:
    from gongzhu import lessons as engine_lessons

    return engine_lessons.lesson_of(number)


def test_another_tabs_save_leaves_a_lesson_alone() -> None:
    from ui.features import tabs

    page = _booted()
    match_save = page.storage.getItem(store.SAVE_KEY)
    _act(page, "lesson-1")
    page.run(tabs.other_tab_saved(page.s, match_save))
    assert page.s.lesson.on == 1 and not page.s.saving.elsewhere


def test_each_step_is_said_once_and_shown_after_the_opponents_expose() -> None:
    page = _booted()
    _act(page, "lesson-6")
    s = page.s
    step = lessons_html.step_text("exposing_expose", None)
    assert texts.words(s.screen.message) == step and s.table.expose_sel == ["JD"]
    assert sum(step in said for said in page.said) == 1
    _act(page, "hint")  # Hint says the step again
    assert sum(step in said for said in page.said) == 2

"""The player's record as the page keeps it, through the page's own runner in CPython (no browser):
each hand and match counted once across reloads, a replayed deal link's match counted as a match of
its own, another day's daily deal played as practice and never recorded. These were browser tests
(tests/e2e/test_record.py, tests/e2e/test_record_kept.py) that played every hand in Chromium; the
browser keeps what only it can show (the panels, their fit, two tabs, files)."""

from __future__ import annotations

import json
from typing import Any

from tests.support.page import Page
from tests.support.replay import finish_like_page, op
from ui import actions
from ui.core import bookkeeping, store
from ui.core.state import UIState
from ui.features import boot, daily, record
from ui.view import render, texts

SEED = 5  # the player (first playable card, no exposure) takes the pig in hands 1 and 2


LOADS = iter(range(1, 1000))


def booted(storage: Any = None, **links: str | None) -> Page:
    """A page loaded as ui/main.py loads it (``links``: the address's ?seed= and ?daily), over
    ``storage`` (a reload: the same storage), the engine then ready; each load a tab of its own
    name, as the page draws one at random (``ui/shell/app.py``). The coach's search is left out: what
    is counted does not depend on it (tests/test_ui_review.py runs it)."""
    page = Page(bookkeeping.named_tab(UIState(), str(next(LOADS))), storage=storage, coach=False)
    plan = boot.first_paint(page.s, True, True, store.load_settings(page.storage), store.load(page.storage),
                            store.save_blocked(page.storage), links.get("seed"), links.get("daily"))  # fmt: skip
    page.run(boot.connect(page.s, plan))
    return page


def reloaded(page: Page) -> Page:
    """The page reloaded: a new page over its storage, on the table it saved."""
    return booted(page.storage)


def tally(page: Page) -> record.Tally:
    return record.load(page.storage)[0].tallies["all"]


def phase(page: Page) -> str:
    assert page.s.table.view is not None
    return str(page.s.table.view["phase"])


def hand_ends(seed: int, hands: int) -> list[dict[str, Any]]:
    """The views at the end of the first ``hands`` hands of a ``?seed=`` match played as the pages
    here play it (no exposure, the first playable card)."""
    packed = finish_like_page(op("new_match", seed=seed))
    ends = [packed["view"]]
    while len(ends) < hands:
        packed = finish_like_page(op("step", state=packed["state"], action={"type": "next_hand"}))
        ends.append(packed["view"])
    return ends


def test_each_hand_is_counted_once_across_reloads_on_its_summary() -> None:
    ends = hand_ends(SEED, 2)
    page = booted(seed=str(SEED))
    assert tally(page).hands_played == 0
    page.play_hand()
    assert phase(page) == "hand_over" and tally(page).hands_played == 1
    page = reloaded(page)
    assert phase(page) == "hand_over" and tally(page).hands_played == 1
    first = tally(page)
    assert first.best_hand == first.worst_hand == ends[0]["last_hand"]["scores"][0]
    page.run(actions.on_action(page.s, "next-hand"))
    page.play_hand()
    for _reload in range(2):
        page = reloaded(page)
        assert phase(page) == "hand_over"
    second = tally(page)
    assert (second.hands_played, second.matches_played) == (2, 0)
    assert second.pigs_taken == sum(1 for view in ends if "pig_taken" in view["moments"][0]["codes"])
    scores = [view["last_hand"]["scores"][0] for view in ends]
    assert (second.best_hand, second.worst_hand) == (max(scores), min(scores))


def test_a_match_result_is_counted_once_across_reloads() -> None:
    page = booted(seed=str(SEED))
    while phase(page) != "match_over":
        if phase(page) == "hand_over":
            page.run(actions.on_action(page.s, "next-hand"))
        page.play_hand()
    for _reload in range(2):
        page = reloaded(page)
        assert phase(page) == "match_over"
    assert page.s.table.view is not None
    won = page.s.table.view["result"]["winner"] == 0
    figures = tally(page)
    assert (figures.matches_played, figures.matches_won) == (1, 1 if won else 0)


def test_a_replayed_deal_link_counts_every_match() -> None:
    page = booted(seed=str(SEED))
    page.play_hand()
    assert tally(page).hands_played == 1
    page = booted(page.storage, seed=str(SEED))  # the same deal link again, over the match on the table
    assert page.s.link.ask_seed == SEED
    page.run(actions.on_action(page.s, "seed-new"))  # "Start the new match"
    assert phase(page) in ("expose", "play")
    page.play_hand()
    assert tally(page).hands_played == 2
    page = reloaded(page)  # the same match again: nothing more counts
    assert phase(page) == "hand_over" and tally(page).hands_played == 2


def test_another_days_daily_deal_is_practice_and_never_recorded() -> None:
    page = booted(seed=str(SEED))
    date = "2026-01-01"
    assert page.clock.today() != date
    page = booted(page.storage, daily=date)
    assert page.s.day.on_table is not None
    assert f"The daily deal of {date} is not today's" in texts.words(page.s.screen.alert)
    page.play_hand()
    summary = render.regions(page.s)["overlay"]
    assert "Practice: only today" in summary
    assert 'data-testid="share"' not in summary
    rec = record.load(page.storage)[0]
    assert rec.daily == {} and daily.streaks(list(rec.daily)) == (0, 0)
    page.run(actions.on_action(page.s, "daily-leave"))
    assert page.s.day.on_table is None and json.loads(page.s.table.state or "{}")["seed"] == SEED

"""The e2e tests' helpers in one import: driving the page through its testing contract
(:mod:`tools.browser`, shared with the benchmarks and the screenshots) and predicting its deals in
CPython (:mod:`tests.support.replay`). Neither imports Playwright, so this module loads without it;
a unit test imports from ``tests.support`` all the same."""

from __future__ import annotations

from typing import Any

from gongzhu.vocab import DAILY_LEVEL
from tests.support.replay import (
    at_last_trick,
    daily_at_last_trick,
    daily_played,
    find_seed,
    finish_like_page,
    my_exposable,
    op,
    play_out,
    predicted_hand_over,
    save_text,
    simulate,
)
from tools.browser import (
    SETTLED_JS,
    STORED_JS,
    TEST_QUERY,
    card,
    choose_file,
    close_menu,
    expose_none,
    finish_hand,
    hand,
    load_save,
    menu_click,
    menu_select,
    menu_value,
    message,
    open_game,
    open_menu,
    page_query,
    phase,
    play_first,
    playable,
    scores,
    settle,
    stored,
    table_snapshot,
    trick,
    unplayable,
    wait_message,
    wait_until,
)
from ui.features.daily import SLOT_KEY

__all__ = ["SETTLED_JS", "STORED_JS", "at_last_trick", "card", "choose_file", "close_menu", "daily_at_last_trick", "daily_played", "expose_none", "find_seed",
           "finish_hand", "finish_like_page", "hand", "load_save", "menu_click", "menu_select", "menu_value",
           "message", "my_exposable", "op", "open_at_summary", "open_daily_at_last_trick", "open_game", "open_menu", "page_query", "phase", "play_first", "play_out",
           "playable", "predicted_hand_over", "save_text", "scores", "settle", "simulate", "stored",
           "table_snapshot", "trick", "unplayable", "wait_message", "wait_until"]  # fmt: skip


def open_at_summary(page: Any, site: Any, seed: int, coach: bool = False) -> None:
    """The page at the summary of hand 1 of ``?seed=seed``, played as :func:`finish_hand` plays it:
    the hand is played in CPython (:func:`predicted_hand_over`) and the page resumes its end from the
    autosave, counted once as a reload counts it. For tests whose subject is what follows a hand (the
    summary, the record, the review), not its 52 cards played in the browser. The coach values the
    hand only when ``coach`` asks for it (as :func:`open_game`)."""
    load_save(page, site, save_text(predicted_hand_over(seed)), query=page_query(coach))
    assert phase(page) == "hand-over"


def open_daily_at_last_trick(page: Any, site: Any, date: str) -> None:
    """The page on today's daily deal ``date`` at the player's turn in its last trick, resumed from
    the daily deal's slot (:func:`daily_at_last_trick`: played in CPython as :func:`finish_hand`
    plays it). For tests whose subject is the daily deal's end, not its cards played in the browser."""
    text = save_text(daily_at_last_trick(date), hand_level=DAILY_LEVEL, daily=date)
    load_save(page, site, text, key=SLOT_KEY, query=f"{TEST_QUERY}&daily={date}")
    page.wait_for_function(f"document.documentElement.dataset.daily === {date!r}")

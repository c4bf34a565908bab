"""The daily deal on the page (ui/features/daily.py, ui/view/daily_view.py, the record's daily results)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from html import unescape
from typing import Any

import pytest

from gongzhu.cards import INDEX, rank_of
from gongzhu.daily import daily_seed
from gongzhu.game import State, apply_legal, exposable_cards, legal_plays, new_match
from gongzhu.rules import winning_position
from gongzhu.scoring import HEART_VALUES
from tests.broken_saves import FakeStorage
from tests.support.replay import op
from ui.core import effects as fx
from ui.core import store
from ui.core.state import UIState
from ui.features import daily, record, record_flow
from ui.view import daily_view, render, stats_view, table, texts

#: The daily deal these tests finish; its scripted match-ending hand leaves seat 0 at -1600.
DAY = "2026-12-16"
#: What seats 1-3 throw seat 0 when it is winning the trick, the costliest first (with AH, QS and TC
#: exposed, TC multiplies seat 0's penalties by 4).
COSTLIEST = ("QS", "TC", *sorted(HEART_VALUES, key=HEART_VALUES.__getitem__))


def scripted_card(state: State, seat: int, ends_match: bool) -> str:
    """The card the script plays for ``seat``: its first legal card, or when the hand must end the
    match, seat 0's highest card and the others' costliest card while seat 0 is winning the trick
    (else their lowest harmless card)."""
    legal = legal_plays(state, seat)
    if not ends_match:
        return legal[0]
    if seat == 0:
        return max(legal, key=lambda c: rank_of(INDEX[c]))
    plays = state["trick"]["plays"]
    if plays and plays[winning_position([INDEX[p["card"]] for p in plays])]["seat"] == 0:
        costly = [c for c in COSTLIEST if c in legal]
        if costly:
            return costly[0]
    harmless = [c for c in legal if c not in COSTLIEST]
    return min(harmless or legal, key=lambda c: rank_of(INDEX[c]))


def finished_daily(ends_match: bool = False) -> dict[str, Any]:
    """The daily hand of :data:`DAY` played to its end by a script, not by the AI (whose play would
    decide the ending), packed as the page gets it: ``{state, view}``.

    Without ``ends_match`` nobody exposes, and a hand without exposures scores at most 800 either
    way, so the match goes on.  With it every seat exposes the AH, QS and TC it holds (not the JD:
    the goat is a gain), and seat 0 is fed the penalties (:func:`scripted_card`).  The state goes
    through the engine's check of a resumed state (``check``), so legal play reaches it.
    """
    state = new_match(daily_seed(DAY))
    for seat in range(4):
        if state["expose_choices"][seat] is None:  # None: still to decide (it holds an exposable card)
            cards = [c for c in exposable_cards(state["hands"][seat]) if ends_match and c != "JD"]
            state = apply_legal(state, {"type": "expose", "seat": seat, "cards": cards})
    while state["phase"] == "play":
        seat = state["turn"]
        state = apply_legal(
            state, {"type": "play", "seat": seat, "card": scripted_card(state, seat, ends_match)}
        )
    return op("check", state=json.dumps(state))


@pytest.mark.parametrize(
    "text", ["2026-02-29", "2026-13-01", "26-12-01", "2026/12/01", "2026-12-1x", "<b>", "2026-12-011"]
)
def test_only_calendar_dates_from_the_address(text: str) -> None:
    assert daily.parse_date(text) == (None, False)


def test_dates_from_the_address() -> None:
    assert daily.parse_date(None) == (None, True)
    assert daily.parse_date("") == (None, True)  # ?daily: today
    assert daily.parse_date("2028-02-29") == ("2028-02-29", True)


def test_day_numbers_match_the_calendar() -> None:
    start = date(2000, 1, 1)
    for offset in range(0, 4000, 37):
        day = start + timedelta(days=offset)
        assert daily.day_number(day.isoformat()) == (day - date(1970, 1, 1)).days


def test_streaks_count_consecutive_days() -> None:
    assert daily.streaks([]) == (0, 0)
    assert daily.streaks(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-05", "2026-03-06"]) == (2, 3)
    assert daily.streaks(["2026-12-31", "2027-01-01"]) == (2, 2)


def test_the_result_is_recorded_once_per_date() -> None:
    storage = FakeStorage()
    view = finished_daily()["view"]
    rec, _problem = daily.record_result(storage, DAY, view)
    mine = view["moments"][0]
    assert rec.daily == {
        DAY: {
            "score": view["last_hand"]["scores"][0],
            "place": mine["place"],
            "codes": mine["codes"],
        }
    }
    other = dict(view, last_hand=dict(view["last_hand"], scores=[999, 0, 0, 0]))
    daily.record_result(storage, DAY, other)  # played again the same day: nothing changes
    assert record.load(storage)[0].daily == rec.daily


def test_share_text_is_short_and_spoiler_free() -> None:
    text = texts.words(
        daily.share_message(
            "2026-12-01", {"score": -150, "place": 3, "codes": ["pig_taken", "hearts_blocked"]}
        )
    )
    assert text.splitlines() == ["Gong Zhu daily deal 2026-12-01: -150 points, place 3 of 4", "🥉🐷🛡️"]
    assert texts.words(daily.share_message("2026-12-01", {"score": 50, "place": 1, "codes": []})).endswith(
        "+50 points, place 1 of 4\n🥇"
    )


def test_the_daily_slot_holds_its_date() -> None:
    storage = FakeStorage()
    packed = op("daily", date="2026-12-01")
    ui = UIState()
    ui.table.state, ui.table.view, ui.day.on_table = packed["state"], packed["view"], "2026-12-01"
    storage.setItem(daily.SLOT_KEY, daily.encode_slot(ui))
    saved = daily.load_slot(storage, "2026-12-01")
    assert saved is not None and saved["state"] == packed["state"]
    assert daily.load_slot(storage, "2026-12-02") is None
    assert storage.getItem(store.SAVE_KEY) is None  # the match's slot is untouched
    storage.setItem(
        daily.SLOT_KEY,
        json.dumps({"schema": 1, "state": "x", "view": {"phase": "<b>"}, "daily": "2026-12-01"}),
    )
    assert daily.load_slot(storage, "2026-12-01") is None


@pytest.mark.parametrize(("ends_match", "phase"), [(False, "hand_over"), (True, "match_over")])
def test_the_daily_summary_offers_share_and_the_way_back(ends_match: bool, phase: str) -> None:
    packed = finished_daily(ends_match)
    assert packed["view"]["phase"] == phase
    ui = UIState()
    ui.link.engine_ready = True
    ui.table.state, ui.table.view, ui.day.on_table = packed["state"], packed["view"], DAY
    ui.day.result = daily.result_of(packed["view"])
    assert table.html_phase(ui) == "hand-over"  # the daily deal is one hand, even one that ends the match
    html = render.regions(ui)["overlay"]
    assert 'data-testid="share"' in html and 'data-testid="daily-leave"' in html
    assert 'data-testid="next-hand"' not in html and 'data-testid="daily-result"' in html
    ui.day.practice = True
    html = render.regions(ui)["overlay"]
    assert 'data-testid="share"' not in html and "not recorded" in html
    assert "open-daily" in daily_view.menu_html(ui)


def test_daily_actions() -> None:
    ui = UIState()
    assert record_flow.on_action(ui, "daily")[1] == []  # the engine is not ready yet
    ui.link.engine_ready = True
    _ui, effects = record_flow.on_action(ui, "daily")
    assert len(effects) == 1 and isinstance(effects[0], fx.OpenDaily) and not effects[0].practice
    _ui, effects = record_flow.on_action(ui, "daily-practice")
    assert isinstance(effects[0], fx.OpenDaily) and effects[0].practice
    assert record_flow.on_action(ui, "share")[1] == []  # nothing to share yet
    assert record_flow.on_action(ui, "daily-leave")[1] == []  # no daily deal on the table
    ui.day.on_table, ui.day.result = "2026-12-01", {"score": 0, "place": 1, "codes": []}
    assert [type(e) for e in record_flow.on_action(ui, "share")[1]] == [fx.Share]
    assert [type(e) for e in record_flow.on_action(ui, "daily-leave")[1]] == [fx.LeaveDaily]


def test_the_daily_hand_is_played_against_hard() -> None:
    from ui.core import flow

    ui = UIState()
    ui.settings.level = "easy"
    ui.day.on_table = "2026-12-01"
    flow.begin_hand(ui)
    assert ui.table.hand_level == "hard"


def test_only_todays_deal_is_recorded_another_day_is_practice() -> None:
    assert not daily.practice_only("2026-12-02", "2026-12-02")
    for other in ("2031-05-05", "2026-12-01", "2026-12-03"):
        assert daily.practice_only(other, "2026-12-02")
        note = texts.words(daily.other_day_note(other))
        assert other in note and "not recorded" in note
    packed = finished_daily(False)
    ui = UIState()
    ui.link.engine_ready = True
    ui.table.state, ui.table.view, ui.day.on_table, ui.day.practice = (
        packed["state"],
        packed["view"],
        "2031-05-05",
        True,
    )
    html = unescape(render.regions(ui)["overlay"])  # another day's deal, never recorded: said on its summary
    assert "only today's daily deal is recorded" in html and 'data-testid="share"' not in html


def test_a_later_daily_result_of_an_old_record_is_not_shown() -> None:
    rec = record.Record()
    for day in ("2026-11-30", "2026-12-01", "2026-12-02", "2031-05-05", "2031-05-06"):
        rec.daily[day] = {"score": 300 if day > "2027" else -10, "place": 1, "codes": []}
    figures = {name: value for name, _label, value in stats_view.daily_figures(rec, "2026-12-02")}
    assert figures == {
        "daily_played": "3",
        "daily_streak": "3",
        "daily_best_streak": "3",
        "daily_best_score": "-10",
    }
    assert daily.played_until(rec.daily, "2026-12-01") == ["2026-11-30", "2026-12-01"]
    state = UIState()
    state.stats.record, state.stats.today = rec, "2026-12-02"
    html = stats_view.statistics_html(state)
    assert 'data-stat="daily_played">3<' in html and 'data-stat="daily_best_score">-10<' in html

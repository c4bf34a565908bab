"""The daily deal on the page (ui/daily.py, ui/daily_view.py, the record's daily results)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest

from tests.broken_saves import FakeStorage
from tests.e2e.game import finish_like_page, op
from ui import daily, daily_view, record, record_flow, render, store
from ui import effects as fx
from ui.state import UIState


def finished_daily(day: str = "2026-12-01") -> dict[str, Any]:
    return finish_like_page(op("daily", date=day), "hard")


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
    rec, _problem = daily.record_result(storage, "2026-12-01", view)
    mine = view["moments"][0]
    assert rec.daily == {
        "2026-12-01": {
            "score": view["last_hand"]["scores"][0],
            "place": mine["place"],
            "codes": mine["codes"],
        }
    }
    other = dict(view, last_hand=dict(view["last_hand"], scores=[999, 0, 0, 0]))
    daily.record_result(storage, "2026-12-01", other)  # played again the same day: nothing changes
    assert record.load(storage)[0].daily == rec.daily


def test_share_text_is_short_and_spoiler_free() -> None:
    text = daily.share_text(
        "2026-12-01", {"score": -150, "place": 3, "codes": ["pig_taken", "hearts_blocked"]}
    )
    assert text.splitlines() == ["Gong Zhu daily deal 2026-12-01: -150 points, place 3 of 4", "🥉🐷🛡️"]
    assert daily.share_text("2026-12-01", {"score": 50, "place": 1, "codes": []}).endswith(
        "+50 points, place 1 of 4\n🥇"
    )


def test_the_daily_slot_holds_its_date() -> None:
    storage = FakeStorage()
    packed = op("daily", date="2026-12-01")
    ui = UIState()
    ui.state, ui.view, ui.daily = packed["state"], packed["view"], "2026-12-01"
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


@pytest.mark.parametrize(
    ("day", "phase"),
    [("2026-12-02", "hand_over"), ("2026-12-01", "match_over")],  # that hand left the player at -1600
)
def test_the_daily_summary_offers_share_and_the_way_back(day: str, phase: str) -> None:
    packed = finished_daily(day)
    assert packed["view"]["phase"] == phase
    ui = UIState()
    ui.engine_ready = True
    ui.state, ui.view, ui.daily = packed["state"], packed["view"], day
    ui.daily_result = daily.result_of(packed["view"])
    html = render.regions(ui)["overlay"]
    assert 'data-testid="share"' in html and 'data-testid="daily-leave"' in html
    assert 'data-testid="next-hand"' not in html and 'data-testid="daily-result"' in html
    ui.daily_practice = True
    html = render.regions(ui)["overlay"]
    assert 'data-testid="share"' not in html and "not recorded" in html
    assert "open-daily" in daily_view.menu_html(ui)


def test_daily_actions() -> None:
    ui = UIState()
    assert record_flow.on_action(ui, "daily")[1] == []  # the engine is not ready yet
    ui.engine_ready = True
    _ui, effects = record_flow.on_action(ui, "daily")
    assert [type(e) for e in effects] == [fx.OpenDaily] and not effects[0].practice  # type: ignore[union-attr]
    _ui, effects = record_flow.on_action(ui, "daily-practice")
    assert effects[0].practice  # type: ignore[union-attr]
    assert record_flow.on_action(ui, "share")[1] == []  # nothing to share yet
    assert record_flow.on_action(ui, "daily-leave")[1] == []  # no daily deal on the table
    ui.daily, ui.daily_result = "2026-12-01", {"score": 0, "place": 1, "codes": []}
    assert [type(e) for e in record_flow.on_action(ui, "share")[1]] == [fx.Share]
    assert [type(e) for e in record_flow.on_action(ui, "daily-leave")[1]] == [fx.LeaveDaily]


def test_the_daily_hand_is_played_against_hard() -> None:
    from ui import flow

    ui = UIState()
    ui.level = "easy"
    ui.daily = "2026-12-01"
    flow.begin_hand(ui)
    assert ui.hand_level == "hard"

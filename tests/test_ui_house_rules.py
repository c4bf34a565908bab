"""House rules in the page (ui/view/house_rules.py and where it is drawn): the names match the engine's
rules, the sheet's choice is for the next match and saved, the badge, the summary line and the chart
name a match's rules, and nothing from storage reaches the page unchecked."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, cast

from gongzhu.house_rules import Rules
from gongzhu.service import call
from gongzhu.vocab import RULE_VALUES
from tests.broken_saves import FakeStorage
from ui.core import effects as fx
from ui.core import flow, settings, store
from ui.core.state import UIState
from ui.view import chart, house_rules, render, settings_view, texts

if TYPE_CHECKING:
    from gongzhu.table_view import TableView


def _packed(seed: int, rules: Rules | None = None) -> dict[str, object]:
    args: dict[str, object] = {"seed": seed}
    if rules is not None:
        args["rules"] = rules.to_json()
    answer = json.loads(call(json.dumps({"op": "new_match", "args": args})))
    assert answer["ok"], answer
    result: dict[str, object] = answer["result"]
    return result


def _view(seed: int, rules: Rules | None = None) -> TableView:
    """Seat 0's table view of a new match, as the engine sends it."""
    return cast("TableView", _packed(seed, rules)["view"])


def test_the_page_names_every_rule_and_value() -> None:
    assert [(key, [v for v, _n in values]) for key, _name, values in house_rules.choices()] == [
        (key, list(values)) for key, values in RULE_VALUES
    ]
    assert settings.default_rules() == Rules().to_json()


def test_the_badge_and_the_summary_line_name_only_non_default_rules() -> None:
    quick = _packed(3, Rules(match_end="-500", exposing="off"))["view"]
    assert isinstance(quick, dict)
    assert quick["house_rules"] == {"match_end": "-500", "exposing": "off"}
    badge = house_rules.badge_html(quick)
    assert 'data-testid="house-rules-badge"' in badge and "Quick match (−500) · No exposing" in badge
    assert "House rules: Quick match (−500) · No exposing" in house_rules.line_html(quick)
    standard = _packed(3)["view"]
    assert isinstance(standard, dict)
    assert house_rules.badge_html(standard) == "" and house_rules.line_html(standard) == ""
    assert house_rules.badge_html(None) == ""
    ui = UIState()
    ui.table.view = quick
    assert "house-rules-badge" in render.bar_html(ui)
    ui.table.view = standard
    assert "house-rules-badge" not in render.bar_html(ui)


def test_the_sheet_offers_the_rules_for_the_next_match_and_says_the_match_keeps_its_own() -> None:
    ui = UIState()
    ui.table.view = _view(3, Rules(match_end="hands:4"))
    ui.settings.house_rules = {"exposing": "off"}
    html = settings_view.settings_html(ui)
    for testid in ("rule-match-end", "rule-exposing", "rule-first-lead", "rule-all-hearts"):
        assert f'data-testid="{testid}"' in html
    assert '<option value="off" selected>No exposing</option>' in html
    assert "This match keeps its rules: After 4 hands." in html
    ui.table.view = _view(3)
    assert "This match keeps its rules: standard rules." in settings_view.settings_html(ui)


def test_choosing_a_rule_is_saved_for_the_next_match_and_unknown_ones_change_nothing() -> None:
    ui = UIState()
    ui.table.view = _view(3)
    ui, effects = flow.choose_rule(ui, "rule-match-end", "-500")
    assert ui.settings.house_rules["match_end"] == "-500" and ui.settings.house_rules["exposing"] == "on"
    assert any(isinstance(e, fx.SaveSettings) for e in effects)
    assert texts.words(ui.screen.message) == "House rules apply from the next match."
    assert ui.table.view["rules"]["match_end"] == "-1000"  # the match in progress keeps its rules
    for name, value in (("rule-match-end", "-300"), ("rule-colour", "red"), ("rule-exposing", "<b>")):
        before = dict(ui.settings.house_rules)
        ui, effects = flow.choose_rule(ui, name, value)
        assert ui.settings.house_rules == before and effects == []
    storage = FakeStorage()
    store.save_settings(storage, ui)
    assert settings.as_json(store.load_settings(storage))["house_rules"]["match_end"] == "-500"
    storage.setItem(
        store.SETTINGS_KEY, json.dumps({"house_rules": {"match_end": "<script>", "exposing": "off"}})
    )
    assert settings.as_json(store.load_settings(storage))["house_rules"] == dict(
        Rules(exposing="off").to_json()
    )


def test_the_chart_draws_the_rules_ending_total() -> None:
    history = [{"number": 1, "scores": [-100, 0, 50, 50], "totals": [-100, 0, 50, 50]}]
    assert "−1000" in chart.chart_html(history)
    quick = chart.chart_html(history, -500)
    assert "−500" in quick and "−1000" not in quick
    assert 'class="elimination"' not in chart.chart_html(history, None)


def test_the_daily_deal_always_uses_the_standard_rules() -> None:
    answer = json.loads(
        call(json.dumps({"op": "daily", "args": {"date": "2026-12-02", "rules": {"match_end": "-500"}}}))
    )
    assert answer["ok"] and answer["result"]["view"]["rules"] == Rules().to_json()
    assert answer["result"]["view"]["house_rules"] == {}

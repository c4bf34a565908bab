"""The player's record (ui/features/record.py), its panel (ui/view/stats_view.py), its transitions
(ui/features/record_flow.py) and the match chart (ui/view/chart.py), in CPython."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.broken_saves import FakeStorage
from tests.support.replay import op, play_out
from ui import actions
from ui.core import effects as fx
from ui.core import flow
from ui.core.state import UIState
from ui.features import record, record_flow, transfer_flow
from ui.view import chart, house_rules, render, stats_view, texts


class FullStorage(FakeStorage):
    def setItem(self, key: str, value: str) -> None:
        raise OSError("QuotaExceededError")


def hand_over(seed: int = 5) -> dict[str, Any]:
    return play_out(op("new_match", seed=seed), lambda v: v["phase"] == "hand_over")


def match_over(seed: int = 5) -> dict[str, Any]:
    return play_out(op("new_match", seed=seed), lambda v: v["phase"] == "match_over")


def test_a_hand_counts_once_in_all_and_its_level() -> None:
    view = hand_over()["view"]
    rec = record.Record()
    assert record.count(rec, view, "hard") is True
    assert record.count(rec, view, "hard") is False  # the same hand again: a reload, another tab
    score = view["last_hand"]["scores"][0]
    for scope in ("all", "hard"):
        tally = rec.tallies[scope]
        assert (tally.hands_played, tally.points, tally.best_hand, tally.worst_hand) == (
            1,
            score,
            score,
            score,
        )
        assert tally.pigs_taken == ("pig_taken" in view["moments"][0]["codes"])
    assert rec.tallies["easy"].hands_played == 0
    assert rec.counted == [view["match_id"] + "/1"]


def test_nothing_is_counted_during_a_hand() -> None:
    view = op("new_match", seed=5)["view"]
    rec = record.Record()
    assert record.count(rec, view, "normal") is False
    assert rec.tallies["all"].hands_played == 0


def test_a_match_counts_once_with_its_last_hand_and_the_streak() -> None:
    view = match_over()["view"]
    rec = record.Record()
    assert record.count(rec, view, "normal")
    assert not record.count(rec, view, "normal")
    tally = rec.tallies["all"]
    won = view["result"]["winner"] == 0
    assert (tally.matches_played, tally.matches_won, tally.streak) == (1, int(won), int(won))
    assert tally.hands_played == 1  # only the last hand is on this table


def test_streaks() -> None:
    tally = record.Tally()
    for won in (True, True, False, True):
        tally.add_match(won)
    assert (tally.matches_played, tally.matches_won, tally.streak, tally.best_streak) == (4, 3, 1, 2)


def test_exposures_and_their_average_effect() -> None:
    tally = record.Tally()
    tally.add_hand(-200, {"codes": ["pig_taken"], "exposed": 1, "exposure_effect": -100})
    tally.add_hand(50, {"codes": ["transformer_alone"], "exposed": 2, "exposure_effect": 50})
    tally.add_hand(0, {"codes": [], "exposed": 0, "exposure_effect": 0})
    assert (tally.exposures, tally.exposed_hands, tally.exposure_effect) == (3, 2, -50)
    assert stats_view.figure(tally, "exposure_effect") == "-25"
    assert stats_view.figure(tally, "average_hand") == "-50"
    assert stats_view.figure(record.Tally(), "average_hand") == "–"


def test_count_in_reads_and_writes_storage_so_two_tabs_add_up() -> None:
    storage = FakeStorage()
    first, second = hand_over(5)["view"], hand_over(6)["view"]
    record.count_in(storage, first, "normal")
    stale = record.load(storage)[0]  # a tab that read the record before the other counted
    record.count_in(storage, second, "normal")
    record.count_in(storage, first, "normal")
    assert stale.tallies["all"].hands_played == 1
    assert record.load(storage)[0].tallies["all"].hands_played == 2


BROKEN = [
    ("not json", "{", "unreadable"),
    ("null", "null", "unreadable"),
    ("a list", "[]", "unreadable"),
    ("no schema", json.dumps({"tallies": {}, "counted": []}), "unreadable"),
    ("newer", json.dumps({"schema": 99}), "newer"),
    ("negative counter", json.dumps({"schema": 2, "tallies": {"all": {"hands_played": -1}}, "counted": [], "daily": {}}), "unreadable"),
    ("a string count", json.dumps({"schema": 2, "tallies": {"all": {"pigs_taken": "9"}}, "counted": [], "daily": {}}), "unreadable"),
    ("won more than played", json.dumps({"schema": 2, "tallies": {"all": {"matches_won": 2}}, "counted": [], "daily": {}}), "unreadable"),
    ("huge", json.dumps({"schema": 2, "pad": "x" * record.MAX_RECORD_CHARS}), "unreadable"),
    ("bad daily date", json.dumps({"schema": 2, "tallies": {}, "counted": [], "daily": {"abcdefghij": {"score": 0, "place": 1, "codes": []}}}), "unreadable"),
    ("no such day", json.dumps({"schema": 2, "tallies": {}, "counted": [], "daily": {"2026-02-30": {"score": 0, "place": 1, "codes": []}}}), "unreadable"),
    ("bad daily place", json.dumps({"schema": 2, "tallies": {}, "counted": [], "daily": {"2026-12-01": {"score": 0, "place": 5, "codes": []}}}), "unreadable"),
    ("bad key", json.dumps({"schema": 2, "tallies": {}, "counted": [5], "daily": {}}), "unreadable"),
    ("unknown rule set", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"match_end=-7": {}}}), "unreadable"),
    ("default rule set", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"exposing=on": {}}}), "unreadable"),
    ("rule set out of order", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"exposing=off,match_end=-500": {}}}), "unreadable"),
    ("standard rules as a set", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"": {}}}), "unreadable"),
    ("bad rule-set tally", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"match_end=-500": {"hands_played": -1}}}), "unreadable"),
    ("rule sets not an object", json.dumps({"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": []}), "unreadable"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "problem"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_record_is_set_aside(name: str, text: str, problem: str) -> None:
    storage = FakeStorage()
    storage.setItem(record.RECORD_KEY, text)
    rec, found = record.load(storage)
    assert found == problem
    assert rec.tallies["all"].hands_played == 0
    assert storage.getItem(record.CORRUPT_KEY) == text
    assert storage.getItem(record.RECORD_KEY) is None


def test_a_broken_record_stays_when_storage_is_full() -> None:
    storage = FullStorage()
    storage.data[record.RECORD_KEY] = "{"
    rec, problem = record.count_in(storage, hand_over()["view"], "normal")
    assert problem == "unreadable_kept"
    assert storage.data == {record.RECORD_KEY: "{"}  # never written over
    assert rec.tallies["all"].hands_played == 1  # counted in memory: the game plays on


def test_schema_1_is_migrated() -> None:
    storage = FakeStorage()
    old = {
        "schema": 1,
        "tallies": {"all": {"hands_played": 3, "points": -40, "best_hand": 10}},
        "counted": ["a/1"],
    }
    storage.setItem(record.RECORD_KEY, json.dumps(old))
    rec, problem = record.load(storage)
    assert problem is None
    assert (rec.tallies["all"].hands_played, rec.tallies["all"].best_hand, rec.counted, rec.daily) == (
        3,
        10,
        ["a/1"],
        {},
    )
    assert record.from_data(json.loads(record.encode(rec))).to_data() == rec.to_data()


def test_reset_keeps_the_counted_keys() -> None:
    storage = FakeStorage()
    view = hand_over()["view"]
    record.count_in(storage, view, "normal")
    assert record.reset(storage).tallies["all"].hands_played == 0
    record.count_in(storage, view, "normal")
    assert record.load(storage)[0].tallies["all"].hands_played == 0


def test_the_panel_shows_each_figure_as_a_number() -> None:
    ui = UIState()
    ui.stats.record = record.Record()
    ui.table.view = hand_over()["view"]
    record.count(ui.stats.record, ui.table.view, "easy")
    ui.screen.panel = "statistics"
    html = render.regions(ui)["overlay"]
    assert 'data-testid="statistics"' in html
    for name in ("matches_played", "matches_won", "hands_played", "pigs_taken"):
        assert re.search(f'data-stat="{name}">(-?[0-9]+)</td>', html), name
    assert 'data-stat="hands_played">1<' in html and 'data-stat="hands_played.easy">1<' in html
    assert 'data-stat="hands_played.hard">0<' in html
    ui.screen.sheet = True
    assert 'data-testid="open-statistics"' in render.regions(ui)["sheet"]


def test_reset_asks_first() -> None:
    ui = UIState()
    ui, effects = record_flow.on_action(ui, "statistics")
    assert ui.screen.panel == "statistics" and [type(e) for e in effects] == [fx.ReadRecord]
    ui, effects = actions.on_action(ui, "reset-confirm")
    assert effects == []  # not asked yet
    ui, effects = actions.on_action(ui, "reset-statistics")
    assert ui.stats.confirm_reset and effects == []
    ui.stats.record = record.Record()
    assert 'data-testid="reset-confirm"' in stats_view.statistics_html(ui)
    ui, effects = actions.on_action(ui, "reset-confirm")
    assert [type(e) for e in effects] == [fx.ResetRecord] and not ui.stats.confirm_reset


def test_the_end_of_a_hand_is_counted() -> None:
    packed = play_out(
        op("new_match", seed=5), lambda v: v["phase"] == "play" and len(v["tricks"]) == 12 and v["turn"] == 0
    )
    ui = UIState()
    ui.link.engine_ready = True
    flow.started(ui, packed)
    card = next(c for c in packed["view"]["hand"] if packed["view"]["refusals"][c] is None)
    answer = op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": card})
    while answer["view"]["phase"] == "play":
        answer = op("bot_step", state=answer["state"], seat=answer["view"]["turn"], level="normal")
    _ui, effects = flow.answered(ui, answer)
    assert any(isinstance(e, fx.CountHand) for e in effects)


def test_the_chart_draws_every_hand_and_the_elimination_line() -> None:
    view = match_over()["view"]
    html = chart.chart_html(view["history"])
    assert html.count("<polyline") == 4
    assert 'class="elimination"' in html and "−1000" in html
    assert 'data-testid="match-chart"' in html and 'role="img"' in html
    last = view["history"][-1]["totals"]
    assert f"Totals after hand {len(view['history'])}" in html
    assert html.count("<tr>") == len(view["history"]) + 1  # the hidden table: a row per hand
    assert str(last[0]).lstrip("-") in html
    assert chart.chart_html([]) == ""


def test_the_chart_escapes_seat_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.view import texts

    monkeypatch.setattr(texts, "seat_name", lambda seat: "<b>&" + str(seat))
    html = chart.chart_html([{"number": 1, "scores": [0, 0, 0, 0], "totals": [0, -50, 20, 30]}])
    assert "<b>" not in html and "&lt;b&gt;&amp;" in html


def test_summaries_carry_the_chart() -> None:
    ui = UIState()
    ui.link.engine_ready = True
    ui.table.view = hand_over()["view"]
    assert 'data-testid="match-chart"' in render.regions(ui)["overlay"]
    assert 'data-testid="summary-statistics"' in render.regions(ui)["overlay"]
    ui.table.view = match_over()["view"]
    assert 'data-testid="match-chart"' in render.regions(ui)["overlay"]


def test_the_panels_escape_what_they_show() -> None:
    ui = UIState()
    ui.link.engine_ready = True
    ui.table.view = hand_over()["view"]
    ui.stats.record = record.Record()
    ui.stats.record.daily["2026-12-01"] = {"score": 5, "place": 1, "codes": ["<script>"]}
    ui.screen.message = ui.stats.note = "<img src=x onerror=alert(1)>"
    ui.screen.panel = "statistics"
    html = render.regions(ui)["overlay"]
    assert "<img" not in html and "&lt;img src=x" in html
    from ui.view import daily_view

    ui.day.date, ui.day.result = "2026-12-01", ui.stats.record.daily["2026-12-01"]
    ui.screen.panel = "daily"
    html = render.regions(ui)["overlay"]
    assert 'data-testid="daily-result"' in html and "<script>" not in html
    assert daily_view.moments_text(["<script>", "pig_taken"]) == "You took the pig"


def test_the_same_seed_played_again_counts_again() -> None:
    """Every match started counts, whatever its seed: its keys carry the page's token of the match."""
    view = hand_over()["view"]
    rec = record.Record()
    assert record.count(rec, view, "normal", "123.1") is True
    assert record.count(rec, view, "normal", "123.1") is False  # a reload of that match
    assert record.count(rec, view, "normal", "123.2") is True  # the same deal link, a new match
    assert rec.tallies["all"].hands_played == 2
    assert rec.counted == ["123.1/1", "123.2/1"]
    old = record.Record()  # a match saved before tokens: the engine's match_id names it
    assert record.count(old, view, "normal") is True and old.counted == [view["match_id"] + "/1"]


def test_every_match_started_gets_a_token_of_its_own_that_its_save_keeps() -> None:
    from ui.core import store

    ui = UIState()
    ui.saving.tab = "77"
    tokens = []
    for gen in (0, 1, 2):
        ui.link.gen = gen
        flow.started(ui, op("new_match", seed=5))
        tokens.append(ui.table.match_token)
    assert len(set(tokens)) == 3 and all(t.startswith("77.") for t in tokens)
    saved = store.decode(store.encode(ui))
    assert saved["match_token"] == tokens[-1]
    again = flow.resume(UIState(), saved)
    assert again.table.match_token == tokens[-1]  # a reload, another tab: the same match, the same keys
    for odd in ("<b>", 5, "9" * 30, None):
        data = json.loads(store.encode(ui))
        data["match_token"] = odd
        assert store.decode(json.dumps(data))["match_token"] == ""


def _offer() -> Any:
    from ui.features import transfer

    mine = record.Record()
    mine.tallies["all"].hands_played = 1
    theirs = record.Record()
    theirs.tallies["all"].hands_played = 777
    return transfer.ImportOffer(theirs, None, None, "2026-11-30", mine)


def test_an_import_asks_before_it_replaces_anything() -> None:
    ui = UIState()
    ui.link.engine_ready = True
    ui.stats.record = record.Record()
    ui, effects = record_flow.offered(ui, _offer())
    assert ui.screen.panel == "statistics" and ui.stats.import_offer is not None
    assert [type(e) for e in effects] == [fx.Announce]
    html = stats_view.statistics_html(ui)
    assert 'data-testid="import-offer"' in html and "hands played 1." in html and "hands played 777." in html
    assert 'data-testid="import-confirm"' in html and 'data-testid="import-cancel"' in html
    assert 'data-testid="import"' not in html and 'data-testid="reset-statistics"' not in html
    ui, effects = record_flow.on_action(ui, "import-cancel")  # no: nothing replaced, said so
    assert ui.stats.import_offer is None and "Nothing was imported" in texts.words(ui.screen.message)
    assert [type(e) for e in effects] == [fx.Announce]
    assert record_flow.on_action(ui, "import-confirm")[1] == []  # nothing offered any more
    ui, _effects = record_flow.offered(ui, _offer())
    ui, effects = record_flow.on_action(ui, "import-confirm")  # yes: the shell replaces the data
    assert [type(e) for e in effects] == [fx.ApplyImport]
    for other in ("statistics", "reset-statistics", "import"):
        ui, _effects = record_flow.offered(ui, _offer())
        ui, _effects = record_flow.on_action(ui, other)
        assert ui.stats.import_offer is None  # (anything else drops the offer: asked again next time)


def test_a_record_that_could_not_be_read_is_said_once_and_starts_again() -> None:
    ui = UIState()
    ui, effects = record_flow.record_read(ui, record.Record(), None, "2026-12-02")
    assert effects == [] and texts.words(ui.stats.note) == "" and ui.stats.today == "2026-12-02"
    for problem, words in (("damaged", "could not be read"), ("newer schema 9", "newer version")):
        ui, effects = record_flow.record_read(ui, record.Record(), problem, "2026-12-02")
        assert words in texts.words(ui.stats.note)
        assert [texts.words(e.message) for e in effects if isinstance(e, fx.Announce)] == [
            texts.words(ui.stats.note)
        ]


def test_a_counted_daily_deal_shows_its_own_result() -> None:
    ui = UIState()
    ui.day.on_table = "2026-12-02"
    rec = record.Record()
    rec.daily["2026-12-02"] = {"score": 40, "place": 1}
    ui, _effects = record_flow.daily_counted(ui, rec, None, "2026-12-02")
    assert ui.day.result == {"score": 40, "place": 1} and ui.stats.record is rec


def test_an_accepted_import_takes_the_files_record_and_match_and_restarts_the_flow() -> None:
    packed = op("new_match", seed=9)
    fields = {"state": packed["state"], "view": packed["view"], "match_token": "t.1"}
    ui = UIState()
    ui.link.engine_ready = True
    ui, _effects = record_flow.offered(ui, _offer())
    offer = record_flow.take_offer(ui)
    assert offer is not None and record_flow.take_offer(ui) is None  # (offered once)
    gen = ui.link.gen
    offer.fields, offer.checked = fields, packed
    ui, effects = transfer_flow.written(ui, offer, True)
    assert ui.stats.record is offer.record and ui.screen.panel is None
    assert ui.table.state == packed["state"] and ui.table.checked and ui.table.match_token == "t.1"
    assert ui.link.gen == gen + 1  # (any flow of the old table stops)
    assert [type(e) for e in effects] == [fx.Announce, fx.Drive] and "imported" in texts.words(
        ui.screen.message
    )
    # On the daily deal's table the file's match waits in its save: the table stays the daily's.
    ui = UIState()
    ui.day.on_table = "2026-12-02"
    ui, effects = transfer_flow.written(ui, offer, True)
    assert ui.table.state is None and ui.link.gen == 0 and [type(e) for e in effects] == [fx.Announce]
    # Storage refused the file's data: nothing changed, and the page says why.
    ui = UIState()
    ui, effects = transfer_flow.written(ui, offer, False)
    assert ui.stats.record is None and "storage is full" in texts.words(ui.screen.message)


def quick_hand_over(seed: int = 5) -> dict[str, Any]:
    packed = op("new_match", seed=seed, rules={"match_end": "-500", "exposing": "off"})
    return play_out(packed, lambda v: v["phase"] == "hand_over")


def test_a_hand_under_house_rules_counts_under_its_rule_set_only() -> None:
    view = quick_hand_over()["view"]
    rec = record.Record()
    assert record.count(rec, view, "normal") is True
    assert record.count(rec, view, "normal") is False
    for scope in record.SCOPES:  # the standard rules' figures stay the player's headline
        assert rec.tallies[scope].hands_played == 0
    assert list(rec.rule_sets) == ["match_end=-500,exposing=off"]
    tally = rec.rule_sets["match_end=-500,exposing=off"]
    assert (tally.hands_played, tally.points) == (1, view["last_hand"]["scores"][0])
    again = record.from_data(json.loads(record.encode(rec)))  # stored and read back whole
    assert again.to_data() == rec.to_data()
    record.count(rec, hand_over(6)["view"], "normal")  # a standard hand still counts as before
    assert (rec.tallies["all"].hands_played, rec.tallies["normal"].hands_played, tally.hands_played) == (
        1,
        1,
        1,
    )


def test_the_rule_set_key_names_only_the_changed_rules_in_order() -> None:
    assert record.rule_set_key({}) == record.rule_set_key(None) == ""
    assert (
        record.rule_set_key({"all_hearts": "flip", "match_end": "hands:4"})
        == "match_end=hands:4,all_hearts=flip"
    )
    assert house_rules.names(record.rule_set("match_end=hands:4,all_hearts=flip")) == [
        "After 4 hands",
        "All hearts flips pig and goat",
    ]


def test_an_older_record_reads_as_the_standard_rules() -> None:
    old = {"schema": 2, "tallies": {"all": {"hands_played": 4}}, "counted": [], "daily": {}}
    rec = record.from_data(old)
    assert (rec.tallies["all"].hands_played, rec.rule_sets) == (4, {})
    assert rec.to_data()["schema"] == record.SCHEMA == 3


def test_the_panel_shows_the_standard_rules_first_then_each_rule_set() -> None:
    rec = record.Record()
    record.count(rec, hand_over(6)["view"], "normal")
    record.count(rec, quick_hand_over()["view"], "normal")
    html = stats_view.statistics_body(rec) + stats_view.rule_sets_body(rec)
    assert 'data-stat="hands_played">1<' in html
    cell = re.search(
        r'<td data-rules-stat="hands_played" data-rules="match_end=-500,exposing=off">(\d+)</td>', html
    )
    assert cell is not None and cell.group(1) == "1"
    assert "Quick match (−500) · No exposing" in html
    assert html.index('data-stat="hands_played"') < html.index("data-rules=")
    assert stats_view.rule_sets_body(record.Record()) == ""  # nothing to show before house rules are played


def test_reset_clears_the_rule_sets_too() -> None:
    storage = FakeStorage()
    record.count_in(storage, quick_hand_over()["view"], "normal")
    assert record.load(storage)[0].rule_sets
    assert record.reset(storage).rule_sets == {}
    assert record.load(storage)[0].rule_sets == {}

"""The main-thread UI modules that need no browser: wording, autosave, table layout, HTML regions."""

from __future__ import annotations

import json

import gongzhu
from tests.broken_saves import FakeStorage
from tests.broken_saves import packed as new_match_packed
from ui.core import settings, store
from ui.core.state import UIState
from ui.view import render, table, texts


def test_labels() -> None:
    assert texts.card_label("TC") == "10♣"
    assert (
        texts.refusal_text({"reason": "must_follow_suit", "card": "2H", "suit": "C"})
        == "You must follow clubs"
    )
    assert "first trick" in texts.refusal_text({"reason": "exposed_first_trick", "card": "QS", "suit": "S"})
    assert texts.expose_effect("pig_x2") == "Pig ×2"
    assert texts.signed(-160) == "−160" and texts.signed(50) == "+50" and texts.signed(0) == "0"
    assert texts.hint_text({"card": "3S", "reason": "ducks"}).startswith("Hint: play 3♠")
    assert texts.hint_text({"cards": ["QS"], "reason": "expose_confident"}) == "Hint: expose Q♠"
    assert texts.result_title({"winner": 0}) == "Victory!"
    assert texts.result_title({"winner": 2}) == "Defeat"


def test_breakdown_rows_cover_every_part() -> None:
    exposed = gongzhu.cards.to_mask(["TC", "QS"])
    b = gongzhu.score_breakdown(gongzhu.cards.to_mask(["TC", "QS", "7H"]), exposed)
    rows = dict(texts.breakdown_rows(b))
    assert rows["Hearts"] == "−10"
    assert rows["Pig"] == "−200"
    assert rows["Transformer"] == "×4"
    assert rows["Exposure multipliers"] == "pig ×2, transformer ×4"
    assert rows["Hand score"] == "−840"
    all16 = gongzhu.score_breakdown(gongzhu.cards.POINT_MASK, 0)
    assert dict(texts.breakdown_rows(all16))["Bonus"] == "all 16 point cards"
    assert dict(texts.breakdown_rows(all16))["Hand score"] == "+800"


def test_store_round_trip_and_corrupt_save() -> None:
    storage = FakeStorage()
    packed = new_match_packed()
    app = UIState()
    app.table.state, app.table.view, app.table.hand_level, app.table.hold, app.table.bots_exposed = (
        packed["state"],
        packed["view"],
        "hard",
        True,
        True,
    )
    assert store.save(storage, app)
    saved, problem = store.load(storage)
    assert problem is None and saved is not None
    assert (
        saved["state"] == app.table.state
        and saved["view"] == app.table.view
        and saved["hand_level"] == "hard"
    )
    assert saved["hold"] is True
    storage.setItem(store.SAVE_KEY, "{not json")
    saved, problem = store.load(storage)
    assert saved is None and problem == "unreadable"
    assert storage.getItem(store.CORRUPT_KEY) == "{not json"
    assert storage.getItem(store.SAVE_KEY) is None
    storage.setItem(store.SAVE_KEY, json.dumps({"schema": 1, "state": "x", "view": {}}))
    assert store.load(storage) == (None, "unreadable")


def test_settings_and_start_decision() -> None:
    storage = FakeStorage()
    pace = {"play_speed": "normal", "trick_pause": "normal", "sound": False}
    pace["house_rules"] = {
        "match_end": "-1000",
        "exposing": "on",
        "first_lead": "2S",
        "all_hearts": "standard",
    }
    assert settings.as_json(store.load_settings(storage)) == {
        "level": "normal",
        "four_colour": False,
        "memory_aid": False,
        **pace,
    }
    ui = UIState()
    ui.settings.level, ui.settings.four_colour, ui.settings.memory_aid = "hard", True, True
    store.save_settings(storage, ui)
    assert settings.as_json(store.load_settings(storage)) == {
        "level": "hard",
        "four_colour": True,
        "memory_aid": True,
        **pace,
    }
    storage.setItem(store.SETTINGS_KEY, "garbage")
    assert settings.as_json(store.load_settings(storage))["level"] == "normal"
    assert store.start_decision(None, None) == ("new", None)


def test_table_positions_and_phases() -> None:
    assert [table.POSITIONS[s] for s in range(4)] == ["bottom", "right", "top", "left"]
    packed = new_match_packed()
    app = UIState()
    assert table.html_phase(app) == "loading"
    app.table.view = packed["view"]
    assert table.html_phase(app) == "expose"
    assert table.hand_rows(list("abcdefghijklm")) == [list("abcdefg"), list("hijklm")]


def test_regions_carry_the_testing_contract() -> None:
    packed = new_match_packed(3)
    app = UIState()
    app.table.view = packed["view"]
    html = render.regions(app)
    for card in packed["view"]["hand"]:
        assert f'data-card="{card}"' in html["hand"]
    assert 'data-testid="menu"' in html["bar"] and 'aria-expanded="false"' in html["bar"]
    assert html["sheet"] == ""  # (closed: drawn when ☰ opens it)
    app.screen.sheet = True
    html = render.regions(app)
    assert 'data-testid="difficulty"' in html["sheet"] and 'value="normal" selected' in html["sheet"]
    assert 'data-testid="view-captured"' in html["sheet"]
    for seat in range(4):
        assert 'data-testid="hand-score"' in html[f"seat-{seat}"]
        assert 'data-testid="total"' in html[f"seat-{seat}"]
    if packed["view"]["exposable"]:
        assert 'data-testid="expose-confirm"' in html["actions"]
        assert "exposable" in html["hand"]


def test_every_level_the_menu_offers_is_a_player_of_the_engine() -> None:
    from gongzhu.ai import LEVEL_FACTORIES
    from gongzhu.vocab import LEVELS

    assert tuple(LEVEL_FACTORIES) == LEVELS  # (gongzhu.ai's keys: a player for each level, no other)
    assert [level for level, _name in texts.level_names()] == list(LEVELS)


def test_the_menu_button_and_the_settings_sheet() -> None:
    from ui.view import daily_view, stats_view  # noqa: F401  (their menu entries)

    app = UIState()
    app.table.view = new_match_packed(3)["view"]
    bar = render.regions(app)["bar"]
    assert 'data-testid="menu"' in bar and 'aria-label="Menu"' in bar and 'aria-expanded="false"' in bar
    assert 'data-testid="difficulty"' not in bar  # (in the sheet now)
    app.screen.sheet = True
    app.settings.play_speed, app.settings.trick_pause, app.settings.sound = "slow", "long", True
    html = render.regions(app)
    assert 'aria-expanded="true"' in html["bar"]
    sheet = html["sheet"]
    assert 'role="dialog"' in sheet and 'aria-modal="true"' in sheet and 'data-testid="menu-close"' in sheet
    for testid in ("difficulty", "language", "play-speed", "trick-pause", "four-colour", "memory-aid", "sound",
                   "view-captured", "open-statistics", "open-daily", "rules-link"):  # fmt: skip
        assert f'data-testid="{testid}"' in sheet, testid
    assert '<option value="slow" selected>' in sheet and '<option value="long" selected>' in sheet
    assert 'data-testid="sound" data-action="sound" aria-pressed="true"' in sheet
    assert 'data-testid="four-colour" data-action="four-colour" aria-pressed="false"' in sheet

"""ui/core/store.py against hostile saves and storage (pure Python, no browser)."""

from __future__ import annotations

import json

import pytest

from tests.broken_saves import FakeStorage, broken_saves, good_save, older_save, packed
from ui.core import flow, settings, store
from ui.core.state import UIState


class FullStorage(FakeStorage):
    def setItem(self, key: str, value: str) -> None:
        raise OSError("QuotaExceededError")


class Window:
    def __init__(self, storage: object) -> None:
        self._storage = storage

    @property
    def localStorage(self) -> object:
        if self._storage is None:
            raise PermissionError("SecurityError: the operation is insecure")
        return self._storage


SHAPE_BROKEN = [b for b in broken_saves() if b[2] != "engine"]


@pytest.mark.parametrize(("name", "text", "problem"), SHAPE_BROKEN, ids=[b[0] for b in SHAPE_BROKEN])
def test_every_broken_save_is_set_aside(name: str, text: str, problem: str) -> None:
    storage = FakeStorage()
    storage.setItem(store.SAVE_KEY, text)
    assert store.load(storage) == (None, problem)
    assert storage.getItem(store.CORRUPT_KEY) == text
    assert storage.getItem(store.SAVE_KEY) is None


def test_set_aside_saves_keep_several_slots() -> None:
    storage = FakeStorage()
    for n in range(store.CORRUPT_SLOTS + 2):
        storage.setItem(store.SAVE_KEY, "broken save " + str(n))
        assert store.load(storage) == (None, "unreadable")
    kept = [storage.getItem(store.corrupt_key(slot)) for slot in range(1, store.CORRUPT_SLOTS + 1)]
    newest = store.CORRUPT_SLOTS + 1
    assert kept == ["broken save " + str(newest - i) for i in range(store.CORRUPT_SLOTS)]


def test_a_stored_null_is_a_broken_save_but_a_missing_one_is_not() -> None:
    storage = FakeStorage()
    assert store.load(storage) == (None, None)
    storage.setItem(store.SAVE_KEY, "null")
    assert store.load(storage) == (None, "unreadable")
    assert storage.getItem(store.CORRUPT_KEY) == "null"


def test_a_huge_save_is_refused_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(text: str) -> None:
        raise AssertionError("a save over the bound was parsed")

    storage = FakeStorage()
    storage.setItem(store.SAVE_KEY, json.dumps(dict(good_save(packed()), notice="x" * 100_000)))
    monkeypatch.setattr(store.json, "loads", no_parse)
    assert store.load(storage) == (None, "unreadable")


def test_a_save_never_restores_text() -> None:
    p = packed()
    saved = store.decode(json.dumps(dict(good_save(p), notice="Visit evil.example to win")))
    assert "Visit" not in json.dumps(saved)
    ui = flow.resume(UIState(), saved)
    ui.screen.notice = "shown"
    assert "notice" not in json.loads(store.encode(ui))


@pytest.mark.parametrize(
    ("text", "seed"),
    [(None, (None, True)), ("12", (12, True)), ("0", (0, True)), ("-3", (-3, True)),
     (str(2**53 - 1), (2**53 - 1, True)), (str(2**53), (None, False)), (str(-(2**53)), (None, False)),
     ("9" * 5000, (None, False)), ("-", (None, False)), ("x", (None, False)), ("", (None, False)),
     ("1e9", (None, False))],
)  # fmt: skip
def test_seed_parameter_is_bounded(text: str | None, seed: tuple[int | None, bool]) -> None:
    assert store.parse_seed(text) == seed


def test_a_seed_link_at_the_bound_starts_a_match() -> None:
    import gongzhu
    from gongzhu.vocab import MAX_SEED

    for text, seed in ((str(MAX_SEED), MAX_SEED), (str(-MAX_SEED), -MAX_SEED)):
        assert store.parse_seed(text) == (seed, True)
        assert gongzhu.new_match(seed)


def test_a_seed_link_asks_before_replacing_a_match_in_progress() -> None:
    p = packed()
    saved = store.decode(json.dumps(good_save(p)))
    assert store.start_decision(saved, 42) == ("ask", 42)
    assert store.start_decision(saved, None) == ("resume", None)
    over = dict(saved, view=dict(saved["view"], phase="match_over"))
    assert store.start_decision(over, 42) == ("new", 42)
    assert store.start_decision(None, 42) == ("new", 42)


def test_good_and_older_saves_resume() -> None:
    p = packed()
    storage = FakeStorage()
    storage.setItem(store.SAVE_KEY, json.dumps(good_save(p)))
    saved, problem = store.load(storage)
    assert problem is None and saved is not None and saved["view"] == p["view"]
    storage.setItem(store.SAVE_KEY, older_save(p))
    saved, problem = store.load(storage)
    assert problem is None and saved is not None
    assert saved["hand_level"] == "hard" and saved["expose_sel"] == [] and saved["state"] == p["state"]
    ui = flow.resume(UIState(), saved)
    assert store.decode(store.encode(ui))["hand_level"] == "hard"


def test_full_storage_keeps_a_broken_save_where_it_is() -> None:
    storage = FullStorage()
    storage.data[store.SAVE_KEY] = "{broken"
    assert store.load(storage) == (None, "unreadable")
    assert storage.data[store.SAVE_KEY] == "{broken"
    storage.data[store.SAVE_KEY] = "x" * (store.MAX_SAVE_CHARS + 1)
    assert store.load(storage) == (None, "unreadable")
    assert len(storage.data[store.SAVE_KEY]) == store.MAX_SAVE_CHARS + 1


def test_open_storage_disabled_full_and_fine() -> None:
    storage, usable = store.open_storage(Window(None))
    assert not usable and isinstance(storage, store.MemoryStorage)
    storage.setItem("k", "v")
    assert storage.getItem("k") == "v"
    full = FullStorage()
    full.data[store.SETTINGS_KEY] = json.dumps({"level": "hard", "four_colour": True})
    storage, usable = store.open_storage(Window(full))
    assert not usable
    assert (
        settings.as_json(store.load_settings(storage))["level"] == "hard"
        and settings.as_json(store.load_settings(storage))["four_colour"]
    )
    ui = UIState()
    ui.table.state, ui.table.view = packed()["state"], packed()["view"]
    assert store.save(storage, ui) is False
    assert store.save_settings(storage, ui) is False
    fine = FakeStorage()
    storage, usable = store.open_storage(Window(fine))
    assert usable and storage is fine and store.PROBE_KEY not in fine.data


def test_engine_check_op_accepts_real_states_and_rejects_broken_ones() -> None:
    from ui import engine_worker

    def call(state: str) -> dict:
        return json.loads(engine_worker.call(json.dumps({"op": "check", "args": {"state": state}})))

    p = packed()
    assert call(p["state"])["ok"]
    assert call(p["state"])["result"]["view"] == p["view"]
    for name, text, _problem in broken_saves(p):
        try:
            state = json.loads(text)["state"]
        except Exception:
            continue
        if _problem == "engine":
            assert isinstance(state, str) and not call(state)["ok"], name
            storage = FakeStorage()
            storage.setItem(store.SAVE_KEY, text)
            saved, problem = store.load(storage)
            assert problem is None and saved is not None, name  # drawable: the engine says no


def test_settings_round_trip_and_bad_values_fall_back_to_defaults() -> None:
    storage = FakeStorage()
    keys = ("play_speed", "trick_pause", "sound", "level")
    ui = UIState()
    ui.settings.play_speed, ui.settings.trick_pause, ui.settings.sound, ui.settings.level = (
        "fast",
        "long",
        True,
        "hard",
    )
    assert store.save_settings(storage, ui)
    assert tuple(settings.as_json(store.load_settings(storage))[k] for k in keys) == (
        "fast",
        "long",
        True,
        "hard",
    )
    bad = {"play_speed": "<b>", "trick_pause": 3, "sound": "yes", "level": "god"}
    storage.data[store.SETTINGS_KEY] = json.dumps(bad)
    assert tuple(settings.as_json(store.load_settings(storage))[k] for k in keys) == (
        "normal",
        "normal",
        False,
        "normal",
    )


def test_a_write_full_storage_refused_is_never_read_back() -> None:
    """Storage that says no keeps what it held: the refused text is not served from a cache."""
    full = FullStorage()
    full.data[store.SAVE_KEY] = "the player's own save"
    storage, usable = store.open_storage(Window(full))
    assert not usable
    assert store.set_text(storage, store.SAVE_KEY, "refused") is False
    assert store.get_text(storage, store.SAVE_KEY) == "the player's own save"
    assert store.set_text(storage, "gongzhu.other", "refused") is False
    assert store.get_text(storage, "gongzhu.other") is None

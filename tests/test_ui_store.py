"""ui/store.py against hostile saves and storage (pure Python, no browser)."""

from __future__ import annotations

import json

import pytest

from tests.broken_saves import FakeStorage, broken_saves, good_save, older_save, packed
from ui import store


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


@pytest.mark.parametrize(("name", "text", "problem"), broken_saves(), ids=[b[0] for b in broken_saves()])
def test_every_broken_save_is_set_aside(name: str, text: str, problem: str) -> None:
    storage = FakeStorage()
    storage.setItem(store.SAVE_KEY, text)
    assert store.load(storage) == (None, problem)
    assert storage.getItem(store.CORRUPT_KEY) == text
    assert storage.getItem(store.SAVE_KEY) is None


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
    assert store.decode(store.encode(dict(saved, view=p["view"])))["hand_level"] == "hard"


def test_full_storage_keeps_a_broken_save_where_it_is() -> None:
    storage = FullStorage()
    storage.data[store.SAVE_KEY] = "{broken"
    assert store.load(storage) == (None, "unreadable")
    assert storage.data[store.SAVE_KEY] == "{broken"


def test_open_storage_disabled_full_and_fine() -> None:
    storage, usable = store.open_storage(Window(None))
    assert not usable and isinstance(storage, store.MemoryStorage)
    storage.setItem("k", "v")
    assert storage.getItem("k") == "v"
    full = FullStorage()
    full.data[store.SETTINGS_KEY] = json.dumps({"level": "hard", "four_colour": True})
    storage, usable = store.open_storage(Window(full))
    assert not usable
    assert store.load_settings(storage)["level"] == "hard" and store.load_settings(storage)["four_colour"]
    app = dict(good_save(packed()))
    assert store.save(storage, app) is False
    assert store.save_settings(storage, {"level": "easy"}) is False
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
        if isinstance(state, str) and state != p["state"]:
            assert not call(state)["ok"], name

"""The build's prepared first tables (sitebuild/first_tables.py): the engine's own new matches."""

from __future__ import annotations

import json
from pathlib import Path

from sitebuild.first_tables import FIRST_TABLES, TABLE_COUNT, table_seeds, write_first_tables
from tests.support.replay import op
from ui.core import store
from ui.features import boot


def test_each_prepared_table_is_the_engines_new_match_for_its_seed(tmp_path: Path) -> None:
    write_first_tables(tmp_path, "0123456789abcdef")
    data = json.loads((tmp_path / FIRST_TABLES).read_text(encoding="utf-8"))
    assert data["seeds"] == table_seeds("0123456789abcdef") and len(data["tables"]) == TABLE_COUNT
    for seed, text in zip(data["seeds"], data["tables"], strict=True):
        saved = store.decode(text)  # read as the page reads a save: its shape checked
        dealt = op("new_match", seed=seed)
        assert json.loads(saved["state"]) == json.loads(dealt["state"])
        assert saved["view"] == dealt["view"] and saved["view"]["phase"] == "expose"
        assert not saved["bots_exposed"] and saved["match_token"] == ""


def test_the_page_picks_every_table_of_the_file(tmp_path: Path) -> None:
    write_first_tables(tmp_path, "feedfacecafebeef")
    text = (tmp_path / FIRST_TABLES).read_text(encoding="utf-8")
    picked = {boot.prepared_table(text, k / TABLE_COUNT)["state"] for k in range(TABLE_COUNT)}  # type: ignore[index]
    assert len(picked) == TABLE_COUNT
    assert boot.prepared_table(text, 0.999999) is not None


def test_a_release_has_its_own_deals() -> None:
    assert table_seeds("a") != table_seeds("b") and table_seeds("a") == table_seeds("a")
    assert len(set(table_seeds("a"))) == TABLE_COUNT

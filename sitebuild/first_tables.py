"""The first visit's prepared tables: new matches dealt by the engine at build time, shipped as saves.

A first visit has no saved table to draw while the engine starts (seconds on a fast link, tens on a
phone's). The build deals a few new matches here, in CPython, through the page's own start
(``ui.core.match.start_match`` answered by the engine service, as the runner would), and ships each
as the save text the page would write for it. The page draws one of them at its first paint exactly
as it draws a saved game (``ui.features.boot.first_paint``): the engine then checks it like any
stored table and takes over. Nothing of a rule is computed by the page.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .paths import ROOT

#: The shipped file (``{"seeds": [...], "tables": [save text, ...]}``), fetched by ``web/engine.js``.
FIRST_TABLES = "first-tables.json"

#: How many tables: one is drawn per visit, chosen at random by the page.
TABLE_COUNT = 8


def table_seeds(release: str, count: int = TABLE_COUNT) -> list[int]:
    """The deals of a release's prepared tables: drawn from the release id (a rebuild of the same
    sources ships the same tables), within the seeds the engine takes."""
    import sys

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from gongzhu.vocab import MAX_SEED

    seeds = []
    for index in range(count):
        digest = hashlib.sha256(f"{release}:{index}".encode()).digest()
        seeds.append(int.from_bytes(digest[:6], "big") % MAX_SEED)
    return seeds


def prepared_table(seed: int) -> str:
    """The save text of a new match of deal ``seed`` under the default settings, as the page would
    save it right after ``start_match`` was answered."""
    from gongzhu import service
    from ui.core import match, store
    from ui.core.effects import Call
    from ui.core.state import UIState

    s = UIState()
    s, effects = match.start_match(s, seed)
    (ask,) = effects
    assert isinstance(ask, Call)
    answer = json.loads(service.call(json.dumps({"op": ask.op, "args": ask.args})))
    if not answer.get("ok"):
        raise ValueError(f"the engine refused deal {seed}: {answer.get('error')}")
    s, _ = ask.then(s, answer["result"], None)
    s.table.match_token = ""  # (the page names the match when it draws the table)
    return store.encode(s)


def write_first_tables(dist: Path, release: str) -> int:
    """Write :data:`FIRST_TABLES` into ``dist``; return its size."""
    seeds = table_seeds(release)
    data = {"seeds": seeds, "tables": [prepared_table(seed) for seed in seeds]}
    target = dist / FIRST_TABLES
    target.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    return target.stat().st_size

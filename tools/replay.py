"""The page's games replayed in CPython, through the engine worker's own ops (no browser).

The browser's opponents are deterministic (their choices depend only on the state and the level),
so what a page opened with ``?seed=N&fast=1`` does can be played here exactly, and a position
reached here can be handed to a page as its autosave (:func:`save_text`). Used by the tests
(tests/support/), the benchmarks (bench/) and the screenshots (tools/screenshots.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ui import engine_worker


def op(name: str, **args: Any) -> dict[str, Any]:
    """One worker op, as the page's worker answers it; its ``result`` (packed state and view)."""
    reply = json.loads(engine_worker.call(json.dumps({"op": name, "args": args})))
    if not reply["ok"]:
        raise AssertionError(reply)
    result: dict[str, Any] = reply["result"]
    return result


def save_text(packed: dict[str, Any], **flags: Any) -> str:
    """The page's autosave (``gongzhu.save.v1``) holding ``packed``; ``flags`` override its fields."""
    data = {"schema": 1, "state": packed["state"], "view": packed["view"], "hand_level": "normal",
            "bots_exposed": True, "hold": False, "speed": False, "selected": None, "expose_sel": [], "notice": ""}  # fmt: skip
    data.update(flags)
    return json.dumps(data)


def play_out(packed: dict[str, Any], until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """All four seats played by the Normal bots until ``until(view)``."""
    while not until(packed["view"]):
        view = packed["view"]
        if view["phase"] == "expose":
            packed = op("bots_expose", state=packed["state"], level="normal")
            if packed["view"]["phase"] == "expose":
                packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
        elif view["phase"] == "play":
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level="normal")
        elif view["phase"] == "hand_over":
            packed = op("step", state=packed["state"], action={"type": "next_hand"})
        else:
            raise AssertionError("match over before the condition")
    return packed

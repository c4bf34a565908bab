"""A catalogue of broken autosaves (unit tests of ui/core/store.py and the browser test share it).

Each entry: ``(name, save text, problem)`` where problem is what ``store.load`` reports
(``"unreadable"`` or ``"newer"``), or ``"engine"`` for a save of the right shape whose match does not
hold together: the engine's ``check`` op refuses it (the page then sets it aside the same way).
Built from a real match so only the intended defect differs.
"""

from __future__ import annotations

import json
from typing import Any

from ui import engine_worker


def packed(seed: int = 3) -> dict[str, Any]:
    reply = json.loads(engine_worker.call(json.dumps({"op": "new_match", "args": {"seed": seed}})))
    result: dict[str, Any] = reply["result"]
    return result


class FakeStorage:
    """A localStorage stand-in for the CPython tests of ui/core/store.py."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)


def good_save(p: dict[str, Any]) -> dict[str, Any]:
    return {"schema": 1, "state": p["state"], "view": p["view"], "hand_level": "normal", "bots_exposed": False,
            "hold": False, "speed": False, "selected": None, "expose_sel": [], "notice": ""}  # fmt: skip


def _with_state(p: dict[str, Any], change: Any) -> str:
    state = json.loads(p["state"])
    change(state)
    data = good_save(p)
    data["state"] = json.dumps(state)
    return json.dumps(data)


def _fourteen(state: dict[str, Any]) -> None:
    state["hands"][0].append(state["hands"][1].pop())


def _duplicate(state: dict[str, Any]) -> None:
    state["hands"][0][0] = state["hands"][2][0]


def _bad_card(state: dict[str, Any]) -> None:
    state["hands"][0][0] = "1X"


def _no_hands(state: dict[str, Any]) -> None:
    del state["hands"]


#: What a hostile page of the same origin would plant: markup that PyScript would run.
PAYLOAD = 'QS"><script type="mpy">print(1)</script><span x="'


def _with_view(p: dict[str, Any], change: Any) -> str:
    data = good_save(p)
    data["view"] = json.loads(json.dumps(p["view"]))
    change(data["view"])
    return json.dumps(data)


def _markup_in_trick(view: dict[str, Any]) -> None:
    view["trick"]["plays"] = [{"seat": 1, "card": PAYLOAD}]


def _every_string(value: Any, text: str) -> Any:
    """``value`` with every string in it (dictionary keys too) replaced by ``text``."""
    if isinstance(value, str):
        return text
    if isinstance(value, list):
        return [_every_string(v, text) for v in value]
    if isinstance(value, dict):
        return {(text + k if isinstance(k, str) else k): _every_string(v, text) for k, v in value.items()}
    return value


def _seat_nine(view: dict[str, Any]) -> None:
    view["trick"]["plays"] = [{"seat": 9, "card": "2C"}]


def _total_as_text(view: dict[str, Any]) -> None:
    view["totals"][0] = "0"


def _markup_as_reason(view: dict[str, Any]) -> None:
    view["refusals"][view["hand"][0]] = {"reason": "<img src=x>", "card": view["hand"][0]}


def broken_saves(p: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    p = p or packed()
    good = json.dumps(good_save(p))
    newer = dict(good_save(p), schema=99)
    view_only = dict(good_save(p))
    view_only["view"] = {"phase": "play"}
    state_not_json = dict(good_save(p), state="{half")
    every = dict(good_save(p), view=_every_string(p["view"], '<b x="1">'))
    huge = dict(good_save(p), notice="x" * 4_500_000)
    return [
        ("not JSON", "this is not JSON at all", "unreadable"),
        ("JSON null", "null", "unreadable"),
        ("JSON text", '"a save"', "unreadable"),
        ("JSON true", "true", "unreadable"),
        ("truncated JSON", good[: len(good) // 2], "unreadable"),
        ("empty string", "", "unreadable"),
        ("JSON number", "42", "unreadable"),
        ("JSON array", "[1, 2, 3]", "unreadable"),
        (
            "foreign app",
            json.dumps({"todos": [{"title": "milk", "done": False}], "version": 3}),
            "unreadable",
        ),
        ("future schema", json.dumps(newer), "newer"),
        ("schema as text", json.dumps(dict(good_save(p), schema="1")), "unreadable"),
        ("view of the wrong shape", json.dumps(view_only), "unreadable"),
        ("markup as a card on the table", _with_view(p, _markup_in_trick), "unreadable"),
        ("markup in every string of the table", json.dumps(every), "unreadable"),
        ("markup as a refusal reason", _with_view(p, _markup_as_reason), "unreadable"),
        ("a seat out of range", _with_view(p, _seat_nine), "unreadable"),
        ("a total as text", _with_view(p, _total_as_text), "unreadable"),
        ("a 4.5 MB save", json.dumps(huge), "unreadable"),
        ("engine state not JSON", json.dumps(state_not_json), "engine"),
        ("engine state without hands", _with_state(p, _no_hands), "engine"),
        ("14 cards in a hand", _with_state(p, _fourteen), "engine"),
        ("a card twice", _with_state(p, _duplicate), "engine"),
        ("not a card", _with_state(p, _bad_card), "engine"),
    ]


def older_save(p: dict[str, Any] | None = None) -> str:
    """A schema-0 save (the first UI's field names), which must be migrated, not set aside."""
    p = p or packed()
    return json.dumps(
        {"state": p["state"], "view": p["view"], "level": "hard", "exposing": [], "hold": False}
    )

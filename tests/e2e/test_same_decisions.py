"""The page's engine decides as CPython does.

The browser runs the engine in Pyodide: a newer Python (its built-in ``sum`` of floats rounds
otherwise) on a 32-bit machine (its ``hash`` of a float differs). The e2e tests predict the page's
games in CPython, and a player's shared deal is the same deal for everyone only if both decide alike,
so Hard's decisions and advice are compared here, ops answered by the page's worker against the same
ops in CPython, in a first hand where an opponent plays its lowest card: the in-hand check sets it
aside and judges it by its habits (floats summed, playouts seeded), the part most likely to drift.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

import build
from gongzhu import view_for

from ..test_habits import LowestPlayer
from . import game as g
from .conftest import PageGuard

SEED = 3
LOW_SEAT = 2  # this seat plays its lowest legal card; the others are Hard (seat 0) and Normals
FROM_TRICK = 3  # seat 0's decisions compared from this trick on (before it, nobody is set aside)


def decisions_to_compare() -> list[Any]:
    """Seat 0's states with a choice to make from trick ``FROM_TRICK`` on, in hand 1 of ``SEED``."""
    packed = g.op("new_match", seed=SEED)
    if packed["view"]["phase"] == "expose":
        packed = g.op("bots_expose", state=packed["state"], level="normal")
        packed = g.op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
    states = []
    while packed["view"]["phase"] == "play":
        seat = packed["view"]["turn"]
        view = view_for(json.loads(packed["state"]), seat)
        if seat == LOW_SEAT:
            action = {"type": "play", "seat": seat, "card": LowestPlayer(SEED, seat).play(view)}
            packed = g.op("step", state=packed["state"], action=action)
            continue
        if seat == 0 and len(view["legal"]) > 1 and len(view["tricks"]) >= FROM_TRICK:
            states.append(packed["state"])
        packed = g.op("bot_step", state=packed["state"], seat=seat, level="hard" if seat == 0 else "normal")
    return states


def page_op(page: Page, name: str, **args: Any) -> Any:
    """``name`` answered by the page's engine worker."""
    request = json.dumps({"op": name, "args": args})
    reply = page.evaluate("([r]) => window.gongzhuEngine.call(r, 60000)", [request])
    assert reply is not None, f"the page's engine did not answer {name}"
    answer = json.loads(reply)
    assert answer["ok"], answer
    return answer["result"]


def test_hard_decides_and_advises_in_the_page_as_in_cpython(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_game(page, site, seed=1)
    states = decisions_to_compare()
    assert len(states) >= 5
    assert page_op(page, "ping")["platform"] == "emscripten"  # the browser's Python, not this one
    for state in states:
        for name, args in (("bot_step", {"seat": 0, "level": "hard"}), ("hint", {})):
            assert page_op(page, name, state=state, **args) == g.op(name, state=state, **args), name

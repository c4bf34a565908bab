"""Entry point of the ``engine`` web worker (Pyodide, i.e. CPython 3.14 — not MicroPython).

Runs as ``<script type="py" worker name="engine" src="./ui/engine_worker.py"
config="./engine-worker.json">``. PyScript makes every name listed in ``__export__``
callable from the main thread::

    engine = await workers["engine"]          # from pyscript import workers
    reply_json = await engine.call(request_json)

Only strings cross the boundary: a request is the JSON text of
``{"op": <name>, "args": {...}}`` and the answer the JSON text of
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "<Type>: <message>"}``.
Errors never propagate as exceptions, so the main thread always gets an answer.
This needs no SharedArrayBuffer (no COOP/COEP headers): the worker never touches
``window`` or ``document``.

The module is plain CPython and is unit-tested outside the browser.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import gongzhu
from gongzhu.ai import LEVELS, hint
from gongzhu.players import Player, make_player

Handler = Callable[[dict[str, Any]], Any]


def _ping(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "pong": True,
        "echo": args.get("text"),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "engine": gongzhu.__name__,
    }


# --------------------------------------------------------------------------- game ops
# The worker is stateless: the engine state travels as an opaque JSON string, in and out, so a
# worker restart loses nothing. Seat 0's view (with a refusal reason for every card of the hand)
# comes back with every step; the main thread renders only from it.


def _state(args: dict[str, Any]) -> dict[str, Any]:
    raw = args["state"]
    state: dict[str, Any] = json.loads(raw) if isinstance(raw, str) else raw
    return state


def _view0(state: dict[str, Any]) -> dict[str, Any]:
    view = gongzhu.view_for(state, 0)
    view["refusals"] = {
        card: (None if refusal is None else refusal.to_json())
        for card, refusal in gongzhu.card_refusals(view).items()
    }
    view["threat"] = _all_hearts_threat(view["captured"])
    return view


def _all_hearts_threat(captured: list[list[str]]) -> int | None:
    """The seat that has taken every heart taken so far (at least one), else None."""
    takers = [seat for seat in range(4) if any(card[1] == "H" for card in captured[seat])]
    return takers[0] if len(takers) == 1 else None


def _pack(state: dict[str, Any], **extra: Any) -> dict[str, Any]:
    out = {"state": json.dumps(state, separators=(",", ":")), "view": _view0(state)}
    out.update(extra)
    return out


def _level(name: Any) -> str:
    return name if name in LEVELS else "normal"


def _player(state: dict[str, Any], seat: int, level: str) -> Player:
    return make_player(level, int(state["seed"]) * 7919 + seat, seat)


def _bot_action(state: dict[str, Any], seat: int, level: str) -> dict[str, Any] | None:
    """The action ``seat`` takes now, decided from ``view_for(state, seat)`` only."""
    view = gongzhu.view_for(state, seat)
    if view["phase"] == "expose" and view["exposable"]:
        return {"type": "expose", "seat": seat, "cards": list(_player(state, seat, level).expose(view))}
    if view["phase"] == "play" and view["turn"] == seat:
        return {"type": "play", "seat": seat, "card": _player(state, seat, level).play(view)}
    return None


def _new_match(args: dict[str, Any]) -> dict[str, Any]:
    return _pack(gongzhu.new_match(int(args["seed"])))


def _view(args: dict[str, Any]) -> dict[str, Any]:
    return _pack(_state(args))


def _check(args: dict[str, Any]) -> dict[str, Any]:
    """A resumed state, checked by the engine before the page plays on (an error when unusable)."""
    state = _state(args)
    gongzhu.validate_state(state)
    return _pack(state)


def _step(args: dict[str, Any]) -> dict[str, Any]:
    """Apply one action: ``{state, view, refusal}`` (refusal: the unchanged state and why)."""
    state = _state(args)
    result = gongzhu.apply(state, args["action"])
    if isinstance(result, gongzhu.Refusal):
        return _pack(state, refusal=result.to_json())
    return _pack(result, refusal=None)


def _bot_step(args: dict[str, Any]) -> dict[str, Any]:
    """The computer seat ``seat`` acts: ``{action, state, view}`` (action None: nothing to do)."""
    state = _state(args)
    action = _bot_action(state, int(args["seat"]), _level(args.get("level")))
    if action is not None:
        state = gongzhu.apply_legal(state, action)  # bots choose from their view: never refused
    return _pack(state, action=action)


def _bots_expose(args: dict[str, Any]) -> dict[str, Any]:
    """Seats 1-3 take their secret expose decisions (seat 0's is left to the player)."""
    state = _state(args)
    level = _level(args.get("level"))
    for seat in (1, 2, 3):
        if state["phase"] != "expose" or state["expose_choices"][seat] is not None:
            continue
        action = _bot_action(state, seat, level)
        if action is not None:
            state = gongzhu.apply_legal(state, action)
    return _pack(state)


def _hint(args: dict[str, Any]) -> dict[str, Any]:
    """Advice for seat 0 from ``view_for(state, 0)`` only (a reason code, never prose)."""
    state = _state(args)
    view = gongzhu.view_for(state, 0)
    advice: dict[str, Any] = hint(view, seed=int(state["seed"]) * 31 + int(state["hand_number"]))
    return advice


OPS: dict[str, Handler] = {
    "ping": _ping,
    "new_match": _new_match,
    "view": _view,
    "check": _check,
    "step": _step,
    "bot_step": _bot_step,
    "bots_expose": _bots_expose,
    "hint": _hint,
}


def call(request: str) -> str:
    """Handle one JSON request and return the JSON answer (never raises)."""
    try:
        message = json.loads(request)
        if not isinstance(message, dict) or not isinstance(message.get("op"), str):
            raise ValueError("request must be an object with a string 'op'")
        handler = OPS.get(message["op"])
        if handler is None:
            raise KeyError(f"unknown op {message['op']!r}")
        args = message.get("args") or {}
        if not isinstance(args, dict):
            raise ValueError("'args' must be an object")
        return json.dumps({"ok": True, "result": handler(args)})
    except Exception as exc:
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"})


__export__ = ["call"]

"""The browser table's engine service: its operations as plain functions, JSON text in and out.

The page's web worker (``ui/engine_worker.py``, Pyodide) exposes only :func:`call`; everything
else lives here and is unit-tested in CPython.  A request is the JSON text of
``{"op": <name>, "args": {...}}``; the answer the JSON text of ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": "<Type>: <message>"}`` — with ``"code"`` as well when the engine refused
a resumed state (an :class:`~gongzhu.state_check.InvalidState` code) — and :func:`call` never
raises, so the page always gets an answer.

The service is stateless: the engine state travels as an opaque JSON string, in and out, so a
worker restart loses nothing.  Every answer that carries a state carries seat 0's table view
(:func:`~gongzhu.table_view.table_view`), the only thing the page renders.  An op is a function
``args -> result`` registered in :data:`OPS`; later features (a hand review, statistics) add theirs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from .ai import LEVELS, hint
from .coach import decision_states
from .coach import step as coach_step
from .daily import check_date, daily_seed
from .game import Action, State, apply, apply_legal, check_seed, new_match, view_for
from .house_rules import rules_from_json
from .lessons import LESSON_LEVEL, lesson_of, lesson_table, resumed, verdict
from .players import Player, make_player
from .review import check_stored, hand_review
from .rules import Refusal
from .state_check import InvalidState, upgrade_state, validate_state
from .table_view import table_view
from .vocab import DEFAULT_LEVEL

Handler = Callable[[dict[str, Any]], Any]


# --- seeds: every random seed the service derives, one function each --------------------------


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the computer player at ``seat`` (so a reload replays the same moves)."""
    return match_seed * 7919 + seat


def hint_seed(match_seed: int, hand_number: int) -> int:
    """The seed of the hints given during hand ``hand_number``."""
    return match_seed * 31 + hand_number


# --- helpers ----------------------------------------------------------------------------------


def _state(args: dict[str, Any]) -> State:
    raw = args["state"]
    state: State = json.loads(raw) if isinstance(raw, str) else raw
    return state


def _pack(state: State, **extra: Any) -> dict[str, Any]:
    out = {"state": json.dumps(state, separators=(",", ":")), "view": table_view(state, 0)}
    out.update(extra)
    return out


def _level(name: Any) -> str:
    return name if isinstance(name, str) and name in LEVELS else DEFAULT_LEVEL


def _player(state: State, seat: int, level: str) -> Player:
    return make_player(level, bot_seed(state["seed"], seat), seat)


def bot_action(state: State, seat: int, level: str) -> Action | None:
    """The action ``seat`` takes now, decided from ``view_for(state, seat)`` only (None: nothing to do)."""
    view = view_for(state, seat)
    if view["phase"] == "expose" and view["exposable"]:
        return {"type": "expose", "seat": seat, "cards": list(_player(state, seat, level).expose(view))}
    if view["phase"] == "play" and view["turn"] == seat:
        return {"type": "play", "seat": seat, "card": _player(state, seat, level).play(view)}
    return None


# --- ops --------------------------------------------------------------------------------------


def ping(args: dict[str, Any]) -> dict[str, Any]:
    """A runtime check: which Python answers."""
    return {
        "pong": True,
        "echo": args.get("text"),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "engine": __package__,
    }


def new_match_op(args: dict[str, Any]) -> dict[str, Any]:
    """A new match from ``seed`` (an integer within ±MAX_SEED, else an ``InvalidSeed`` error) under
    ``rules`` (the house rules as JSON, absent: the defaults; unknown ones: a ``RulesError``)."""
    rules = rules_from_json(args.get("rules"))
    return _pack(new_match(check_seed(args.get("seed")), rules))


def daily(args: dict[str, Any]) -> dict[str, Any]:
    """The daily deal of ``date`` (YYYY-MM-DD, else an ``InvalidDate`` error): ``{state, view, date}``."""
    date = check_date(args.get("date"))
    return _pack(new_match(daily_seed(date)), date=date)


def check(args: dict[str, Any]) -> dict[str, Any]:
    """A resumed state, brought to today's shape and checked before the page plays on (``InvalidState``
    with a code when unusable); the answer carries the state to play on."""
    state = upgrade_state(_state(args))
    validate_state(state)
    assert isinstance(state, dict)  # validated
    return _pack(state)


def step(args: dict[str, Any]) -> dict[str, Any]:
    """Apply one action: ``{state, view, refusal}`` (refusal: the unchanged state and why)."""
    state = _state(args)
    result = apply(state, args["action"])
    if isinstance(result, Refusal):
        return _pack(state, refusal=result.to_json())
    return _pack(result, refusal=None)


def bot_step(args: dict[str, Any]) -> dict[str, Any]:
    """The computer seat ``seat`` acts: ``{action, state, view}`` (action None: nothing to do)."""
    state = _state(args)
    action = bot_action(state, int(args["seat"]), _level(args.get("level")))
    if action is not None:
        state = apply_legal(state, action)  # bots choose from their view: never refused
    return _pack(state, action=action)


def bots_expose(args: dict[str, Any]) -> dict[str, Any]:
    """Seats 1-3 take their secret expose decisions (seat 0's is left to the player)."""
    state = _state(args)
    level = _level(args.get("level"))
    for seat in (1, 2, 3):
        if state["phase"] != "expose" or state["expose_choices"][seat] is not None:
            continue
        action = bot_action(state, seat, level)
        if action is not None:
            state = apply_legal(state, action)
    return _pack(state)


def hint_op(args: dict[str, Any]) -> dict[str, Any]:
    """Advice for seat 0 from ``view_for(state, 0)`` only (a reason code, never prose)."""
    state = _state(args)
    advice: dict[str, Any] = hint(view_for(state, 0), seed=hint_seed(state["seed"], state["hand_number"]))
    return advice


def review_op(args: dict[str, Any]) -> dict[str, Any]:
    """The finished hand, trick by trick (:func:`gongzhu.review.hand_review`; ``NotOver`` during a hand)."""
    return hand_review(_state(args))


#: The coach's last replayed hand: ``(state text, its decision states)`` (each step of a hand
#: replays the same hand; a pure cache, so the service stays stateless).
_coached: list[tuple[str, list[State]]] = []


def _decisions(raw: Any, state: State) -> list[State]:
    if _coached and isinstance(raw, str) and _coached[0][0] == raw:
        return _coached[0][1]
    befores = decision_states(state)
    _coached[:] = [(raw, befores)] if isinstance(raw, str) else []
    return befores


def coach_op(args: dict[str, Any]) -> dict[str, Any]:
    """One step of the valuation of seat 0's decision ``index`` of the finished hand, by Hard's search
    from seat 0's view at that moment (:func:`gongzhu.coach.step`, seeded from the hand): ``{index,
    count, part}`` until the decision's last step (``part`` comes back with the next one), then the
    analysis. Small steps, so the page runs the coach between its other requests."""
    state = _state(args)
    index = args.get("index")
    if type(index) is not int:
        raise ValueError(f"index {index!r} is not an integer")
    seed = hint_seed(state["seed"], state["hand_number"])
    return coach_step(state, index, seed, args.get("part"), _decisions(args["state"], state))


def check_reviews(args: dict[str, Any]) -> dict[str, Any]:
    """The reviews of earlier hands the page read back from storage, checked against the match
    ``table`` (:func:`gongzhu.review.check_stored`): ``{hands, set_aside}``."""
    table = upgrade_state(_state({"state": args.get("table")}))
    validate_state(table)
    assert isinstance(table, dict)  # validated
    return check_stored(table, args.get("hands"))


def lesson_start(args: dict[str, Any]) -> dict[str, Any]:
    """Lesson ``lesson`` (1 to 7, else an ``InvalidLesson`` error) on the table: ``{state, view,
    level, until, verdict}`` (:func:`gongzhu.lessons.lesson_table`; ``level`` its opponents' level;
    ``until`` the tricks played when it is judged; ``verdict`` its first step, as :func:`lesson_check`
    gives it)."""
    state = lesson_table(args.get("lesson"))
    return _lesson_pack(args.get("lesson"), state)


def lesson_check(args: dict[str, Any]) -> dict[str, Any]:
    """Where lesson ``lesson`` stands on ``state`` (:func:`gongzhu.lessons.verdict`): ``{due, done,
    outcome, step, guide, expose}``."""
    return verdict(args.get("lesson"), _state(args))


def lesson_resume(args: dict[str, Any]) -> dict[str, Any]:
    """A lesson's saved ``state``, checked against the lesson's deal (``InvalidState`` with a code
    otherwise): ``{state, view, level, until, verdict}``."""
    return _lesson_pack(args.get("lesson"), resumed(args.get("lesson"), _state(args)))


def _lesson_pack(number: Any, state: State) -> dict[str, Any]:
    return _pack(state, level=LESSON_LEVEL, until=lesson_of(number).until, verdict=verdict(number, state))


OPS: dict[str, Handler] = {
    "ping": ping,
    "new_match": new_match_op,
    "daily": daily,
    "check": check,
    "step": step,
    "bot_step": bot_step,
    "bots_expose": bots_expose,
    "hint": hint_op,
    "review": review_op,
    "coach": coach_op,
    "check_reviews": check_reviews,
    "lesson_start": lesson_start,
    "lesson_check": lesson_check,
    "lesson_resume": lesson_resume,
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
        answer: dict[str, Any] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        if isinstance(exc, InvalidState):
            answer["code"] = exc.code.value
        return json.dumps(answer)


__all__ = ["OPS", "bot_action", "bot_seed", "call", "hint_seed"]

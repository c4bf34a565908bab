"""The coach: each of seat 0's decisions of a finished hand, valued by Hard's search.

A decision is seat 0's exposure (when it held an exposable card) and every card it played that was
not forced.  :func:`decision_states` replays the hand from its deal and its actions to the moment
of each decision; :func:`analyse` values every legal choice there with Hard's search
(:func:`gongzhu.ai.search.evaluate_plays` / ``evaluate_exposes``) from ``view_for(state, 0)`` only
— never the hidden hands — seeded from ``seed`` and the view, so the analysis of a hand is
reproducible (and, with the hint's seed, the same evaluation the hint made at that moment).

An analysis (JSON)::

    {"index": 4, "kind": "play", "trick": 3, "chosen": ["QS"], "best": ["3S"],
     "chosen_expected": -118, "best_expected": -22, "cost": 96, "costly": true,
     "reason": "keeps_pig_guarded"}

``*_expected`` are Hard's expected values for the hand (the seat's own hand score minus the
opponents' mean, as the hint's ``expected``), ``cost`` the expected points the chosen card gives
away against the best one, ``costly`` when that is at least :data:`COSTLY_POINTS`, ``reason`` the
best choice's reason code from the hint's vocabulary (:data:`gongzhu.ai.REASONS`).  ``trick`` is
0 for the exposure.
"""

from __future__ import annotations

import random
from typing import Any

from .ai.hard import EXPOSE_MARGIN, choose_play
from .ai.hint import play_reason
from .ai.knowledge import read_view
from .ai.levels import view_seed
from .ai.search import evaluate_exposes
from .cards import INDEX, to_codes, to_mask
from .game import State, apply_legal, start_hand, view_for
from .review import NotOver

#: A play is flagged when it gives away at least this many expected points.
COSTLY_POINTS = 25
SEAT = 0


def hand_start(state: State) -> State:
    """The finished hand of ``state`` as it was dealt (expose phase, nothing chosen yet)."""
    if state["phase"] not in ("hand_over", "match_over") or len(state["tricks"]) != 13:
        raise NotOver(f"hand {state['hand_number']} is not over (phase {state['phase']})")
    earlier = state["history"][:-1]
    start: State = {
        "schema": state["schema"],
        "seed": state["seed"],
        "hand_number": state["hand_number"],
        "totals": list(earlier[-1]["totals"]) if earlier else [0, 0, 0, 0],
        "history": [dict(r) for r in earlier],
        "last_hand": None,  # the summary before this hand is gone; no seat's decision reads it
        "result": None,
    }
    start_hand(start, state["hand_number"], state["leader"])
    return start


def decision_states(state: State) -> list[State]:
    """The states before each of seat 0's decisions in the finished hand of ``state``, in order
    (each state is followed, in the hand, by the decision's action: see :func:`chosen`)."""
    current = hand_start(state)
    out: list[State] = []
    for seat in (1, 2, 3, SEAT):
        if seat == SEAT and current["expose_choices"][SEAT] is None:
            out.append(current)
        if current["expose_choices"][seat] is None:
            cards = state["expose_choices"][seat]
            current = apply_legal(current, {"type": "expose", "seat": seat, "cards": cards})
    for trick in state["tricks"]:
        for play in trick["plays"]:
            if play["seat"] == SEAT and len(view_for(current, SEAT)["legal"]) > 1:
                out.append(current)
            current = apply_legal(current, {"type": "play", "seat": play["seat"], "card": play["card"]})
    return out


def chosen(finished: State, before: State) -> list[str]:
    """What seat 0 chose at the decision that follows ``before`` in the finished hand."""
    if before["phase"] == "expose":
        return list(finished["expose_choices"][SEAT])
    return [_plays(finished)[len(_plays(before))]]


def _plays(state: State) -> list[str]:
    return [p["card"] for t in [*state["tricks"], state["trick"]] for p in t["plays"]]


def evaluate(before: State, choice: list[str], seed: int) -> dict[str, Any]:
    """Every legal choice of seat 0 in ``before`` valued from ``view_for(before, 0)`` only, with the
    chosen one (``choice``) beside the best one."""
    view = view_for(before, SEAT)
    if before["phase"] == "expose":
        exposable = to_mask(view["exposable"])
        rng = random.Random(view_seed(seed, view, "hard-expose"))
        picked = to_mask(choice)
        values = evaluate_exposes(read_view(view), exposable, rng, extra=picked).values
        best = max(values, key=lambda m: (values[m], -m))
        if values[best] < values[0] + EXPOSE_MARGIN:
            best = 0  # Hard's (and the hint's) rule: expose only with confidence
        out = _result("expose", 0, to_codes(picked), to_codes(best), values[picked], values[best])
        out["reason"] = "expose_confident" if best else "expose_none"
        return out
    card, evaluation = choose_play(view, seed)
    assert evaluation is not None  # a decision has more than one legal card
    played = INDEX[choice[0]]
    out = _result(
        "play",
        len(view["tricks"]) + 1,
        choice,
        [card],
        evaluation.values[played],
        evaluation.values[INDEX[card]],
    )
    out["reason"] = play_reason(view, card)
    return out


def _result(
    kind: str, trick: int, picked: list[str], best: list[str], mine: float, top: float
) -> dict[str, Any]:
    cost = max(0, round(top - mine)) if picked != best else 0
    return {
        "kind": kind,
        "trick": trick,
        "chosen": picked,
        "best": best,
        "chosen_expected": round(mine),
        "best_expected": round(top),
        "cost": cost,
        "costly": cost >= COSTLY_POINTS,
    }


def analyse(state: State, index: int, seed: int) -> dict[str, Any]:
    """Decision ``index`` (0-based) of seat 0 in the finished hand of ``state``, with ``count``: how
    many decisions the hand has (``IndexError`` past the last)."""
    befores = decision_states(state)
    if not 0 <= index < len(befores):
        raise IndexError(f"decision {index} of {len(befores)}")
    before = befores[index]
    out = evaluate(before, chosen(state, before), seed)
    out.update(index=index, count=len(befores))
    return out


__all__ = ["COSTLY_POINTS", "analyse", "chosen", "decision_states", "evaluate", "hand_start"]

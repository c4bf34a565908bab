"""The coach: each of seat 0's decisions of a finished hand, valued by Hard's search.

A decision is seat 0's exposure (when it held an exposable card) and every card it played that was
not forced.  :func:`decision_states` replays the hand from its deal and its actions to the moment
of each decision; :func:`step` values every legal choice there with Hard's search
(:func:`gongzhu.ai.search.evaluate_plays` / ``evaluate_exposes``) from ``view_for(state, 0)`` only
— never the hidden hands — and with the **player's own expected hand score** as the objective
(``opponent_weight=0``: the points the player's captures are worth, not Hard's margin over the
opponents).  Each random draw is seeded from ``seed``, the view and the step, so the analysis of a
hand is reproducible.

The work is cut into small steps so the engine worker is never busy with the coach for long (the
page's own requests wait only for the step in flight): a decision takes :data:`STEPS` steps, each
over :data:`WORLDS_PER_STEP` sampled deals (the search's smallest batches of ``min_worlds``, each
drawn by one chain from what the opponents' plays say about their hands; the batches count
equally).  A step that is not the last answers ``{"index", "count", "part"}``; the page sends
``part`` back with the next step, and the last step answers the analysis (JSON)::

    {"index": 4, "count": 11, "kind": "play", "trick": 3, "chosen": ["QS"], "best": ["3S"],
     "chosen_expected": -118, "best_expected": -22, "cost": 96, "costly": true,
     "reason": "keeps_pig_guarded"}

``*_expected`` are the player's expected hand scores (rounded) with the chosen and the best choice,
``cost`` their difference (what the chosen card gives away), ``costly`` when that is at least
:data:`COSTLY_POINTS`, ``reason`` the best choice's reason code from the hint's vocabulary
(:data:`gongzhu.ai.REASONS`).  ``trick`` is 0 for the exposure.  :func:`check_analyses` is the
engine's check of analyses read back from storage.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .ai import REASONS
from .ai.config import HARD_MARGIN
from .ai.hint import play_reason
from .ai.knowledge import read_view
from .ai.levels import view_seed
from .ai.search import Evaluation, evaluate_exposes, evaluate_plays
from .cards import INDEX, to_codes, to_mask
from .game import State, View, apply_legal, rules_of, start_hand, view_for
from .review import NotOver

# (COSTLY_POINTS, the cost from which a play is flagged, is the vocabulary's: the page states it.)
from .vocab import COSTLY_POINTS

#: The search the coach runs: Hard's hand margin on the smallest budget (its ``min_worlds`` deals a
#: batch), valuing the seat's own hand score alone.
BATCH = replace(HARD_MARGIN, budget=1, opponent_weight=0.0)
#: Steps per decision, and sampled deals per step (the search's batches of ``min_worlds``).
STEPS = 12
WORLDS_PER_STEP = BATCH.min_worlds
#: No hand score goes beyond this either way (``gongzhu.state_check.MAX_HAND_SCORE``).
MAX_SCORE = 3200
SEAT = 0
_KEYS = ("index", "count", "kind", "trick", "chosen", "best", "chosen_expected", "best_expected",
         "cost", "costly", "reason")  # fmt: skip


class BadAnalysis(ValueError):
    """A stored analysis that is not the coach's for this hand (shape, decision or arithmetic)."""


def hand_start(state: State) -> State:
    """The finished hand of ``state`` as it was dealt (expose phase, nothing chosen yet)."""
    if state["phase"] not in ("hand_over", "match_over") or len(state["tricks"]) != 13:
        raise NotOver(f"hand {state['hand_number']} is not over (phase {state['phase']})")
    earlier = state["history"][:-1]
    start: State = {
        "schema": state["schema"],
        "seed": state["seed"],
        "rules": rules_of(state).to_json(),
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


def _key(cards: list[str]) -> str:
    return ",".join(cards)


def _batch(view: View, choice: list[str], seed: int, step: int, batch: int) -> dict[str, float]:
    """One batch of ``min_worlds`` sampled deals (the search's smallest: :data:`BATCH`): each
    choice's mean own hand score, by key."""
    rng = random.Random(view_seed(seed, view, f"coach-{step}-{batch}"))
    k = read_view(view)
    evaluation: Evaluation
    if view["phase"] == "expose":
        exposable, picked = to_mask(view["exposable"]), to_mask(choice)
        evaluation = evaluate_exposes(k, exposable, rng, BATCH, extra=picked)
        return {_key(to_codes(m)): v for m, v in evaluation.values.items()}
    evaluation = evaluate_plays(k, to_mask(view["legal"]), rng, BATCH)
    return {_key(to_codes(1 << c)): v for c, v in evaluation.values.items()}


def _check_part(part: Any) -> tuple[int, dict[str, float]]:
    """The step to do next and the sums so far, from the part the page sent back."""
    if not isinstance(part, dict) or type(part.get("step")) is not int or not 0 < part["step"] < STEPS:
        raise ValueError(f"coach part {part!r}: no step 1-{STEPS - 1}")
    sums = part.get("sums")
    if not isinstance(sums, dict) or not all(
        type(v) in (int, float) and abs(v) <= MAX_SCORE * STEPS * 2 for v in sums.values()
    ):
        raise ValueError("coach part: its sums are not numbers in range")
    return part["step"], {str(k): float(v) for k, v in sums.items()}


def step(
    state: State, index: int, seed: int, part: Any = None, befores: list[State] | None = None
) -> dict[str, Any]:
    """One step of the valuation of decision ``index`` (0-based) of seat 0 in the finished hand of
    ``state``: ``{"index", "count", "part"}`` until the last step, then the analysis (see the
    module; ``IndexError`` past the last decision). ``befores``: ``decision_states(state)`` when
    the caller has it already."""
    if befores is None:
        befores = decision_states(state)
    if not 0 <= index < len(befores):
        raise IndexError(f"decision {index} of {len(befores)}")
    choice = chosen(state, befores[index])
    view = view_for(befores[index], SEAT)
    done, sums = (0, None) if part is None else _check_part(part)
    batches = WORLDS_PER_STEP // BATCH.min_worlds
    for batch in range(batches):
        values = _batch(view, choice, seed, done, batch)
        if sums is None:
            sums = dict.fromkeys(values, 0.0)
        if set(values) != set(sums):
            raise ValueError("coach part: its choices are not this decision's")
        for key, value in values.items():
            sums[key] += value
    assert sums is not None
    done += 1
    if done < STEPS:
        return {"index": index, "count": len(befores), "part": {"step": done, "sums": sums}}
    means = {key: value / (STEPS * batches) for key, value in sums.items()}
    out = _analysis(view, choice, means)
    out.update(index=index, count=len(befores))
    return out


def _analysis(view: View, choice: list[str], means: dict[str, float]) -> dict[str, Any]:
    if view["phase"] == "expose":
        best = max(means, key=lambda key: (means[key], -to_mask(key.split(",") if key else [])))
        if means[best] < means[""] + BATCH.expose_margin:
            best = ""  # Hard's (and the hint's) rule: expose only with confidence
        best_cards = best.split(",") if best else []
        out = _result("expose", 0, choice, best_cards, means[_key(choice)], means[best])
        out["reason"] = "expose_confident" if best else "expose_none"
        return out
    card = max(means, key=lambda key: (means[key], -INDEX[key]))
    out = _result("play", len(view["tricks"]) + 1, choice, [card], means[choice[0]], means[card])
    out["reason"] = play_reason(view, card)
    return out


def _result(
    kind: str, trick: int, picked: list[str], best: list[str], mine: float, top: float
) -> dict[str, Any]:
    cost = max(0, round(top) - round(mine)) if picked != best else 0
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
    """Decision ``index`` of seat 0 in the finished hand of ``state``, every step at once."""
    befores = decision_states(state)
    answer = step(state, index, seed, befores=befores)
    while "part" in answer:
        answer = step(state, index, seed, answer["part"], befores)
    return answer


def evaluate(before: State, choice: list[str], seed: int) -> dict[str, float]:
    """Every legal choice of seat 0 in ``before`` (``choice``: the one taken) valued from
    ``view_for(before, 0)`` only: the mean own hand score by choice, over every step's deals."""
    view = view_for(before, SEAT)
    batches = WORLDS_PER_STEP // BATCH.min_worlds
    sums: dict[str, float] = {}
    for n in range(STEPS):
        for batch in range(batches):
            for key, value in _batch(view, choice, seed, n, batch).items():
                sums[key] = sums.get(key, 0.0) + value
    return {key: value / (STEPS * batches) for key, value in sums.items()}


def _int(value: Any) -> bool:
    return type(value) is int and abs(value) <= MAX_SCORE


def check_analyses(state: State, analyses: Any) -> list[dict[str, Any]]:
    """Analyses read back from storage, checked against the finished hand of ``state``: each is the
    decision it says (index, count, kind, trick, the choice the player took), its best choice is one
    the player had, its figures are whole points in range, its cost and flag follow from them and
    its reason is in the vocabulary (:class:`BadAnalysis` otherwise). The analyses, in decision order."""
    if not isinstance(analyses, list):
        raise BadAnalysis("analyses are not a list")
    befores = decision_states(state)
    if len(analyses) > len(befores):
        raise BadAnalysis(f"{len(analyses)} analyses for {len(befores)} decisions")
    out = []
    for index, (a, before) in enumerate(zip(analyses, befores, strict=False)):
        if not isinstance(a, dict) or set(a) != set(_KEYS):
            raise BadAnalysis(f"analysis {index}: not the coach's fields")
        view = view_for(before, SEAT)
        expose = before["phase"] == "expose"
        expected = {
            "index": index,
            "count": len(befores),
            "kind": "expose" if expose else "play",
            "trick": 0 if expose else len(view["tricks"]) + 1,
            "chosen": chosen(state, before),
        }
        for key, value in expected.items():
            if a[key] != value:
                raise BadAnalysis(f"analysis {index}: {key} {a[key]!r}, the hand says {value!r}")
        best = a["best"]
        if not isinstance(best, list) or not all(isinstance(c, str) and c in INDEX for c in best):
            raise BadAnalysis(f"analysis {index}: best {best!r}")
        allowed = view["exposable"] if expose else view["legal"]
        if not set(best) <= set(allowed) or len(set(best)) != len(best) or (not expose and len(best) != 1):
            raise BadAnalysis(f"analysis {index}: best {best!r} was not the player's to choose")
        if not (_int(a["chosen_expected"]) and _int(a["best_expected"]) and _int(a["cost"])):
            raise BadAnalysis(f"analysis {index}: figures out of range")
        cost = max(0, a["best_expected"] - a["chosen_expected"]) if best != a["chosen"] else 0
        if a["cost"] != cost or a["costly"] is not (cost >= COSTLY_POINTS):
            raise BadAnalysis(f"analysis {index}: cost {a['cost']!r} / costly {a['costly']!r}")
        if a["reason"] not in REASONS:
            raise BadAnalysis(f"analysis {index}: reason {a['reason']!r}")
        out.append({key: a[key] for key in _KEYS})
    return out


__all__ = [
    "COSTLY_POINTS",
    "STEPS",
    "WORLDS_PER_STEP",
    "BadAnalysis",
    "analyse",
    "check_analyses",
    "chosen",
    "decision_states",
    "evaluate",
    "hand_start",
    "step",
]

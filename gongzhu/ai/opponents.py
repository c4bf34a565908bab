"""How far Normal's strategy models each opponent, judged on the previous hand of the match.

Hard weighs its worlds by how well Normal would explain the opponents' plays
(:mod:`gongzhu.ai.sampling`).  That is exact against Normals and wrong against anyone else.  Within
the hand an opponent has made few plays and its cards must be guessed; once a hand is over, though,
its plays are public and so are the hands
they came from (each seat played all of its cards), so Normal's choice at each of an opponent's
decisions is known exactly.  A mixture of two models (Normal's card with rare slips, or any legal
card alike; prior ½ each) then gives the chance that the opponent plays Normal's strategy: its *fit*.
An opponent that does not fit also gets its *habit* there (:mod:`gongzhu.ai.habits`).

Until the match has a finished hand with its plays, every fit is 1 (the game's Hard then checks Normal's
weighting within the hand: :mod:`gongzhu.ai.inhand`).  A fit
within ``clear`` (:class:`gongzhu.ai.habits.Judging`) of 1 or 0 counts as certain, so a table of Normals is weighed exactly as Normal's
posterior does it, and a table Normal explains nowhere draws unweighted worlds (which cost nothing
to draw, so more of them fit the budget).

>>> world_model([1.0, 1.0, 1.0, 1.0], seat=0) == NORMAL
True
>>> world_model([1.0, 0.0, 0.0, 0.0], seat=0) == UNIFORM
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .habits import JUDGING, Decision, Judging, Situated, seen_decision, situated_habit
from .knowledge import Knowledge
from .learned import CardChances
from .match import MatchPlan, match_plan
from .sim import Table

#: How the worlds are drawn for a set of fits (:func:`world_model`): Normal's posterior, unweighted,
#: or each opponent's misses weighed by its fit.
NORMAL, UNIFORM, FITTED = "normal", "uniform", "fitted"


def decisions(
    table: Table,
    plays: list[tuple[int, int]],
    plans: Sequence[MatchPlan | None],
    model: CardChances | None = None,
) -> list[list[Decision]]:
    """Per seat, its decisions (with a choice) among ``plays`` made in turn from ``table`` (which they
    change), Normal playing seat ``s`` by ``plans[s]`` and ``model`` judging the learned way."""
    out: list[list[Decision]] = [[], [], [], []]
    for seat, card in plays:
        legal = table.legal(seat)
        if legal & (legal - 1):
            out[seat].append(seen_decision(table, seat, legal, card, plans[seat], model))
        table.play(card)
    return out


def earlier_decisions(k: Knowledge, model: CardChances | None = None) -> list[list[Decision]] | None:
    """Every seat's decisions in the match's previous hand, replayed from the hands it was played
    from with that hand's match plans (``model`` judging the learned way), or None when its plays are
    not known."""
    earlier = k.earlier
    if earlier is None:
        return None
    first_leader = earlier.plays[0][0]
    table = Table(earlier.hands(), [0, 0, 0, 0], earlier.exposed, 0, first_leader, [], 0, k.rules.flip)
    plans = [match_plan(earlier.totals, s, k.rules, earlier.number) for s in range(4)]
    return decisions(table, earlier.plays, plans, model)


def fit(seen: Sequence[Decision], judging: Judging = JUDGING) -> float:
    """The chance that a seat plays Normal's strategy (slipping ``seen_slip`` of the time: replayed
    with its true hand and its match plan, a Normal makes Normal's choice every time) rather than any
    legal card, prior ``normal_prior``, given its decisions ``seen``; within ``clear`` of 0 or 1, that."""
    slip, prior, clear = judging.seen_slip, judging.normal_prior, judging.clear
    normal = uniform = 0.0
    for one in seen:
        uniform -= math.log(one.choices)
        normal += math.log(1.0 - slip) if one.normal else math.log(slip) - math.log(one.choices - 1)
    a, b = math.log(prior) + normal, math.log(1.0 - prior) + uniform
    odds = 1.0 / (1.0 + math.exp(min(700.0, b - a)))
    return 0.0 if odds < clear else 1.0 if odds > 1.0 - clear else odds


def normal_fits(
    k: Knowledge, seen: list[list[Decision]] | None = None, judging: Judging = JUDGING
) -> list[float]:
    """Per seat, the chance that it plays Normal's strategy (:func:`fit`), judged on its plays of the
    match's previous hand (``seen``: :func:`earlier_decisions`, read from ``k`` when not given); 1 for
    this seat, and for every seat when that hand's plays are not known."""
    if seen is None:
        seen = earlier_decisions(k)
    if seen is None:
        return [1.0, 1.0, 1.0, 1.0]
    fits = [fit(seen[s], judging) for s in range(4)]
    fits[k.seat] = 1.0
    return fits


def seat_habits(k: Knowledge, judging: Judging = JUDGING) -> tuple[list[float], list[Situated | None]]:
    """Per seat, its fit (:func:`normal_fits`) and its habit (:mod:`gongzhu.ai.habits`), both judged on
    the match's previous hand; the habit is None where Normal's strategy is kept: this seat, each
    opponent that fits Normal, and every seat when that hand's plays are not known."""
    seen = earlier_decisions(k, judging.play_model())
    fits = normal_fits(k, seen, judging)
    habits: list[Situated | None] = [None, None, None, None]
    if seen is not None:
        for s in range(4):
            if s != k.seat and fits[s] < 1.0:
                habits[s] = situated_habit(seen[s], judging)
    return fits, habits


def world_model(fits: list[float], seat: int) -> str:
    """How the worlds are drawn for these fits: Normal's posterior when every opponent fits,
    unweighted when none does, else each opponent's misses weighed by its fit (``FITTED``)."""
    others = [f for s, f in enumerate(fits) if s != seat]
    if all(f == 1.0 for f in others):
        return NORMAL
    if all(f == 0.0 for f in others):
        return UNIFORM
    return FITTED

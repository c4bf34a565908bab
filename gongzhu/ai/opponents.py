"""How far Normal's strategy models each opponent, judged on the previous hand of the match.

Hard weighs its worlds by how well Normal would explain the opponents' plays
(:mod:`gongzhu.ai.sampling`).  That is exact against Normals and wrong against anyone else: people
are not Normal, and on the benchmarks' panel of styles (bench/results/PANEL.md) Normal's weighting
loses to unweighted worlds against a cautious player.  Judging an opponent within the hand is weak:
it has made few plays, and its cards must be guessed (the in-hand fit, ``hard-adaptive``, cost 35
a hand against Normals).  Once a hand is over, though, its plays are public and so are the hands
they came from (each seat played all of its cards), so Normal's choice at each of an opponent's
decisions is known exactly.  The sampling's mixture (Normal's card with slips, or any legal card
alike; prior ½ each) then gives the chance that the opponent plays Normal's strategy: its *fit*.

Until the match has a finished hand with its plays, every fit is 1 (Hard as it always was).  A fit
within ``CLEAR`` of 1 or 0 counts as certain, so a table of Normals is weighed exactly as Normal's
posterior does it, and a table Normal explains nowhere draws unweighted worlds (which cost nothing
to draw, so more of them fit the budget).

>>> from gongzhu.ai.sampling import NORMAL, UNIFORM
>>> world_model([1.0, 1.0, 1.0, 1.0], seat=0) == NORMAL
True
>>> world_model([1.0, 0.0, 0.0, 0.0], seat=0) == UNIFORM
True
"""

from __future__ import annotations

from .knowledge import Knowledge
from .match import match_plan
from .sampling import FITTED, NORMAL, UNIFORM, normal_odds, replay_evidence
from .sim import Table

CLEAR = 0.01  # a fit this close to 0 or 1 counts as 0 or 1
#: How often Normal's strategy is taken to slip when judged on a finished hand.  Replayed with its true
#: hand and its match plan, a Normal makes Normal's choice every time (tests/test_opponents.py), so a
#: slip is rare: an opponent must make Normal's choice in about three decisions out of four to fit
#: (four legal cards), and the panel's styles (0.41 to 0.67 of Normal's choices) all fall short.
SEEN_SLIP = 0.01


def normal_fits(k: Knowledge) -> list[float]:
    """Per seat, the chance that it plays Normal's strategy, judged on its plays of the match's
    previous hand (Normal replayed with each seat's true hand and that hand's match plan); 1 for
    this seat, and for every seat when that hand's plays are not known."""
    earlier = k.earlier
    if earlier is None:
        return [1.0, 1.0, 1.0, 1.0]
    first_leader = earlier.plays[0][0]
    table = Table(earlier.hands(), [0, 0, 0, 0], earlier.exposed, 0, first_leader, [], 0, k.rules.flip)
    plans = [match_plan(earlier.totals, s, k.rules, earlier.number) for s in range(4)]
    odds = normal_odds(replay_evidence(table, earlier.plays, k.seat, plans, SEEN_SLIP))
    fits = [0.0 if p < CLEAR else 1.0 if p > 1.0 - CLEAR else p for p in odds]
    fits[k.seat] = 1.0
    return fits


def world_model(fits: list[float], seat: int) -> str:
    """How the worlds are drawn for these fits: Normal's posterior when every opponent fits,
    unweighted when none does, else each opponent's misses weighed by its fit (``FITTED``)."""
    others = [f for s, f in enumerate(fits) if s != seat]
    if all(f == 1.0 for f in others):
        return NORMAL
    if all(f == 0.0 for f in others):
        return UNIFORM
    return FITTED

"""Hard's judgement of each opponent on the previous hand of the match (gongzhu/ai/opponents.py):
Normal's weighting of the worlds for the opponents who played like Normal then, none for the others."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.ai import EasyPlayer, NormalPlayer
from gongzhu.ai.config import HARD_MARGIN
from gongzhu.ai.knowledge import earlier_hand, read_view
from gongzhu.ai.opponents import FITTED, NORMAL, UNIFORM, normal_fits, world_model
from gongzhu.ai.sampling import CHAINS, fitted_worlds, seat_misses
from gongzhu.ai.search import evaluate_plays
from gongzhu.ai.worlds import Fitted, NormalPosterior, Uniform
from gongzhu.cards import to_mask
from gongzhu.game import apply_legal, deal_hands
from gongzhu.house_rules import Rules
from gongzhu.players import Player, RandomPlayer
from gongzhu.simulate import play_hand

from .ai_helpers import nobody_exposes, played_until
from .test_ai import _every_world, assert_drawn_as_weighed


def _next_hand(
    seed: int, players: list[Player], rules: Rules | None = None, hands: int = 1
) -> dict[str, Any]:
    """Match ``seed`` after ``hands`` hands played by ``players``, in its next hand's expose phase."""
    state = new_match(seed, rules) if rules else new_match(seed)
    for _ in range(hands):
        state, _log = play_hand(state, players)
        state = apply_legal(state, {"type": "next_hand"})
    return state


def _table(seed: int, kinds: str) -> list[Player]:
    make = {"N": NormalPlayer, "E": EasyPlayer, "R": RandomPlayer}
    return [make[kind](seed, seat) for seat, kind in enumerate(kinds)]


def test_the_previous_hand_is_read_from_the_view_as_it_was_dealt_and_played() -> None:
    state = _next_hand(3, _table(3, "NNNN"))
    earlier = read_view(view_for(state, 2)).earlier
    assert earlier is not None and earlier.number == 1
    assert earlier.hands() == [to_mask(h) for h in deal_hands(3, 1)]
    assert earlier.totals == [0, 0, 0, 0]  # before hand 1
    assert [(seat, card) for seat, card in earlier.plays[:4]] == [
        (p["seat"], to_mask([p["card"]]).bit_length() - 1) for p in state["last_hand"]["tricks"][0]["plays"]
    ]
    later = read_view(view_for(_next_hand(3, _table(3, "NNNN"), hands=2), 0)).earlier
    assert later is not None and later.totals == state["totals"]  # the totals before hand 2


def test_normals_fit_every_seat_once_a_hand_is_seen_even_when_they_follow_a_match_plan() -> None:
    """Replayed with its true hand and its plan, a Normal makes Normal's choice every time; a
    four-hand match puts Normal's end-of-match plans into play."""
    for seed in range(4):
        state = _next_hand(seed, _table(seed, "NNNN"))
        for seat in range(4):
            assert normal_fits(read_view(view_for(state, seat))) == [1.0, 1.0, 1.0, 1.0]
    rules = Rules(match_end="hands:4")
    for seed in range(3):
        state = _next_hand(seed, _table(seed, "NNNN"), rules, hands=3)  # the plans of hand 3
        assert normal_fits(read_view(view_for(state, 0))) == [1.0, 1.0, 1.0, 1.0]


def test_players_unlike_normal_do_not_fit() -> None:
    fits = {"R": [], "E": []}  # type: dict[str, list[float]]
    for seed in range(6):
        for kind in fits:
            state = _next_hand(seed, _table(seed, "N" + kind * 3))
            fits[kind] += normal_fits(read_view(view_for(state, 0)))[1:]
    assert sum(fits["R"]) / 18 < 0.1  # measured 0.06: one seat of 18 made Normal's choice 8 times in 9
    assert sum(fits["E"]) / 18 < 0.2  # measured 0.06
    mixed = _next_hand(1, _table(1, "NRNR"))
    assert normal_fits(read_view(view_for(mixed, 0))) == [1.0, 0.0, 1.0, 0.0]


def test_without_the_previous_hands_plays_every_seat_fits() -> None:
    """Hand 1, and a previous hand saved before its summary kept the plays: Hard as it always was."""
    assert normal_fits(read_view(view_for(new_match(5), 1))) == [1.0, 1.0, 1.0, 1.0]
    state = _next_hand(5, _table(5, "NRRR"))
    old = dict(state, last_hand={k: v for k, v in state["last_hand"].items() if k != "tricks"})
    assert earlier_hand(old["last_hand"]) is None
    assert normal_fits(read_view(view_for(old, 0))) == [1.0, 1.0, 1.0, 1.0]
    assert earlier_hand(dict(state["last_hand"], tricks=[])) is None


def test_the_worlds_follow_the_fits() -> None:
    assert world_model([1.0, 1.0, 1.0, 1.0], 2) == NORMAL
    assert world_model([0.3, 0.0, 0.0, 0.0], 0) == UNIFORM  # this seat's own fit is no evidence
    assert world_model([1.0, 0.0, 1.0, 0.5], 0) == FITTED


def _hand_two(seed: int, kinds: str, tricks: int) -> dict[str, Any]:
    """Hand 2 of a match whose hand 1 ``kinds`` played, until ``tricks`` tricks and seat 0's turn."""
    players = _table(seed, kinds)
    return played_until(nobody_exposes(_next_hand(seed, players)), players, tricks)


def test_hard_decides_as_normals_posterior_among_normals_and_as_unweighted_worlds_among_others() -> None:
    for kinds, same_as, model in (("NNNN", NORMAL, NormalPosterior()), ("NRRR", UNIFORM, Uniform())):
        view = view_for(_hand_two(0, kinds, 3), 0)
        k, legal = read_view(view), to_mask(view["legal"])
        assert world_model(normal_fits(k), 0) == same_as
        fitted = evaluate_plays(
            k, legal, random.Random(7), replace(HARD_MARGIN, budget=6000, worlds=Fitted())
        )
        reference = evaluate_plays(
            k, legal, random.Random(7), replace(HARD_MARGIN, budget=6000, worlds=model)
        )
        assert fitted.values == reference.values and fitted.worlds == reference.worlds


def test_fitted_worlds_weigh_each_opponents_misses_by_its_fit() -> None:
    """Three cards left each (every world listed): the chains draw the worlds in proportion to
    the chains' mismatch to the power of each seat's fit times its misses."""
    state = _hand_two(0, "NRNN", 10)
    k = read_view(view_for(state, 0))
    fits = [1.0, 0.0, 1.0, 0.5]
    worlds = _every_world(k, [len(h) for h in state["hands"]])
    weights = [
        CHAINS.mismatch ** sum(f * m for f, m in zip(fits, seat_misses(k, w, [0.0] * 4)[1], strict=True))
        for w in worlds
    ]
    assert_drawn_as_weighed(worlds, weights, list(fitted_worlds(k, random.Random(0), 2000, fits)), 0.2)

"""Each opponent's habits, judged on the match's previous hand (gongzhu/ai/habits.py): the ways it
played there weigh the worlds and play it in the playouts; an opponent that played like Normal keeps
Normal's weighting and playouts."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.ai import EasyPlayer, NormalPlayer
from gongzhu.ai.config import HARD, HARD_MARGIN
from gongzhu.ai.habits import (
    ANY,
    HIGHEST,
    JUDGING,
    LOW_IN_SUIT,
    LOWEST,
    NORMAL_WAY,
    WAYS,
    Decision,
    Situated,
    everywhere,
    fit_habit,
    habit_cost,
    habit_policy,
    habit_worlds,
    playout_habit,
    situated_habit,
)
from gongzhu.ai.hard import HardPlayer
from gongzhu.ai.heuristic import normal_play
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.opponents import seat_habits
from gongzhu.ai.sampling import CHAINS, sample_world, seat_misses
from gongzhu.ai.search import evaluate_exposes, evaluate_plays, sampled_worlds
from gongzhu.ai.sim import (
    DISCARD,
    FOLLOW,
    LEAD,
    Policy,
    Table,
    deal_table,
    highest_card,
    low_bit,
    lowest_card,
    random_hands,
)
from gongzhu.ai.worlds import (
    CheckedEveryHand,
    CheckedHabits,
    Habits,
    NormalPosterior,
    habit_playouts,
    previous_hand_playouts,
)
from gongzhu.cards import DECK, INDEX, SUIT_MASKS, indices, to_mask
from gongzhu.game import View, apply_legal
from gongzhu.players import Player, RandomPlayer

from .ai_helpers import nobody_exposes, played_until
from .test_ai import _every_world, assert_drawn_as_weighed
from .test_opponents import _next_hand


class LowestPlayer:
    """Always its lowest legal card; exposes nothing (a player of one simple habit)."""

    def __init__(self, seed: int, seat: int) -> None:
        self.seat = seat

    def expose(self, view: View) -> list[str]:
        return []

    def play(self, view: View) -> str:
        return DECK[lowest_card(to_mask(view["legal"]))]


def _table(seed: int, kinds: str) -> list[Player]:
    make = {"N": NormalPlayer, "E": EasyPlayer, "R": RandomPlayer, "L": LowestPlayer}
    return [make[kind](seed, seat) for seat, kind in enumerate(kinds)]


def _hand_two(seed: int, kinds: str, tricks: int) -> dict[str, Any]:
    """Hand 2 of a match whose hand 1 ``kinds`` played, until ``tricks`` tricks and seat 0's turn."""
    players = _table(seed, kinds)
    return played_until(nobody_exposes(_next_hand(seed, players)), players, tricks)


def test_the_lowest_and_the_highest_card_go_by_rank_then_suit() -> None:
    rng = random.Random(3)
    for _ in range(300):
        legal = sum(1 << c for c in rng.sample(range(52), rng.randint(1, 13)))
        cards = indices(legal)
        assert lowest_card(legal) == min(cards, key=lambda c: (c % 13, c // 13))
        assert highest_card(legal) == min(cards, key=lambda c: (-(c % 13), c // 13))
    assert DECK[lowest_card(to_mask(["2S", "2H"]))] == DECK[min(INDEX["2S"], INDEX["2H"])]


def test_a_habit_follows_the_way_the_plays_were_made() -> None:
    lowest = fit_habit([Decision(5, False, True, False, FOLLOW, True, 1)] * 12)
    anything = fit_habit([Decision(5, False, False, False, FOLLOW, False, 1)] * 12)
    normal_and_low = fit_habit(
        [Decision(4, True, True, False, LEAD, True, 2)] * 6
        + [Decision(4, True, False, False, DISCARD, False, 3)] * 6
    )
    assert max(range(len(WAYS)), key=lambda w: lowest[w]) == LOWEST and lowest[LOWEST] > 0.8
    assert max(range(len(WAYS)), key=lambda w: anything[w]) == ANY and anything[ANY] > 0.8
    assert normal_and_low[NORMAL_WAY] > 0.8
    assert fit_habit([]) == (0.25, 0.25, 0.25, 0.25, 0.0, 0.0)  # no plays: the prior (the game's four ways)
    for habit in (lowest, anything, normal_and_low):
        assert math.isclose(sum(habit), 1.0)


def test_a_habit_by_situation_tells_how_a_player_leads_from_how_it_follows() -> None:
    """A player that leads its highest card and follows with its lowest: one habit for every decision
    mixes the two ways; by situation, each situation's habit is its own way, and a situation with no
    decisions keeps the whole hand's habit."""
    plays = [Decision(4, False, False, True, LEAD, False, 2)] * 5 + [
        Decision(4, False, True, False, FOLLOW, True, 1)
    ] * 7
    whole = fit_habit(plays)
    assert situated_habit(plays) == everywhere(whole)  # the game's judging: one habit
    lead, follow, discard = situated_habit(plays, replace(JUDGING, by_situation=True))
    assert lead[HIGHEST] > 0.7 > whole[HIGHEST] and follow[LOWEST] > 0.7 > whole[LOWEST]
    assert discard == whole


def test_a_player_that_leads_low_from_any_suit_is_judged_to_by_the_way_low_in_a_suit() -> None:
    """Leads of the lowest card of a suit that is neither Normal's nor the lowest card: the game's four
    ways call them "any legal card"; with ``low_in_suit`` the fifth way explains them, and in the
    playouts such a seat plays the lowest card of a suit, not always the same suit."""
    plays = [Decision(8, False, False, False, LEAD, True, 3)] * 10
    assert fit_habit(plays)[ANY] > 0.8 and fit_habit(plays)[LOW_IN_SUIT] == 0.0
    assert fit_habit(plays, replace(JUDGING, low_in_suit=True))[LOW_IN_SUIT] > 0.8
    lead_low = everywhere((0.0, 0.0, 0.0, 0.0, 1.0, 0.0))
    policy = habit_policy([lead_low] * 4, normal_play, random.Random(3))
    suits = set()
    for seed in range(20):
        table = deal_table(random_hands(random.Random(seed)))
        legal = table.legal(table.turn())
        card = policy(table, table.turn(), legal)
        assert card == low_bit(legal & SUIT_MASKS[card // 13])
        suits.add(card // 13)
    assert len(suits) >= 3


def test_the_previous_hand_gives_each_opponent_not_like_normal_its_habit() -> None:
    """Normals keep Normal's strategy (no habit); a player of its lowest card is judged to play it,
    a random player to play any card."""
    fits, habits = seat_habits(read_view(view_for(nobody_exposes(_next_hand(1, _table(1, "NNNN"))), 0)))
    assert fits == [1.0] * 4 and habits == [None] * 4
    fits, habits = seat_habits(read_view(view_for(nobody_exposes(_next_hand(1, _table(1, "NLRN"))), 0)))
    assert fits[3] == 1.0 and habits[0] is None and habits[3] is None  # this seat; a Normal
    lowest, anything = habits[1], habits[2]
    assert lowest is not None and all(habit[LOWEST] > 0.7 for habit in lowest)  # in every situation
    assert anything is not None and all(habit[ANY] > 0.5 for habit in anything)
    first = read_view(view_for(nobody_exposes(new_match(4)), 0))
    assert seat_habits(first) == ([1.0] * 4, [None] * 4)  # a match's first hand: nothing seen yet


def test_among_normals_hard_by_habits_decides_exactly_as_normals_posterior() -> None:
    view = view_for(_hand_two(2, "NNNN", 4), 0)
    k, legal = read_view(view), to_mask(view["legal"])
    habits = evaluate_plays(k, legal, random.Random(5), replace(HARD_MARGIN, budget=6000, worlds=Habits()))
    normal = evaluate_plays(
        k, legal, random.Random(5), replace(HARD_MARGIN, budget=6000, worlds=NormalPosterior())
    )
    assert habits.values == normal.values and habits.worlds == normal.worlds


def test_a_habit_plays_the_opponent_in_the_playouts() -> None:
    """A seat without a habit plays the playout policy; one that always plays low plays its lowest
    card; one that plays anything plays every legal card now and then."""
    habits: list[Situated | None] = [
        None,
        everywhere((0.0, 1.0, 0.0, 0.0, 0.0, 0.0)),
        everywhere((0.0, 0.0, 0.0, 1.0, 0.0)),
        None,
    ]
    highest = lambda table, seat, legal: highest_card(legal)  # noqa: E731
    policy = habit_policy(habits, highest, random.Random(0))
    off_policy = [0, 0, 0, 0]
    for seed in range(30):
        table = deal_table(random_hands(random.Random(seed)))
        while table.cards_left():
            seat = table.turn()
            legal = table.legal(seat)
            card = policy(table, seat, legal)
            assert legal >> card & 1
            if legal & (legal - 1):
                if seat == 1:
                    assert card == lowest_card(legal)
                off_policy[seat] += card != highest_card(legal)
            table.play(card)
    assert off_policy[0] == off_policy[3] == 0 and off_policy[2] > 100


def test_habit_worlds_weigh_the_plays_by_each_opponents_habit() -> None:
    """Three cards left each (every world listed): the chains draw the worlds in proportion to the
    habits' chances of the opponents' plays, a seat without a habit weighing Normal's misses."""
    state = _hand_two(0, "NLRN", 10)
    k = read_view(view_for(state, 0))
    habits: list[Situated | None] = [
        None,
        everywhere((0.1, 0.8, 0.05, 0.05, 0.0, 0.0)),
        everywhere((0.3, 0.1, 0.1, 0.5, 0.0, 0.0)),
        None,
    ]
    worlds = _every_world(k, [len(h) for h in state["hands"]])
    weights = [math.exp(-habit_cost(k, w, habits)) for w in worlds]
    assert_drawn_as_weighed(worlds, weights, list(habit_worlds(k, random.Random(0), 2000, habits)), 0.2)
    for w in worlds[:50]:  # no habit: Normal's posterior, a miss costing the chains' mismatch
        misses = sum(seat_misses(k, w, [0.0] * 4)[1])
        assert math.isclose(habit_cost(k, w, [None] * 4), -math.log(CHAINS.mismatch) * misses, abs_tol=1e-12)


def test_hard_by_habits_plays_the_opponents_by_their_habits_after_a_hand_not_like_normal() -> None:
    state = _hand_two(3, "NLLL", 3)
    k = read_view(view_for(state, 0))
    worlds = list(sampled_worlds(k, random.Random(0), replace(HARD_MARGIN, budget=6000, worlds=Habits()), 40))
    assert worlds and all(playouts is not None for _world, playouts in worlds)


def _share_in_playouts(model: CheckedHabits, seat: int, way: Policy = normal_play) -> float:
    """How often ``seat`` plays ``way``'s card in the playouts of ``model``'s worlds (hand 2 after a
    hand 1 in which seat 1 played its lowest card and seat 2 at random), over its decisions with a
    choice."""
    k = read_view(view_for(_hand_two(3, "NLRN", 3), 0))
    seen: list[bool] = []  # per decision of ``seat`` with a choice: whether it was ``way``'s card
    for world, playouts in model.draw(k, random.Random(2), lambda _chains: (12, 2)):
        assert playouts is not None
        table = k.table(world)
        policy = playouts(normal_play, random.Random(7))
        while table.cards_left():
            turn = table.turn()
            legal = table.legal(turn)
            card = policy(table, turn, legal)
            if turn == seat and legal & (legal - 1):
                seen.append(card == way(table, turn, legal))
            table.play(card)
    return sum(seen) / len(seen)


def test_the_playouts_play_what_no_simple_way_explains_as_normals_card() -> None:
    """An opponent judged to play "any legal card" (a random player in hand 1) plays Normal's card in
    the game's playouts, where the variant that plays that share at random mostly does not; a player
    of its lowest card keeps its habit either way."""
    assert playout_habit((0.1, 0.3, 0.0, 0.6, 0.0, 0.0)) == (0.7, 0.3, 0.0, 0.0, 0.0, 0.0)
    at_random = CheckedHabits(judging=replace(JUDGING, random_in_playouts=True))
    assert _share_in_playouts(CheckedHabits(), seat=2) > 0.9
    assert _share_in_playouts(at_random, seat=2) < 0.7

    def lowest(_table: Table, _seat: int, legal: int) -> int:
        return lowest_card(legal)

    assert (
        _share_in_playouts(CheckedHabits(), 1, lowest) > 0.7
        and _share_in_playouts(at_random, 1, lowest) > 0.7
    )


def test_the_every_hand_variant_judges_a_later_hand_within_itself() -> None:
    """The benchmarks' ``CheckedEveryHand`` sets the previous hand's habits aside: in hand 2 after a
    hand of players of their lowest card it draws the worlds the in-hand check draws (as in a first
    hand), where the game's model plays those opponents by their habits from hand 1."""
    state = _hand_two(3, "NLLL", 3)
    k = read_view(view_for(state, 0))
    assert all(h is not None for h in seat_habits(k)[1][1:])

    def afford(_chains: object) -> tuple[int, int]:
        return 12, 2

    every_hand = list(CheckedEveryHand().draw(k, random.Random(5), afford))
    within = list(CheckedHabits().within_hand(k, random.Random(5), 12, 2))
    assert [w for w, _ in every_hand] == [w for w, _ in within]
    assert [p is None for _, p in every_hand] == [p is None for _, p in within]
    by_habits = list(CheckedHabits().draw(k, random.Random(5), afford))
    assert all(p is not None for _, p in by_habits)
    assert [w for w, _ in by_habits] != [w for w, _ in every_hand]


def test_the_games_hard_plays_a_later_hand_by_the_habits_it_saw() -> None:
    """The game's Hard (small budget) plays hand 2 of a match whose hand 1 a player of its lowest card
    and a random player played, judging them by their habits: every card legal (``apply_legal``)."""
    players: list[Player] = [
        HardPlayer(6, 0, replace(HARD, budget=3000)),
        LowestPlayer(6, 1),
        RandomPlayer(6, 2),
        NormalPlayer(6, 3),
    ]
    state = nobody_exposes(_next_hand(6, players))
    fits, habits = seat_habits(read_view(view_for(state, 0)))
    assert habits[1] is not None and habits[2] is not None and fits[3] == 1.0 and habits[3] is None
    assert HARD.worlds == CheckedHabits()  # later hands: the habits (no opponent fits, so no in-hand check)
    while state["phase"] == "play":
        seat = state["turn"]
        state = apply_legal(
            state, {"type": "play", "seat": seat, "card": players[seat].play(view_for(state, seat))}
        )
    assert state["phase"] in ("hand_over", "match_over")


def test_an_exposure_can_be_played_out_by_the_opponents_habits_as_a_play_is() -> None:
    """With ``expose_judging`` (the game's Hard) an exposure's playouts play each opponent that did not
    play like Normal in the previous hand by its habits there (a player of its lowest card plays it), as
    a play's playouts do; among Normals, or without the setting, Normal plays every seat."""
    view = view_for(_next_hand(4, _table(4, "NLRN")), 0)
    k, exposable = read_view(view), to_mask(view["exposable"])
    assert exposable.bit_count() == 2  # the queen of spades and the ten of clubs
    playouts = previous_hand_playouts(k)
    assert playouts is not None
    _fits, habits = seat_habits(k)
    assert playouts.args == habit_playouts(habits, JUDGING).args  # the habits a play's playouts use
    lowest = choices = 0
    for seed in range(6):
        table = k.table(sample_world(k, random.Random(seed)))
        policy = playouts(normal_play, random.Random(seed))
        while table.cards_left():
            seat = table.turn()
            legal = table.legal(seat)
            card = policy(table, seat, legal)
            if seat == 1 and legal & (legal - 1):
                choices += 1
                lowest += card == lowest_card(legal)
            table.play(card)
    assert lowest > 0.7 * choices
    judged = replace(HARD_MARGIN, budget=6000)  # the game's: exposures played out by the habits
    assert judged.expose_judging == JUDGING
    config = replace(judged, expose_judging=None)
    plain = evaluate_exposes(k, exposable, random.Random(1), config)
    assert evaluate_exposes(k, exposable, random.Random(1), judged).values != plain.values
    normals = read_view(view_for(_next_hand(4, _table(4, "NNNN")), 0))
    assert previous_hand_playouts(normals) is None
    assert (
        evaluate_exposes(normals, exposable, random.Random(1), judged).values
        == evaluate_exposes(normals, exposable, random.Random(1), config).values
    )

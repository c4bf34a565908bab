"""The play model learned from Hard's games (gongzhu/ai/learned.py), its trainer
(bench/train_play_model.py) and the habits' way that uses it (``Judging.learned``)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from gongzhu import view_for
from gongzhu.ai import play_weights
from gongzhu.ai.habits import ANY, JUDGING, LEARNED, Decision, fit_habit, habit_cost, playout_habit
from gongzhu.ai.heuristic import normal_play
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.learned import (
    FEATURES,
    SITUATION_COUNT,
    PlayModel,
    Remembered,
    card_features,
    card_scores,
    play_model,
)
from gongzhu.ai.opponents import seat_habits
from gongzhu.ai.sampling import CHAINS, affordable, sample_world
from gongzhu.ai.sim import FOLLOW, Table, deal_table, random_hands, situation
from gongzhu.cards import DIAMONDS, FULL_MASK, GOAT, HEARTS, INDEX, PIG, SPADES, SUIT_MASKS, to_mask

from .support.bench import bench_module
from .test_habits import _hand_two

train = bench_module("train_play_model")


def _following_table() -> Table:
    """Seat 1 to follow a trick of spades led by seat 0 with the 9, holding the 2, jack and ace."""
    hands = [to_mask(["9S"]), to_mask(["2S", "JS", "AS", "3H"]), to_mask(["4D"]), to_mask(["5D"])]
    table = Table(hands, [0, 0, 0, 0], [0, 0, 0, 0], 0, 0, [], 0)
    table.play(INDEX["9S"])
    return table


def test_a_cards_features_say_what_it_does_to_the_trick() -> None:
    table = _following_table()
    legal = table.legal(1)
    rows = dict(card_features(table, 1, legal, normal_play(table, 1, legal)))
    named = {card: dict(zip(FEATURES, f, strict=True)) for card, f in rows.items()}
    assert set(rows) == {INDEX["2S"], INDEX["JS"], INDEX["AS"]}  # must follow suit
    two, jack, ace = named[INDEX["2S"]], named[INDEX["JS"]], named[INDEX["AS"]]
    assert two["lowest"] == two["lowest of its suit"] == 1.0 and two["wins"] == 0.0
    assert jack["wins"] == ace["wins"] == 1.0 and ace["highest"] == 1.0
    assert ace["spade over the pig"] == 1.0 and jack["spade over the pig"] == 0.0  # the pig is out
    assert [f["normal"] for f in named.values()].count(1.0) == 1
    assert all(0.0 <= x <= 1.0 for f in rows.values() for x in f)


def _plain_features(table: Table, seat: int, legal: int, normal: int, card: int) -> list[float]:
    """:data:`FEATURES` of ``card`` read one by one, as their comments say (the test's own reading)."""
    hand, trick = table.hands[seat], table.trick
    out = FULL_MASK & ~table.gone & ~hand
    suit, rank = divmod(card, 13)
    in_suit = [c for c in range(52) if legal >> c & 1 and c // 13 == suit]
    cards = [c for c in range(52) if legal >> c & 1]
    lowest = min(cards, key=lambda c: (c % 13, c // 13))  # on a tie of rank, the first suit's
    highest = max(cards, key=lambda c: (c % 13, -(c // 13)))
    led = trick[0] // 13 if trick else -1
    top = max((c for c in trick if c // 13 == led), default=-1)
    wins = bool(trick) and suit == led and card > top
    points = {INDEX[PIG], INDEX[GOAT], INDEX["TC"]} | {13 * HEARTS + r for r in range(13)}
    carries = card in points or any(c in points for c in trick)
    above = [c for c in range(13 * suit + rank + 1, 13 * suit + 13) if out >> c & 1]
    below = [c for c in range(13 * suit, card) if out >> c & 1]
    return [
        float(card == normal),
        float(card == lowest),
        float(card == highest),
        float(card == min(in_suit)),
        float(card == max(in_suit)),
        rank / 12,
        (hand & SUIT_MASKS[suit]).bit_count() / 13,
        float(card == INDEX[PIG]),
        float(card == INDEX[GOAT]),
        float(card == INDEX["TC"]),
        float(suit == HEARTS),
        rank / 12 if suit == HEARTS else 0.0,
        float(wins),
        float(wins and carries),
        float(wins and len(trick) == 3),
        len(above) / 12,
        len(below) / 12,
        float(suit == SPADES and card > INDEX[PIG] and bool(out >> INDEX[PIG] & 1)),
        float(suit == DIAMONDS and card > INDEX[GOAT] and bool(out >> INDEX[GOAT] & 1)),
    ]


def test_a_cards_score_is_its_features_as_read_plainly_times_the_weights() -> None:
    """The scorer the chains call sums only the features that are not 0, a suit's shared ones once:
    over whole random hands, Normal's card and a random one taken as "Normal's" (so a named card is
    Normal's too), its scores are the plain reading of every feature times random weights."""
    rng = random.Random(11)
    checked = 0
    for _ in range(25):
        table = deal_table(random_hands(rng))
        while table.hands[table.turn()]:
            seat = table.turn()
            legal = table.legal(seat)
            cards = [c for c in range(52) if legal >> c & 1]
            for normal in (normal_play(table, seat, legal), rng.choice(cards)):
                w = [rng.uniform(-3, 3) for _ in FEATURES]
                rows = dict(card_features(table, seat, legal, normal))
                for card, score in card_scores(w, table, seat, legal, normal):
                    plain = _plain_features(table, seat, legal, normal, card)
                    assert rows[card] == plain, (card, rows[card], plain)
                    assert math.isclose(
                        score, sum(a * b for a, b in zip(w, plain, strict=True)), abs_tol=1e-9
                    )
                    checked += 1
            table.play(rng.choice(cards))
    assert checked > 2000


def test_the_learned_models_work_is_paid_from_the_budget_when_asked() -> None:
    """With ``learned_cost`` the habit chains' replays cost more of the budget, so fewer worlds are
    drawn; without the learned way, or at 1, the chains cost what they always did."""
    state = _hand_two(4, "NLRN", tricks=5)
    k = read_view(view_for(state, 0))
    paid = replace(JUDGING, learned=True, learned_cost=4.0)
    assert JUDGING.paid(CHAINS) == CHAINS and replace(JUDGING, learned=True).paid(CHAINS) == CHAINS
    assert replace(JUDGING, learned_cost=4.0).paid(CHAINS) == CHAINS  # no learned way, nothing to pay
    plain, charged = affordable(k, 40_000, 200, CHAINS), affordable(k, 40_000, 200, paid.paid(CHAINS))
    assert charged[1] == plain[1] and 0 < charged[0] < plain[0]
    replay = len(k.history)
    assert charged[0] == (40_000 - CHAINS.chains * CHAINS.burn_in * 4 * replay) // (
        200 + CHAINS.thin * 4 * replay
    )


def test_the_trainer_learns_a_preference_and_the_model_plays_it() -> None:
    """Plays that always take the lowest card following suit and the highest when leading: the fitted
    model gives each its card far above any card's chance, situation by situation."""
    rng = random.Random(5)
    examples = []
    for _ in range(40):
        table = deal_table(random_hands(rng))
        seat = table.turn()
        legal = table.legal(seat)
        rows = card_features(table, seat, legal, normal_play(table, seat, legal))
        chosen = max(range(len(rows)), key=lambda i: rows[i][1][FEATURES.index("highest")])
        examples.append((0, [f for _, f in rows], chosen))
        table.play(rows[chosen][0])
        follower = table.turn()
        legal = table.legal(follower)
        rows = card_features(table, follower, legal, normal_play(table, follower, legal))
        chosen = max(range(len(rows)), key=lambda i: rows[i][1][FEATURES.index("lowest")])
        examples.append((situation(table, legal), [f for _, f in rows], chosen))
    weights = train.fit(examples, rounds=150, l2=1e-3)
    assert train.log_likelihood(weights, examples) > 0.5 * train.baselines(examples)[0]
    model = PlayModel(tuple(weights))
    table = _following_table()
    assert model.chance(table, 1, table.legal(1), INDEX["2S"], normal_play(table, 1, table.legal(1))) > 0.6


def test_the_shipped_model_is_the_one_trained_and_explains_hards_plays_better_than_any_card() -> None:
    model = play_model()
    assert len(model.weights) == SITUATION_COUNT * len(FEATURES)
    held = play_weights.TRAINED["held_out_log_likelihood"]
    assert held["model"] > held["any"] and held["model"] > held["normal"]
    assert play_weights.FEATURES == FEATURES


def test_a_player_that_plays_the_learned_models_card_is_judged_by_that_way() -> None:
    """Plays the model gives 0.7 and no simple way explains: with ``learned`` the habit is the
    learned way's; without, "any legal card"; the playouts play that share as Normal's card."""
    plays = [Decision(6, False, False, False, FOLLOW, False, 1, 0.7)] * 12
    assert fit_habit(plays)[ANY] > 0.8 and fit_habit(plays)[LEARNED] == 0.0
    learned = fit_habit(plays, replace(JUDGING, learned=True))
    assert learned[LEARNED] > 0.8 and math.isclose(sum(learned), 1.0)
    assert playout_habit(learned)[LEARNED] == 0.0
    assert math.isclose(playout_habit(learned)[0], learned[0] + learned[ANY] + learned[LEARNED])


def test_a_remembered_model_weighs_every_world_as_the_model_itself_does() -> None:
    """Hand 2 after a hand of a Normal, a lowest-card player and a random one: with the learned way,
    the habits of the previous hand give the learned model weight, and every world a chain visits
    costs the same whether the model remembers its chances or works each one out."""
    state = _hand_two(4, "NLRN", tricks=5)
    k = read_view(view_for(state, 0))
    judging = replace(JUDGING, learned=True)
    _fits, habits = seat_habits(k, judging)
    assert habits[2] is not None and max(habits[2][FOLLOW][LEARNED], habits[2][0][LEARNED]) > 0.0
    remembered = Remembered(play_model())
    rng = random.Random(2)
    for _ in range(30):
        world = sample_world(k, rng)
        plain = habit_cost(k, world, habits, model=play_model())
        assert habit_cost(k, world, habits, model=remembered) == plain
        assert plain != habit_cost(k, world, habits)  # the learned way weighs the plays
    assert remembered.seen  # it remembered chances, and gave the same costs
